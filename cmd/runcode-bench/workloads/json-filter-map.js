// Active adults with a high score: a filter/map chain over a parsed JSON export.
const { content } = await tools.read_file({ path: "records.json" });
const records = JSON.parse(content);
const picked = records
  .filter((r) => r.active && r.age >= 30 && r.score > 50)
  .map((r) => ({ id: r.id, name: r.name, score: Math.round(r.score * 10) / 10, tags: r.tags.length }));
const total = picked.reduce((s, r) => s + r.score, 0);
return { count: picked.length, meanScore: Number((total / picked.length).toFixed(2)), first: picked.slice(0, 3) };
