// The argument snapshot runs the getter: the loop in it is still budgeted.
// expect: timeout: compute budget exhausted (300ms busy)
// config: compute=300ms wall=3s
await tools.echo({ get x() { for (;;) {} } });
