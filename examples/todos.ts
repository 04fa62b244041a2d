// Count TODO, FIXME and XXX markers across the workspace, grouped by file.
//   go run ./cmd/runcode run examples/todos.ts
interface Hit {
  path: string;
  line: number;
  text: string;
}

const { matches, truncated } = await tools.grep({ pattern: "\\b(TODO|FIXME|XXX)\\b" });

const byFile = new Map<string, Hit[]>();
for (const hit of matches as Hit[]) {
  const list = byFile.get(hit.path) ?? [];
  list.push(hit);
  byFile.set(hit.path, list);
}

const files = [...byFile.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
for (const [path, hits] of files.slice(0, 10)) {
  console.log(`${hits.length.toString().padStart(4)}  ${path}`);
  for (const h of hits.slice(0, 3)) console.log(`        ${h.line}: ${h.text.trim().slice(0, 100)}`);
}

return {
  markers: matches.length,
  files: byFile.size,
  truncated,
};
