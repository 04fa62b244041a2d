const { content } = await tools.read_file({ path: "data/records.json" });
const records: { age: number; active: boolean }[] = JSON.parse(content);
const pct = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
const buckets = [[18, 29], [30, 44], [45, 59], [60, 77]] as const;
for (const [lo, hi] of buckets) {
  const group = records.filter((r) => r.age >= lo && r.age <= hi);
  const rate = group.filter((r) => r.active).length / group.length;
  console.log(`${lo}–${hi}: ${group.length} customers, ${pct.format(rate)} active`);
}
return pct.format(records.filter((r) => r.active).length / records.length);
