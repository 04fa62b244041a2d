// Closing the wrapper function early: the program is the body of an async function, so text
// that closes that body and runs code at script level is refused as a syntax error.
// expect: exception: main.ts: SyntaxError: the program closes the function body it runs in
}); globalThis.leak = [typeof tools, typeof console]; (async function (tools) { return [...globalThis.leak, typeof tools]
