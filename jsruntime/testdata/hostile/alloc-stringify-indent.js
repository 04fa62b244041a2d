// JSON.stringify of a 9,999-deep array indented by 10: the indentation alone is 500 million
// characters. The replacement counts its output against maxString.
// expect: exception: RangeError: Invalid string length
// config: compute=2s wall=3s
let a = [];
for (let i = 0; i < 9999; i++) a = [a];
JSON.stringify(a, null, 10);
