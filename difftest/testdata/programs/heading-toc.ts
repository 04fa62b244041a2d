const { content } = await tools.read_file({ path: "docs/guide-03.md" });
const toc: string[] = [];
for (const line of content.split("\n")) {
  const m = /^(#{1,3})\s+(.*)$/.exec(line);
  if (!m) continue;
  const depth = m[1].length;
  const anchor = m[2].toLowerCase().replace(/[^\p{Letter}\p{Number} -]/gu, "").replace(/ /g, "-");
  toc.push(`${"  ".repeat(depth - 1)}- [${m[2]}](#${anchor})`);
}
return toc.join("\n");
