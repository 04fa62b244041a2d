package registry_test

import (
	"encoding/json"
	"image"
	"math/big"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

type (
	Shade    string
	Severity int
	Stamp    struct{ sec int64 } // marshals itself as JSON
	PathKey  struct{ a, b string }
	Celsius  float32
	RawBytes []byte
)

func (Stamp) MarshalJSON() ([]byte, error) { return []byte(`0`), nil }

func (*Stamp) UnmarshalJSON([]byte) error { return nil }

func (l Severity) MarshalText() ([]byte, error) { return []byte("level"), nil }

func (l *Severity) UnmarshalText([]byte) error { return nil }

func (k PathKey) MarshalText() ([]byte, error) { return []byte(k.a + "/" + k.b), nil }

func (k *PathKey) UnmarshalText(b []byte) error {
	k.a, k.b, _ = strings.Cut(string(b), "/")
	return nil
}

type Category struct {
	Name     string      `json:"name"`
	Children []*Category `json:"children,omitempty"`
}

type Coord struct {
	X int `json:"x"`
}

type Twice struct {
	A Coord  `json:"a"`
	B *Coord `json:"b"`
}

type Once struct {
	A Coord `json:"a"`
}

// Point collides by name with image.Point.
type Point struct {
	Where string `json:"where"`
}

type Points struct {
	Mine   []Point       `json:"mine"`
	Theirs []image.Point `json:"theirs"`
	MyOne  Point         `json:"myOne"`
	Their1 image.Point   `json:"theirOne"`
}

type Page[T any] struct {
	Items []T `json:"items"`
}

type Pages struct {
	First Page[Coord] `json:"first"`
	Next  Page[Coord] `json:"next"`
}

// Forest is recursive through a named slice type.
type Forest []Forest

type Tagged struct {
	Name     string  `json:"name" description:"Who to greet."`
	Renamed  int     `json:"n,omitempty"`
	Zero     bool    `json:"zero,omitzero"`
	Skipped  string  `json:"-"`
	Dash     string  `json:"-,"`
	GoName   float64 //
	private  string
	Mode     string   `json:"mode" enum:"fast, slow"`
	Count    int8     `json:"count" enum:"1,2,-3"`
	Ratio    float64  `json:"ratio" enum:"0.5,1"`
	Bounded  uint16   `json:"bounded" minimum:"1" maximum:"100"`
	Text     string   `json:"text" minLength:"1" maxLength:"5" pattern:"^[a-z]+$" format:"hostname"`
	Optional *string  `json:"optional,omitempty" enum:"x,y" description:"Maybe."`
	Limit    *int     `json:"limit" minimum:"0" default:"10"`
	Tags     []string `json:"tags" default:"[\"a\"]"`
	Invalid  string   `json:"in valid\\"` // an invalid tag name falls back to the Go name
}

type Ident struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

type Alias struct {
	ID    string `json:"id"`
	Extra bool   `json:"extra"`
}

type Nested struct {
	Ident
}

type Left struct {
	Code  int
	Extra bool `json:"extra"`
}

type Right struct {
	Code string
}

type Embeds struct {
	Ident        // id and name are promoted...
	Left         // ...Code conflicts at the same depth: dropped; extra stays
	Right        //
	Own   string `json:"name"` // shallower: wins over Ident.Name
}

type TaggedWins struct {
	Ident
	Alias `json:"other"` // a tagged embedded struct is a field, not flattened
}

type TA struct {
	A int `json:"V"`
}

type TB struct {
	V string
}

type TagBreaksTie struct {
	TA
	TB
}

type Deeper struct {
	A struct {
		X int `json:"x"`
	}
	Nested
	Alt struct {
		V string `json:"id"`
	} `json:"alt"`
}

type PtrEmbed struct {
	*Ident
	Own string `json:"own"`
}

func typedMustSchema(t *testing.T, s jsonv.Value, err error) string {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	return s.String()
}

func TestInferSchema(t *testing.T) {
	cases := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"bool", reflect.TypeFor[bool](), `{"type":"boolean"}`},
		{"string", reflect.TypeFor[string](), `{"type":"string"}`},
		{"string kind", reflect.TypeFor[Shade](), `{"type":"string"}`},
		{"int", reflect.TypeFor[int](), `{"type":"integer"}`},
		{"int64", reflect.TypeFor[int64](), `{"type":"integer"}`},
		{"int8", reflect.TypeFor[int8](), `{"type":"integer","minimum":-128,"maximum":127}`},
		{"int16", reflect.TypeFor[int16](), `{"type":"integer","minimum":-32768,"maximum":32767}`},
		{"int32", reflect.TypeFor[int32](), `{"type":"integer","minimum":-2147483648,"maximum":2147483647}`},
		{"uint", reflect.TypeFor[uint](), `{"type":"integer","minimum":0}`},
		{"uint64", reflect.TypeFor[uint64](), `{"type":"integer","minimum":0}`},
		{"uintptr", reflect.TypeFor[uintptr](), `{"type":"integer","minimum":0}`},
		{"uint8", reflect.TypeFor[uint8](), `{"type":"integer","minimum":0,"maximum":255}`},
		{"uint32", reflect.TypeFor[uint32](), `{"type":"integer","minimum":0,"maximum":4294967295}`},
		{"float64", reflect.TypeFor[float64](), `{"type":"number"}`},
		{"float32", reflect.TypeFor[Celsius](), `{"type":"number","minimum":-3.4028235e+38,"maximum":3.4028235e+38}`},
		{"bytes", reflect.TypeFor[[]byte](), `{"type":["string","null"],"contentEncoding":"base64"}`},
		{"named bytes", reflect.TypeFor[RawBytes](), `{"type":["string","null"],"contentEncoding":"base64"}`},
		{"byte array", reflect.TypeFor[[2]byte](), `{"type":"array","items":{"type":"integer","minimum":0,"maximum":255},"minItems":2,"maxItems":2}`},
		{"slice", reflect.TypeFor[[]string](), `{"type":["array","null"],"items":{"type":"string"}}`},
		{"array", reflect.TypeFor[[3]bool](), `{"type":"array","items":{"type":"boolean"},"minItems":3,"maxItems":3}`},
		{"empty array", reflect.TypeFor[[0]int](), `{"type":"array","items":{"type":"integer"},"minItems":0,"maxItems":0}`},
		{"map", reflect.TypeFor[map[string]int](), `{"type":["object","null"],"additionalProperties":{"type":"integer"}}`},
		{"string-kinded keys", reflect.TypeFor[map[Shade]bool](), `{"type":["object","null"],"additionalProperties":{"type":"boolean"}}`},
		{"text keys", reflect.TypeFor[map[PathKey]string](), `{"type":["object","null"],"additionalProperties":{"type":"string"}}`},
		{"pointer", reflect.TypeFor[*string](), `{"type":["string","null"]}`},
		{"pointer to pointer", reflect.TypeFor[**int8](), `{"type":["integer","null"],"minimum":-128,"maximum":127}`},
		{"pointer to any", reflect.TypeFor[*any](), `{}`},
		{"pointer to slice", reflect.TypeFor[*[]int](), `{"type":["array","null"],"items":{"type":"integer"}}`},
		{"time", reflect.TypeFor[time.Time](), `{"type":"string","format":"date-time"}`},
		{"time pointer", reflect.TypeFor[*time.Time](), `{"type":["string","null"],"format":"date-time"}`},
		{"duration", reflect.TypeFor[time.Duration](), `{"type":"integer"}`},
		{"jsonv", reflect.TypeFor[jsonv.Value](), `{}`},
		{"raw", reflect.TypeFor[json.RawMessage](), `{}`},
		{"number", reflect.TypeFor[json.Number](), `{"type":"number"}`},
		{"any", reflect.TypeFor[any](), `{}`},
		{"interface", reflect.TypeFor[error](), `{}`},
		{"json.Marshaler", reflect.TypeFor[Stamp](), `{}`},
		{"big.Int", reflect.TypeFor[*big.Int](), `{}`},
		{"TextMarshaler", reflect.TypeFor[Severity](), `{"type":"string"}`},
		{"TextMarshaler struct", reflect.TypeFor[netip.Addr](), `{"type":"string"}`},
		{"TextUnmarshaler pointer receiver", reflect.TypeFor[PathKey](), `{"type":"string"}`},
		{"empty struct", reflect.TypeFor[struct{}](), `{"type":"object","properties":{},"additionalProperties":false}`},
		{"struct tags", reflect.TypeFor[Tagged](), `{"type":"object","properties":{` +
			`"name":{"type":"string","description":"Who to greet."},` +
			`"n":{"type":"integer"},` +
			`"zero":{"type":"boolean"},` +
			`"-":{"type":"string"},` +
			`"GoName":{"type":"number"},` +
			`"mode":{"type":"string","enum":["fast","slow"]},` +
			`"count":{"type":"integer","minimum":-128,"maximum":127,"enum":[1,2,-3]},` +
			`"ratio":{"type":"number","enum":[0.5,1]},` +
			`"bounded":{"type":"integer","minimum":1,"maximum":100},` +
			`"text":{"type":"string","minLength":1,"maxLength":5,"pattern":"^[a-z]+$","format":"hostname"},` +
			`"optional":{"type":["string","null"],"enum":["x","y",null],"description":"Maybe."},` +
			`"limit":{"type":["integer","null"],"minimum":0,"default":10},` +
			`"tags":{"type":["array","null"],"items":{"type":"string"},"default":["a"]},` +
			`"Invalid":{"type":"string"}},` +
			`"required":["name","-","GoName","mode","count","ratio","bounded","text","limit","tags","Invalid"],"additionalProperties":false}`},
		{"embedded conflicts", reflect.TypeFor[Embeds](), `{"type":"object","properties":{` +
			`"id":{"type":"integer"},"extra":{"type":"boolean"},"name":{"type":"string"}},` +
			`"required":["id","extra","name"],"additionalProperties":false}`},
		{"tagged embedded struct", reflect.TypeFor[TaggedWins](), `{"type":"object","properties":{` +
			`"id":{"type":"integer"},"name":{"type":"string"},` +
			`"other":{"type":"object","properties":{"id":{"type":"string"},"extra":{"type":"boolean"}},"required":["id","extra"],"additionalProperties":false}},` +
			`"required":["id","name","other"],"additionalProperties":false}`},
		{"a tagged field wins a tie", reflect.TypeFor[TagBreaksTie](), `{"type":"object","properties":{"V":{"type":"integer"}},"required":["V"],"additionalProperties":false}`},
		{"fields promoted from deeper levels", reflect.TypeFor[Deeper](), `{"type":"object","properties":{` +
			`"A":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false},` +
			`"id":{"type":"integer"},"name":{"type":"string"},` +
			`"alt":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}},` +
			`"required":["A","id","name","alt"],"additionalProperties":false}`},
		{"embedded pointer fields are optional", reflect.TypeFor[PtrEmbed](), `{"type":"object","properties":{` +
			`"id":{"type":"integer"},"name":{"type":"string"},"own":{"type":"string"}},` +
			`"required":["own"],"additionalProperties":false}`},
		{"struct used once is inlined", reflect.TypeFor[Once](), `{"type":"object","properties":{` +
			`"a":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}},` +
			`"required":["a"],"additionalProperties":false}`},
		{"repeated struct", reflect.TypeFor[Twice](), `{"type":"object","properties":{` +
			`"a":{"$ref":"#/$defs/Coord"},"b":{"anyOf":[{"$ref":"#/$defs/Coord"},{"type":"null"}]}},` +
			`"required":["a","b"],"additionalProperties":false,` +
			`"$defs":{"Coord":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}}}`},
		{"recursive struct", reflect.TypeFor[Category](), `{"type":"object","properties":{` +
			`"name":{"type":"string"},"children":{"type":["array","null"],"items":{"anyOf":[{"$ref":"#/$defs/Category"},{"type":"null"}]}}},` +
			`"required":["name"],"additionalProperties":false,` +
			`"$defs":{"Category":{"type":"object","properties":{` +
			`"name":{"type":"string"},"children":{"type":["array","null"],"items":{"anyOf":[{"$ref":"#/$defs/Category"},{"type":"null"}]}}},` +
			`"required":["name"],"additionalProperties":false}}}`},
		{"recursive slice", reflect.TypeFor[Forest](), `{"type":["array","null"],"items":{"$ref":"#/$defs/Forest"},` +
			`"$defs":{"Forest":{"type":["array","null"],"items":{"$ref":"#/$defs/Forest"}}}}`},
		{"name collision", reflect.TypeFor[Points](), `{"type":"object","properties":{` +
			`"mine":{"type":["array","null"],"items":{"$ref":"#/$defs/registry_test.Point"}},` +
			`"theirs":{"type":["array","null"],"items":{"$ref":"#/$defs/image.Point"}},` +
			`"myOne":{"$ref":"#/$defs/registry_test.Point"},` +
			`"theirOne":{"$ref":"#/$defs/image.Point"}},` +
			`"required":["mine","theirs","myOne","theirOne"],"additionalProperties":false,` +
			`"$defs":{"registry_test.Point":{"type":"object","properties":{"where":{"type":"string"}},"required":["where"],"additionalProperties":false},` +
			`"image.Point":{"type":"object","properties":{"X":{"type":"integer"},"Y":{"type":"integer"}},"required":["X","Y"],"additionalProperties":false}}}`},
		{"generic", reflect.TypeFor[Pages](), `{"type":"object","properties":{` +
			`"first":{"$ref":"#/$defs/Page_registry_test.Coord"},"next":{"$ref":"#/$defs/Page_registry_test.Coord"}},` +
			`"required":["first","next"],"additionalProperties":false,` +
			`"$defs":{"Page_registry_test.Coord":{"type":"object","properties":{` +
			`"items":{"type":["array","null"],"items":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}}},` +
			`"required":["items"],"additionalProperties":false}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := registry.InferSchema(c.typ)
			if got := typedMustSchema(t, s, err); got != c.want {
				t.Errorf("schema of %s:\n got %s\nwant %s", c.typ, got, c.want)
			}
			again, _ := registry.InferSchema(c.typ)
			if again.String() != s.String() {
				t.Errorf("second inference differs:\n%s\n%s", again, s)
			}
			if _, err := registry.New().Register(registry.Tool{Name: "t", Output: registry.OutputOf(s), Execute: typedNullBody}); err != nil {
				t.Errorf("the registry refuses the schema: %v", err)
			}
		})
	}
}

func TestSchemaFor(t *testing.T) {
	s, err := registry.SchemaFor[map[string][]*Coord]()
	want := `{"type":["object","null"],"additionalProperties":{"type":["array","null"],"items":{"type":["object","null"],"properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}}}`
	if got := typedMustSchema(t, s, err); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

type (
	WithChan    struct{ Events chan int }
	WithFunc    struct{ Ident struct{ F []func() } }
	WithComplex struct{ C map[string]complex128 }
	WithIntKeys struct{ M map[int]string }
	WithUnsafe  struct{ P unsafe.Pointer }
	WithQuoted  struct {
		N int `json:"n,string"`
	}
	BadEnum struct {
		N uint8 `enum:"1,300"`
	}
	BadEnumKind struct {
		B bool `enum:"true"`
	}
	DupEnum struct {
		S string `enum:"a,a"`
	}
	EmptyEnum struct {
		S string `enum:""`
	}
	BadMinimum struct {
		N int `minimum:"x"`
	}
	BelowRange struct {
		N uint8 `minimum:"-1"`
	}
	AboveRange struct {
		N int8 `maximum:"1000"`
	}
	MinAboveMax struct {
		N int `minimum:"5" maximum:"1"`
	}
	MinOnString struct {
		S string `minimum:"1"`
	}
	BadMinLength struct {
		S string `minLength:"-1"`
	}
	LenOnNumber struct {
		N int `maxLength:"3"`
	}
	LenInverted struct {
		S string `minLength:"3" maxLength:"1"`
	}
	BadPattern struct {
		S string `pattern:"("`
	}
	EmptyFormat struct {
		S string `format:" "`
	}
	BadDefault struct {
		N int `default:"nope"`
	}
	WrongDefault struct {
		N int `default:"\"x\""`
	}
	StructEnum struct {
		P Coord `enum:"a"`
	}
)

func TestInferSchemaErrors(t *testing.T) {
	cases := []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[chan int](), "cannot infer a JSON Schema for chan int: channels have no JSON representation"},
		{reflect.TypeFor[WithChan](), "registry_test.WithChan.Events (chan int): channels"},
		{reflect.TypeFor[WithFunc](), "registry_test.WithFunc.Ident.F[] (func()): funcs"},
		{reflect.TypeFor[WithComplex](), "registry_test.WithComplex.C[key] (complex128): complex numbers"},
		{reflect.TypeFor[WithIntKeys](), "registry_test.WithIntKeys.M (map[int]string): map keys must be strings or implement encoding.TextMarshaler, not int"},
		{reflect.TypeFor[WithUnsafe](), "registry_test.WithUnsafe.P (unsafe.Pointer): unsafe pointers"},
		{reflect.TypeFor[WithQuoted](), `registry_test.WithQuoted.N (int): the json ",string" option is not supported`},
		{reflect.TypeFor[BadEnum](), `field registry_test.BadEnum.N: enum tag value "300" is not a uint8`},
		{reflect.TypeFor[BadEnumKind](), `field registry_test.BadEnumKind.B: enum tag needs a string or numeric field, not bool`},
		{reflect.TypeFor[DupEnum](), `enum tag "a,a" lists "a" twice`},
		{reflect.TypeFor[EmptyEnum](), `enum tag is empty`},
		{reflect.TypeFor[BadMinimum](), `field registry_test.BadMinimum.N: minimum tag "x" is not a finite number`},
		{reflect.TypeFor[BelowRange](), `minimum tag -1 is below the range of uint8 (0)`},
		{reflect.TypeFor[AboveRange](), `maximum tag 1000 is above the range of int8 (127)`},
		{reflect.TypeFor[MinAboveMax](), `minimum tag 5 is greater than maximum tag 1`},
		{reflect.TypeFor[MinOnString](), `minimum tag needs a numeric field, not string`},
		{reflect.TypeFor[BadMinLength](), `minLength tag "-1" is not a non-negative integer`},
		{reflect.TypeFor[LenOnNumber](), `maxLength tag needs a string field, not int`},
		{reflect.TypeFor[LenInverted](), `minLength tag 3 is greater than maxLength tag 1`},
		{reflect.TypeFor[BadPattern](), `field registry_test.BadPattern.S: pattern tag "(": error parsing regexp`},
		{reflect.TypeFor[EmptyFormat](), `format tag is empty`},
		{reflect.TypeFor[BadDefault](), `field registry_test.BadDefault.N: default tag "nope" is not a JSON literal`},
		{reflect.TypeFor[WrongDefault](), `default tag "\"x\"" does not decode into int`},
		{reflect.TypeFor[StructEnum](), `enum tag needs a string or numeric field, not registry_test.Coord`},
	}
	for _, c := range cases {
		t.Run(c.typ.String(), func(t *testing.T) {
			s, err := registry.InferSchema(c.typ)
			if err == nil {
				t.Fatalf("no error; schema %s", s)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q\ndoes not contain %q", err, c.want)
			}
			if s.IsDefined() {
				t.Errorf("schema %s returned with an error", s)
			}
		})
	}
	if _, err := registry.InferSchema(nil); err == nil {
		t.Error("InferSchema(nil) succeeded")
	}
}
