// Parse a CSV with quoted fields and sum revenue per category.
function parseCSV(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(field); field = ""; }
    else if (c === "\n") { row.push(field); rows.push(row); row = []; field = ""; }
    else field += c;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  return rows;
}
const { content } = await tools.read_file({ path: "data/sales.csv" });
const [header, ...rows] = parseCSV(content);
const idx = Object.fromEntries(header.map((h, i) => [h, i]));
const revenue: Record<string, number> = {};
for (const r of rows) {
  const amount = Number(r[idx.quantity]) * Number(r[idx.unit_price]) * (1 - Number(r[idx.discount]));
  revenue[r[idx.category]] = (revenue[r[idx.category]] ?? 0) + amount;
}
const total = Object.values(revenue).reduce((a, b) => a + b, 0);
return Object.entries(revenue).sort((a, b) => b[1] - a[1]).map(([category, sum]) => ({
  category, revenue: sum.toFixed(2), share: `${((sum / total) * 100).toFixed(1)}%`,
}));
