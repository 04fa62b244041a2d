const { content } = await tools.read_file({ path: "data/users.jsonl" });
const users = content.trim().split("\n").map((l) => JSON.parse(l));
const firstNames = new Set<string>(users.map((u) => u.name.split(" ")[0]));
const sorted = [...firstNames].sort((a, b) => a.localeCompare(b));
console.log(`${users.length} users, ${firstNames.size} distinct first names`);
return sorted;
