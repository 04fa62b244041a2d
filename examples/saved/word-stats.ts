// A saved program: word statistics of the Markdown files under a directory.
//   go run ./cmd/runcode save --tools examples/tools/tools.json --workspace . word-stats examples/saved/word-stats.ts \
//       --description "Word counts of the Markdown files under a directory"
// Its exported Input type is what callers pass; the program reads it as the global `input`.
export type Input = { dir: string; top?: number };

const { matches } = await tools.glob({ pattern: `${input.dir}/*.md` });
const files = await Promise.all(
  matches.map(async (path) => {
    const { content } = await tools.read_file({ path });
    const { words } = await tools.word_count({ text: content });
    return { path, words };
  }),
);
files.sort((a, b) => b.words - a.words);
export default { files: files.slice(0, input.top ?? 3), total: files.reduce((n, f) => n + f.words, 0) };
