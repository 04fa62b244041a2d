// A tokenizer helper with sticky regexps, called once per log line.
function tokenize(line: string) {
  const ws = /\s+/y;
  const kv = /(\w+)=("(?:[^"\\]|\\.)*"|\S+)/y;
  const word = /\S+/y;
  const out: Record<string, string> = {};
  let i = 0, n = 0;
  while (i < line.length) {
    ws.lastIndex = i;
    if (ws.test(line)) { i = ws.lastIndex; continue; }
    kv.lastIndex = i;
    const m = kv.exec(line);
    if (m) { out[m[1]] = m[2].replace(/^"|"$/g, ""); i = kv.lastIndex; continue; }
    word.lastIndex = i;
    const w = word.exec(line)!;
    out[`_${n++}`] = w[0];
    i = word.lastIndex;
  }
  return out;
}
const { content } = await tools.read_file({ path: "logs/app.log", startLine: 1, endLine: 2000 });
const users = new Map<string, number>();
let slow = 0;
for (const line of content.split("\n")) {
  if (!line) continue;
  const t = tokenize(line);
  users.set(t.user, (users.get(t.user) ?? 0) + 1);
  if (parseInt(t.duration) > 1000) slow++;
}
return { slow, topUsers: [...users].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5) };
