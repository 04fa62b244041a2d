// Package mcpserve is the server half of runcode's Model Context Protocol support: a registry's
// run_code offered to any MCP client, over stdio or streamable HTTP, on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk). The client half (an MCP server's tools as registry
// tools) is package mcptools.
//
// # Serving run_code safely
//
// NewServer returns an SDK server; three pieces make it safe to expose:
//
//   - LineTransport serves it over newline-delimited JSON (stdio) so that no input but the end
//     of the stream ends the session: a line that is not JSON gets a -32700 error response, one
//     that is not a JSON-RPC message (null, an array or batch, a bad id or version, …) a -32600,
//     and a line over MaxMessageBytes (default DefaultMaxMessageBytes, 64 MiB) a -32600 with
//     the request's id wherever it is in the line; the rest of it is discarded unbuffered.
//   - NewHTTPHandler serves it over streamable HTTP with cross-origin protection, an optional
//     bearer token, the SDK's idle-session timeout, a session cap (503 over it) and a request
//     body cap (413 over it).
//   - A RunGate (ServerOptions.Gate) lets a host drain: Drain refuses new runs, waits for those
//     in flight and aborts the rest when its context ends; the transports' WaitAnswered then
//     waits for the answers to be written before the host closes the sessions. Draining
//     reports it for a readiness probe.
//
// [Serve] does all of that for a host: it serves over stdio or HTTP until its context ends and
// then drains, giving up on runs that do not stop after their abort ([ErrRunsAbandoned]).
//
// # Results for programs and for operators
//
// A run_code result can carry, beside the model-facing text, the canonical outcome as
// structuredContent — {"logs": [...], "result": value} or {"logs": [...], "error": {"kind",
// "message"}}, with "notes": [...] when a value lost data on its way to JSON or the output budget cut it — so programmatic clients need not parse text. ServerOptions.Structured says
// when (StructuredMode: by default only with replies of at most AutoStructuredBytes, since it
// repeats the output; StructuredAlways sends it every time and declares it as the tool's
// outputSchema, OutputSchema), and ServerOptions.MaxReplyBytes bounds every reply below a
// client's message limit, cutting the text with a marker when it must. Calls that ran no program have kinds of their own
// (KindInvalidArguments, KindShuttingDown, KindInternal). ServerOptions.OnRun reports every
// call (id, description, kind, duration, sub-call count) for a host's logs and metrics;
// HTTPHandler.RequireToken puts a host's other endpoints behind the same bearer token.
//
// # Approvals
//
// With [Approver] installed as the registry's Approver (and ServerOptions.Scope set: the registry
// routes approvals through an agent), a program's call that needs approval is put to the person
// behind the client: by elicitation/create while the run waits, for clients before protocol
// 2026-07-28 that declared elicitation (ServerOptions.ApprovalTimeout bounds the wait); in-band
// for later ones (SEP-2322): run_code answers input_required with the question and a signed
// request state (ServerOptions.RequestStateKey), and the client's retry replays the calls
// already made from it and runs the approved one, so it works across stateless replicas that
// share the key. A client that can do neither is denied at once, saying how to approve instead.
package mcpserve
