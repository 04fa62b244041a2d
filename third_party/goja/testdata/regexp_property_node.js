// runcode: Node's answer for regexp_property_node_test.go. Reads the bodies of property escapes
// (one a line: "L", "sc=Garay", "Alphabetic", ...) on standard input and prints, for each,
//
//	body <TAB> invalid                                  (new RegExp("\\p{body}", "u") throws)
//	body <TAB> ranges <TAB> code points <TAB> hash    (of the matched ranges, see answer)
//
// The Go test computes the same line from goja's tables. Run by the test when RUNCODE_NODE is
// set; it does not need any package.
'use strict';
const crypto = require('crypto');

const input = require('fs').readFileSync(0, 'utf8');
const bodies = input.split('\n').filter((b) => b !== '');

// One string per code point; a lone surrogate is a string of one code unit, which \p{Cs}
// matches with the u flag.
const MAX = 0x10ffff;
const chars = new Array(MAX + 1);
for (let cp = 0; cp <= MAX; cp++) chars[cp] = String.fromCodePoint(cp);

// The hash is the first 16 hex digits of the SHA-256 of the ranges as text, "first-last\n" per
// range, in lower-case hexadecimal without padding.
function answer(body) {
  let re;
  try {
    re = new RegExp('^\\p{' + body + '}$', 'u');
  } catch (e) {
    return 'invalid';
  }
  const hash = crypto.createHash('sha256');
  let ranges = 0;
  let count = 0;
  for (let cp = 0; cp <= MAX; cp++) {
    if (!re.test(chars[cp])) continue;
    let last = cp;
    while (last < MAX && re.test(chars[last + 1])) last++;
    hash.update(cp.toString(16) + '-' + last.toString(16) + '\n');
    ranges++;
    count += last - cp + 1;
    cp = last;
  }
  return ranges + '\t' + count + '\t' + hash.digest('hex').slice(0, 16);
}

const out = [];
for (const body of bodies) out.push(body + '\t' + answer(body));
process.stdout.write(out.join('\n') + '\n');
