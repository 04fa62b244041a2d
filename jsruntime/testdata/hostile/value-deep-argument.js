// A value 1.5 million levels deep passed to a tool ended an in-process host with a Go stack
// overflow in runcode's converter; the call is rejected instead, catchably, naming the limit.
// Building the value takes hundreds of MiB of goja heap: under process isolation the worker's
// heap bound may stop the run first, as worker-exit.
// expect: value: ["ToolCallError","echo",true]|worker-exit: worker error: JavaScript heap out of memory
// config: heap=2GiB compute=20s wall=30s serial
let v = 1;
for (let i = 0; i < 1.5e6; i++) v = [v];
try { await tools.echo(v); return "passed"; } catch (e) { return [e.name, e.toolName, e.message.endsWith("nests deeper than 12000 levels")]; }
