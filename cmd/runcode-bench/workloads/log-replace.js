// Redact IP addresses and user names from a log before showing it.
const { content } = await tools.read_file({ path: "app.log" });
let ips = 0;
const redacted = content
  .replace(/ip=\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}/g, () => { ips++; return "ip=<ip>"; })
  .replace(/user=\S+/g, "user=<user>");
return { ips, chars: redacted.length, sample: redacted.split("\n").slice(0, 2) };
