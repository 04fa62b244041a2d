// replace, match and split with a global regexp on a long non-ASCII string: goja's generic path
// (which every regexp method took while runcode wrapped exec) called exec once per match, each
// converting the whole subject, all in one native step: 200,000 characters ran for minutes past
// a 1s budget in-process. goja (runcode's fork) now finds one match at a time (200,000 characters:
// 0.2s) and checks the interrupt flag before each search, so a step over 8M characters (seconds)
// ends at its next match once the budget is spent.
// expect: timeout: compute budget exhausted
// config: compute=500ms wall=3s
const s = "é".repeat(1 << 23);
const lengths = [s.replace(/é/g, "x").length, s.match(/é/g).length, (s + " ").split(/(?:)/).length];
return lengths;
