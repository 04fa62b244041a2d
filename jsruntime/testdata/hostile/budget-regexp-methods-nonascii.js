// replace, match and split with a global regexp on a 200,000-character non-ASCII string: goja's
// generic path (every regexp method takes it once exec is wrapped) calls exec once per match,
// each converting the whole subject, all in one native step: it ran for minutes past a 1s budget
// in-process. The exec wrapper now throws once the run has been stopped, so the step ends at its
// next match.
// expect: timeout: compute budget exhausted
// config: compute=500ms wall=3s
const s = "é".repeat(200000);
const lengths = [s.replace(/é/g, "x").length, s.match(/é/g).length, (s + " ").split(/(?:)/).length];
return lengths;
