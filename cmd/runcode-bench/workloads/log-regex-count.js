// Requests per level and status, and latency percentiles, from an access log.
const { content } = await tools.read_file({ path: "app.log" });
const re = /^(\S+) (\w+) \[([\w-]+)\] (GET|POST|PUT|DELETE) (\S+) (\d{3}) (\d+)ms/;
const levels = {}, statuses = {}, latencies = [];
let unparsed = 0;
for (const line of content.split("\n")) {
  if (!line) continue;
  const m = line.match(re);
  if (!m) { unparsed++; continue; }
  levels[m[2]] = (levels[m[2]] || 0) + 1;
  statuses[m[6]] = (statuses[m[6]] || 0) + 1;
  latencies.push(Number(m[7]));
}
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
return { levels, statuses, unparsed, p50: pct(50), p95: pct(95), p99: pct(99) };
