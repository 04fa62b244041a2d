// A binding function is a plain function: no Go value behind any property.
// expect: value: [[],"function",true]
const own = Object.getOwnPropertyNames(tools.echo).filter((k) => !["length", "name", "prototype"].includes(k));
return [own, typeof tools.echo.call, String(tools.echo).includes("native code") || String(tools.echo).includes("function")];
