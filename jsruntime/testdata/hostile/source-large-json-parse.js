// JSON.parse refused text with more than 2^20 structural tokens or over 32 MiB (issue 23); the
// goja fork's parser is linear and interruptible, so large valid text parses: 250,000 records,
// a 40 MiB string, two million numbers. Nesting is still bounded (source-deep-json-parse.js).
// expect: value: [250000,41943040,2000000,[2,55296,true]]
// config: compute=30s wall=60s heap=1GiB serial
return [JSON.parse("[" + Array(250000).fill('{"a":1,"b":2}').join(",") + "]").length,
	JSON.parse('"' + "é".repeat(40 << 20) + '"').length,
	JSON.parse("[" + "1,".repeat(2e6 - 1) + "1]").length,
	((v) => [v[1].length, v[1].charCodeAt(1), Object.is(v[2].a, -0)])(JSON.parse('[1,"\\u00e9\\ud800",{"a":-0}]'))];
