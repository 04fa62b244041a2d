// How many lines per level, as percentages.
const { content } = await tools.read_file({ path: "logs/app.log" });
const lines = content.split("\n").filter(Boolean);
const counts: Record<string, number> = {};
for (const line of lines) {
  const level = line.split(/\s+/)[1];
  counts[level] = (counts[level] || 0) + 1;
}
const rows = Object.entries(counts).sort((a, b) => b[1] - a[1]);
for (const [level, n] of rows) {
  console.log(`${level.padEnd(6)}${String(n).padStart(6)}  ${(100 * n / lines.length).toFixed(1)}%`);
}
return { lines: lines.length, counts };
