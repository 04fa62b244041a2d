// Word frequencies of a multilingual text, accents folded.
const { content } = await tools.read_file({ path: "prose.md" });
const words = content
  .normalize("NFD")
  .replace(/\p{M}/gu, "")
  .toLowerCase()
  .split(/[^\p{L}\p{N}]+/u)
  .filter((w) => w.length > 2);
const freq = new Map();
for (const w of words) freq.set(w, (freq.get(w) || 0) + 1);
const top = [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 15);
return { words: words.length, distinct: freq.size, top };
