package jsonv

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestFormatNumberMatchesJavaScript(t *testing.T) {
	tenth := 0.1
	cases := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {1, "1"}, {-1, "-1"}, {0.1, "0.1"}, {1.5, "1.5"}, {100, "100"},
		{1e21, "1e+21"}, {1e20, "100000000000000000000"}, {123456789012345680000, "123456789012345680000"},
		{1e-7, "1e-7"}, {1e-6, "0.000001"}, {1.5e-7, "1.5e-7"}, {0.000123, "0.000123"},
		{1.7976931348623157e308, "1.7976931348623157e+308"}, {5e-324, "5e-324"},
		{9007199254740993, "9007199254740992"}, {tenth + 2*tenth, "0.30000000000000004"},
		{-2.5e25, "-2.5e+25"}, {math.NaN(), "NaN"}, {math.Inf(1), "Infinity"},
	}
	for _, c := range cases {
		if got := FormatNumber(c.in); got != c.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStringsAreQuotedLikeJSONStringify(t *testing.T) {
	cases := map[string]string{
		"plain":        `"plain"`,
		"<a&b>":        `"<a&b>"`,
		"q\"b\\":       `"q\"b\\"`,
		"\n\t\r\b\f":   `"\n\t\r\b\f"`,
		"\x01\x1f":     `"\u0001\u001f"`,
		"\u2028\u2029": "\"\u2028\u2029\"",
		"€😀":           `"€😀"`,
		"bad\xffbyte":  "\"bad\ufffdbyte\"",
		"":             `""`,
		"\u007f":       "\"\u007f\"",
	}
	for in, want := range cases {
		if got := string(AppendString(nil, in)); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", in, got, want)
		}
		if got := StringByteLen(in); got != len(want) {
			t.Errorf("StringByteLen(%q) = %d, want %d", in, got, len(want))
		}
	}
}

func TestParseKeepsKeyOrderAndLastDuplicateValue(t *testing.T) {
	v := MustParse(`{"z":1,"a":[true,null,"x"],"m":{"b":2,"a":1},"z":3}`)
	if got := v.String(); got != `{"z":3,"a":[true,null,"x"],"m":{"b":2,"a":1}}` {
		t.Fatalf("round trip = %s", got)
	}
	if v.ByteLen() != len(v.String()) {
		t.Fatalf("ByteLen %d != %d", v.ByteLen(), len(v.String()))
	}
	if x, ok := v.Get("m"); !ok || x.Lookup("b").AsNumber() != 2 {
		t.Fatalf("Get(m).b = %v", x)
	}
}

func TestParseRejectsBadInput(t *testing.T) {
	for _, in := range []string{``, `{`, `[1,]`, `1 2`, `{"a":}`, `1e999`, `nul`} {
		if _, err := ParseString(in); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
}

func TestDeepNestingParsesAndEncodes(t *testing.T) {
	const depth = MaxDepth
	src := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	v, err := ParseString(src)
	if err != nil {
		t.Fatal(err)
	}
	if v.String() != src {
		t.Fatal("deep array did not round-trip")
	}
	if v.Depth() != MaxDepth {
		t.Fatalf("Depth() = %d, want %d", v.Depth(), MaxDepth)
	}
}

func TestNestingBeyondMaxDepthIsRefused(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
		strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1),
		strings.Repeat("[", 10_000_000), // would have taken the parser's memory, not its stack
	} {
		if _, err := ParseString(src); !errors.Is(err, ErrTooDeep) {
			t.Errorf("Parse of %d bytes nested past MaxDepth: err = %v, want ErrTooDeep", len(src), err)
		}
	}
	var deep any = []any{}
	for range MaxDepth {
		deep = []any{deep}
	}
	if _, err := FromGo(deep); !errors.Is(err, ErrTooDeep) || !errors.Is(err, ErrNotJSON) {
		t.Errorf("FromGo of %d nested slices: err = %v, want ErrTooDeep and ErrNotJSON", MaxDepth+1, err)
	}
	if v, err := FromGo(deep.([]any)[0]); err != nil || v.Depth() != MaxDepth {
		t.Errorf("FromGo of %d nested slices: depth %d, err %v", MaxDepth, v.Depth(), err)
	}
	built := ArrayValue()
	for range MaxDepth {
		built = ArrayValue(built)
	}
	if built.Depth() != MaxDepth+1 {
		t.Errorf("Depth of a value built in Go = %d, want %d", built.Depth(), MaxDepth+1)
	}
	if _, err := FromGo(built); !errors.Is(err, ErrTooDeep) {
		t.Errorf("FromGo of a Value deeper than MaxDepth: err = %v", err)
	}
	if d := ObjectValue(Member{"a", built}).Depth(); d != MaxDepth+2 {
		t.Errorf("object Depth = %d", d)
	}
}

// TestParseTruncatedEscapeAfterHighSurrogate: text that ends in a backslash right after an
// escaped high surrogate is an error, not an index out of range (found by sdkgen's FuzzTypeOf).
func TestParseTruncatedEscapeAfterHighSurrogate(t *testing.T) {
	for _, src := range []string{`"\ud800\`, `"\ud800\u`, `"\ud800\ud`, `["\ud800\`} {
		if _, err := ParseString(src); err == nil {
			t.Errorf("Parse(%q) succeeded", src)
		}
	}
}

func TestParseRefusesTextItWouldAlter(t *testing.T) {
	for _, src := range []string{
		"\"bad\xffbyte\"", "[\"\xc3\"]", "\xef\xbb", `"\ud800"`, `"\udc00"`, `"\ud800x"`, `"\ud800\n"`,
		`"\ud800\ud800"`, `{"\udfff": 1}`, `"\ud800\\udc00"`,
	} {
		if _, err := ParseString(src); !errors.Is(err, ErrInvalidText) {
			t.Errorf("Parse(%q): err = %v, want ErrInvalidText", src, err)
		}
	}
	for src, want := range map[string]string{
		`"\ud83d\ude00"`: "\U0001F600", `"\u00e9\u0000"`: "\u00e9\x00", `"\\ud800"`: `\ud800`, `"é\"\\"`: `é"\`,
	} {
		v, err := ParseString(src)
		if err != nil || v.AsString() != want {
			t.Errorf("Parse(%s) = %q, %v; want %q", src, v.AsString(), err, want)
		}
	}
}

func TestNumberValueRejectsNonLossless(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)} {
		if _, err := NumberValue(f); err == nil {
			t.Errorf("NumberValue(%v) accepted", f)
		}
	}
}

func TestFromGoSortsMapKeysAndKeepsStructOrder(t *testing.T) {
	type S struct {
		Zed int    `json:"zed"`
		Abc string `json:"abc"`
	}
	v, err := FromGo(map[string]any{"b": 1, "a": []any{S{1, "x"}, int64(2), json.Number("3.5")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != `{"a":[{"zed":1,"abc":"x"},2,3.5],"b":1}` {
		t.Fatalf("FromGo = %s", got)
	}
	if _, err := FromGo(map[string]any{"x": math.NaN()}); err == nil {
		t.Fatal("NaN accepted")
	}
}

func TestAppendIndentCompactsBeyondTheCap(t *testing.T) {
	v := MustParse(`{"n":42,"ok":true,"e":{},"l":[]}`)
	if got := string(AppendIndent(nil, v, "  ", 10)); got != "{\n  \"n\": 42,\n  \"ok\": true,\n  \"e\": {},\n  \"l\": []\n}" {
		t.Fatalf("got %q", got)
	}
	deep := MustParse(`[[[[[[1,2]]]]]]`)
	want := "[\n  [\n    [\n      [\n        [\n          [1,2]\n        ]\n      ]\n    ]\n  ]\n]"
	if got := string(AppendIndent(nil, deep, "  ", 10)); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func FuzzParseRoundTrip(f *testing.F) {
	for _, s := range []string{`null`, `{"a":[1,2.5,"x\u0001"],"b":{"c":false}}`, `"\ud83d\ude00"`, `[1e21,1e-7,-0]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseString(s)
		if err != nil {
			return
		}
		out := v.String()
		if len(out) != v.ByteLen() {
			t.Fatalf("ByteLen %d, encoded %d bytes", v.ByteLen(), len(out))
		}
		again, err := ParseString(out)
		if err != nil {
			t.Fatalf("re-parse of %q: %v", out, err)
		}
		if again.String() != out {
			t.Fatalf("not stable: %q then %q", out, again.String())
		}
	})
}

func TestMemberWalksAnObjectInOrderWithoutCopying(t *testing.T) {
	v := MustParse(`{"b":1,"a":[2],"c":{"d":null}}`)
	var keys []string
	for i, n := 0, v.Len(); i < n; i++ {
		m := v.Member(i)
		if want := v.Members()[i]; m.Key != want.Key || m.Value.String() != want.Value.String() {
			t.Fatalf("Member(%d) = %s: %s, want %s: %s", i, m.Key, m.Value, want.Key, want.Value)
		}
		keys = append(keys, m.Key)
	}
	if got := strings.Join(keys, ","); got != "b,a,c" {
		t.Fatalf("keys %s", got)
	}
	for _, bad := range []Member{v.Member(-1), v.Member(3), MustParse(`[1]`).Member(0), StringValue("x").Member(0)} {
		if bad.Key != "" || bad.Value.IsDefined() {
			t.Fatalf("out of range or not an object: got %+v, want the zero Member", bad)
		}
	}
}

// ArrayOf and ObjectOf build what ArrayValue and ObjectValue build (a key given twice keeps its
// first position and its last value), from the slice itself.
func TestOwningConstructorsMatchTheCopyingOnes(t *testing.T) {
	items := []Value{Int(1), StringValue("a"), ArrayValue()}
	if got, want := string(AppendJSON(nil, ArrayOf(slices.Clone(items)))), string(AppendJSON(nil, ArrayValue(items...))); got != want {
		t.Errorf("ArrayOf %s, ArrayValue %s", got, want)
	}
	members := []Member{{Key: "a", Value: Int(1)}, {Key: "b", Value: Int(2)}, {Key: "a", Value: Int(3)}}
	if got, want := string(AppendJSON(nil, ObjectOf(slices.Clone(members)))), string(AppendJSON(nil, ObjectValue(members...))); got != want || want != `{"a":3,"b":2}` {
		t.Errorf("ObjectOf %s, ObjectValue %s", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("ArrayOf took an Undefined item")
		}
	}()
	ArrayOf([]Value{{}})
}
