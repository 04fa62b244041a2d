// Average score and count per country from a CSV export, highest average first.
const { content } = await tools.read_file({ path: "records.csv" });
const lines = content.split("\n").filter((l) => l.trim() !== "");
const header = lines[0].split(",");
const col = Object.fromEntries(header.map((h, i) => [h, i]));
const byCountry = {};
for (const line of lines.slice(1)) {
  const cells = line.split(",");
  const country = cells[col.country];
  const score = parseFloat(cells[col.score]);
  const g = (byCountry[country] ??= { country, n: 0, total: 0 });
  g.n++;
  g.total += score;
}
return Object.values(byCountry)
  .map((g) => ({ country: g.country, n: g.n, avg: Number((g.total / g.n).toFixed(3)) }))
  .sort((a, b) => b.avg - a.avg || a.country.localeCompare(b.country));
