const { content } = await tools.read_file({ path: "data/records.json" });
const records: { id: number; name: string; plan: string; age: number; score: number }[] = JSON.parse(content);
const order = ["enterprise", "team", "pro", "free"];
const sorted = records
  .filter((r) => r.score > 95)
  .sort((a, b) => order.indexOf(a.plan) - order.indexOf(b.plan) || b.score - a.score || a.id - b.id);
return sorted.slice(0, 15).map((r) => `${r.plan.padEnd(10)} ${r.score.toFixed(2).padStart(6)} #${r.id} ${r.name}`).join("\n");
