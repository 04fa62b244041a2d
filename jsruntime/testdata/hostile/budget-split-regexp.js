// Splitting a 65,536-character non-ASCII string on a regexp that never matches: goja's generic
// split (every regexp method takes it once exec is wrapped) tried a sticky match at every
// position, each converting the whole subject again: 24s in one native step at a 1s budget. The
// guard searches from each split point instead: one exec per match.
// expect: value: [1,65536,3]
// config: compute=3s wall=4s
const s = "é".repeat(65536);
const parts = s.split(/x/);
return [parts.length, parts[0].length, "a1b2c".split(/\d/).length];
