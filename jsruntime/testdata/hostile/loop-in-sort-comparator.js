// expect: timeout: compute budget exhausted (300ms busy)
// config: compute=300ms wall=3s
[3, 2, 1].sort(() => { for (;;) {} });
