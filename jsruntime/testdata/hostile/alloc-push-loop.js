// Under the race detector allocation is slow enough that the compute budget may come first.
// expect: worker-exit|timeout: compute budget exhausted
// config: compute=3s wall=5s heap=96MiB serial
// logs: ["before"]
console.log("before");
const a = [];
for (;;) a.push({ i: a.length });
