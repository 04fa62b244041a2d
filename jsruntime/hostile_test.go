package jsruntime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// hostileCase is one program of testdata/hostile, its header parsed (see the README there).
type hostileCase struct {
	name    string
	program string
	expect  []outcome
	cfg     jsruntime.Config
	serial  bool
	logs    []string // nil: not checked
}

// outcome is one acceptable result: a value (kind "") or a failure kind with a message prefix.
type outcome struct {
	kind   jsruntime.FailureKind
	prefix string
	value  string // compact JSON, "" for no value; only when kind == ""
}

func (o outcome) String() string {
	if o.kind == "" {
		return "value: " + o.value
	}
	if o.prefix == "" {
		return string(o.kind)
	}
	return string(o.kind) + ": " + o.prefix
}

func (o outcome) matches(res jsruntime.Result) bool {
	if o.kind == "" {
		got := ""
		if res.Value.IsDefined() {
			got = res.Value.String()
		}
		return res.Error == nil && got == o.value
	}
	return res.Error != nil && res.Error.Kind == o.kind && strings.HasPrefix(res.Error.Message, o.prefix) && !res.Value.IsDefined()
}

var failureKinds = []jsruntime.FailureKind{jsruntime.KindException, jsruntime.KindTimeout, jsruntime.KindAbort,
	jsruntime.KindWorkerExit, jsruntime.KindInvalidOutput, jsruntime.KindOutputLimit}

// hostileDefaults are the runner's budgets for a case whose header does not set them.
var hostileDefaults = jsruntime.Config{ComputeBudget: 2 * time.Second, WallCeiling: 5 * time.Second}

func parseOutcome(s string) (outcome, error) {
	s = strings.TrimSpace(s)
	if v, ok := strings.CutPrefix(s, "value:"); ok {
		v = strings.TrimSpace(v)
		if v == "" {
			return outcome{}, nil
		}
		parsed, err := jsonv.ParseString(v)
		if err != nil {
			return outcome{}, fmt.Errorf("value %q: %v", v, err)
		}
		return outcome{value: parsed.String()}, nil
	}
	kind, prefix, _ := strings.Cut(s, ":")
	o := outcome{kind: jsruntime.FailureKind(strings.TrimSpace(kind)), prefix: strings.TrimPrefix(prefix, " ")}
	if !slices.Contains(failureKinds, o.kind) {
		return outcome{}, fmt.Errorf("unknown kind %q", kind)
	}
	return o, nil
}

func parseByteSize(s string) (int64, error) {
	mult := int64(1)
	for suffix, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			s, mult = n, m
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n * mult, err
}

func parseHostileCase(name, src string) (hostileCase, error) {
	c := hostileCase{name: name, program: src, cfg: hostileDefaults}
	haveExpect := false
	for line := range strings.Lines(src) {
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "//")
		if !ok {
			break
		}
		key, val, _ := strings.Cut(strings.TrimSpace(rest), ":")
		switch key {
		case "expect":
			for alt := range strings.SplitSeq(val, "|") {
				o, err := parseOutcome(alt)
				if err != nil {
					return c, fmt.Errorf("expect: %v", err)
				}
				c.expect = append(c.expect, o)
			}
			haveExpect = true
		case "logs":
			c.logs = []string{}
			if err := json.Unmarshal([]byte(val), &c.logs); err != nil {
				return c, fmt.Errorf("logs: %v", err)
			}
		case "config":
			for _, f := range strings.Fields(val) {
				k, v, _ := strings.Cut(f, "=")
				var err error
				switch k {
				case "serial":
					c.serial = true
				case "compute":
					c.cfg.ComputeBudget, err = time.ParseDuration(v)
				case "wall":
					c.cfg.WallCeiling, err = time.ParseDuration(v)
				case "heap":
					c.cfg.MaxHeapBytes, err = parseByteSize(v)
				case "output":
					c.cfg.MaxOutputBytes, err = strconv.Atoi(v)
				case "stack":
					c.cfg.MaxStackDepth, err = strconv.Atoi(v)
				default:
					err = errors.New("unknown key")
				}
				if err != nil {
					return c, fmt.Errorf("config %q: %v", f, err)
				}
			}
		}
	}
	if !haveExpect {
		return c, errors.New("no // expect: header")
	}
	return c, nil
}

func loadHostileCorpus(t *testing.T) []hostileCase {
	t.Helper()
	var files []string
	for _, pattern := range []string{"*.js", "*.ts"} {
		m, err := filepath.Glob(filepath.Join("testdata", "hostile", pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	slices.Sort(files)
	var cases []hostileCase
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := parseHostileCase(filepath.Base(f), string(src))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		cases = append(cases, c)
	}
	if len(cases) < 30 {
		t.Fatalf("corpus has %d cases, want at least 30", len(cases))
	}
	return cases
}

// hostileBindings is the fixed namespace of the corpus (see testdata/hostile/README.md).
func hostileBindings() []jsruntime.Namespace {
	protoResult := jsonv.MustParse(`{"__proto__":{"polluted":true},"ok":1}`)
	return toolsNamespace(echo("echo"), failing("fail", "nope"),
		jsruntime.Function{Name: "__proto__", Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
			settle(protoResult, nil)
		}},
		never("never"))
}

// hostileProbe runs after every case on the same runtime: the realm is fresh and bindings work.
const (
	hostileProbe     = `return [typeof ({}).polluted, typeof [].map, typeof JSON.stringify, Object.keys(Object.prototype), typeof Function.prototype.call, typeof globalThis.escaped, await tools.echo({n: 1})]`
	hostileProbeWant = `["undefined","function","function",[],"function","undefined",{"n":1}]`
)

// TestHostileCorpus runs every program of testdata/hostile against both isolations: each ends
// with its expected outcome within its wall ceiling plus slack, and the runtime then runs a
// probe program on a clean realm.
func TestHostileCorpus(t *testing.T) {
	cases := loadHostileCorpus(t)
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			// Serial cases first (memory bombs: the in-process watchdog is process-wide and
			// would fail concurrent runs too), then the rest in parallel.
			for _, c := range cases {
				if c.serial {
					t.Run(c.name, func(t *testing.T) { c.check(t, iso) })
				}
			}
			t.Run("parallel", func(t *testing.T) {
				for _, c := range cases {
					if !c.serial {
						t.Run(c.name, func(t *testing.T) {
							t.Parallel()
							c.check(t, iso)
						})
					}
				}
			})
		})
	}
}

func (c hostileCase) check(t *testing.T, iso isolation) {
	rt := iso.new(t, c.cfg)
	defer rt.Close()
	bound := c.cfg.WallCeiling + time.Second + 2*slack()
	start := time.Now()
	res, err := rt.Run(context.Background(), jsruntime.Request{Program: c.program, Bindings: hostileBindings()})
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !slices.ContainsFunc(c.expect, func(o outcome) bool { return o.matches(res) }) {
		t.Errorf("outcome = %.400s, want %v", describe(res), c.expect)
	}
	if c.logs != nil && !slices.Equal(res.Logs, c.logs) {
		t.Errorf("logs = %.300q, want %q", res.Logs, c.logs)
	}
	if elapsed > bound {
		t.Errorf("took %v, bound %v", elapsed, bound)
	}
	t.Logf("%s after %v", describe(res), elapsed.Round(time.Millisecond))
	probe, err := rt.Run(context.Background(), jsruntime.Request{Program: hostileProbe, Bindings: hostileBindings()})
	if err != nil {
		t.Fatalf("probe Run: %v", err)
	}
	if probe.Error != nil || probe.Value.String() != hostileProbeWant {
		t.Errorf("probe after the case = %s, want %s", describe(probe), hostileProbeWant)
	}
}

func describe(res jsruntime.Result) string {
	if res.Error != nil {
		return string(res.Error.Kind) + ": " + res.Error.Message
	}
	if !res.Value.IsDefined() {
		return "value: (none)"
	}
	return "value: " + res.Value.String()
}
