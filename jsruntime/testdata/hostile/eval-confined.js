// eval and Function run, and see only the realm: indirect eval and Function see globals only.
// expect: value: [2,"object","undefined","undefined","undefined"]
return [eval("1 + 1"), eval("typeof tools"), (0, eval)("typeof tools"), new Function("return typeof tools")(),
	Function("return typeof require")()];
