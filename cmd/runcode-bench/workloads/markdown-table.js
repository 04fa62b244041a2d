// A Markdown table of the 1,000 best-scored records, columns padded to their widths.
const { content } = await tools.read_file({ path: "records.json" });
const records = JSON.parse(content);
const top = [...records].sort((a, b) => b.score - a.score).slice(0, 1000);
const header = ["#", "Name", "Country", "Score", "Tags"];
const rows = top.map((r, i) => [String(i + 1), r.name, r.country, r.score.toFixed(2), r.tags.join(", ")]);
const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
const fmt = (cells) => "| " + cells.map((s, c) => s.padEnd(widths[c])).join(" | ") + " |";
const table = [fmt(header), "| " + widths.map((w) => "-".repeat(w)).join(" | ") + " |", ...rows.map(fmt)].join("\n");
return { chars: table.length, head: table.split("\n").slice(0, 4) };
