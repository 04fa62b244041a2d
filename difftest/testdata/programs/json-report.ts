const { content } = await tools.read_file({ path: "data/users.jsonl", startLine: 1, endLine: 50 });
const users = content.trim().split("\n").map((l) => JSON.parse(l));
const byPlan = Object.groupBy ? Object.groupBy(users, (u: any) => u.plan) : null;
const summary = Object.fromEntries(Object.entries(byPlan ?? {}).map(([plan, us]) => [plan, (us as any[]).map((u) => u.name)]));
return JSON.stringify({ summary, first: users[0] }, null, 2);
