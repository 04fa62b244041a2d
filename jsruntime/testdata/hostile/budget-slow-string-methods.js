// String methods whose one native step was linear in a long string (8M non-ASCII characters:
// localeCompare 1.9s, replaceAll 1.2s, normalize 0.8s, split 0.6s on the 2-core test machine;
// 32M: trim 0.8s; tens of millions took 3-8s at a 1s budget) refused strings over 2Mi (normalize,
// replaceAll, split) or 8Mi characters (case mappings, trims) with a RangeError. The goja fork's
// are linear and poll the interrupt flag (budget-string-methods-interrupted.js ends them at a
// budget), so they take such strings; localeCompare still refuses strings over 1Mi characters.
// expect: value: ["RangeError","RangeError",2097153,4194304,2,8388609,8388609,2097153,2097153,8388609,8388609,8388609,true,"aé"]
// config: compute=20s wall=30s
// s2 and s3 are ASCII (the caps were on length alone; non-ASCII text takes seconds under -race):
// the fork's tests and TestNoSizeCapsBelowTheBudget cover long non-ASCII strings.
const s1 = "é".repeat(2 ** 20 + 1), s2 = "a".repeat(2 ** 21 + 1), s3 = "a".repeat(2 ** 23 + 1);
const out = [];
for (const f of [() => s1.localeCompare("x"), () => "x".localeCompare(s1), () => s2.normalize("NFD").length,
	() => s2.replaceAll("a", "ab").length - 2, () => s2.split("a").length - 2 ** 21, () => s3.toUpperCase().length,
	() => s3.toLowerCase().length, () => s2.toLocaleUpperCase().length, () => s2.toLocaleLowerCase().length,
	() => s3.trim().length, () => s3.trimStart().length, () => s3.trimEnd().length]) {
	try { out.push(f()) } catch (e) { out.push(e instanceof RangeError ? "RangeError" : String(e)) }
}
out.push("aé".repeat(1000).toUpperCase() === "AÉ".repeat(1000), (" \u3000aé\n").trim());
return out;
