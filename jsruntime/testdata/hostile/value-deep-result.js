// A value 1.5 million levels deep returned by the program ended an in-process host with a Go
// stack overflow in runcode's converter; values deeper than jsonv.MaxDepth (12000) are refused.
// Building the value takes hundreds of MiB of goja heap: under process isolation the worker's
// heap bound may stop the run first, as worker-exit.
// expect: invalid-output: program completion cannot be converted to JSON: result[0][0][0][0][0][0][0][0][0][0][0][0]…(11976 more)…|worker-exit: worker error: JavaScript heap out of memory
// config: heap=2GiB compute=20s wall=30s serial
let v = 1;
for (let i = 0; i < 1.5e6; i++) v = [v];
return v;
