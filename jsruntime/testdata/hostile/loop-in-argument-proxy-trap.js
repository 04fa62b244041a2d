// An argument is converted as JSON.stringify would, through proxies: a trap that loops is still
// budgeted.
// expect: timeout: compute budget exhausted (300ms busy)
// config: compute=300ms wall=3s
await tools.echo({ p: new Proxy({}, { ownKeys() { for (;;) {} } }) });
