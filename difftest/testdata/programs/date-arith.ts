const { content } = await tools.read_file({ path: "data/records.json" });
const recs: { signup: string; name: string }[] = JSON.parse(content);
const ref = new Date("2024-06-30T00:00:00Z");
const days = recs.map((r) => Math.floor((ref.getTime() - Date.parse(r.signup)) / 86_400_000));
const oldest = recs[days.indexOf(Math.max(...days))];
const weekdays = new Array(7).fill(0);
for (const r of recs) weekdays[new Date(r.signup).getUTCDay()]++;
const names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
return {
  oldest: `${oldest.name} (${oldest.signup})`,
  avgDays: Math.round(days.reduce((a, b) => a + b, 0) / days.length),
  byWeekday: Object.fromEntries(names.map((n, i) => [n, weekdays[i]])),
  lastDayOfFeb2024: new Date(Date.UTC(2024, 2, 0)).getUTCDate(),
  parsed: [Date.parse("2024-03-05"), Date.parse("March 5, 2024 UTC"), new Date(2024, 0, 31).getMonth()],
};
