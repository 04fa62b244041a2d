const { matches } = await tools.glob({ pattern: "docs/*.md" });
const counts = new Map<string, number>();
for (const path of matches) {
  const { content } = await tools.read_file({ path });
  for (const w of content.toLowerCase().match(/\p{L}+/gu) ?? []) {
    if (w.length < 4) continue;
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
}
const top = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 12);
return top.map(([w, n]) => `${w}: ${n}`).join(", ");
