// A locale outside runcode's ten: Node formats it, runcode refuses it with a RangeError rather
// than format it differently (DECISIONS row 77).
const n = 1234567.891;
return [n.toLocaleString("en-IN"), new Intl.NumberFormat("hi-IN").format(n)].join("\n");
