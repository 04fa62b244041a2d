// Build URL slugs for every Markdown heading.
const slugify = (s: string) =>
  s.normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/\s+/g, "-");
const { matches } = await tools.grep({ pattern: "^#{1,3} ", glob: "**/*.md" });
const seen = new Set<string>();
const slugs: string[] = [];
for (const m of matches) {
  const s = slugify(m.text.replace(/^#+\s*/, ""));
  if (!seen.has(s)) { seen.add(s); slugs.push(s); }
}
return slugs.sort();
