// Build a tiny project team in an MCP knowledge graph, read it back and summarize it.
//   npm install -g @modelcontextprotocol/server-memory
//   MEMORY_FILE_PATH=/tmp/team.jsonl go run ./cmd/runcode run --mcp mcp-server-memory examples/mcp/memory-graph.ts
const people = [
  { name: "Ada", role: "engineer", skills: ["Go", "compilers"] },
  { name: "Grace", role: "engineer", skills: ["COBOL", "debugging"] },
  { name: "Linus", role: "reviewer", skills: ["kernels"] },
];

await tools.create_entities({
  entities: [
    { name: "runcode", entityType: "project", observations: ["Code Mode for agents", "written in Go"] },
    ...people.map((p) => ({ name: p.name, entityType: "person", observations: [`role: ${p.role}`, ...p.skills.map((s) => `knows ${s}`)] })),
  ],
});
await tools.create_relations({
  relations: [
    ...people.filter((p) => p.role === "engineer").map((p) => ({ from: p.name, to: "runcode", relationType: "works_on" })),
    ...people.filter((p) => p.role === "reviewer").map((p) => ({ from: p.name, to: "runcode", relationType: "reviews" })),
    { from: "Ada", to: "Grace", relationType: "pairs_with" },
  ],
});

const graph = await tools.read_graph({});
const team = graph.relations.filter((r) => r.to === "runcode");
const byRole = new Map<string, string[]>();
for (const r of team) {
  byRole.set(r.relationType, [...(byRole.get(r.relationType) ?? []), r.from]);
}
for (const [relation, names] of [...byRole].sort()) {
  console.log(`${relation}: ${names.sort().join(", ")}`);
}
const goPeople = graph.entities
  .filter((e) => e.entityType === "person" && e.observations.some((o) => o.includes("Go")))
  .map((e) => e.name);
return {
  entities: graph.entities.length,
  relations: graph.relations.length,
  team: team.map((r) => r.from).sort(),
  knowsGo: goPeople,
};
