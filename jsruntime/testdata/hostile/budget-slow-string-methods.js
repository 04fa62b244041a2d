// String methods whose one native step is linear in a long string (8M non-ASCII characters:
// localeCompare 1.9s, replaceAll 1.2s, normalize 0.8s, split 0.6s on the 2-core test machine;
// 32M: trim 0.8s; tens of millions took 3-8s at a 1s budget) refuse strings over their limit
// with a RangeError.
// expect: value: ["RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError","RangeError",true]
// config: compute=5s wall=6s
const s1 = "é".repeat(2 ** 20 + 1), s2 = "é".repeat(2 ** 21 + 1), s3 = "é".repeat(2 ** 23 + 1);
const out = [];
for (const f of [() => s1.localeCompare("x"), () => "x".localeCompare(s1), () => s2.normalize("NFD"),
	() => s2.replaceAll("a", "b"), () => s2.split("a"), () => s3.toUpperCase(), () => s3.toLowerCase(),
	() => s3.toLocaleUpperCase(), () => s3.toLocaleLowerCase(), () => s3.trim(), () => s3.trimStart(), () => s3.trimEnd()]) {
	try { f(); out.push("none") } catch (e) { out.push(e instanceof RangeError ? "RangeError" : String(e)) }
}
out.push("aé".repeat(1000).toUpperCase() === "AÉ".repeat(1000));
return out;
