// Drives the TypeScript language service over a declaration file and a program, the way an
// editor does, and prints what it shows for each probe as JSON. Used by TestLanguageService.
//
// usage: node langservice.js TYPESCRIPT_DIR DIR PROBES_JSON
//   DIR holds tools.d.ts and program.ts; PROBES_JSON is a list of
//   {"kind": "hover" | "completion" | "signature", "at": "<text in program.ts>", "name": "<entry>"}
//   where the probe is at the end of the first occurrence of "at" (for completion, "name" is the
//   entry whose details are asked).
// output: {"version": "...", "results": [{"display": "...", "documentation": "..."}, ...]}
"use strict";
const path = require("path");
const fs = require("fs");
const [tsDir, dir, probesJSON] = process.argv.slice(2);
const ts = require(tsDir);
const files = ["tools.d.ts", "program.ts"].map((f) => path.join(dir, f));
const options = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, lib: ["lib.es2022.d.ts"], types: [] };
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: () => "1",
  getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined),
  getCurrentDirectory: () => dir,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: (f) => fs.existsSync(f),
  readFile: (f) => fs.readFileSync(f, "utf8"),
};
const ls = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = files[1];
const text = fs.readFileSync(program, "utf8");
const str = (parts) => (parts ? ts.displayPartsToString(parts) : "");
const diagnostics = ls.getSemanticDiagnostics(program).concat(ls.getSyntacticDiagnostics(program))
  .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
const results = JSON.parse(probesJSON).map((p) => {
  const i = text.indexOf(p.at);
  if (i < 0) return { error: "not in the program: " + p.at };
  const pos = i + p.at.length;
  switch (p.kind) {
    case "hover": {
      const q = ls.getQuickInfoAtPosition(program, pos - 1);
      return q ? { display: str(q.displayParts), documentation: str(q.documentation) } : { error: "no quick info" };
    }
    case "completion": {
      const c = ls.getCompletionsAtPosition(program, pos, {});
      if (!c || !c.entries.some((e) => e.name === p.name)) return { error: "no completion entry " + p.name };
      const d = ls.getCompletionEntryDetails(program, pos, p.name, {}, undefined, {}, undefined);
      return d ? { display: str(d.displayParts), documentation: str(d.documentation) } : { error: "no details" };
    }
    case "signature": {
      const s = ls.getSignatureHelpItems(program, pos, {});
      if (!s || s.items.length === 0) return { error: "no signature help" };
      const it = s.items[s.selectedItemIndex];
      return { display: str(it.prefixDisplayParts) + it.parameters.map((x) => str(x.displayParts)).join(", ") + str(it.suffixDisplayParts), documentation: str(it.documentation) };
    }
  }
  return { error: "unknown probe kind " + p.kind };
});
process.stdout.write(JSON.stringify({ version: ts.version, diagnostics, results }));
