// expect: timeout
// config: compute=300ms wall=2s
// A 0ms interval runs every millisecond, as in Node; the loop waits between ticks, the budgets
// end the run.
let n = 0;
setInterval(() => { n++; }, 0);
setInterval(() => { for (let i = 0; i < 1000; i++) n++; }, 0);
await new Promise(() => {});
