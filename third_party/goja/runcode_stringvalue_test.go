package goja

import (
	"runtime"
	"strings"
	"testing"
)

func TestNewStringValue(t *testing.T) {
	vm := New()
	for _, s := range []string{"", "abc", strings.Repeat("x", 40), "é", strings.Repeat("é🙂", 20), "a\u0000b"} {
		got, want := NewStringValue(s), vm.ToValue(s)
		if !got.StrictEquals(want) || got.String() != s || got.Length() != want.(String).Length() {
			t.Errorf("NewStringValue(%q) = %q, want %q", s, got, want)
		}
	}
	vm.Set("s", NewStringValue(strings.Repeat("é", 100)))
	if v, err := vm.RunString(`s.length === 100 && s[99] === "é" && s.slice(1, 3) === "éé"`); err != nil || !v.ToBoolean() {
		t.Fatalf("string made by NewStringValue in a program: %v, %v", v, err)
	}
}

// NewStringValue's non-ASCII string does not keep the UTF-8 it was made from, as ToValue's does
// once the string has been used.
func TestNewStringValueKeepsOneForm(t *testing.T) {
	live := func() int64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	base := live()
	v := NewStringValue(strings.Repeat("é", 8<<20)) // 16 MiB of UTF-8, 16 MiB of UTF-16
	_ = v.Length()
	grew := live() - base
	runtime.KeepAlive(v)
	if grew > 20<<20 {
		t.Errorf("a string of 8Mi UTF-16 code units holds %d MiB; want about 16", grew>>20)
	}
}
