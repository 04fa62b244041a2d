// Summarize a directory through the MCP filesystem server: list it, read the text files, and
// find the Markdown files below it.
//   npm install -g @modelcontextprotocol/server-filesystem
//   go run ./cmd/runcode run --mcp 'mcp-server-filesystem .' examples/mcp/fs-summary.ts
// Each tool returns {content: string}: its text output.
const [root] = (await tools.list_allowed_directories({})).content.split("\n").slice(1);

const { content: listing } = await tools.list_directory({ path: root });
const files = listing
  .split("\n")
  .filter((line) => line.startsWith("[FILE] "))
  .map((line) => line.slice("[FILE] ".length));
console.log(`${files.length} files in ${root}`);

const sizes: Record<string, number> = {};
for (const name of files.filter((f) => f.endsWith(".txt") || f.endsWith(".md")).sort()) {
  const { content } = await tools.read_text_file({ path: `${root}/${name}` });
  sizes[name] = content.split("\n").length;
}

const { content: found } = await tools.search_files({ path: root, pattern: "**/*.md" });
const markdown = found
  .split("\n")
  .filter((p) => p !== "" && p !== "No matches found")
  .map((p) => p.slice(root.length + 1))
  .sort();
return { lines: sizes, markdown };
