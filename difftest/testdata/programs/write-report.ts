const { matches } = await tools.grep({ pattern: "TODO", path: "src" });
const lines = ["# TODO report", "", ...matches.slice(0, 20).map((m) => `- ${m.path}:${m.line} ${m.text.trim()}`)];
const report = lines.join("\n") + "\n";
const written = await tools.write_file({ path: "reports/todo-report.md", content: report, createDirs: true });
const back = await tools.read_file({ path: written.path });
return { written, same: back.content === report, lines: back.totalLines };
