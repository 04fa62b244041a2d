package jsruntime

import (
	"fmt"
	"strings"
)

// guardRow is one guarded built-in of the table in GUARDS.md.
type guardRow struct {
	// Builtins are the guarded properties, as reached from the global object
	// ("Array.prototype.flat").
	Builtins []string
	// Where the guard is: "prelude.js" (JavaScript) or "Go" (a Go function or proxy).
	Where string
	// Limit is what the guard refuses, and how.
	Limit string
	// Why is the failure it prevents.
	Why string
}

// guardTable is the one list of guarded built-ins. GUARDS.md is rendered from it
// (TestGuardsDocumented), and TestGuardsInstalled checks that a fresh realm guards exactly
// these, each refusing its probe.
var guardTable = []guardRow{
	{[]string{"String.prototype.repeat", "String.prototype.padStart", "String.prototype.padEnd"}, "prelude.js",
		"result over maxString characters (a quarter of MaxHeapBytes): RangeError \"Invalid string length\"",
		"one native step allocates the whole result: 'x'.repeat(2**40) is a fatal out-of-memory error"},
	{[]string{"Array.prototype.join", "Array.prototype.toLocaleString"}, "prelude.js",
		"more than maxElements elements or a result over maxString characters: RangeError \"Invalid string length\"; nested arrays recurse through the guard (JavaScript frames, so MaxStackDepth bounds them); a cycle contributes \"\"",
		"Array(2**32-1).join('x') runs for minutes; goja's toLocaleString recurses in Go on nested arrays (fatal stack overflow) with a quadratic cycle check"},
	{[]string{"Array.prototype.fill"}, "prelude.js",
		"more than maxElements elements (maxString / 16): RangeError \"Invalid array length\"",
		"new Array(1e8).fill(0) runs for a minute in one step"},
	{[]string{"Array.prototype.map", "Array.prototype.toSorted", "Array.prototype.toReversed", "Array.prototype.with",
		"Array.prototype.toSpliced", "Array.prototype.sort", "Array.from"}, "prelude.js",
		"a length over maxElements: RangeError \"Invalid array length\"; the native method sees the length the guard checked",
		"goja allocates a dense array of the receiver's length up front (Array(2**32-1).map(f) asks for 64 GiB)"},
	{[]string{"Array.prototype.flat", "Array.prototype.flatMap"}, "prelude.js",
		"reimplemented without recursion: arrays nested deeper than maxNesting (12,000) levels, or more than maxElements results: RangeError; the loop is JavaScript, so budgets interrupt it",
		"goja's FlattenIntoArray recurses in Go per level (a self-containing array with flat(Infinity) is a fatal stack overflow) and a DAG (a = [a, a] forty times) makes 2**40 elements in one step"},
	{[]string{"JSON.stringify"}, "Go",
		"reimplemented: values nested deeper than maxNesting (12,000) levels, or output over maxString characters: RangeError; cycles found with a set; polls its run every 4,096 values, so a budget ends it",
		"goja's recurses in Go per level (a million levels: fatal stack overflow), scans the open objects for each object (100,000 deep: 31s at a 1s budget) and builds any output in one step"},
	{[]string{"RegExp.prototype[Symbol.split]"}, "Go (guards_regexp.go)",
		"the copy goja's split makes (with the flags the regexp's flags property names), when it is not made through the guarded RegExp (a constructor set to undefined leads to goja's own): the pattern is measured first as if case-insensitive and unicode, RangeError as for RegExp",
		"a pattern made without the i flag (cheap) and a forged flags property adding it compiled unmeasured: 1,000 \\W took about 25s"},
	{[]string{"Number.prototype.toLocaleString", "BigInt.prototype.toLocaleString", "Date.prototype.toLocaleString",
		"Date.prototype.toLocaleDateString", "Date.prototype.toLocaleTimeString"}, "Go (intl.go)",
		"reimplemented through Intl (see docs/programs.md, Intl): a locales array-like of more than 1,000 entries, as for every Intl constructor: RangeError",
		"goja's ignore locales and options; a locales argument of length 2**32-1 would be read in one native step"},
	{[]string{"String.prototype.localeCompare"}, "Go",
		"receiver or argument over 1,048,576 characters: RangeError",
		"8M non-ASCII characters took 1.9s in one step"},
	{[]string{"String.prototype.toLocaleLowerCase", "String.prototype.toLocaleUpperCase"}, "Go (intl.go)",
		"reimplemented through Intl: a locale with case mappings of its own (tr, az, lt, el) maps through golang.org/x/text/cases in chunks, polling the run's interrupt flag between them (the goja fork's CaseString); any other locale maps as toLowerCase and toUpperCase (forkTable); a locales array-like of more than 1,000 entries: RangeError",
		"goja's ignore the locale; x/text maps a string in one native step"},
	{[]string{"String.prototype.replace", "String.prototype.replaceAll", "RegExp.prototype[Symbol.replace]"}, "Go",
		"a replacement template that could expand past maxString is expanded by a Go function that counts: expansions past maxString / 2, RangeError \"Invalid string length\"",
		"\"$`\" expands to the text before each match: 'a'.repeat(1e5).replaceAll('a', '$`') asks for 5e9 characters in one step, a fatal out-of-memory error"},
	{[]string{"ArrayBuffer", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array",
		"Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"}, "Go",
		"a proxy whose construct trap refuses more than maxBytes (a quarter of MaxHeapBytes): RangeError",
		"new ArrayBuffer(2**40) is a fatal out-of-memory error"},
	{[]string{"Function.prototype.bind"}, "Go",
		"a bound function's name (\"bound \" + the target's) over 4,096 characters: RangeError",
		"goja copies the name for each bind: 50,000 chained binds passed a 512 MiB heap in 1.3s"},
	{[]string{"eval"}, "Go (guards_source.go)",
		"source nesting over 5,000 levels (open brackets, braces, parentheses and template substitutions, plus the operator tokens of each open expression) or more than 256 arrow functions nested in one another, measured by a linear scan before goja parses: RangeError; the Function, AsyncFunction and GeneratorFunction constructors (every .constructor that led to them) are guarded the same way; every eval is indirect",
		"goja's parser and compiler recurse in Go per level: eval or new Function of a million nested brackets is a fatal stack overflow"},
	{[]string{"RegExp", "RegExp.prototype.compile", "RegExp.prototype[Symbol.matchAll]", "String.prototype.match", "String.prototype.matchAll", "String.prototype.search"}, "Go (guards_regexp.go)",
		"a pattern longer than 262,144 characters, nesting groups more than 1,000 levels deep, whose counted repetitions add more than 100,000 elements when written out (x{n,m} counts m copies, nested ones multiply), whose Unicode property escapes (\\p{…}, \\P{…} with the u flag) stand for more than 32,768 code point ranges (\\p{L} 684, the largest 905), or, with the i flag, whose classes cover more than 16,777,216 code points ('.' 1,114,112, \\W \\S \\D twice that, a range its span, a property escape its code points): RangeError naming the limit. RegExp is a proxy whose call and construct traps measure the pattern (every .constructor, subclass and Reflect path leads to it); compile, match, matchAll and search measure a pattern they would compile from a string or regexp-like object; RegExp.prototype[Symbol.matchAll] and the generic Symbol.split path, which copy a regexp with the flags its flags property names (through goja's own RegExp when its constructor is undefined), measure its pattern as if case-insensitive and unicode (flags i and u); regular-expression literals in the program, eval and Function-family text are measured (length, repetitions, property escapes, case folding) before goja compiles that text, their nesting bounded by the source-nesting limit",
		"compiling is one native step: regexp2 (lookarounds, backreferences) is quadratic in nested groups (20,000 nested lookaheads: 1s; a million: over 10 minutes at a 2s budget), and RE2 writes out counted repetitions ('a{1000}'.repeat(3000): 0.9s and 700 MB), and regexp2 case-folds class code points one by one (100 \\W with the i flag: 2.5s); goja writes each property escape out as its ranges (2,000 \\P{Grapheme_Base}: 30 MB of pattern, RE2 1s and 170 MB, regexp2 5s)"},
}

// addedTable lists the built-ins the polyfills add to a run whose program names them (see
// polyfillsNamed) that could otherwise allocate or work without bound in one step, with their
// limits. They are not in a fresh realm, so TestGuardsInstalled does not see them;
// TestAddedBuiltinsBounded probes each.
var addedTable = []guardRow{
	{[]string{"setTimeout", "setInterval", "setImmediate"}, "Go (timers.go)",
		"at most maxTimers (10,000) live timers per run: RangeError \"too many pending timers\"; a delay is 1ms to 2^31-1ms, as in Node (0 or NaN is 1ms), waited in wall time (the wall ceiling bounds it); each callback runs as a loop job charged to the compute budget, and the run ends (cancelling its timers) when the program settles",
		"a loop scheduling timers grows the loop's heap without end, and a 0ms setInterval would spin the loop"},
	{[]string{"URL", "URLSearchParams"}, "Go (url.go)",
		"an input or base over 2 MiB (maxURLLength): TypeError \"Invalid URL: longer than 2097152 bytes\"; the parser is linear, one native step per parse or setter",
		"a parse is one native step that budgets cannot interrupt"},
	{[]string{"crypto.getRandomValues"}, "polyfills.js",
		"more than 65,536 bytes: QuotaExceededError, as in Node",
		"one native step fills the whole view"},
	{[]string{"%TypedArray%.from"}, "polyfills.js",
		"a string source is iterated in JavaScript first, at most maxElements code points: RangeError \"Invalid array length\"",
		"goja's refuses a string source; the iteration is a JavaScript loop the budgets interrupt"},
	{[]string{"Iterator.prototype.toArray"}, "polyfills.js",
		"more than maxElements values: RangeError \"Invalid array length\" (the underlying iterator is closed)",
		"an endless iterator would grow the array until the heap limit"},
	{[]string{"console.log", "console.info", "console.warn", "console.error", "console.debug", "console.table", "console.dir"}, "Go (console.go)",
		"rendering checks every 256 values that the run has not been stopped (a budget ends it), and ends the run with output-limit as soon as the line cannot fit the output cap",
		"rendering is one native step: five arrays of 100 references to the next make 100^5 entries at depth 4"},
}

// forkTable lists the built-ins that goja's fork (third_party/goja, RUNCODE.md) reimplements so
// that they need no guard: linear in their input, polling the runtime's interrupt flag as they
// go (so a budget or an abort ends them like a loop of JavaScript), refusing no size below the
// heap. TestForkBuiltinsInterruptible runs each on a large input under a short budget.
var forkTable = []guardRow{
	{[]string{"JSON.parse"}, "goja fork (runcode_jsonparse.go)",
		"one pass over the string's own representation, arrays and objects on explicit stacks (no Go recursion), each built at its closing bracket with storage of its exact size; polls every 4,096 values and every 4 MiB of one string; text nesting deeper than maxNesting (12,000) levels: RangeError \"JSON.parse: text nests deeper than 12000 levels\" (the depth every JSON value crossing the boundary keeps to; a reviver's walk recurses in Go per level)",
		"goja's decoded through encoding/json's token stream (an allocation per token), recursed in Go per level (ten million '[': fatal stack overflow) and could not be interrupted (tens of millions of characters ran seconds past a 1s budget), so text over 2^20 structural tokens or 32 MiB was refused"},
	{[]string{"String.prototype.normalize", "String.prototype.toUpperCase"}, "goja fork (runcode_strings.go)",
		"a string over 65,536 code units is converted and mapped in chunks (x/text's norm.Form and cases.Upper, whose results do not depend on where the text is cut), polling between chunks",
		"one native step converted the whole string to UTF-8, mapped it and converted it back: 8M non-ASCII characters took 0.6-0.8s, so strings over 2,097,152 (normalize) or 8,388,608 (toUpperCase) characters were refused"},
	{[]string{"String.prototype.toLowerCase"}, "goja fork (runcode_strings.go)",
		"maps the UTF-16 code units directly as V8 does (simple lower-case mapping, U+0130, and the final sigma found by looking across case-ignorable characters both ways), polling every 65,536 code units",
		"x/text's caser took seconds on tens of millions of characters in one step (strings over 8,388,608 characters were refused), and lost the final-sigma context at the edge of its buffers (a long text of \"ΣΑΣ \" came out with some \"σασ\")"},
	{[]string{"String.prototype.trim", "String.prototype.trimStart", "String.prototype.trimEnd"}, "goja fork (runcode_strings.go)",
		"reads only the whitespace it removes, then copies what is left once",
		"goja converted the whole string to UTF-8 and back (32M non-ASCII characters: 0.8s in one step), so strings over 8,388,608 characters were refused"},
	{[]string{"String.prototype.split", "String.prototype.replaceAll"}, "goja fork (builtin_string.go, runcode_strings.go)",
		"with a string separator or search string: one search from each match, polling every 4,096 pieces or matches (and every 65,536 characters of split(\"\")); ASCII pieces share the string's memory",
		"one native step split or replaced the whole string: 8M non-ASCII characters took 0.6-1.2s, so strings over 2,097,152 characters were refused"},
}

// renderGuards renders guardTable as the Markdown of GUARDS.md.
func renderGuards() string {
	var b strings.Builder
	b.WriteString(`# Guarded built-ins

Generated from ` + "`guardTable`" + ` in guards_table_test.go by ` + "`go test -run TestGuardsDocumented -update`" + `; do not edit
by hand. TestGuardsInstalled checks that a fresh realm guards exactly these built-ins and that
each guard refuses what the table says.

goja cannot interrupt a native step and recurses in Go where the specification recurses, so a
built-in that allocates, loops or recurses in one step is replaced by a guard that refuses
inputs past a limit with an ordinary, catchable error. The limits:

- maxString = MaxHeapBytes / 4 characters (128Mi characters at the default 512 MiB);
- maxElements = maxString / 16 (8Mi at the default);
- maxBytes = MaxHeapBytes / 4;
- maxNesting = 12,000 levels (jsonv.MaxDepth, the JSON depth everywhere).

| Built-ins | Guard | Limit | Without it |
| --- | --- | --- | --- |
`)
	for _, r := range guardTable {
		names := make([]string, len(r.Builtins))
		for i, n := range r.Builtins {
			names[i] = "`" + n + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", strings.Join(names, ", "), r.Where, mdCell(r.Limit), mdCell(r.Why))
	}
	b.WriteString(`
## Linear in the goja fork

Built-ins that goja's fork (third_party/goja, RUNCODE.md) reimplements so that they need no
guard: linear in their input and polling the run's interrupt flag as they go, so a budget or an
abort ends them within milliseconds, as it ends a loop of JavaScript; no size below the heap is
refused (TestForkBuiltinsInterruptible):

| Built-ins | Where | Bound | Before |
| --- | --- | --- | --- |
`)
	for _, r := range forkTable {
		names := make([]string, len(r.Builtins))
		for i, n := range r.Builtins {
			names[i] = "`" + n + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", strings.Join(names, ", "), r.Where, mdCell(r.Limit), mdCell(r.Why))
	}
	b.WriteString(`
## Added built-ins

The built-ins goja lacks that a run gets when its program names them (docs/programs.md, "What
programs can use") and that could work or allocate without bound in one step are bounded too:

| Built-ins | Where | Limit | Without it |
| --- | --- | --- | --- |
`)
	for _, r := range addedTable {
		names := make([]string, len(r.Builtins))
		for i, n := range r.Builtins {
			names[i] = "`" + n + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", strings.Join(names, ", "), r.Where, mdCell(r.Limit), mdCell(r.Why))
	}
	b.WriteString(knownLimits)
	return b.String()
}

// knownLimits are the measured paths these guards do not close (2-core machine, shared and
// loaded; numbers are orders of magnitude).
const knownLimits = `
## Not guarded (measured)

- **Recursion through JavaScript frames** (join, toString, toLocaleString of nested arrays;
  getters, Symbol.toPrimitive, sort comparators, proxy traps calling themselves) ends at
  MaxStackDepth with "Maximum call stack size exceeded", which goja does not let a program
  catch: the run fails as an exception.
- **Regular-expression matches are not guarded here: goja (runcode's fork, third_party/goja
  RUNCODE.md) bounds them itself.** A match that runs regexpMatchTimeout throws a RangeError
  ("regular expression match exceeded the 250ms match timeout", where upstream goja answered
  "no match"); replace, match, matchAll, split and search find one match at a time, holding only
  their output and one conversion of the subject, and check the run's interrupt flag before each
  search (and exec before each match), so a budget ends them at their next match; the longest
  step left is one conversion of the subject (regexp2's runes, or a UTF-8 copy for RE2: 50-100ms
  for 8M characters). Two global word matches over 1 MB of accented prose take about 0.4s and a
  global replace on 3 MB about 0.5s, 2-6 times Node (BenchmarkRegexpAtScale; BENCHMARKS.md,
  "Regular expressions at scale"). A subclass, a
  replaced species or a replaced exec takes goja's generic path, which calls exec per match
  (replace collects every match object first, as the specification says) and, for split, a
  sticky attempt per position (anchored, so linear, but several times slower than the fast path).
- **Bound-function chains whose names do not grow** (a program that redefines each bound
  function's name) call through Go once per level; building a million of them passes the default
  heap first, and the watchdog ends the run.
- **Proxy and prototype chains** recurse in Go per level, but a 4,000,000-deep proxy chain (3 GB
  of heap) was read without overflowing Go's stack; at the default heap the watchdog stops the
  construction first (about 2,500,000 proxies).
- **Linear steps on a string of maxString characters** that are not capped take up to about 0.5s
  at the default heap (encodeURIComponent 175ms, escape 103ms, JSON.stringify 123ms, lastIndexOf
  83ms on 32M non-ASCII characters).
- **Regular-expression compiles below the limits** take up to about 0.25s on a loaded 2-core
  machine (BenchmarkRegexpCompileAtLimits: 1,000 nested lookaheads 1.5ms, repetitions at the
  cap 22ms and 25 MB, 262,144-character patterns 17-35ms; case folding at the cap 0.16-0.23s).
  A regexp's matchAll, and split on a subclass or replaced species, refuse patterns over the
  case-folding limit even without the i flag.
- **flat, flatMap and JSON.stringify are slower** than goja's: flat and flatMap 2.5 times (one
  level) to 5 times (depth Infinity), JSON.stringify about 1.25 times (BenchmarkGuardedBuiltins).
`

func mdCell(s string) string {
	return strings.NewReplacer("|", "\\|", "`", "\\`").Replace(s)
}
