package jsruntime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/jsruntime/internal/srcscan"
)

// typeScript50 is a realistic 50-line program: types, interfaces, generics, five binding calls.
const typeScript50 = `// variant %d
interface Issue { id: number; title: string; labels: string[]; score?: number }
interface Page<T> { items: T[]; next: string | null }
type Summary = { total: number; byLabel: Record<string, number>; top: Issue[] };

function groupCount<T, K extends string>(xs: T[], key: (x: T) => K[]): Record<K, number> {
	const out = {} as Record<K, number>;
	for (const x of xs) {
		for (const k of key(x)) out[k] = (out[k] ?? 0) + 1;
	}
	return out;
}

function topN<T>(xs: T[], n: number, by: (x: T) => number): T[] {
	return [...xs].sort((a, b) => by(b) - by(a)).slice(0, n);
}

class Collector<T extends { id: number }> {
	private seen = new Set<number>();
	readonly items: T[] = [];
	add(batch: T[]): number {
		let added = 0;
		for (const it of batch) {
			if (this.seen.has(it.id)) continue;
			this.seen.add(it.id);
			this.items.push(it);
			added++;
		}
		return added;
	}
}

const pages = await Promise.all([1, 2, 3].map((p) => tools.echo({ items: [{ id: p, title: "t" + p, labels: ["bug", p %% 2 ? "ui" : "api"], score: p * 10 }], next: null })));
const col = new Collector<Issue>();
for (const page of pages as Page<Issue>[]) col.add(page.items);
const extra = (await tools.echo({ items: [{ id: 9, title: "x", labels: ["docs"] }], next: null })) as Page<Issue>;
col.add(extra.items);
const summary: Summary = {
	total: col.items.length,
	byLabel: groupCount(col.items, (i) => i.labels),
	top: topN(col.items, 2, (i) => i.score ?? 0),
};
const saved = await tools.echo({ saved: summary.total });
console.log("summary", summary.total, saved);
return { ...summary, top: summary.top.map((i) => i.id) };
`

// BenchmarkRunTypeScript50 runs the 50-line TypeScript program with a cold transform cache:
// each iteration changes a comment, so esbuild and goja.Compile run every time.
func BenchmarkRunTypeScript50(b *testing.B) { benchCold(b, typeScript50) }

// benchCold runs template (with a %d for a comment that changes each iteration, so nothing is
// served from the compile cache) with one echo binding.
func benchCold(b *testing.B, template string) {
	g := newRuntime(b, jsruntime.Config{})
	ns := toolsNamespace(echo("echo"))
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		res, err := g.Run(ctx, jsruntime.Request{Program: fmt.Sprintf(template, i), Bindings: ns})
		if err != nil || res.Error != nil {
			b.Fatal(err, res.Error)
		}
	}
}

// BenchmarkRunJavaScriptCold runs a plain JavaScript program (the same logic as typeScript50,
// without types) with a cold cache: goja accepts it as written, so esbuild is skipped.
func BenchmarkRunJavaScriptCold(b *testing.B) { benchCold(b, javaScriptCold) }

const javaScriptCold = `// variant %d
const ids = [1, 2, 3, 4, 5];
const results = [];
for (const id of ids) {
  const r = await tools.echo({ id, tags: ["a", "b"] });
  results.push({ id, ok: r.id === id, size: r.tags.length });
}
const byOk = results.reduce((acc, r) => { (acc[r.ok] ??= []).push(r.id); return acc; }, {});
const total = results.map((r) => r.size).reduce((a, b) => a + b, 0);
return { total, byOk, first: results.at(0) };`

// benchIsolations are the two backends, each with a warm runtime: in-process with the default
// configuration, and a process pool of one worker.
var benchIsolations = []struct {
	name string
	open func(b *testing.B) jsruntime.ClosableRuntime
}{
	{jsruntime.IsolationInProcess, func(b *testing.B) jsruntime.ClosableRuntime { return newRuntime(b, jsruntime.Config{}) }},
	{jsruntime.IsolationProcess, func(b *testing.B) jsruntime.ClosableRuntime {
		p, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 1})
		if err != nil {
			b.Fatal(err)
		}
		return p
	}},
}

// benchBothIsolations runs program with an inline echo binding on each isolation, side by side;
// calls is how many binding calls one run makes, for a per-call figure.
func benchBothIsolations(b *testing.B, program string, calls int) {
	for _, iso := range benchIsolations {
		b.Run("isolation="+iso.name, func(b *testing.B) {
			rt := iso.open(b)
			defer rt.Close()
			req := jsruntime.Request{Program: program, Bindings: toolsNamespace(echo("echo"))}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res, err := rt.Run(ctx, req)
				if err != nil || res.Error != nil {
					b.Fatal(err, res.Error)
				}
			}
			if calls > 1 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls), "ns/call")
			}
		})
	}
}

// BenchmarkSourceNesting measures the nesting scan every newly compiled program pays before it
// is parsed (the compile cache skips it for programs seen before).
func BenchmarkSourceNesting(b *testing.B) {
	src := fmt.Sprintf(typeScript50, 0)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		srcscan.Nesting(src)
	}
}

// BenchmarkProcessIsolation is the trivial program of BenchmarkRuntimeTrivialJS (one awaited
// binding call) on a warm runtime of each isolation: under process isolation the run, its
// binding call and the result cross the pipe.
func BenchmarkProcessIsolation(b *testing.B) {
	benchBothIsolations(b, `const r = await tools.echo({x: 1}); return r`, 1)
}

// BenchmarkSubCallSequential is 1,000 sequential awaited binding calls in one run, on each
// isolation; ns/call is the cost of one call (under process isolation, one round trip of the
// pipe each).
func BenchmarkSubCallSequential(b *testing.B) {
	benchBothIsolations(b, `for (let i = 0; i < 1000; i++) await tools.echo({x: i}); return 1`, 1000)
}
