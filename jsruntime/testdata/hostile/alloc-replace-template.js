// Replacement templates whose "$`" and "$'" expand to the text before and after each match:
// "a".repeat(1e5).replaceAll("a", "$`") asked for 5e9 characters in one native step, a fatal
// out-of-memory error (in-process: the host died; process isolation: worker-exit). The guard
// expands such templates itself, counting, and throws a RangeError once the expansions pass
// half of maxString (16Mi characters with this heap).
// expect: value: ["RangeError","RangeError","RangeError","RangeError","a[b;a]c--","x[a;x]y"]
// config: compute=10s wall=12s heap=128MiB serial
const s = "a".repeat(3e4);
const out = [];
for (const f of [() => s.replaceAll("a", "$`"), () => s.replace(/a/g, "$'"), () => /a/g[Symbol.replace](s, "$`"),
	() => s.replaceAll("", "x".repeat(2000))]) {
	try { f(); out.push("none") } catch (e) { out.push(e instanceof RangeError ? "RangeError" : String(e)) }
}
// Templates still expand as specified, on both paths.
const pad = "-".repeat(20000);
out.push(("abc" + pad).replace("b", "[$&;$`]").slice(0, 9), "xay".replace("a", "[$&;$`]"));
return out;
