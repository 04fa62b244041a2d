// The completion is converted as JSON.stringify would, so its toJSON runs: the loop in it is
// still budgeted.
// expect: timeout: compute budget exhausted (300ms busy)
// config: compute=300ms wall=3s
return { a: [1, { toJSON() { for (;;) {} } }] };
