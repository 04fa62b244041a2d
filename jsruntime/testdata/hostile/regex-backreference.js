// expect: exception: RangeError: regular expression match exceeded the 250ms match timeout
// config: compute=2s wall=5s
/^(a|aa)+\1$/.test("a".repeat(40) + "b");
