// Splitting a 65,536-character non-ASCII string on a regexp that never matches: goja's generic
// split (which every regexp method took while runcode wrapped exec) tried a sticky match at every
// position, each converting the whole subject again: 24s in one native step at a 1s budget.
// goja's split (runcode's fork) searches from each split point instead: one search per match.
// expect: value: [1,65536,3]
// config: compute=3s wall=4s
const s = "é".repeat(65536);
const parts = s.split(/x/);
return [parts.length, parts[0].length, "a1b2c".split(/\d/).length];
