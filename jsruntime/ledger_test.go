package jsruntime_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

func TestOutputLedger(t *testing.T) {
	tests := []struct {
		name     string
		cap      int
		program  string
		wantLogs []string
		want     string // compact JSON value, or "kind: message"
	}{
		{"euro fits", 7, `return "€"`, nil, `"€"`},
		{"euro over", 6, `return "€"`, nil, `output-limit: ou`},
		{"log and value fit", 11, `console.log("abc"); return "xy"`, []string{"abc"}, `"xy"`},
		{"log and value over", 10, `console.log("abc"); return "xy"`, nil, `output-limit: outer `},
		{"log and failure fit", 11, `console.log("abc"); throw "xy"`, []string{"abc"}, `exception: xy`},
		{"log and failure over", 10, `console.log("abc"); throw "xy"`, nil, `output-limit: outer `},
		{"value exactly at cap", 100, `return "x".repeat(96)`, nil, `"` + strings.Repeat("x", 96) + `"`},
		{"value one over cap", 100, `return "x".repeat(97)`, nil, `output-limit: outer output exceeded 100 bytes`},
		{"no value costs nothing", 4, `return`, nil, ``},
		{"overflowing logs, tiny cap", 15, `console.log("12345"); console.log("123456"); console.log("dropped")`,
			nil, `output-limit: outer outpu`},
		{"overflowing logs are recounted", 60, `console.log("12345"); console.log("x".repeat(40)); console.log("dropped"); return 1`,
			[]string{"12345", strings.Repeat("x", 16)}, `output-limit: outer output exceeded 60 bytes`},
		{"array over cap before its items", 20, `return new Array(30).fill(0)`, nil, `output-limit: outer output exc`},
		{"array exactly at cap", 23, `return new Array(10).fill(0)`, nil, `[0,0,0,0,0,0,0,0,0,0]`},
		{"numbers counted as formatted", 18, `return [1e21, 0.1, -5, 1]`, nil, `[1e+21,0.1,-5,1]`},
		{"numbers one over cap", 17, `return [1e21, 0.1, -5, 1]`, nil, `output-limit: outer output `},
		{"escapes counted", 100, `return {"a\n\"": "\u0001é"}`, nil, `{"a\n\"":"\u0001é"}`},
		{"escapes one over cap", 21, `return {"a\n\"": "\u0001é"}`, nil, `output-limit: outer output exce`},
		{"escapes exactly at cap", 22, `return {"a\n\"": "\u0001é"}`, nil, `{"a\n\"":"\u0001é"}`},
		{"long string over cap without a copy", 100, `return "x".repeat(1000)`, nil, `output-limit: outer output exceeded 100 bytes`},
		{"logs then value over the rest", 60, `console.log("x".repeat(10)); return "y".repeat(45)`, []string{strings.Repeat("x", 10)}, `output-limit: outer output exceeded 60 bytes`},
		{"logs then value in the rest", 60, `console.log("x".repeat(10)); return "y".repeat(44)`, []string{strings.Repeat("x", 10)}, `"` + strings.Repeat("y", 44) + `"`},
		{"over cap wins over a later invalid member", 100, `return ["x".repeat(300), 1n]`, nil, `output-limit: outer output exceeded 100 bytes`},
		{"invalid member before the cap is reached", 200, `return [1n, "x".repeat(300)]`, nil, `invalid-output: program completion cannot be converted to JSON: result[0]: BigInt, which JSON cannot hold (convert it with String() or Number())`},
		{"a member left out gives its key back", 9, `return {a: 1, long_key: undefined}`, nil, `{"a":1}`},
		{"a member left out, one byte short", 8, `return {a: 1, long_key: undefined}`, nil, `output-limit: oute`},
		{"holes counted as null", 12, `return [1, , 3]`, nil, `[1,null,3]`},
		{"holes over cap before they are read", 100, `return new Array(1e9)`, nil, `output-limit: outer output exceeded 100 bytes`},
		{"failure message charged", 20, `throw new Error("a long message that does not fit")`, nil, `output-limit: outer output exc`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newRuntime(t, jsruntime.Config{MaxOutputBytes: tt.cap})
			res := run(t, g, tt.program, nil)
			got := res.Value.String()
			if !res.Value.IsDefined() {
				got = ""
			}
			if res.Error != nil {
				got = string(res.Error.Kind) + ": " + res.Error.Message
			}
			if got != tt.want {
				t.Errorf("outcome = %s, want %s", got, tt.want)
			}
			if fmt.Sprintf("%q", res.Logs) != fmt.Sprintf("%q", tt.wantLogs) {
				t.Errorf("logs = %q, want %q", res.Logs, tt.wantLogs)
			}
			if n := outputBytes(res); n > tt.cap {
				t.Errorf("output is %d bytes, over the cap %d", n, tt.cap)
			}
		})
	}
}

// outputBytes is what the ledger charges for res: JSON(logs) plus JSON(value or message).
func outputBytes(res jsruntime.Result) int {
	logs := make([]jsonv.Value, len(res.Logs))
	for i, l := range res.Logs {
		logs[i] = jsonv.StringValue(l)
	}
	n := jsonv.ArrayValue(logs...).ByteLen()
	if res.Error != nil {
		return n + jsonv.StringByteLen(res.Error.Message)
	}
	return n + res.Value.ByteLen()
}

func TestOutputLimitInvariantHoldsForEveryCap(t *testing.T) {
	program := `console.log("héllo €"); console.log("😀 \"quoted\"\n\t\u0001"); console.log({a: [1, 2]}); return {done: "yes"}`
	for limit := 4; limit <= 120; limit++ {
		g := newRuntime(t, jsruntime.Config{MaxOutputBytes: limit})
		res := run(t, g, program, nil)
		if n := outputBytes(res); n > limit {
			t.Errorf("cap %d: output %d bytes (%+v)", limit, n, res)
		}
		if res.Error != nil && res.Error.Kind != jsruntime.KindOutputLimit {
			t.Errorf("cap %d: unexpected failure %+v", limit, res.Error)
		}
	}
}

func TestLogFloodStopsTheRun(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{MaxOutputBytes: 1000, ComputeBudget: 5 * time.Second})
	start := time.Now()
	res := run(t, g, `for (let i = 0; ; i++) console.log("line " + i)`, nil)
	if res.Error == nil || res.Error.Kind != jsruntime.KindOutputLimit {
		t.Fatalf("got %+v", res.Error)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
	if outputBytes(res) > 1000 {
		t.Errorf("over the cap")
	}
}
