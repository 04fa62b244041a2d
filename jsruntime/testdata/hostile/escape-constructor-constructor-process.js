// expect: value: "ReferenceError"
try { return typeof ({}).constructor.constructor("return process")() } catch (e) { return e.name }
