// eval and Function run, and see only the realm. Every eval is indirect (the guarded eval is not
// goja's own, which alone makes a call direct): code in eval sees globals, not the program's
// variables, so tools is out of its reach too.
// expect: value: [2,"undefined","undefined","undefined","undefined",1]
const local = 1;
return [eval("1 + 1"), eval("typeof tools"), (0, eval)("typeof tools"), new Function("return typeof tools")(),
	Function("return typeof require")(), eval("typeof local") === "undefined" ? 1 : 0];
