// Combine manifest tools (a python3 script and a shell command) with the workspace tools.
//   go run ./cmd/runcode run --tools examples/tools/tools.json --workspace . examples/manifest-demo.ts
interface Counts {
  lines: number;
  words: number;
  chars: number;
  top: string[];
}

const docs = (await tools.glob({ pattern: "*.md" })).matches;
const counts: Array<[string, Counts]> = await Promise.all(
  docs.map(async (path): Promise<[string, Counts]> => {
    const { content } = await tools.read_file({ path });
    return [path, await tools.word_count({ text: content })];
  }),
);

const info = await tools.system_info({});
console.log(`on ${info.os} with ${info.cpus} CPUs`);
for (const [path, c] of counts) {
  console.log(`${path}: ${c.lines} lines, ${c.words} words; top words: ${c.top.join(", ")}`);
}
return { files: counts.length, words: counts.reduce((n, [, c]) => n + c.words, 0) };
