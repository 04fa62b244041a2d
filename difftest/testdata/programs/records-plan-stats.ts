const { content } = await tools.read_file({ path: "data/records.json" });
const records = JSON.parse(content) as Array<{ plan: string; tags: string[]; active: boolean; score: number }>;
const plans = new Map<string, { n: number; active: number; scores: number[] }>();
for (const r of records) {
  const p = plans.get(r.plan) ?? { n: 0, active: 0, scores: [] };
  p.n++;
  if (r.active) p.active++;
  p.scores.push(r.score);
  plans.set(r.plan, p);
}
const tagCounts = new Map<string, number>();
records.flatMap((r) => r.tags).forEach((t) => tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1));
const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
return {
  plans: Object.fromEntries([...plans].map(([k, v]) => [k, { customers: v.n, active: v.active, medianScore: median(v.scores) }])),
  tags: Object.fromEntries([...tagCounts].sort((a, b) => b[1] - a[1])),
  untagged: records.filter((r) => r.tags.length === 0).length,
};
