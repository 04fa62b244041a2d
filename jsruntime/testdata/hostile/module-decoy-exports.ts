// Text that looks like exports inside strings, comments, a regular expression and a template
// substitution does not make the program a module or hide its one real export.
// expect: value: ["export default 1",16,["a{'\"","b"],"export {}",3]
const s: string = "export default 1"; /* export default 2 */ // export {}
const re = /[{'"`]export default/;
const t = `${(() => { return "export {}"; })()}`;
export default [s, s.length, "a{'\"`export defaultb".split(re), t, await Promise.resolve(3)] // trailing comment
