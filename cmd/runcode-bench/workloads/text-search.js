// Lines mentioning any of a few terms, with their line numbers, case-insensitively.
const { content } = await tools.read_file({ path: "prose.md" });
const terms = ["café", "straße", "niño", "timeout", "東京"];
const hits = {};
const examples = [];
content.split("\n").forEach((line, i) => {
  const lower = line.toLowerCase();
  for (const t of terms) {
    if (lower.includes(t)) {
      hits[t] = (hits[t] || 0) + 1;
      if (examples.length < 5) examples.push(`${i + 1}: ${line.slice(0, 60)}`);
    }
  }
});
return { hits, examples };
