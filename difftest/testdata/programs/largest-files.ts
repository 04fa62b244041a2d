const { matches } = await tools.glob({ pattern: "**/*.go" });
const ts = await tools.glob({ pattern: "src/**/*.ts" });
const all = [...matches, ...ts.matches];
const sized = await Promise.all(all.map(async (path) => {
  const [st, file] = await Promise.all([tools.stat({ path }), tools.read_file({ path })]);
  const pkg = file.content.match(/^package (\w+)/m)?.[1] ?? null;
  return { path, bytes: st.size, lines: file.totalLines, pkg };
}));
sized.sort((a, b) => b.bytes - a.bytes || a.path.localeCompare(b.path));
const top = sized.slice(0, 5);
return top.map((f, i) => `${i + 1}. ${f.path} — ${f.bytes} bytes, ${f.lines} lines${f.pkg ? ` (package ${f.pkg})` : ""}`).join("\n");
