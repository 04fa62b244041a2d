const { content } = await tools.read_file({ path: "logs/app.log" });
const re = /path=(\S+) status=(\d+) duration=(\d+)ms/;
const byPath = new Map<string, number[]>();
for (const line of content.split("\n")) {
  const m = re.exec(line);
  if (!m) continue;
  const arr = byPath.get(m[1]) ?? [];
  arr.push(Number(m[3]));
  byPath.set(m[1], arr);
}
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const table = [...byPath].map(([path, ds]) => ({
  path,
  requests: ds.length,
  avgMs: Math.round(ds.reduce((a, b) => a + b, 0) / ds.length),
  p95Ms: pct(ds, 95),
  maxMs: Math.max(...ds),
})).sort((a, b) => b.p95Ms - a.p95Ms);
return table;
