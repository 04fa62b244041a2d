const { matches } = await tools.grep({ pattern: "TODO" });
const count: string = matches.length;
export default count;
