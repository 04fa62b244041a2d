// String methods whose one native step is linear in a long string (8M non-ASCII characters:
// localeCompare 1.9s, replaceAll 1.2s, normalize 0.8s, split 0.6s on the 2-core test machine;
// tens of millions took 3-8s at a 1s budget) refuse strings over their limit with a RangeError.
// expect: value: ["RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError",true]
// config: compute=1s wall=2s
const s = "aé".repeat(1 << 23);
const out = [];
for (const f of [() => s.localeCompare("x"), () => "x".localeCompare(s), () => s.normalize("NFD"),
	() => s.replaceAll("a", "b"), () => s.split("a"), () => s.toUpperCase(), () => s.toLowerCase(),
	() => s.toLocaleUpperCase(), () => s.toLocaleLowerCase()]) {
	try { f(); out.push("none") } catch (e) { out.push(e instanceof RangeError ? "RangeError" : String(e)) }
}
out.push("aé".repeat(1000).toUpperCase() === "AÉ".repeat(1000));
return out;
