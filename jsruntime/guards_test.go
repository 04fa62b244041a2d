package jsruntime

import (
	"context"
	"errors"
	"flag"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

var update = flag.Bool("update", false, "rewrite GUARDS.md from guardTable")

// TestGuardsDocumented checks that GUARDS.md is guardTable rendered.
func TestGuardsDocumented(t *testing.T) {
	want := renderGuards()
	if *update {
		if err := os.WriteFile("GUARDS.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("GUARDS.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("GUARDS.md is not guardTable rendered; run go test -run TestGuardsDocumented -update ./jsruntime/")
	}
}

// guardProbes are, for each guarded built-in, a program that the guard must refuse, and the
// start of the message it must refuse it with (empty for a replacement that refuses nothing), in a realm of guardProbeConfig (maxString 4Mi,
// maxElements 256Ki).
var guardProbes = map[string][2]string{
	"String.prototype.repeat":            {`"x".repeat(2 ** 30)`, "Invalid string length"},
	"String.prototype.padStart":          {`"x".padStart(2 ** 30)`, "Invalid string length"},
	"String.prototype.padEnd":            {`"x".padEnd(2 ** 30)`, "Invalid string length"},
	"Array.prototype.join":               {`Array(2 ** 32 - 1).join("x")`, "Invalid string length"},
	"Array.prototype.toLocaleString":     {`Array(2 ** 32 - 1).toLocaleString()`, "Invalid string length"},
	"Array.prototype.fill":               {`Array(2 ** 32 - 1).fill(0)`, "Invalid array length"},
	"Array.prototype.map":                {`Array(2 ** 32 - 1).map((x) => x)`, "Invalid array length"},
	"Array.prototype.toSorted":           {`Array(2 ** 32 - 1).toSorted()`, "Invalid array length"},
	"Array.prototype.toReversed":         {`Array(2 ** 32 - 1).toReversed()`, "Invalid array length"},
	"Array.prototype.with":               {`Array(2 ** 32 - 1).with(0, 1)`, "Invalid array length"},
	"Array.prototype.toSpliced":          {`Array(2 ** 32 - 1).toSpliced(0, 0)`, "Invalid array length"},
	"Array.prototype.sort":               {`Array(2 ** 32 - 1).sort()`, "Invalid array length"},
	"Array.from":                         {`Array.from({ length: 2 ** 32 - 1 })`, "Invalid array length"},
	"Array.prototype.flat":               {`const a = [1]; a.push(a); a.flat(Infinity)`, "Array.prototype.flat: arrays nested deeper than 12000 levels"},
	"Array.prototype.flatMap":            {`Array.from({ length: 200000 }, () => 0).flatMap((x) => [x, x])`, "Invalid array length"},
	"JSON.stringify":                     {`let a = []; for (let i = 0; i < 12001; i++) a = [a]; JSON.stringify(a)`, "JSON.stringify: values nested deeper than 12000 levels"},
	"Number.prototype.toLocaleString":    {`(1).toLocaleString({length: 2 ** 32 - 1})`, "Intl: a locale list of more than 1000 entries"},
	"BigInt.prototype.toLocaleString":    {`(1n).toLocaleString({length: 2 ** 32 - 1})`, "Intl: a locale list of more than 1000 entries"},
	"Date.prototype.toLocaleString":      {`new Date(0).toLocaleString({length: 2 ** 32 - 1})`, "Intl: a locale list of more than 1000 entries"},
	"Date.prototype.toLocaleDateString":  {`new Date(0).toLocaleDateString({length: 2 ** 32 - 1})`, "Intl: a locale list of more than 1000 entries"},
	"Date.prototype.toLocaleTimeString":  {`new Date(0).toLocaleTimeString({length: 2 ** 32 - 1})`, "Intl: a locale list of more than 1000 entries"},
	"String.prototype.localeCompare":     {`"x".localeCompare("é".repeat(2 ** 20 + 1))`, "String.prototype.localeCompare: the argument is 1048577 characters long"},
	"String.prototype.replace":           {"\"a\".repeat(1e5).replace(/a/g, \"$`\")", "Invalid string length"},
	"RegExp.prototype[Symbol.replace]":   {"/a/g[Symbol.replace](\"a\".repeat(1e5), \"$`\")", "Invalid string length"},
	"String.prototype.toLocaleLowerCase": {`"a".toLocaleLowerCase({length: 2 ** 32 - 1})`, "Intl: a locale list of more than 1000 entries"},
	"String.prototype.toLocaleUpperCase": {`"a".toLocaleUpperCase({length: 2 ** 32 - 1})`, "Intl: a locale list of more than 1000 entries"},
	"String.prototype.replaceAll":        {"\"a\".repeat(1e5).replaceAll(\"a\", \"$`\")", "Invalid string length"},
	"ArrayBuffer":                        {`new ArrayBuffer(2 ** 40)`, "Array buffer allocation failed"},
	"Int8Array":                          {`new Int8Array(2 ** 40)`, "Invalid typed array length"},
	"Uint8Array":                         {`new Uint8Array(2 ** 40)`, "Invalid typed array length"},
	"Uint8ClampedArray":                  {`new Uint8ClampedArray(2 ** 40)`, "Invalid typed array length"},
	"Int16Array":                         {`new Int16Array(2 ** 40)`, "Invalid typed array length"},
	"Uint16Array":                        {`new Uint16Array(2 ** 40)`, "Invalid typed array length"},
	"Int32Array":                         {`new Int32Array(2 ** 40)`, "Invalid typed array length"},
	"Uint32Array":                        {`new Uint32Array(2 ** 40)`, "Invalid typed array length"},
	"Float32Array":                       {`new Float32Array(2 ** 40)`, "Invalid typed array length"},
	"Float64Array":                       {`new Float64Array(2 ** 40)`, "Invalid typed array length"},
	"BigInt64Array":                      {`new BigInt64Array(2 ** 40)`, "Invalid typed array length"},
	"BigUint64Array":                     {`new BigUint64Array(2 ** 40)`, "Invalid typed array length"},
	"Function.prototype.bind":            {`let f = function () {}; for (let i = 0; i < 1000; i++) f = f.bind(null)`, "Function.prototype.bind: the bound function's name would be 4099 characters long"},
	"eval":                               {`eval("[".repeat(6000))`, "eval source nests too deeply"},
	"RegExp":                             {`new RegExp("(?=".repeat(1001) + "a" + ")".repeat(1001))`, "RegExp: the pattern nests groups more than 1000 levels deep"},
	"RegExp.prototype[Symbol.split]":     {`const re = new RegExp("\\W".repeat(10), "g"); Object.defineProperty(re, "flags", {value: "gi"}); re.constructor = undefined; re[Symbol.split]("x")`, "RegExp.prototype[Symbol.split]: the case-insensitive pattern's classes cover more than 16777216"},
	"RegExp.prototype.compile":           {`/a/.compile("a{1000}".repeat(101))`, "RegExp.prototype.compile: the pattern's counted repetitions ({n,m}) add more than 100000"},
	"RegExp.prototype[Symbol.matchAll]":  {`const r = new RegExp(".".repeat(16), "g"); [...r[Symbol.matchAll]("a")]`, "RegExp.prototype[Symbol.matchAll]: the case-insensitive pattern's classes cover more than 16777216"},
	"String.prototype.match":             {`"a".match("(".repeat(1001))`, "String.prototype.match: the pattern nests groups more than 1000"},
	"String.prototype.matchAll":          {`"a".matchAll("a".repeat(2 ** 18 + 1))`, "String.prototype.matchAll: the pattern is 262145 characters long"},
	"String.prototype.search":            {`"a".search("a{1000}".repeat(101))`, "String.prototype.search: the pattern's counted repetitions"},
}

var guardProbeConfig = Config{MaxHeapBytes: 16 << 20}

// freshRealm prepares a realm of a runtime with cfg, as a run gets one.
func freshRealm(tb testing.TB, cfg Config) *realm {
	tb.Helper()
	g, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { g.Close() })
	rl, err := newRealm(g.cfg, g.prelude, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return rl
}

// builtinFunctions lists, as [path, value] pairs, the functions (and proxies) a realm's built-ins
// hold in data properties: globalThis.X, X.Y and X.prototype.Y, for the globals of a bare goja
// runtime (so not the console or the polyfills). No getter runs. X.prototype.constructor is X,
// checked as X; Symbol.hasInstance on the proxied buffer constructors is instanceof support, not
// a guard.
const builtinFunctions = `(names) => {
	const out = [];
	const visit = (path, holder) => {
		for (const k of Reflect.ownKeys(holder)) {
			if (k === "constructor" || k === Symbol.hasInstance) continue;
			const d = Object.getOwnPropertyDescriptor(holder, k);
			const name = typeof k === "symbol" ? "[" + k.description + "]" : "." + k;
			if ("value" in d && typeof d.value === "function") out.push([path + name, d.value]);
		}
	};
	for (const g of names) {
		if (g === "globalThis") continue;
		const d = Object.getOwnPropertyDescriptor(globalThis, g);
		if (!d || !("value" in d)) continue;
		const v = d.value;
		if (typeof v === "function") out.push([g, v]);
		if (v === null || (typeof v !== "object" && typeof v !== "function")) continue;
		visit(g, v);
		const p = Object.getOwnPropertyDescriptor(v, "prototype");
		if (p && "value" in p && p.value !== null && (typeof p.value === "object" || typeof p.value === "function")) visit(g + ".prototype", p.value);
	}
	return out;
}`

// guardedBuiltins returns the paths of rl's built-ins that are guards: proxies, functions
// written in JavaScript (the prelude's), or Go functions of this package.
func guardedBuiltins(t *testing.T, rl *realm) []string {
	t.Helper()
	bare := goja.New()
	names := bare.GlobalObject().GetOwnPropertyNames()
	fn, err := rl.vm.RunString(builtinFunctions)
	if err != nil {
		t.Fatal(err)
	}
	walk, _ := goja.AssertFunction(fn)
	list, err := walk(goja.Undefined(), rl.vm.ToValue(names))
	if err != nil {
		t.Fatal(err)
	}
	fnToString := rl.intr.functionProto.Get("toString")
	toString, _ := goja.AssertFunction(fnToString)
	var guarded []string
	pairs := list.(*goja.Object)
	for i := range pairs.Get("length").ToInteger() {
		pair := pairs.Get(strconv.FormatInt(i, 10)).(*goja.Object)
		path := pair.Get("0").String()
		v := pair.Get("1").(*goja.Object)
		switch {
		case v.ExportType() == proxyType:
			guarded = append(guarded, path)
		case !nativeSource(t, toString, v):
			guarded = append(guarded, path)
		default:
			if f := reflect.ValueOf(v.Export()); f.Kind() == reflect.Func {
				if name := runtime.FuncForPC(f.Pointer()).Name(); strings.Contains(name, "runcode/jsruntime.") {
					guarded = append(guarded, path)
				}
			}
		}
	}
	slices.Sort(guarded)
	return slices.Compact(guarded)
}

func nativeSource(t *testing.T, toString goja.Callable, f *goja.Object) bool {
	src, err := toString(f)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(src.String(), "[native code]")
}

// TestGuardsInstalled checks that a fresh realm guards exactly the built-ins guardTable lists, and
// that each guard refuses its probe with the documented error.
func TestGuardsInstalled(t *testing.T) {
	g, err := New(guardProbeConfig)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	rl, err := newRealm(g.cfg, g.prelude, nil)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, row := range guardTable {
		listed = append(listed, row.Builtins...)
	}
	slices.Sort(listed)
	got := guardedBuiltins(t, rl)
	for _, p := range got {
		if !slices.Contains(listed, p) {
			t.Errorf("%s is guarded in a fresh realm but missing from guardTable", p)
		}
	}
	for _, p := range listed {
		if !slices.Contains(got, p) {
			t.Errorf("%s is in guardTable but not guarded in a fresh realm", p)
		}
	}
	for _, name := range listed {
		t.Run(name, func(t *testing.T) {
			probe, ok := guardProbes[name]
			if !ok {
				t.Fatalf("no probe for %s", name)
			}
			if probe[0] == "" {
				t.Skipf("%s refuses nothing: it is a faster equivalent (see guardTable); a hostile case covers it", name)
			}
			rl, err := newRealm(g.cfg, g.prelude, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = rl.vm.RunString(probe[0])
			var ex *goja.Exception
			if !errors.As(err, &ex) {
				t.Fatalf("probe %q: err = %v, want a RangeError", probe[0], err)
			}
			o, ok := ex.Value().(*goja.Object)
			if !ok || o.Get("name").String() != "RangeError" || !strings.HasPrefix(o.Get("message").String(), probe[1]) {
				t.Errorf("probe %q threw %v, want RangeError: %s…", probe[0], ex.Value(), probe[1])
			}
		})
	}
}

// BenchmarkGuardedBuiltins compares guarded built-ins in a realm with goja's own in a bare
// runtime, on ordinary inputs.
func BenchmarkGuardedBuiltins(b *testing.B) {
	setup := `const rows = []; for (let i = 0; i < 1000; i++) rows.push({id: i, name: "item " + i, tags: ["a", "b"], price: i * 1.5, ok: i % 2 === 0, nested: {x: i, y: "é"}});
const nested = []; for (let i = 0; i < 10000; i++) nested.push([i, [i]]);
const text = "lorem ipsum dolor sit amet ".repeat(1000), textU = "lörem ipsum dolor sit amet ".repeat(1000);`
	cases := []struct{ name, code string }{
		{"JSON.stringify", `JSON.stringify(rows)`},
		{"flat", `nested.flat()`},
		{"flat-Infinity", `nested.flat(Infinity)`},
		{"flatMap", `nested.flatMap((x) => x)`},
		{"toUpperCase", `text.toUpperCase()`},
		{"replace-template", `text.replace(/o/g, "[$&]")`},
		// Not guards of this table: goja's fast paths (runcode's fork) against upstream goja's.
		{"replace-regexp", `text.replace(/o/g, "0")`},
		{"split-regexp", `text.split(/ /)`},
		{"split-regexp-nonASCII", `textU.split(/ /)`},
	}
	rl := freshRealm(b, Config{})
	bare := goja.New()
	for _, vm := range []*goja.Runtime{rl.vm, bare} {
		if _, err := vm.RunString(setup); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range cases {
		for _, v := range []struct {
			name string
			vm   *goja.Runtime
		}{{"guarded", rl.vm}, {"goja", bare}} {
			prg := goja.MustCompile(c.name, c.code, true)
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				for b.Loop() {
					if _, err := v.vm.RunProgram(prg); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// addedProbes are, for each built-in of addedTable, a program in a run of guardProbeConfig
// (maxElements 256Ki) and the start of the failure it must end with ("kind: message"). The
// console's budget polling is covered by TestConsoleHostile.
var addedProbes = map[string][2]string{
	"setTimeout":                 {`for (;;) setTimeout(() => {}, 1e6)`, "exception: RangeError: too many pending timers"},
	"setInterval":                {`for (;;) setInterval(() => {}, 1e6)`, "exception: RangeError: too many pending timers"},
	"setImmediate":               {`for (;;) setImmediate(() => {})`, "exception: RangeError: too many pending timers"},
	"URL":                        {`new URL("http://a/" + "x".repeat(2 ** 21))`, "exception: TypeError: Invalid URL: longer than 2097152 bytes"},
	"URLSearchParams":            {`const u = new URL("http://a/"); u.search = "x".repeat(2 ** 21 + 1)`, "exception: TypeError: Invalid URL: longer than 2097152 bytes"},
	"crypto.getRandomValues":     {`crypto.getRandomValues(new Uint8Array(65537))`, "exception: QuotaExceededError: The requested length exceeds 65,536 bytes"},
	"%TypedArray%.from":          {`Uint8Array.from("x".repeat(2 ** 18 + 1))`, "exception: RangeError: Invalid array length"},
	"Iterator.prototype.toArray": {`Iterator.from({ next() { return { done: false, value: 1 } } }).toArray()`, "exception: RangeError: Invalid array length"},
	"console.log":                {`let x = "x".repeat(9000); for (let i = 0; i < 4; i++) x = Array(100).fill(x); console.log(x)`, "output-limit: "},
	"console.info":               {`let x = "x".repeat(9000); for (let i = 0; i < 4; i++) x = Array(100).fill(x); console.info(x)`, "output-limit: "},
	"console.warn":               {`let x = "x".repeat(9000); for (let i = 0; i < 4; i++) x = Array(100).fill(x); console.warn(x)`, "output-limit: "},
	"console.error":              {`let x = "x".repeat(9000); for (let i = 0; i < 4; i++) x = Array(100).fill(x); console.error(x)`, "output-limit: "},
	"console.debug":              {`let x = "x".repeat(9000); for (let i = 0; i < 4; i++) x = Array(100).fill(x); console.debug(x)`, "output-limit: "},
	"console.table":              {`let x = "x".repeat(9000); for (let i = 0; i < 3; i++) x = Array(100).fill(x); console.table(x)`, "output-limit: "},
	"console.dir":                {`let x = "x".repeat(9000); for (let i = 0; i < 4; i++) x = Array(100).fill(x); console.dir(x)`, "output-limit: "},
}

// TestAddedBuiltinsBounded checks that each built-in of addedTable refuses its probe as the table
// says.
func TestAddedBuiltinsBounded(t *testing.T) {
	cfg := guardProbeConfig
	cfg.ComputeBudget = 30 * time.Second // the toArray probe iterates 262,145 times; a loaded machine is slow
	cfg.MaxOutputBytes = 1 << 20
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, row := range addedTable {
		for _, name := range row.Builtins {
			t.Run(name, func(t *testing.T) {
				probe, ok := addedProbes[name]
				if !ok {
					t.Fatalf("no probe for %s", name)
				}
				res, err := g.Run(context.Background(), Request{Program: probe[0]})
				if err != nil {
					t.Fatal(err)
				}
				if res.Error == nil {
					t.Fatalf("probe %q succeeded, want %s…", probe[0], probe[1])
				}
				if got := string(res.Error.Kind) + ": " + res.Error.Message; !strings.HasPrefix(got, probe[1]) {
					t.Errorf("probe %q ended with %.200s, want %s…", probe[0], got, probe[1])
				}
			})
		}
	}
}

// forkProbes are, for each built-in of forkTable, a program whose one call of it works for
// seconds without interruption (a single native step before the fork's changes), in a run of
// forkProbeConfig.
var forkProbes = map[string]string{
	"JSON.parse":                   `const text = "[" + "1,".repeat(3e7) + "1]"; JSON.parse(text)`,
	"String.prototype.normalize":   `const s = "e\u0301,".repeat(2 ** 25); s.normalize()`,
	"String.prototype.toUpperCase": `const s = "é,".repeat(2 ** 26); s.toUpperCase()`,
	"String.prototype.toLowerCase": `const s = "É,".repeat(2 ** 26); s.toLowerCase()`,
	"String.prototype.trim":        `const s = " ".repeat(2 ** 27) + "é"; for (;;) s.trim()`,
	"String.prototype.trimStart":   `const s = " ".repeat(2 ** 27) + "é"; for (;;) s.trimStart()`,
	"String.prototype.trimEnd":     `const s = "é" + " ".repeat(2 ** 27); for (;;) s.trimEnd()`,
	"String.prototype.split":       `const s = "é,".repeat(2 ** 25); s.split(",")`,
	"String.prototype.replaceAll":  `const s = "é,".repeat(2 ** 25); s.replaceAll(",", ";")`,
}

var forkProbeConfig = Config{MaxHeapBytes: 1 << 30, ComputeBudget: 200 * time.Millisecond, WallCeiling: 10 * time.Second}

// TestForkBuiltinsInterruptible checks that each built-in of forkTable ends at the compute budget
// (timeout, within a second of it) on an input that takes it seconds.
func TestForkBuiltinsInterruptible(t *testing.T) {
	g, err := New(forkProbeConfig)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, row := range forkTable {
		for _, name := range row.Builtins {
			t.Run(name, func(t *testing.T) {
				probe, ok := forkProbes[name]
				if !ok {
					t.Fatalf("no probe for %s", name)
				}
				// The bound is on wall time, which a loaded machine (go test running packages in
				// parallel under -race) stretches: a probe over it gets one more try, and only two
				// slow runs fail. A built-in that cannot be interrupted takes seconds every time.
				bound := forkProbeConfig.ComputeBudget + time.Second
				var tries []time.Duration
				for len(tries) < 2 {
					start := time.Now()
					res, err := g.Run(context.Background(), Request{Program: probe})
					elapsed := time.Since(start)
					if err != nil {
						t.Fatal(err)
					}
					if res.Error == nil || res.Error.Kind != KindTimeout {
						t.Fatalf("probe %q ended with %+v, want a timeout", probe, res.Error)
					}
					tries = append(tries, elapsed)
					if elapsed <= bound {
						break
					}
				}
				if last := tries[len(tries)-1]; last > bound {
					t.Errorf("probe %q took %v, over %v", probe, tries, bound)
				}
			})
		}
	}
}
