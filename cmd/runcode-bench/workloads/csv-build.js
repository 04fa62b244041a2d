// Turn a JSON export into a CSV file (quoting what needs it) and report its size.
const { content } = await tools.read_file({ path: "records.json" });
const records = JSON.parse(content);
const cols = ["id", "name", "email", "country", "age", "score", "tags", "active"];
const esc = (v) => {
  const s = Array.isArray(v) ? v.join(";") : String(v);
  return /[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
};
const rows = [cols.join(",")];
for (const r of records) rows.push(cols.map((c) => esc(r[c])).join(","));
const csv = rows.join("\n");
return { rows: rows.length - 1, chars: csv.length, quoted: rows.filter((r) => r.includes('"')).length, last: rows[rows.length - 1] };
