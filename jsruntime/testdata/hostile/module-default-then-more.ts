// Statements after export default still run, and a throw there fails the run at its own line.
// expect: exception: Error: after the export
// logs: ["before","after"]
console.log("before");
export default { ok: true };
console.log("after");
throw new Error("after the export");
