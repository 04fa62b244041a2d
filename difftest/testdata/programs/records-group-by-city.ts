type Rec = { id: number; name: string; city: string; age: number; active: boolean; score: number; spend: number };
const { content } = await tools.read_file({ path: "data/records.json" });
const records: Rec[] = JSON.parse(content);
const groups = records.reduce<Record<string, Rec[]>>((acc, r) => {
  (acc[r.city] ||= []).push(r);
  return acc;
}, {});
const summary = Object.entries(groups)
  .map(([city, rs]) => ({
    city,
    count: rs.length,
    avgAge: +(rs.reduce((s, r) => s + r.age, 0) / rs.length).toFixed(1),
    activeShare: Math.round((rs.filter((r) => r.active).length / rs.length) * 100) / 100,
    topScore: Math.max(...rs.map((r) => r.score)),
  }))
  .sort((a, b) => a.city.localeCompare(b.city));
return summary;
