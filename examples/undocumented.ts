// Find every exported Go function, method or type without a doc comment (test files excluded).
//   go run ./cmd/runcode run examples/undocumented.ts
const exported = /^(?:func\s+(?:\([^)]*\)\s*)?|type\s+)([A-Z]\w*)/;

const { matches } = await tools.glob({ pattern: "**/*.go" });
const sources = matches.filter((p: string) => !p.endsWith("_test.go"));

const missing: string[] = [];
for (const path of sources) {
  const { content } = await tools.read_file({ path });
  const lines = content.split("\n");
  lines.forEach((line: string, i: number) => {
    const m = exported.exec(line);
    if (m && !(i > 0 && lines[i - 1].startsWith("//"))) missing.push(`${path}:${i + 1}: ${m[1]}`);
  });
}

if (missing.length === 0) return `all exported identifiers in ${sources.length} files are documented`;
missing.forEach((m) => console.log(m));
return `${missing.length} undocumented exported identifiers in ${sources.length} files`;
