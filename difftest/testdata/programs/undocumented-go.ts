// Exported Go functions without a doc comment, per package.
const { matches } = await tools.glob({ pattern: "src/**/*.go" });
const missing: Record<string, string[]> = {};
await Promise.all(matches.map(async (path) => {
  const { content } = await tools.read_file({ path });
  const lines = content.split("\n");
  lines.forEach((line, i) => {
    const m = line.match(/^func ([A-Z]\w*)\(/);
    if (m && !lines[i - 1]?.startsWith("//")) (missing[path.split("/")[1]] ??= []).push(m[1]);
  });
}));
const out = Object.keys(missing).sort().map((pkg) => `${pkg}: ${[...new Set(missing[pkg])].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).join(", ")}`);
return out.join("\n");
