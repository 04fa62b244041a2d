package jsruntime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
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

// BenchmarkProcessIsolation is the trivial program of BenchmarkRuntimeTrivialJS on a warm
// process pool: the run and its one binding call cross the pipe.
func BenchmarkProcessIsolation(b *testing.B) {
	p, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	req := jsruntime.Request{Program: `const r = await tools.echo({x: 1}); return r`, Bindings: toolsNamespace(echo("echo"))}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := p.Run(ctx, req)
		if err != nil || res.Error != nil {
			b.Fatal(err, res.Error)
		}
	}
}

// BenchmarkSourceNesting measures the nesting scan every newly compiled program pays before it
// is parsed (the compile cache skips it for programs seen before).
func BenchmarkSourceNesting(b *testing.B) {
	src := fmt.Sprintf(typeScript50, 0)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		jsruntime.SourceNesting(src)
	}
}
