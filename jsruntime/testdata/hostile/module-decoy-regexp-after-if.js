// A regular expression right after an if head, holding a quote: the form scanner must read it as
// a regular expression, not as division and a string, or the real string after it would look
// like an export and be rewritten (it returned "__rc_default = 1").
// expect: value: "export default 1"
const s = "x'";
if (s) /'/.test(s); const t = 'export default 1'; return t;
