// The size guards call the built-ins they wrap through the host, not through
// Function.prototype.call/apply or Reflect, which the program can replace.
// expect: value: ["Invalid string length","Invalid string length","Array buffer allocation failed","Invalid typed array length: 2147483648"]
// config: compute=300ms wall=3s
const hijack = function (...args) { return "hijacked"; };
Function.prototype.call = hijack;
Function.prototype.apply = hijack;
Function.prototype.bind = hijack;
Reflect.apply = hijack;
Reflect.construct = hijack;
const out = [];
for (const f of [() => "x".repeat(2 ** 40), () => "x".padStart(2 ** 40), () => new ArrayBuffer(2 ** 40), () => new Uint8Array(2 ** 31)]) {
  try { f(); out.push("allocated"); } catch (e) { out.push(e.message); }
}
return out;
