// Summarize the five largest Go files: size, line count, package, and how many functions.
//   go run ./cmd/runcode run examples/largest-go-files.ts
type Summary = { path: string; bytes: number; lines: number; pkg: string; funcs: number };

const { matches } = await tools.glob({ pattern: "**/*.go" });

// Read-only calls may overlap under Promise.all.
const stats = await Promise.all(matches.map((path) => tools.stat({ path })));
const largest = stats.sort((a, b) => b.size - a.size).slice(0, 5);

const summaries: Summary[] = [];
for (const st of largest) {
  const file = await tools.read_file({ path: st.path });
  const pkg = /^package\s+(\w+)/m.exec(file.content)?.[1] ?? "?";
  const funcs = file.content.split("\n").filter((l) => l.startsWith("func ")).length;
  summaries.push({ path: st.path, bytes: st.size, lines: file.totalLines, pkg, funcs });
}

for (const s of summaries) {
  console.log(`${s.path}: ${s.bytes} bytes, ${s.lines} lines, package ${s.pkg}, ${s.funcs} funcs`);
}
return `${matches.length} Go files in the workspace`;
