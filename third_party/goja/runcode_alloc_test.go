package goja

import "testing"

// BenchmarkRuncodeRecords parses 20,000 JSON records, sorts them by a property with a
// comparator and maps each to a small array (runcode_alloc.go).
func BenchmarkRuncodeRecords(b *testing.B) {
	vm := New()
	if _, err := vm.RunString(`const text = JSON.stringify(Array.from({length: 2e4}, (_, i) => ({id: i, name: "n" + i, score: (i * 7919) % 10007 / 7, tags: ["a", "b"], active: i % 2 === 0})));
function f() { const rs = JSON.parse(text); rs.sort((a, b) => b.score - a.score); return rs.map((r) => [r.id, r.name]).length; }`); err != nil {
		b.Fatal(err)
	}
	f, _ := AssertFunction(vm.Get("f"))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f(nil); err != nil {
			b.Fatal(err)
		}
	}
}
