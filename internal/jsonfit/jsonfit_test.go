package jsonfit

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/jsonv"
)

// checkFit fits v to budget and checks what every fit must be: valid JSON, at most budget
// bytes, of v's kind, v itself when it fits, and for a root object the same keys in the same
// order unless a marker member says keys were left out.
func checkFit(t testing.TB, v jsonv.Value, budget int, opts Options) (jsonv.Value, Report) {
	t.Helper()
	out, rep := Fit(v, budget, opts)
	text := jsonv.AppendJSON(nil, out)
	if !json.Valid(text) {
		t.Fatalf("Fit(%.200s, %d) is not valid JSON: %.300s", v, budget, text)
	}
	if budget >= MinBudget && len(text) > budget {
		t.Fatalf("Fit(%.200s, %d) is %d bytes: %.300s", v, budget, len(text), text)
	}
	if out.Kind() != v.Kind() {
		t.Fatalf("Fit(%.200s, %d) is a %s, want a %s", v, budget, out.Kind(), v.Kind())
	}
	if v.ByteLen() <= budget {
		if out.String() != v.String() || rep.Cut() {
			t.Fatalf("Fit(%.200s, %d) changed a value that fits: %.300s (%+v)", v, budget, out, rep)
		}
	} else if budget >= MinBudget && !rep.Cut() {
		t.Fatalf("Fit(%.200s, %d) reports nothing cut", v, budget)
	}
	if v.Kind() == jsonv.Object && rep.Objects == 0 {
		if out.Len() != v.Len() {
			t.Fatalf("root object lost keys without a marker: %d of %d", out.Len(), v.Len())
		}
		for i := 0; i < v.Len(); i++ {
			if out.Member(i).Key != v.Member(i).Key {
				t.Fatalf("root key %d is %q, want %q", i, out.Member(i).Key, v.Member(i).Key)
			}
		}
	}
	return out, rep
}

func records(n int) jsonv.Value {
	items := make([]jsonv.Value, n)
	for i := range items {
		items[i] = jsonv.ObjectValue(
			jsonv.Member{Key: "id", Value: jsonv.Int(int64(i))},
			jsonv.Member{Key: "name", Value: jsonv.StringValue(fmt.Sprintf("record %d", i))},
		)
	}
	return jsonv.ArrayOf(items)
}

func strs(ss ...string) []jsonv.Value {
	out := make([]jsonv.Value, len(ss))
	for i, s := range ss {
		out[i] = jsonv.StringValue(s)
	}
	return out
}

func TestFit(t *testing.T) {
	long := strings.Repeat("abcdefghij", 10_000) // 100,000 characters
	accents := strings.Repeat("éàü漢字😀", 5_000)
	deep := jsonv.StringValue(long)
	for range 50 {
		deep = jsonv.ObjectValue(jsonv.Member{Key: "next", Value: deep}, jsonv.Member{Key: "n", Value: jsonv.Int(1)})
	}
	nested := make([]jsonv.Value, 100)
	for i := range nested {
		nested[i] = jsonv.ArrayOf(strs(strings.Split(strings.Repeat("x,", 500), ",")...))
	}
	manyKeys := make([]jsonv.Member, 20_000)
	for i := range manyKeys {
		manyKeys[i] = jsonv.Member{Key: fmt.Sprintf("key%05d", i), Value: jsonv.Int(int64(i))}
	}
	tests := []struct {
		name   string
		v      jsonv.Value
		budget int
		opts   Options
		// want are substrings the fitted JSON must contain
		want []string
		// check, if set, checks more
		check func(t *testing.T, out jsonv.Value, rep Report)
	}{
		{name: "fits", v: jsonv.MustParse(`{"a":[1,2,3],"b":"x"}`), budget: 100},
		{name: "exact boundary", v: jsonv.StringValue(strings.Repeat("a", 98)), budget: 100},
		{name: "one over the boundary", v: jsonv.StringValue(strings.Repeat("a", 99)), budget: 100,
			want: []string{"characters cut]…"}},
		{name: "long string", v: jsonv.StringValue(long), budget: 1000,
			want: []string{"…[", " characters cut]…", `"abcdefghij`, `abcdefghij"`},
			check: func(t *testing.T, out jsonv.Value, rep Report) {
				if rep.Strings != 1 || rep.Chars != len(long)-utf8.RuneCountInString(strings.Replace(out.AsString(), charsMarker(rep.Chars), "", 1)) {
					t.Errorf("report %+v does not count the characters cut from %d", rep, len(long))
				}
				if !strings.Contains(out.AsString(), charsMarker(rep.Chars)) {
					t.Errorf("marker does not name the %d characters cut: %.100s", rep.Chars, out.AsString())
				}
			}},
		{name: "records keep their first items", v: records(20_000), budget: 2000,
			want: []string{`{"id":0,"name":"record 0"}`, `more items"]`},
			check: func(t *testing.T, out jsonv.Value, rep Report) {
				last := out.Index(out.Len() - 1).AsString()
				want := itemsMarker(20_000-(out.Len()-1), "items")
				if last != want {
					t.Errorf("last item %q, want %q", last, want)
				}
				if rep.Arrays != 1 || rep.Items != 20_000-(out.Len()-1) || rep.Strings != 0 {
					t.Errorf("report %+v", rep)
				}
				for i := 0; i < out.Len()-1; i++ {
					if out.Index(i).String() != records(20_000).Index(i).String() {
						t.Fatalf("item %d changed: %s", i, out.Index(i))
					}
				}
			}},
		{name: "marker with thousands", v: records(20_000), budget: 300, want: []string{",9"}},
		{name: "longest first", budget: 3000,
			v: jsonv.ObjectValue(
				jsonv.Member{Key: "summary", Value: jsonv.MustParse(`{"total":20000,"ok":true,"label":"a short one"}`)},
				jsonv.Member{Key: "rows", Value: records(20_000)},
				jsonv.Member{Key: "text", Value: jsonv.StringValue(long)},
			),
			want: []string{`"summary":{"total":20000,"ok":true,"label":"a short one"}`, `more items"]`, `characters cut]…`},
			check: func(t *testing.T, out jsonv.Value, rep Report) {
				rows, text := out.Lookup("rows").ByteLen(), out.Lookup("text").ByteLen()
				if rows < 800 || text < 800 {
					t.Errorf("the two long values should share the budget: rows %d bytes, text %d", rows, text)
				}
			}},
		{name: "nested arrays", v: jsonv.ArrayOf(nested), budget: 1500, want: []string{`"x"`, `more items"`}},
		{name: "deep objects", v: deep, budget: 2000, want: []string{`"next":{"next":`, `characters cut]…`},
			check: func(t *testing.T, out jsonv.Value, rep Report) {
				if out.Depth() != deep.Depth() {
					t.Errorf("depth %d, want %d: every level kept", out.Depth(), deep.Depth())
				}
			}},
		{name: "unicode", v: jsonv.ArrayOf(strs(accents, accents)), budget: 700,
			check: func(t *testing.T, out jsonv.Value, rep Report) {
				for i := 0; i < out.Len(); i++ {
					if !utf8.ValidString(out.Index(i).AsString()) {
						t.Errorf("item %d is not valid UTF-8: a code point was split", i)
					}
				}
			}},
		{name: "escapes", v: jsonv.StringValue(strings.Repeat("\"\\\n\x01<>\u2028", 3000)), budget: 500},
		{name: "invalid utf-8", v: jsonv.StringValue(strings.Repeat("a\xff\xfe\xe2\x80", 3000)), budget: 500},
		{name: "many keys", v: jsonv.ObjectOf(manyKeys), budget: 1000, want: []string{`"key00000":0`, `more keys"}`}},
		{name: "many keys below the root", v: jsonv.ObjectValue(jsonv.Member{Key: "counts", Value: jsonv.ObjectOf(append([]jsonv.Member(nil), manyKeys...))}, jsonv.Member{Key: "n", Value: jsonv.Int(20000)}),
			budget: 1000, want: []string{`"counts":{"key00000":0`, `more keys"},"n":20000}`}},
		{name: "marker key taken", v: jsonv.ObjectValue(jsonv.Member{Key: "…", Value: jsonv.StringValue("mine")}, jsonv.Member{Key: "big", Value: jsonv.ObjectOf(append([]jsonv.Member{{Key: "…", Value: jsonv.Int(1)}}, manyKeys...))}),
			budget: 400, want: []string{`"……":"`}},
		{name: "logs cut in the middle", budget: 1000, opts: Options{Middle: []string{"logs"}, MiddleUnit: "lines"},
			v:    jsonv.ObjectValue(jsonv.Member{Key: "logs", Value: lines(100_000)}, jsonv.Member{Key: "result", Value: jsonv.Int(7)}),
			want: []string{`"line 0"`, `"line 99999"`, ` more lines"`, `"result":7`},
			check: func(t *testing.T, out jsonv.Value, rep Report) {
				logs := out.Lookup("logs")
				if rep.MiddleItems == 0 || rep.MiddleItems != rep.Items {
					t.Errorf("report %+v", rep)
				}
				marker := itemsMarker(rep.MiddleItems, "lines")
				at := -1
				for i := 0; i < logs.Len(); i++ {
					if logs.Index(i).AsString() == marker {
						at = i
					}
				}
				if at <= 0 || at >= logs.Len()-1 {
					t.Errorf("marker %q at %d of %d: want it between the first and the last lines: %s", marker, at, logs.Len(), logs)
				}
			}},
		{name: "scalars", v: jsonv.MustParse(`[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50]`),
			budget: 64, want: []string{`[1,2,`, `more items"]`}},
		{name: "number root", v: jsonv.Int(123456789), budget: 64},
		{name: "empty containers", v: jsonv.MustParse(`{"a":[],"b":{},"c":""}`), budget: 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, rep := checkFit(t, tt.v, tt.budget, tt.opts)
			text := out.String()
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("fitted JSON lacks %q: %.600s", w, text)
				}
			}
			if tt.check != nil {
				tt.check(t, out, rep)
			}
		})
	}
}

func lines(n int) jsonv.Value {
	items := make([]jsonv.Value, n)
	for i := range items {
		items[i] = jsonv.StringValue(fmt.Sprintf("line %d", i))
	}
	return jsonv.ArrayOf(items)
}

// TestFitEveryBudget fits values to every budget from MinBudget up to past their size.
func TestFitEveryBudget(t *testing.T) {
	values := []jsonv.Value{
		jsonv.MustParse(`{"logs":["a","bb","ccc","dddd"],"result":{"xs":[1,2,3,4,5,6,7,8,9],"s":"héllo wörld, 漢字 and 😀 again and again"}}`),
		records(30),
		jsonv.StringValue(strings.Repeat("ab\n", 100)),
		jsonv.MustParse(`[[[[[[[["deep", "er"]]]]]]], {"k": [{"k": [{"k": "v"}]}]}]`),
	}
	for _, v := range values {
		for b := MinBudget; b <= v.ByteLen()+2; b++ {
			checkFit(t, v, b, Options{Middle: []string{"logs"}})
		}
	}
}

// TestFitLargeIsQuick: fitting megabytes to a small budget does not walk them all for every
// level tried.
func TestFitLargeIsQuick(t *testing.T) {
	v := jsonv.ObjectValue(
		jsonv.Member{Key: "logs", Value: lines(200_000)},
		jsonv.Member{Key: "result", Value: jsonv.ObjectValue(
			jsonv.Member{Key: "rows", Value: records(200_000)},
			jsonv.Member{Key: "blob", Value: jsonv.StringValue(strings.Repeat("z", 5<<20))},
		)},
	)
	res := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			Fit(v, 40_000, Options{Middle: []string{"logs"}})
		}
	})
	t.Logf("Fit of %d bytes to 40,000: %v", v.ByteLen(), time.Duration(res.NsPerOp()))
	if per := res.NsPerOp(); per > 150e6*raceFactor {
		t.Errorf("Fit of %d bytes to 40,000 takes %v, want under 150ms", v.ByteLen(), time.Duration(per))
	}
	checkFit(t, v, 40_000, Options{Middle: []string{"logs"}})
}

func FuzzFit(f *testing.F) {
	seeds := []string{
		`{"logs":["a","b"],"result":[1,2,3]}`,
		`"` + strings.Repeat("x", 300) + `"`,
		`[` + strings.Repeat(`{"a":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"},`, 30) + `1]`,
		`{"a":{"b":{"c":{"d":["` + strings.Repeat("é", 200) + `"]}}}}`,
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["x"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
		`{"…":1,"k1":2,"k2":3,"k3":4,"k4":5,"k5":6,"k6":7,"k7":8,"k8":9,"k9":10,"k10":11,"k11":12,"k12":13}`,
		`12345`, `null`, `true`, `[]`, `{}`, `""`,
		`["\u0000\u0001\"\\\n", "\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00"]`,
	}
	for _, s := range seeds {
		f.Add(s, uint16(64))
		f.Add(s, uint16(100))
	}
	f.Fuzz(func(t *testing.T, text string, budget uint16) {
		v, err := jsonv.Parse([]byte(text))
		if err != nil {
			return
		}
		b := MinBudget + int(budget)%4096
		checkFit(t, v, b, Options{Middle: []string{"logs"}})
	})
}
