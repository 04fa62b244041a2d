package jsruntime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// constant settles inline with the string v.
func constant(name, v string) jsruntime.Function {
	return jsruntime.Function{Name: name, Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		settle(jsonv.StringValue(v), nil)
	}}
}

// TestPrewarmedRealmsCallTheirOwnRunsHostFunctions alternates runs whose bindings have the same
// shape, a different shape, and an error class, on runtimes that prepare their realms ahead
// (with the objects of the previous run's bindings) and on one that does not: every call
// reaches the host function of its own run, every error class is its own run's, and globals
// never leak from one run to the next.
func TestPrewarmedRealmsCallTheirOwnRunsHostFunctions(t *testing.T) {
	for _, prewarm := range []int{-1, 0, 3} {
		t.Run(fmt.Sprintf("prewarm=%d", prewarm), func(t *testing.T) {
			g := newRuntime(t, jsruntime.Config{Prewarm: prewarm})
			defer g.Close()
			for i := range 12 {
				v := fmt.Sprint(i)
				var ns []jsruntime.Namespace
				switch i % 3 {
				case 0, 1: // the same shape twice in a row, with different host functions
					ns = toolsNamespace(constant("a", "a"+v), failing("b", "b"+v))
				case 2:
					ns = []jsruntime.Namespace{
						{Global: "other", Functions: []jsruntime.Function{constant("b", "other"+v)}},
						{Global: "tools", Functions: []jsruntime.Function{failing("a", "a"+v)},
							ErrorClass: &jsruntime.ErrorClass{Name: "Oops", MemberNameProperty: "which"}},
					}
				}
				program := `const seen = typeof globalThis.leak; globalThis.leak = 1;
					const out = [seen];
					for (const [g, n] of [["tools", "a"], ["tools", "b"], ["other", "b"]]) {
						const ns = g === "tools" ? tools : (typeof other === "undefined" ? undefined : other);
						if (!ns || !ns[n]) continue;
						try { out.push(await ns[n]({})) } catch (e) { out.push(e.name + ":" + e.message + ":" + (e.toolName ?? e.which)) }
					}
					return out`
				want := map[int]string{
					0: fmt.Sprintf(`["undefined","a%s","ToolCallError:b%s:b"]`, v, v),
					1: fmt.Sprintf(`["undefined","a%s","ToolCallError:b%s:b"]`, v, v),
					2: fmt.Sprintf(`["undefined","Oops:a%s:a","other%s"]`, v, v),
				}[i%3]
				wantValue(t, run(t, g, program, ns), want)
				jsruntime.WaitPrewarmed(g) // the next run takes a realm prepared for this one's shape
			}
		})
	}
}

// TestPolyfillsAreInstalledWhenTheProgramNamesThem: the built-ins goja lacks are added for a
// program whose text names them, and only then.
func TestPolyfillsAreInstalledWhenTheProgramNamesThem(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{})
	defer g.Close()
	wantValue(t, run(t, g, `return [typeof structuredClone, typeof TextEncoder, typeof Map.groupBy]`, nil),
		`["function","function","function"]`)
	wantValue(t, run(t, g, `return ["structured" + "Clone", "at" + "ob"].map((n) => typeof globalThis[n])`, nil),
		`["undefined","undefined"]`)
	wantValue(t, run(t, g, `return typeof globalThis["at" + "ob"] + " " + typeof btoa`, nil), `"undefined function"`)
}

// TestConfigPrewarm: a negative Prewarm turns prewarming off, zero takes the default.
func TestConfigPrewarm(t *testing.T) {
	for cfg, want := range map[int]int{0: jsruntime.DefaultPrewarm, -1: 0, 4: 4} {
		g := newRuntime(t, jsruntime.Config{Prewarm: cfg})
		if got := g.Config().Prewarm; got != want {
			t.Errorf("Prewarm %d: effective %d, want %d", cfg, got, want)
		}
		g.Close()
	}
}
