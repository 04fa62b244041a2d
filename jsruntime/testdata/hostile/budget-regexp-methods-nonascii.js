// replace, match and split with a global regexp on a 200,000-character non-ASCII string: goja's
// generic path (which every regexp method took while runcode wrapped exec) called exec once per
// match, each converting the whole subject, all in one native step: it ran for minutes past a 1s
// budget in-process. goja (runcode's fork) now finds one match at a time and checks the interrupt
// flag before each search, so the step ends at its next match once the budget is spent.
// expect: timeout: compute budget exhausted
// config: compute=500ms wall=3s
const s = "é".repeat(200000);
const lengths = [s.replace(/é/g, "x").length, s.match(/é/g).length, (s + " ").split(/(?:)/).length];
return lengths;
