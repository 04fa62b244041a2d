const { content } = await tools.read_file({ path: "data/records.json" });
const records: { name: string; spend: number; plan: string; city: string }[] = JSON.parse(content);
const top = [...records].sort((a, b) => b.spend - a.spend || a.name.localeCompare(b.name)).slice(0, 10);
const fmt = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const lines = top.map((r, i) => `${String(i + 1).padStart(2)}. ${r.name} (${r.city}, ${r.plan}) — ${fmt.format(r.spend)}`);
const total = records.reduce((s, r) => s + r.spend, 0);
lines.push(`Total spend: ${fmt.format(total)} across ${records.length.toLocaleString()} customers`);
return lines.join("\n");
