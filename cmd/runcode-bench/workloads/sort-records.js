// The records sorted by score (then name), with the top and bottom ten.
const { content } = await tools.read_file({ path: "records.json" });
const records = JSON.parse(content);
records.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name) || a.id - b.id);
const brief = (r) => `${r.id} ${r.name} ${r.score}`;
return { n: records.length, top: records.slice(0, 10).map(brief), bottom: records.slice(-10).map(brief) };
