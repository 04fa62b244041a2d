// A breakout that would loop at script level never runs: it is refused before execution.
// expect: exception: main.ts: SyntaxError: the program closes the function body it runs in
// config: compute=300ms wall=3s
}); for (;;) {} (async function () {
