// Distinct clients and users, and the busiest paths, from an access log.
const { content } = await tools.read_file({ path: "app.log" });
const ips = new Set(), users = new Set(), paths = new Map();
for (const line of content.split("\n")) {
  if (!line) continue;
  const parts = line.split(" ");
  paths.set(parts[4], (paths.get(parts[4]) ?? 0) + 1);
  for (const p of parts) {
    if (p.startsWith("ip=")) ips.add(p.slice(3));
    else if (p.startsWith("user=")) users.add(p.slice(5));
  }
}
const busiest = [...paths].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
return { ips: ips.size, users: users.size, paths: paths.size, busiest };
