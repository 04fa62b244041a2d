// Calls the saved program word-stats (save it first, see word-stats.ts) by name: it runs as a
// nested run whose tool calls appear under this call in --trace.
//   go run ./cmd/runcode run --tools examples/tools/tools.json --workspace . examples/saved/use-word-stats.ts
const docs = await programs["word-stats"]({ dir: "docs", top: 2 });
const info = await tools.system_info({});
console.log(`${docs.total} words in docs/ (on ${info.os})`);
export default docs.files.map((f) => `${f.path}: ${f.words}`);
