// Group error and warning messages by service with named groups and matchAll.
const { content } = await tools.read_file({ path: "logs/app.log", startLine: 1, endLine: 8000 });
const re = /^(?<ts>\S+) (?<level>ERROR|WARN)\s+\[(?<svc>\w+)\].*?status=(?<status>\d+).*?msg="(?<msg>[^"]*)"$/gm;
const groups: Record<string, Record<string, number>> = {};
let n = 0;
for (const m of content.matchAll(re)) {
  const { svc, msg, status } = m.groups!;
  groups[svc] ??= {};
  const key = `${status} ${msg}`;
  groups[svc][key] = (groups[svc][key] ?? 0) + 1;
  n++;
}
console.log(`${n} error/warn lines in the first 8000`);
const out: string[] = [];
for (const svc of Object.keys(groups).sort()) {
  const top = Object.entries(groups[svc]).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);
  out.push(`${svc}: ${top.map(([k, v]) => `${k} ×${v}`).join("; ")}`);
}
return out.join("\n");
