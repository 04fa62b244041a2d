// Summarise the repository: files per extension and total bytes per top-level directory.
const { matches } = await tools.glob({ pattern: "**/*" });
const files = matches.filter((p) => p.includes("."));
const stats = await Promise.all(files.map((path) => tools.stat({ path })));
const byExt: Record<string, { files: number; bytes: number }> = {};
const byDir = new Map<string, number>();
for (const s of stats) {
  if (s.type !== "file") continue;
  const ext = s.path.slice(s.path.lastIndexOf(".")) || "(none)";
  byExt[ext] ??= { files: 0, bytes: 0 };
  byExt[ext].files++;
  byExt[ext].bytes += s.size;
  const top = s.path.includes("/") ? s.path.split("/")[0] : ".";
  byDir.set(top, (byDir.get(top) ?? 0) + s.size);
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
for (const [dir, bytes] of [...byDir].sort()) console.log(`${dir.padEnd(8)} ${kb(bytes).padStart(12)}`);
return Object.fromEntries(Object.entries(byExt).sort(([a], [b]) => a < b ? -1 : 1));
