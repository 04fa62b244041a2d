// Records per country and tag, the five largest groups per country.
const { content } = await tools.read_file({ path: "records.json" });
const records = JSON.parse(content);
const groups = {};
for (const r of records) {
  for (const tag of r.tags) {
    const key = `${r.country}/${tag}`;
    groups[key] = (groups[key] || 0) + 1;
  }
}
const perCountry = {};
for (const [key, n] of Object.entries(groups)) {
  const [country, tag] = key.split("/");
  (perCountry[country] ||= []).push({ tag, n });
}
for (const c of Object.keys(perCountry)) {
  perCountry[c] = perCountry[c].sort((a, b) => b.n - a.n || (a.tag < b.tag ? -1 : 1)).slice(0, 5);
}
return { groups: Object.keys(groups).length, perCountry };
