// expect: timeout: wall-clock ceiling reached (300ms)
// config: wall=300ms
// logs: ["before"]
console.log("before");
await tools.never({});
