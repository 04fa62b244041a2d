// Count TODO/FIXME/XXX markers per file and per kind.
const { matches, truncated } = await tools.grep({ pattern: "\\b(TODO|FIXME|XXX)\\b", path: "src" });
const byFile = new Map<string, number>();
const byKind: Record<string, number> = {};
for (const m of matches) {
  byFile.set(m.path, (byFile.get(m.path) ?? 0) + 1);
  const kind = m.text.match(/\b(TODO|FIXME|XXX)\b/)![1];
  byKind[kind] = (byKind[kind] ?? 0) + 1;
}
const top = [...byFile.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 8);
console.log(`Found ${matches.length} markers in ${byFile.size} files${truncated ? " (truncated)" : ""}`);
for (const [path, n] of top) console.log(`${String(n).padStart(3)}  ${path}`);
return { total: matches.length, byKind, top: top.map(([path, count]) => ({ path, count })) };
