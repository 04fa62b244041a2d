// In-process one concatenation cannot be interrupted: the watchdog catches it when it returns.
// expect: worker-exit|timeout
// config: compute=3s wall=5s heap=96MiB serial
let s = "x";
for (;;) s += s;
