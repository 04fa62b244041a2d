const { entries } = await tools.list_dir({ path: "data" });
console.log(`found ${entries.length} data files`);
const csv = entries.find((e) => e.name.endsWith(".xlsx"));
console.log("spreadsheet size:", csv!.size);
