// A module-form program (export default) that closes the wrapper function early: its body form
// is refused like any other breakout, before anything runs.
// expect: exception: main.ts: SyntaxError: the program closes the function body it runs in
// config: compute=300ms wall=3s
export default 1; }); for (;;) {} (async function () {
