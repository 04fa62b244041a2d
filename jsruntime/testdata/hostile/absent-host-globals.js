// expect: value: ["undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined"]
return [typeof require, typeof process, typeof module, typeof exports, typeof global, typeof Deno, typeof Bun,
	typeof WebAssembly, typeof fetch];
