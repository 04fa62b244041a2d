// expect: worker-exit
// config: compute=3s wall=5s heap=96MiB serial
const m = new Map();
for (let i = 0; ; i++) m.set(i, [i, String(i)]);
