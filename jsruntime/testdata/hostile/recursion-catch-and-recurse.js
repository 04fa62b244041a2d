// Stack overflow cannot be caught and recursed on again (which would be exponential).
// expect: exception: Maximum call stack size exceeded
// config: compute=300ms wall=3s
function f() { try { f() } catch (e) { f() } }
f();
