// expect: value: "RangeError"
// config: compute=2s wall=5s
try { "a".repeat(30).concat("b").replace(/^(a+)+$(?!x)/, "") } catch (e) { return e.name }
