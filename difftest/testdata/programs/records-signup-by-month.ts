const { content } = await tools.read_file({ path: "data/records.json" });
const records: { signup: string }[] = JSON.parse(content);
const byMonth = new Map<string, number>();
for (const r of records) {
  const d = new Date(r.signup + "T00:00:00Z");
  if (d.getUTCFullYear() !== 2022) continue;
  const key = d.toLocaleString("en-US", { month: "long", timeZone: "UTC" });
  byMonth.set(key, (byMonth.get(key) ?? 0) + 1);
}
return [...byMonth].map(([month, n]) => `${month}: ${n}`).join("\n");
