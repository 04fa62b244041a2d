// The global object lists no host objects: no tools, console, error classes or Go values.
// expect: value: []
const suspicious = /^(tools|console|ToolCallError|require|process|go|Go|__.*|host.*|.*[Bb]inding.*)$/;
return Object.getOwnPropertyNames(globalThis).filter((k) => suspicious.test(k));
