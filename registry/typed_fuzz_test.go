package registry_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// FuzzArgs is a rich input type: nested and recursive structs, pointers, slices, arrays, maps,
// enums and bounds.
type FuzzArgs struct {
	FuzzBase
	Name     string            `json:"name" minLength:"1" maxLength:"20" pattern:"^[a-z]"`
	Mode     string            `json:"mode,omitempty" enum:"a,b,c"`
	Shade    Shade             `json:"shade,omitempty" enum:"red,green"`
	Level    int8              `json:"level" minimum:"-5" maximum:"5"`
	Count    uint16            `json:"count,omitempty"`
	Size     int               `json:"size,omitempty"` // beyond its range, it fails decoding
	Ratio    float32           `json:"ratio,omitempty"`
	Score    float64           `json:"score,omitempty" enum:"0.5,1,2"`
	Flag     *bool             `json:"flag"`
	Limit    *uint8            `json:"limit,omitempty" maximum:"10"`
	Items    []FuzzItem        `json:"items,omitempty"`
	Children []FuzzArgs        `json:"children,omitempty"`
	Tags     map[string][]int8 `json:"tags,omitempty"`
	Keys     map[PathKey]*bool `json:"keys,omitempty"`
	Fixed    [2]uint8          `json:"fixed,omitempty"`
	Extra    any               `json:"extra,omitempty"`
	Raw      json.RawMessage   `json:"raw,omitempty"`
	Value    jsonv.Value       `json:"value,omitzero"`
	Elapsed  time.Duration     `json:"elapsed,omitempty"`
	Number   json.Number       `json:"number,omitempty"`
}

type FuzzBase struct {
	ID uint32 `json:"id,omitempty"`
}

type FuzzItem struct {
	Key    string   `json:"key" enum:"x,y"`
	Weight *float64 `json:"weight" minimum:"0"`
	Notes  []string `json:"notes"`
	Pos    *Coord   `json:"pos,omitempty"`
}

// fuzzRegistry registers the typed tool "typed" (In and Out FuzzArgs; the body echoes its
// input) and "schema", a plain tool whose parameters are the typed tool's: it succeeds exactly
// when the parameter schema accepts the arguments. ran reports the typed body's inputs.
func fuzzRegistry(t testing.TB) (reg *registry.Registry, ran *[]FuzzArgs) {
	ran = new([]FuzzArgs)
	typed, err := registry.Define(registry.TypedTool[FuzzArgs, FuzzArgs]{
		Name: "typed",
		Execute: func(_ context.Context, _ *registry.Invocation, in FuzzArgs) (FuzzArgs, error) {
			*ran = append(*ran, in)
			return in, nil
		},
		ConcurrencySafe: func(in FuzzArgs) bool { return in.Mode == "a" },
	})
	if err != nil {
		t.Fatal(err)
	}
	schema := registry.Tool{Name: "schema", Parameters: typed.Parameters, Output: registry.AnyOutput(), Execute: typedNullBody}
	reg = registry.New()
	if _, err := reg.Register(typed, schema); err != nil {
		t.Fatal(err)
	}
	return reg, ran
}

var rangeGap = regexp.MustCompile(`": cannot unmarshal number (\S+) into Go value of type (int|int64|time\.Duration)$`)

// isRangeGap reports whether msg is InferSchema's documented gap: an integer beyond the range
// of a 64-bit integer field.
func isRangeGap(msg string) bool {
	m := rangeGap.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	n, err := strconv.ParseFloat(m[1], 64)
	return err == nil && math.Abs(n) >= 1<<63
}

func FuzzTypedArguments(f *testing.F) {
	for _, seed := range []string{
		`{"name":"a","level":0,"flag":null}`,
		`{"name":"abc","mode":"b","shade":"red","level":-5,"count":65535,"size":-3,"ratio":1.5,"score":0.5,"flag":true,"limit":10,"id":7}`,
		`{"name":"a","level":1,"flag":false,"items":[{"key":"x","weight":null,"notes":[]},{"key":"y","weight":2.5,"notes":["n"],"pos":{"x":1}}]}`,
		`{"name":"a","level":1,"flag":false,"children":[{"name":"b","level":2,"flag":null,"children":[{"name":"c","level":3,"flag":true}]}]}`,
		`{"name":"a","level":1,"flag":false,"tags":{"t":[1,-128,127]},"keys":{"k/v":true,"w":null},"fixed":[0,255]}`,
		`{"name":"a","level":1,"flag":false,"extra":{"any":[1,"x",null]},"raw":[1,2],"value":{"z":1},"elapsed":1000,"number":-1.5e3}`,
		`{"name":"a","level":1,"flag":false,"size":1e19}`,
		`{"name":"a","level":1,"flag":false,"ratio":3.4028235e+38}`,
		`{"name":"A","level":6,"flag":1,"mode":"d","items":[{"key":"z","notes":null}],"fixed":[1],"extra2":0}`,
		`{"name":"a","level":1,"flag":false,"tags":{"t":null},"items":null,"children":[{}]}`,
		`[]`, `null`, `"x"`, `{}`,
	} {
		f.Add(seed)
	}
	reg, ran := fuzzRegistry(f)
	base := jsonv.MustParse(`{"name":"a","level":0,"flag":null}`)
	f.Fuzz(func(t *testing.T, text string) {
		args, err := jsonv.ParseString(text)
		if err != nil {
			return
		}
		checkTypedArguments(t, reg, ran, args)
		// Random text seldom satisfies the schema. Laid over valid arguments, all together and
		// one by one, an object's members get accepted arguments fuzzed too.
		if args.Kind() == jsonv.Object {
			all := base
			for _, m := range args.Members() {
				all = all.With(m.Key, m.Value)
				checkTypedArguments(t, reg, ran, base.With(m.Key, m.Value))
			}
			checkTypedArguments(t, reg, ran, all)
		}
	})
}

// checkTypedArguments executes args on fuzzRegistry's tools and checks that the typed tool
// never panics, that the body runs exactly when the parameter schema accepts args (but for the
// documented 64-bit range gap), and that the re-encoded input satisfies the schema.
func checkTypedArguments(t *testing.T, reg *registry.Registry, ran *[]FuzzArgs, args jsonv.Value) {
	t.Helper()
	ctx := context.Background()
	*ran = (*ran)[:0]
	accepted := !reg.Execute(ctx, registry.Call{CallID: "s", Name: "schema", Arguments: args}).IsError
	mode := reg.ExecutionMode(registry.Call{CallID: "m", Name: "typed", Arguments: args})
	res := reg.Execute(ctx, registry.Call{CallID: "t", Name: "typed", Arguments: args})
	if res.IsError && strings.Contains(res.Err.Message, "panic") {
		t.Fatalf("panic: %s", res.Err.Message)
	}
	if !accepted {
		if !hasCode(res.Err, registry.CodeInvalidArgs) || len(*ran) != 0 || mode != registry.Exclusive {
			t.Fatalf("arguments %s the schema refuses: mode %s, ran %d, result %+v", args, mode, len(*ran), res)
		}
		return
	}
	if res.IsError {
		if hasCode(res.Err, registry.CodeInvalidArgs) && isRangeGap(res.Err.Message) && len(*ran) == 0 {
			return
		}
		t.Fatalf("arguments %s the schema accepts failed: %+v", args, res.Err)
	}
	if len(*ran) != 1 {
		t.Fatalf("the body ran %d times", len(*ran))
	}
	in := (*ran)[0]
	if want := in.Mode == "a"; (mode == registry.Parallel) != want {
		t.Fatalf("mode %s for mode %q", mode, in.Mode)
	}
	// Re-encoding the decoded input satisfies the parameter schema: the typed result value is
	// that encoding (it passed the output schema), and the schema tool accepts it.
	again := reg.Execute(ctx, registry.Call{CallID: "r", Name: "schema", Arguments: res.Value})
	if again.IsError {
		t.Fatalf("the re-encoded input %s of %s violates the parameter schema: %s", res.Value, args, again.Err.Message)
	}
}

// hasCode reports whether err is non-nil and has code.
func hasCode(err *registry.Error, code registry.Code) bool {
	return err != nil && err.Code == code
}

// RoundTrip is a rich type without constraint tags: every Go value of it must satisfy its
// schema once marshalled.
type RoundTrip struct {
	FuzzBase
	*Ident
	S       string            `json:"s"`
	B       bool              `json:"b,omitempty"`
	I8      int8              `json:"i8"`
	U32     uint32            `json:"u32"`
	I       int               `json:"i"`
	U64     uint64            `json:"u64"`
	F32     float32           `json:"f32"`
	F64     float64           `json:"f64"`
	Ptr     *string           `json:"ptr"`
	PtrPtr  **int16           `json:"ptrPtr"`
	Bytes   []byte            `json:"bytes"`
	Slice   []Coord           `json:"slice"`
	Ptrs    []*Coord          `json:"ptrs"`
	Arr     [2]*bool          `json:"arr"`
	Map     map[string]uint8  `json:"map"`
	Text    map[RTKey][]int32 `json:"text"`
	Shade   Shade             `json:"shade"`
	Sev     Severity          `json:"sev"`
	When    time.Time         `json:"when"`
	WhenPtr *time.Time        `json:"whenPtr"`
	D       time.Duration     `json:"d"`
	Any     any               `json:"any"`
	Value   jsonv.Value       `json:"value"`
	Raw     json.RawMessage   `json:"raw"`
	Stamp   Stamp             `json:"stamp"`
	Tree    *Category         `json:"tree"`
	Forest  Forest            `json:"forest"`
	Anon    struct {
		X []string `json:"x"`
	} `json:"anon"`
}

// RTKey is a map key that marshals as text.
type RTKey struct{ A, B string }

func (k RTKey) MarshalText() ([]byte, error) { return []byte(k.A + "/" + k.B), nil }

func (k *RTKey) UnmarshalText(b []byte) error {
	k.A, k.B, _ = strings.Cut(string(b), "/")
	return nil
}

// roundTripTypes are the types FuzzInferSchemaRoundTrip derives values of.
var roundTripTypes = []reflect.Type{
	reflect.TypeFor[RoundTrip](),
	reflect.TypeFor[*RoundTrip](),
	reflect.TypeFor[[]*Category](),
	reflect.TypeFor[map[string][]byte](),
	reflect.TypeFor[Forest](),
	reflect.TypeFor[*float32](),
	reflect.TypeFor[[3]int8](),
	reflect.TypeFor[Twice](),
	reflect.TypeFor[Embeds](),
	reflect.TypeFor[TagBreaksTie](),
	reflect.TypeFor[PtrEmbed](),
	reflect.TypeFor[Pages](),
	reflect.TypeFor[Points](),
	reflect.TypeFor[map[Shade]*Twice](),
}

func FuzzInferSchemaRoundTrip(f *testing.F) {
	for i := range roundTripTypes {
		f.Add(byte(i), []byte{})
		f.Add(byte(i), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
		f.Add(byte(i), []byte(strings.Repeat("\xff\x01\x7f\x80", 40)))
	}
	reg := registry.New()
	for i, typ := range roundTripTypes {
		schema, err := registry.InferSchema(typ)
		if err != nil {
			f.Fatal(err)
		}
		tool := registry.Tool{Name: "t" + string(rune('a'+i)), Output: registry.OutputOf(schema), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			return inv.Arguments.Lookup("v"), nil
		}}
		if _, err := reg.Register(tool); err != nil {
			f.Fatalf("%s: %v", typ, err)
		}
	}
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		i := int(which) % len(roundTripTypes)
		typ := roundTripTypes[i]
		v := reflect.New(typ).Elem()
		g := &valueGen{data: data}
		g.fill(v, 0)
		text, err := json.Marshal(v.Interface())
		if err != nil {
			t.Fatalf("json.Marshal(%#v): %v", v.Interface(), err)
		}
		value, err := jsonv.Parse(text)
		if err != nil {
			t.Fatalf("parse %s: %v", text, err)
		}
		args := jsonv.ObjectValue(jsonv.Member{Key: "v", Value: value})
		res := reg.Execute(context.Background(), registry.Call{CallID: "c", Name: "t" + string(rune('a'+i)), Arguments: args})
		if res.IsError {
			t.Fatalf("%s value %s violates its schema: %s", typ, text, res.Err.Message)
		}
		// The encoding also decodes back into the type.
		if err := json.Unmarshal(text, reflect.New(typ).Interface()); err != nil {
			t.Fatalf("%s value %s does not decode: %v", typ, text, err)
		}
	})
}

// valueGen derives Go values from fuzz bytes; past the end of the data it reads zeros.
type valueGen struct{ data []byte }

func (g *valueGen) byte() byte {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return b
}

func (g *valueGen) uint64() uint64 {
	var b [8]byte
	for i := range b {
		b[i] = g.byte()
	}
	return binary.LittleEndian.Uint64(b[:])
}

func (g *valueGen) string() string {
	b := make([]byte, g.byte()%12)
	for i := range b {
		b[i] = g.byte()
	}
	return string(b)
}

const maxGenDepth = 4

func (g *valueGen) fill(v reflect.Value, depth int) {
	if !v.CanSet() {
		return
	}
	switch v.Type() {
	case reflect.TypeFor[time.Time]():
		sec := int64(g.uint64() % 253402300799) // years 1970 to 9999
		v.Set(reflect.ValueOf(time.Unix(sec, int64(g.uint64()%1e9)).In(time.FixedZone("", int(g.byte())*60-7680))))
		return
	case reflect.TypeFor[jsonv.Value]():
		if g.byte()%2 == 1 {
			v.Set(reflect.ValueOf(jsonv.StringValue(g.string())))
		}
		return
	case reflect.TypeFor[json.RawMessage]():
		if g.byte()%2 == 1 {
			v.Set(reflect.ValueOf(json.RawMessage(`{"raw":[1,null]}`)))
		}
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(g.byte()%2 == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(g.uint64()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(g.uint64())
	case reflect.Float32:
		f := math.Float32frombits(uint32(g.uint64()))
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			f = 0
		}
		v.SetFloat(float64(f))
	case reflect.Float64:
		f := math.Float64frombits(g.uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 0
		}
		v.SetFloat(f)
	case reflect.String:
		v.SetString(g.string())
	case reflect.Pointer:
		if depth >= maxGenDepth || g.byte()%3 == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		g.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		n := int(g.byte() % 4)
		if depth >= maxGenDepth || n == 0 {
			if g.byte()%2 == 1 {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			}
			return
		}
		s := reflect.MakeSlice(v.Type(), n-1, n-1)
		for i := range n - 1 {
			g.fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			g.fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		n := int(g.byte() % 4)
		if depth >= maxGenDepth || n == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range n - 1 {
			k := reflect.New(v.Type().Key()).Elem()
			e := reflect.New(v.Type().Elem()).Elem()
			g.fill(k, depth+1)
			g.fill(e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			g.fill(v.Field(i), depth+1)
		}
	case reflect.Interface:
		switch g.byte() % 4 {
		case 1:
			v.Set(reflect.ValueOf(g.string()))
		case 2:
			v.Set(reflect.ValueOf(int64(g.uint64())))
		case 3:
			v.Set(reflect.ValueOf([]any{nil, true}))
		}
	}
}
