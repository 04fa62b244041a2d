// Package mcptools is the client half of runcode's Model Context Protocol support, on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk): [Connect] makes an MCP server's
// tools registry tools, so a Code Mode program calls them like any other tool, through the
// registry's pipeline. It knows nothing of JavaScript: it links neither goja nor esbuild. The
// server half (run_code offered to MCP clients) is package mcpserve.
//
// Importing an MCP server's tools into a registry:
//
//	srv, err := mcptools.Connect(ctx, mcptools.Source{Command: []string{"npx", "-y", "@modelcontextprotocol/server-memory"}})
//	defer srv.Close()
//	_, err = reg.Register(srv.Tools()...) // the server's tools, called like any registry tool
//
// [Connect] takes a [Source] (a command or a URL) and returns a [Server] whose [Server.Tools]
// go into a registry; [NewServer] serves a registry's run_code to MCP clients.
//
// # Importing a server
//
// Connect starts a command (stdio) or dials a URL (streamable HTTP), initializes the session
// and lists the tools. Server.Tools maps each MCP tool to a registry.Tool:
//
//   - Name is Source.Prefix + the MCP name; Description is the MCP description; Parameters is
//     the tool's inputSchema, with the server's key order (stdio; over HTTP the keys come
//     sorted, as the SDK decodes them into maps);
//   - what a call gives the program is decided by the tool's declaration alone, never by what
//     the result looks like: a tool with an outputSchema declares it as Output.Schema and gives
//     its structuredContent (a result without structuredContent fails the call with
//     INVALID_TOOL_OUTPUT, quoting the text the server sent instead); a tool without one
//     declares {"type":"string"} (the SDK says string) and gives the text of its content
//     blocks joined by "\n" as one string, even when that text is JSON ("" for no content);
//   - isError: true is a tool failure whose message is the server's text (a program sees a
//     ToolCallError with it), with or without an outputSchema;
//   - images are never part of the value: after the call, the model-facing content is the
//     MCP content blocks (images as Content{Type: "image"}), so Code Mode forwards them to the
//     model after the run. Audio blocks, resource links and embedded resources have a text
//     form ("[resource link: name <uri>]", "[resource uri]\n<its text>", "[audio content:
//     audio/wav, N bytes of base64]"), which is part of a text result's string;
//   - readOnlyHint: true makes calls concurrency-safe (and so does Source.ConcurrencySafe);
//     destructiveHint: true without readOnlyHint: true makes the tool need approval
//     (registry.Tool.RequiresApproval; see Source.Approval for the other ways and for none);
//     Source.CallTimeout bounds every call; Source.Include/Exclude filter the tools.
//
// # Namespaces, headers and secrets
//
// Source.Namespace puts a server's tools in a namespace (registry.Tool.Namespace): with
// "memory", the MCP tool read_graph is the registry tool "memory.read_graph" that a program
// calls as tools.memory.read_graph, so servers whose tool names clash combine without renaming.
// Source.Prefix, by contrast, only renames: the tool stays at the top level
// (tools["memory.read_graph"]).
//
// Source.Headers are sent with every HTTP request to the source URL's origin; Source.Env and
// Source.Dir set up a command. Header and env values are secrets: each that could be a
// credential (8 bytes or more, and 16 or more unless it mixes letters, digits and symbols; also
// the credential after an authorization scheme), as it is and as JSON encoders escape it, is
// replaced by Redacted in every error, stderr tail, tool result and tool definition of that
// server, so it never reaches a program, the model's prompt, a trace or a log through runcode.
// An HTTP source follows redirects only within its origin (scheme, host, port); one elsewhere
// fails with CrossOriginRedirectError, and nothing is sent there.
//
// # Bounded messages
//
// Source.MaxMessageBytes (default DefaultMaxMessageBytes, 64 MiB) caps one message from the
// server: a line over stdio, a JSON response body or one server-sent event over HTTP. A longer
// answer is read and dropped without being held beyond the cap, and fails only its own call with
// MessageTooLargeError; the connection goes on. Over stdio, the response is found by its id
// wherever the id is in the line; over HTTP, by the request the response answers, so that an
// answer that never ends fails at the cap. A notification over the cap, and stdout lines that
// are not JSON-RPC messages, are dropped with a warning; a server's own request over the cap
// gets a JSON-RPC error response.
//
// # Configuration files
//
// ParseConfig and LoadConfig read the JSON (or VS Code's JSONC) in which MCP clients keep
// their servers ({"mcpServers": {…}} or {"servers": {…}}) into a Config: Sources, one per server
// not marked "disabled", namespaced by the server's name, with ${VAR} expanded from the
// environment (each value a secret of its server), and notes for the user; nothing below this
// package knows the file exists.
//
// Cancelling a call's context cancels the MCP request (the SDK sends
// notifications/cancelled). A server that crashes fails its calls with an error naming it
// (`MCP server "memory" (mcp-server-memory): connection closed`); nothing waits for it.
//
// # Tool list changes
//
// With Source.OnToolsChanged set, a notifications/tools/list_changed from the server makes the
// Server list its tools again (Refresh) and pass the new set to the callback. A long-lived host
// keeps the registry current with a [Sync]: its Update is the callback, its Register the first
// registration, and a change that arrives before that registration is not lost.
//
//	sync := mcptools.NewSync(reg)
//	src.OnToolsChanged = sync.Update
//	srv, err := mcptools.Connect(ctx, src)
//	…
//	err = sync.Register("MCP server "+srv.Name(), srv.Tools())
//
// A one-shot host such as runcode run can ignore changes.
package mcptools
