// Word statistics of the repository's Markdown files, written to show a waterfall: one
// sequential call, then a read and a count per file in parallel (Promise.all, up to
// --max-parallel at once), then sequential follow-ups, one of which fails on purpose.
//   go run ./cmd/runcode run --tools examples/tools/tools.json --workspace . --max-parallel 4 --trace wordstats.jsonl examples/trace/wordstats.ts
//   go run ./cmd/runcode trace view wordstats.jsonl            # writes wordstats.html
//   go run ./cmd/runcode run --replay wordstats.jsonl examples/trace/wordstats.ts
const docs = (await tools.glob({ pattern: "**/*.md" })).matches;

const counted = await Promise.all(
  docs.map(async (path) => {
    const { content } = await tools.read_file({ path });
    const { words, lines } = await tools.word_count({ text: content });
    return { path, words, lines };
  }),
);

const largest = counted.reduce((a, b) => (b.words > a.words ? b : a));
const opening = await tools.read_file({ path: largest.path, startLine: 1, endLine: 1 });
try {
  await tools.read_file({ path: "NO-SUCH-FILE.md" });
} catch (e) {
  console.log("expected failure:", (e as Error).message);
}
for (const c of counted) console.log(`${c.path}: ${c.words} words, ${c.lines} lines`);
return { files: counted.length, largest: largest.path, opening: opening.content.trim() };
