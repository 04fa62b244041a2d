// Tool calls with no argument object or with undefined members, as models write them.
const root = await tools.list_dir();
const limit: number | undefined = undefined;
const data = await tools.list_dir({ path: "data", limit } as any);
const grep = await tools.grep({ pattern: "zod", path: undefined, ignoreCase: undefined });
return { root: root.entries.length, data: data.entries.map((e) => `${e.name}:${e.size}`), grep: grep.matches.length };
