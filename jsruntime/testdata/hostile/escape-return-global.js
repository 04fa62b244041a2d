// The global object crosses as JSON.stringify gives it: its built-ins are not enumerable.
// expect: value: {}
return globalThis;
