// expect: exception: RangeError: regular expression match exceeded the 250ms match timeout
// config: compute=2s wall=5s
/^(a+)+$(?!x)/.test("a".repeat(28) + "b");
