// An array that contains itself joins as "" at the cycle, as in V8 and goja (the join guard
// recursed into the cycle until the call-stack limit).
// expect: value: ["1,","1,","1,","1,2"]
// config: compute=1s wall=2s
const a = [1];
a.push(a);
return [a.join(), String(a), a.toLocaleString(), [1, 2].toLocaleString()];
