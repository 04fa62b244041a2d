const settings = JSON.parse((await tools.read_file({ path: "config/settings.json" })).content);
const { content } = await tools.read_file({ path: "data/sales.csv" });
const fmt = new Intl.NumberFormat(settings.locale, { style: "currency", currency: settings.currency });
const monthly = new Map<string, number>();
for (const line of content.trim().split("\n").slice(1)) {
  const f = line.split(",");
  const month = f[1].slice(0, 7);
  const n = f.length;
  monthly.set(month, (monthly.get(month) ?? 0) + Number(f[n - 3]) * Number(f[n - 2]));
}
return [...monthly].sort().map(([m, v]) => `${m}: ${fmt.format(v)}`).join("\n");
