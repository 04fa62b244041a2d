package jsruntime

import (
	"fmt"
	"math"
	"testing"
	"time"
)

func TestLedgerKeepsTheFittingPrefixOfTheFirstOverflowingLine(t *testing.T) {
	led := newLedger(15, nil)
	var admitted []bool
	for _, line := range []string{"12345", "123456", "dropped"} {
		admitted = append(admitted, led.admit(line))
	}
	if got := fmt.Sprintf("%q %v", led.logs, admitted); got != `["12345" "123"] [true false false]` {
		t.Fatalf("got %s", got)
	}
	if led.total != 15 {
		t.Errorf("total = %d, want 15", led.total)
	}
}

func TestFittingPrefixIsCodePointAligned(t *testing.T) {
	tests := []struct {
		s      string
		budget int
		want   string
	}{
		{"abc", 5, "abc"},
		{"abc", 4, "ab"},
		{"abc", 2, ""},
		{"€€", 6, "€"},
		{"€€", 7, "€"},
		{"€€", 8, "€€"},
		{"😀x", 5, ""},
		{"😀x", 6, "😀"},
		{"a\nb", 4, "a"},
		{"a\nb", 5, "a\n"},
		{"\x01", 7, ""},
		{"\x01", 8, "\x01"},
	}
	for _, tt := range tests {
		if got := fittingPrefix(tt.s, tt.budget); got != tt.want {
			t.Errorf("fittingPrefix(%q, %d) = %q, want %q", tt.s, tt.budget, got, tt.want)
		}
	}
}

func TestPlainJavaScriptSkipsTheTransform(t *testing.T) {
	prefix := `(async function (tools, console) {"use strict";`
	cases := []struct {
		program  string
		fastPath bool
	}{
		{"const r = await tools.echo({x: 1});\nreturn r", true},
		{"class A { #x = 1; get x() { return this.#x } }\nreturn new A().x ?? 0", true},
		{"const n: number = 1;\nreturn n", false},
		{"enum E { A }\nreturn E.A", false},
		{"async function* g() { yield 1 }\nfor await (const x of g()) {}", false},
		{"using x = null;", false},
	}
	for _, c := range cases {
		got := transformAndCompile(prefix, c.program)
		if got.prg == nil {
			t.Fatalf("%q did not compile: %s", c.program, got.msg)
		}
		if (got.lineOneShift > 0) != c.fastPath {
			t.Errorf("%q: fast path %v, want %v", c.program, got.lineOneShift > 0, c.fastPath)
		}
	}
}

func TestFixLineOneColumns(t *testing.T) {
	cases := map[string]string{
		"Error: x\n\tat main.ts:1:52(3)\n\tat main.ts:1:2(9)": "Error: x\n\tat main.ts:1:7(3)\n\tat main.ts:1:2(9)",
		"at main.ts:12:52(3)": "at main.ts:12:52(3)",
		"no position":         "no position",
	}
	for in, want := range cases {
		if got := fixLineOneColumns(in, 45); got != want {
			t.Errorf("fixLineOneColumns(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkNewRealm prepares one realm (runtime, prelude, console) with the bindings of 50
// tools: the work Config.Prewarm moves off a run's critical path.
func BenchmarkNewRealm(b *testing.B) {
	g, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	ms := make([]Member, 50)
	for i := range ms {
		ms[i] = Member{Name: fmt.Sprintf("tool%d", i)}
	}
	members, err := NewMembers(ms)
	if err != nil {
		b.Fatal(err)
	}
	shape := []boundNamespace{{global: "tools", members: members, errorClass: &ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := newRealm(g.cfg, g.prelude, shape); err != nil {
			b.Fatal(err)
		}
	}
}

// The wait for calls a program left pending ends at least settleGrace before the wall-clock
// ceiling, so that it never turns a program that returned in time into a timeout.
func TestSettleWaitEndsBeforeWallCeiling(t *testing.T) {
	for remaining, want := range map[time.Duration]time.Duration{
		time.Minute:                    settleGrace,
		2 * settleGrace:                settleGrace,
		settleGrace + time.Millisecond: time.Millisecond,
		settleGrace:                    0,
		time.Millisecond:               0,
		-time.Second:                   0,
	} {
		if got := settleWait(remaining); got != want {
			t.Errorf("settleWait(%v) = %v, want %v", remaining, got, want)
		}
	}
}

func TestHeapAllowanceFollowsTheCollectorSettings(t *testing.T) {
	const mib = 1 << 20
	noLimit := int64(math.MaxInt64)
	tests := []struct {
		name                         string
		gcPercent, memoryLimit, base int64
		want                         int64
	}{
		{"GOGC=100", 100, noLimit, 0, 1024 * mib},
		{"GOGC=50 keeps twice the limit", 50, noLimit, 0, 1024 * mib},
		{"GOGC=400", 400, noLimit, 0, 2560 * mib},
		{"GOGC=off", -1, noLimit, 0, 1024 * mib},
		{"GOGC=400 under a 2 GiB soft limit", 400, 2048 * mib, 24 * mib, 2024 * mib},
		{"soft limit never cuts below twice the limit", 400, 600 * mib, 0, 1024 * mib},
		{"GOGC=800 under a 4 GiB soft limit", 800, 4096 * mib, 0, 4096 * mib},
	}
	for _, tt := range tests {
		if got := heapAllowance(512*mib, tt.gcPercent, tt.memoryLimit, tt.base); got != tt.want {
			t.Errorf("%s: allowance = %d MiB, want %d MiB", tt.name, got/mib, tt.want/mib)
		}
	}
}
