// Collect open and done checklist items from the docs.
const { matches } = await tools.grep({ pattern: "^- \\[[ x]\\] ", path: "docs" });
const open: string[] = [], done: string[] = [];
for (const m of matches) (m.text.startsWith("- [x]") ? done : open).push(m.text.slice(6));
const uniq = (xs: string[]) => [...new Set(xs)].sort((a, b) => a.localeCompare(b, "en"));
return `Open (${open.length}): ${uniq(open).join(", ")}\nDone (${done.length}): ${uniq(done).join(", ")}`;
