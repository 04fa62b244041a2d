// A 20,000-deep array's toLocaleString: goja recursed in Go per level with a quadratic cycle
// check (no answer after minutes). The guard recurses through JavaScript frames: the call-stack
// limit ends it.
// expect: exception: Maximum call stack size exceeded
// config: compute=5s wall=6s
let a = [];
for (let i = 0; i < 20000; i++) a = [a];
a.toLocaleString();
