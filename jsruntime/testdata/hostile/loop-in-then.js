// expect: timeout: compute budget exhausted (300ms busy)
// config: compute=300ms wall=3s
await Promise.resolve().then(() => { for (;;) {} });
