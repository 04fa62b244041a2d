const { content } = await tools.read_file({ path: "logs/app.log" });
const hours = new Array(24).fill(0);
let first: Date | null = null, last: Date | null = null;
for (const line of content.split("\n")) {
  if (!line.includes(" ERROR ")) continue;
  const d = new Date(line.slice(0, 20));
  first ??= d;
  last = d;
  hours[d.getUTCHours()]++;
}
const bar = (n: number) => "#".repeat(Math.round(n / 5));
hours.forEach((n, h) => { if (n) console.log(`${String(h).padStart(2, "0")}:00 ${bar(n)} ${n}`); });
return { first: first?.toISOString(), last: last?.toISOString(), spanHours: ((last!.getTime() - first!.getTime()) / 36e5).toFixed(2) };
