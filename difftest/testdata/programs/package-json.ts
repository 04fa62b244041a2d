const pkg = JSON.parse((await tools.read_file({ path: "package.json" })).content);
const deps = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }) as [string, string][];
console.log(`${pkg.name}@${pkg.version}: ${deps.length} dependencies`);
for (const [name, range] of deps.sort(([a], [b]) => a.localeCompare(b))) {
  const major = range.replace(/^[\^~]/, "").split(".")[0];
  console.log(`- ${name} ${range} (major ${major})`);
}
return Object.keys(pkg.scripts);
