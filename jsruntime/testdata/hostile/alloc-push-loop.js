// expect: worker-exit
// config: compute=3s wall=5s heap=96MiB serial
// logs: ["before"]
console.log("before");
const a = [];
for (;;) a.push({ i: a.length });
