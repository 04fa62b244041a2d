// JSON.stringify of a 9,999-deep array indented by 10: the indentation alone is 500 million
// characters. The replacement counts its output against maxString (16Mi characters here), and
// polls its run as it writes (under -race writing that much may outlast the budget).
// expect: exception: RangeError: Invalid string length|timeout
// config: compute=1s wall=2s heap=64MiB serial
let a = [];
for (let i = 0; i < 9999; i++) a = [a];
JSON.stringify(a, null, 10);
