package jsruntime_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// fuzzRuntimes caches one in-process runtime per config for the life of a fuzz worker.
var fuzzRuntimes sync.Map // jsruntime.Config -> *jsruntime.Goja

func fuzzRuntime(t *testing.T, cfg jsruntime.Config) *jsruntime.Goja {
	if g, ok := fuzzRuntimes.Load(cfg); ok {
		return g.(*jsruntime.Goja)
	}
	g, _ := fuzzRuntimes.LoadOrStore(cfg, newRuntime(t, cfg))
	return g.(*jsruntime.Goja)
}

// fuzzProcessPool is one process-isolated runtime per fuzz worker, for FuzzJSONConversion.
var fuzzProcessPool = sync.OnceValues(func() (*jsruntime.ProcessPool, error) {
	return jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 1, Config: jsruntime.Config{ComputeBudget: 5 * time.Second}})
})

// FuzzTransformAndRun runs arbitrary source under small budgets: the host never crashes, a run
// never outlasts the wall ceiling by more than slack, the result has a valid kind, a failed run
// has no value, and the output stays within the cap.
func FuzzTransformAndRun(f *testing.F) {
	for _, s := range []string{
		"return 1", "", "const x = ;", "return await tools.echo({a: [1, 'x']})", "throw new Error('e')",
		"console.log('a', {b: 1}); return [1, 2]", "for (;;) {}", "await new Promise(() => {})",
		"interface A { x: number }\nconst a: A = {x: 1}; return a", "return tools", "'x'.repeat(2**40)",
		"}); (async function () {", "return eval('1 + 1')", "await tools.fail({})", "return -0",
		"/^(a+)+$(?!x)/.test('a'.repeat(28) + 'b')", "for (;;) console.log('x')",
	} {
		f.Add(s)
	}
	if files, _ := filepath.Glob(filepath.Join("testdata", "hostile", "*.js")); len(files) > 0 {
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil && !strings.Contains(string(src), "serial") {
				f.Add(string(src))
			}
		}
	}
	cfg := jsruntime.Config{ComputeBudget: 100 * time.Millisecond, WallCeiling: 500 * time.Millisecond,
		MaxOutputBytes: 4096, MaxHeapBytes: 256 << 20}
	f.Fuzz(func(t *testing.T, src string) {
		g := fuzzRuntime(t, cfg)
		start := time.Now()
		res, err := g.Run(context.Background(), jsruntime.Request{Program: src, Bindings: hostileBindings()})
		elapsed := time.Since(start)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if limit := cfg.WallCeiling + jsruntime.RegexpMatchTimeout + 2*time.Second; elapsed > limit {
			t.Fatalf("run took %v, over %v: %s", elapsed, limit, describe(res))
		}
		if res.Error != nil {
			if !slices.Contains(failureKinds, res.Error.Kind) {
				t.Fatalf("invalid kind %q", res.Error.Kind)
			}
			if res.Value.IsDefined() {
				t.Fatalf("failed run has a value %v", res.Value)
			}
		}
		if n := outputBytes(res); n > cfg.MaxOutputBytes {
			t.Fatalf("output %d bytes, over the cap %d: %s", n, cfg.MaxOutputBytes, describe(res))
		}
	})
}

// FuzzJSONConversion passes arbitrary JSON from the host into the program (a binding's result),
// back to the host (a binding's argument) and out as the completion: it must round-trip exactly,
// in both isolations, key order included as JavaScript defines it (jsKeyOrder).
func FuzzJSONConversion(f *testing.F) {
	for _, s := range []string{`null`, `true`, `"s\u0000\ud83d\ude00\u2028"`, `1.5e300`, `-0`, `[]`, `{}`,
		`{"b":1,"a":2,"__proto__":{"x":[1,{}]}}`, `[1,[2,[3,{"k":"v"}]]]`, `{"a":1,"a":2}`, `{"10":1,"2":2,"x":3}`, `{"4294967295":1,"4294967294":2,"01":3,"-1":4,"1.5":5,"1":6}`,
		`[0.1,1e21,1e-7,123456789012345680000]`, `{"constructor":{"prototype":1},"toString":"x"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := jsonv.ParseString(text)
		if err != nil {
			return
		}
		want := jsKeyOrder(v).String()
		var got []string
		var mu sync.Mutex
		fns := []jsruntime.Function{
			{Name: "get", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) { settle(v, nil) }},
			{Name: "put", Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
				mu.Lock()
				got = append(got, args.String())
				mu.Unlock()
				settle(args, nil)
			}},
		}
		req := jsruntime.Request{Program: `const v = await tools.get(null); return await tools.put(v)`, Bindings: toolsNamespace(fns...)}
		pool, err := fuzzProcessPool()
		if err != nil {
			t.Fatal(err)
		}
		for _, rt := range []jsruntime.Runtime{fuzzRuntime(t, jsruntime.Config{ComputeBudget: 5 * time.Second}), pool} {
			got = nil
			res, err := rt.Run(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Error != nil {
				t.Fatalf("%T: %s for %s", rt, describe(res), want)
			}
			if len(got) != 1 || got[0] != want {
				t.Fatalf("%T: the binding got %q, want %s", rt, got, want)
			}
			if res.Value.String() != want {
				t.Fatalf("%T: completion %s, want %s", rt, res.Value, want)
			}
		}
	})
}

// jsKeyOrder returns v with every object's keys in JavaScript's own-property order: array-index
// keys ("0" to "4294967294" in canonical form) first in ascending numeric order, then the other
// keys in insertion order. Every JavaScript engine (V8 upstream, goja here) orders them so.
func jsKeyOrder(v jsonv.Value) jsonv.Value {
	switch v.Kind() {
	case jsonv.Array:
		items := v.Items()
		out := make([]jsonv.Value, len(items))
		for i, it := range items {
			out[i] = jsKeyOrder(it)
		}
		return jsonv.ArrayValue(out...)
	case jsonv.Object:
		var index, other []jsonv.Member
		for _, m := range v.Members() {
			m.Value = jsKeyOrder(m.Value)
			if n, err := strconv.ParseUint(m.Key, 10, 32); err == nil && n < 1<<32-1 && strconv.FormatUint(n, 10) == m.Key {
				index = append(index, m)
			} else {
				other = append(other, m)
			}
		}
		slices.SortStableFunc(index, func(a, b jsonv.Member) int {
			x, _ := strconv.ParseUint(a.Key, 10, 32)
			y, _ := strconv.ParseUint(b.Key, 10, 32)
			return cmp.Compare(x, y)
		})
		return jsonv.ObjectValue(append(index, other...)...)
	}
	return v
}

// refStringLen is the JSON-string byte length of valid UTF-8 s, per code point as the output
// ledger specifies: quotes 2; '"' and '\\' and \b \t \n \f \r 2; other controls 6; else UTF-8.
func refStringLen(s string) int {
	n := 2
	for _, r := range s {
		switch {
		case strings.ContainsRune("\"\\\b\t\n\f\r", r):
			n += 2
		case r < 0x20:
			n += 6
		default:
			n += utf8.RuneLen(r)
		}
	}
	return n
}

// refPrefix is the longest code-point-aligned prefix of s whose JSON string length is at most
// budget.
func refPrefix(s string, budget int) string {
	best := ""
	for i := range s {
		if refStringLen(s[:i]) > budget {
			return best
		}
		best = s[:i]
	}
	if refStringLen(s) <= budget {
		return s
	}
	return best
}

// refAdmit admits lines into a ledger of cap bytes starting at 2 ("[]"): whole lines while
// they fit, then the non-empty fitting prefix of the first that does not. It reports the kept
// lines, their JSON array's byte length, and whether a line did not fit whole.
func refAdmit(lines []string, cap int) (kept []string, total int, overflowed bool) {
	total = 2
	for _, line := range lines {
		sep := min(len(kept), 1)
		if c := refStringLen(line); total+sep+c <= cap {
			kept = append(kept, line)
			total += sep + c
			continue
		}
		if p := refPrefix(line, cap-total-sep); p != "" {
			kept = append(kept, p)
			total += sep + refStringLen(p)
		}
		return kept, total, true
	}
	return kept, total, false
}

// refLedger is the reference outcome of a run that logs lines and then returns (mode 0),
// throws (mode 1) or just ends (mode 2) with completion, under an output cap.
func refLedger(lines []string, completion string, mode, cap int) jsruntime.Result {
	logs, total, overflowed := refAdmit(lines, cap)
	if !overflowed {
		switch mode {
		case 0:
			if total+refStringLen(completion) <= cap {
				return jsruntime.Result{Logs: logs, Value: jsonv.StringValue(completion)}
			}
		case 1:
			if total+refStringLen(completion) <= cap {
				return jsruntime.Result{Logs: logs, Error: &jsruntime.Failure{Kind: jsruntime.KindException, Message: completion}}
			}
		default:
			return jsruntime.Result{Logs: logs}
		}
	}
	msg := fmt.Sprintf("outer output exceeded %d bytes", cap)
	kept, total, _ := refAdmit(logs, cap-refStringLen(msg))
	return jsruntime.Result{Logs: kept, Error: &jsruntime.Failure{Kind: jsruntime.KindOutputLimit, Message: refPrefix(msg, cap-total)}}
}

// FuzzLedger checks the runtime's output ledger against refLedger: random log lines (separated
// by \x1f in the input), a completion string returned or thrown, and a cap.
func FuzzLedger(f *testing.F) {
	f.Add("12345\x1f123456\x1fdropped", "", uint8(2), uint16(15))
	f.Add("abc", "xy", uint8(0), uint16(11))
	f.Add("abc", "xy", uint8(0), uint16(10))
	f.Add("abc", "xy", uint8(1), uint16(10))
	f.Add("héllo €\x1f😀 \"quoted\"\n\t\x01", "done", uint8(0), uint16(40))
	f.Add("", "€", uint8(0), uint16(7))
	f.Add("x\x1fy\x1f\x1fz", "\\", uint8(1), uint16(4))
	f.Add(strings.Repeat("log line ", 20), "a long completion value", uint8(0), uint16(60))
	f.Fuzz(func(t *testing.T, blob, completion string, mode uint8, capRaw uint16) {
		blob, completion = strings.ToValidUTF8(blob, "\uFFFD"), strings.ToValidUTF8(completion, "\uFFFD")
		var lines []string
		if blob != "" {
			lines = strings.Split(blob, "\x1f")
		}
		if len(lines) > 50 {
			lines = lines[:50]
		}
		cap := 4 + int(capRaw)%400
		var prog strings.Builder
		for _, l := range lines {
			lit, _ := json.Marshal(l)
			fmt.Fprintf(&prog, "console.log(%s);\n", lit)
		}
		lit, _ := json.Marshal(completion)
		switch mode % 3 {
		case 0:
			fmt.Fprintf(&prog, "return %s;\n", lit)
		case 1:
			fmt.Fprintf(&prog, "throw %s;\n", lit)
		}
		g := fuzzRuntime(t, jsruntime.Config{MaxOutputBytes: cap, ComputeBudget: 5 * time.Second})
		res, err := g.Run(context.Background(), jsruntime.Request{Program: prog.String()})
		if err != nil {
			t.Fatal(err)
		}
		want := refLedger(lines, completion, int(mode%3), cap)
		if describe(res) != describe(want) || !slices.Equal(res.Logs, want.Logs) {
			t.Fatalf("cap %d, mode %d, lines %q, completion %q:\n got %s logs %q\nwant %s logs %q",
				cap, mode%3, lines, completion, describe(res), res.Logs, describe(want), want.Logs)
		}
		logs := 2
		for i, l := range res.Logs {
			logs += refStringLen(l) + min(i, 1)
		}
		payload := 0
		if res.Error != nil {
			payload = refStringLen(res.Error.Message)
		} else if res.Value.IsDefined() {
			payload = refStringLen(res.Value.AsString())
		}
		if logs+payload > cap {
			t.Fatalf("JSON(logs) %d + JSON(payload) %d > cap %d", logs, payload, cap)
		}
	})
}
