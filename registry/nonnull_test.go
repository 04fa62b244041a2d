package registry_test

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/sdkgen"
)

// Listing is an output whose collections the tool guarantees, field by field.
type Listing struct {
	Names   []string          `json:"names" runcode:"nonnull"`
	Sizes   map[string]int    `json:"sizes" runcode:"nonnull"`
	Digest  []byte            `json:"digest" runcode:"nonnull"`
	Entries []ListingEntry    `json:"entries" runcode:"nonnull"`
	ByName  map[string]*Entry `json:"byName" runcode:"nonnull"`
	Owner   *Entry            `json:"owner" runcode:"nonnull"`
	Maybe   []string          `json:"maybe" runcode:"nullable"` // nil stays null
	Tree    *TreeNode         `json:"tree,omitempty"`
	ListingBase
}

type ListingBase struct {
	Warnings []string `json:"warnings" runcode:"nonnull"`
}

type ListingEntry struct {
	Tags []string `json:"tags" runcode:"nonnull"`
}

type Entry struct {
	Name string `json:"name"`
}

type TreeNode struct {
	Children []*TreeNode `json:"children" runcode:"nonnull"`
	Labels   []string    `json:"labels" runcode:"nonnull"`
}

// The tag takes null out of the field's schema, so the SDK type is string[], not
// string[] | null; the untagged field stays nullable.
func TestNonNullTagSchema(t *testing.T) {
	s, err := registry.SchemaFor[Listing]()
	if err != nil {
		t.Fatal(err)
	}
	props := s.Lookup("properties")
	for key, want := range map[string]string{
		"names":  `{"type":"array","items":{"type":"string"}}`,
		"sizes":  `{"type":"object","additionalProperties":{"type":"integer"}}`,
		"digest": `{"type":"string","contentEncoding":"base64"}`,
		// byName's values are pointers: the tag is about the field, not its elements.
		"byName":   `{"type":"object","additionalProperties":{"anyOf":[{"$ref":"#/$defs/Entry"},{"type":"null"}]}}`,
		"owner":    `{"$ref":"#/$defs/Entry"}`,
		"maybe":    `{"type":["array","null"],"items":{"type":"string"}}`, // untagged
		"warnings": `{"type":"array","items":{"type":"string"}}`,
	} {
		if got := string(jsonv.AppendJSON(nil, props.Lookup(key))); got != want {
			t.Errorf("%s: %s, want %s", key, got, want)
		}
	}
	ts := sdkgen.TypeOf(s, 0)
	for _, want := range []string{"names: string[];", "sizes: {", "digest: string;", "warnings: string[];", "maybe: string[] | null;"} {
		if !strings.Contains(ts, want) {
			t.Errorf("the SDK type lacks %q:\n%s", want, ts)
		}
	}
	if strings.Contains(ts, "names: string[] | null") {
		t.Errorf("a non-null field is nullable in the SDK:\n%s", ts)
	}
}

func listingTool(t *testing.T, out Listing) *registry.Registry {
	t.Helper()
	tool, err := registry.Define(registry.TypedTool[SearchFilter, Listing]{
		Name: "list",
		Execute: func(context.Context, *registry.Invocation, SearchFilter) (Listing, error) {
			return out, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return newRegistry(t, tool)
}

// At run time the declaration holds: nil slices and maps in tagged fields (nested ones, promoted
// ones and those of a recursive type included) come back empty; a nullable one stays null.
func TestNonNullTagRuntime(t *testing.T) {
	out := Listing{
		Entries: []ListingEntry{{}, {Tags: []string{"a"}}},
		Owner:   &Entry{Name: "root"},
		Tree:    &TreeNode{Children: []*TreeNode{{}, nil}},
	}
	reg := listingTool(t, out)
	res := typedCall(reg, "list", `{"field":"f","value":"v"}`)
	if res.IsError {
		t.Fatalf("%+v", res.Err)
	}
	want := `{"names":[],"sizes":{},"digest":"","entries":[{"tags":[]},{"tags":["a"]}],"byName":{},"owner":{"name":"root"},"maybe":null,` +
		`"tree":{"children":[{"children":[],"labels":[]},null],"labels":[]},"warnings":[]}`
	if got := string(jsonv.AppendJSON(nil, res.Value)); got != want {
		t.Errorf("value\n got %s\nwant %s", got, want)
	}
	// The tool's own value is not modified.
	if out.Names != nil || out.Entries[0].Tags != nil || out.Tree.Children[0].Children != nil {
		t.Error("the filler modified the tool's data")
	}
}

// A nil pointer in a tagged field has no empty value: the call is refused, naming the field,
// rather than returning a null the declaration rules out.
func TestNonNullTagRefusesNilPointer(t *testing.T) {
	reg := listingTool(t, Listing{})
	res := typedCall(reg, "list", `{"field":"f","value":"v"}`)
	if !errors.Is(res.Err, registry.CodeInvalidToolOutput) || !strings.Contains(res.Err.Message, "owner") {
		t.Errorf("want INVALID_TOOL_OUTPUT naming owner, got %+v", res.Err)
	}
}

type NonNullArgs struct {
	Filter *SearchFilter `json:"filter" runcode:"nonnull"`
	Names  []string      `json:"names,omitempty" runcode:"nonnull"`
}

// On an argument, a tagged pointer must not be sent as null (slices and maps never may).
func TestNonNullTagArguments(t *testing.T) {
	tool, err := registry.Define(registry.TypedTool[NonNullArgs, string]{
		Name: "args",
		Execute: func(_ context.Context, _ *registry.Invocation, in NonNullArgs) (string, error) {
			return in.Filter.Field, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(jsonv.AppendJSON(nil, tool.Parameters.Lookup("properties").Lookup("filter"))); strings.Contains(got, "null") {
		t.Errorf("filter schema %s admits null", got)
	}
	reg := newRegistry(t, tool)
	if res := typedCall(reg, "args", `{"filter":null}`); !errors.Is(res.Err, registry.CodeInvalidArgs) {
		t.Errorf("null filter: %+v", res)
	}
	if res := typedCall(reg, "args", `{"filter":{"field":"f","value":"v"}}`); res.IsError || res.Value.AsString() != "f" {
		t.Errorf("filter: %+v", res)
	}
}

type (
	NonNullString struct {
		S string `json:"s" runcode:"nonnull"`
	}
	NonNullAny struct {
		A any `json:"a" runcode:"nonnull"`
	}
	NonNullTypo struct {
		L []string `json:"l" runcode:"nonull"`
	}
	RecursiveList  []RecursiveList
	NonNullRecList struct {
		R RecursiveList `json:"r" runcode:"nonnull"`
	}
)

func TestNonNullTagErrors(t *testing.T) {
	cases := []struct {
		name string
		def  func() (registry.Tool, error)
		want string
	}{
		{"never null anyway", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[NonNullString, string]{Name: "x", Execute: func(context.Context, *registry.Invocation, NonNullString) (string, error) { return "", nil }})
		}, `field registry_test.NonNullString.S: the runcode:"nonnull" tag has no effect: a string is never null`},
		{"an interface", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[SearchFilter, NonNullAny]{Name: "x", Execute: func(context.Context, *registry.Invocation, SearchFilter) (NonNullAny, error) {
				return NonNullAny{}, nil
			}})
		}, `field registry_test.NonNullAny.A: the runcode:"nonnull" tag cannot apply to interface {}`},
		{"a misspelt option", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[SearchFilter, NonNullTypo]{Name: "x", Execute: func(context.Context, *registry.Invocation, SearchFilter) (NonNullTypo, error) {
				return NonNullTypo{}, nil
			}})
		}, `field registry_test.NonNullTypo.L: runcode tag "nonull": unknown option "nonull" (the options are "nonnull" and "nullable")`},
		{"a recursive slice type", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[SearchFilter, NonNullRecList]{Name: "x", Execute: func(context.Context, *registry.Invocation, SearchFilter) (NonNullRecList, error) {
				return NonNullRecList{}, nil
			}})
		}, `the runcode:"nonnull" tag cannot apply to registry_test.RecursiveList`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.def()
			if !errors.Is(err, registry.CodeInvalidDefinition) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v\nwant %q", err, c.want)
			}
		})
	}
}

type Collections struct {
	List   []string            `json:"list"`
	Nested map[string][]string `json:"nested"`
	Ptr    *[]string           `json:"ptr"`
}

// By default every slice and map of a Define'd tool's output, the output itself included, is
// declared non-null and returned empty when nil, as Go code treats nil; pointers stay nullable.
func TestNilIsEmptyByDefault(t *testing.T) {
	root, err := registry.Define(registry.TypedTool[SearchFilter, []string]{
		Name:    "root",
		Execute: func(context.Context, *registry.Invocation, SearchFilter) ([]string, error) { return nil, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(jsonv.AppendJSON(nil, root.Output.Schema)); got != `{"type":"array","items":{"type":"string"}}` {
		t.Errorf("root schema %s", got)
	}
	if got := sdkgen.TypeOf(root.Output.Schema, 0); got != "string[]" {
		t.Errorf("root SDK type %s", got)
	}
	fields, err := registry.Define(registry.TypedTool[SearchFilter, Collections]{
		Name: "fields",
		Execute: func(context.Context, *registry.Invocation, SearchFilter) (Collections, error) {
			return Collections{Nested: map[string][]string{"a": nil}}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(jsonv.AppendJSON(nil, fields.Output.Schema)), `{"type":"object","properties":{`+
		`"list":{"type":"array","items":{"type":"string"}},`+
		`"nested":{"type":"object","additionalProperties":{"type":"array","items":{"type":"string"}}},`+
		`"ptr":{"type":["array","null"],"items":{"type":"string"}}},`+
		`"required":["list","nested","ptr"],"additionalProperties":false}`; got != want {
		t.Errorf("schema\n got %s\nwant %s", got, want)
	}
	reg := newRegistry(t, root, fields)
	if res := typedCall(reg, "root", `{"field":"f","value":"v"}`); res.IsError || string(jsonv.AppendJSON(nil, res.Value)) != `[]` {
		t.Errorf("root: %+v", res)
	}
	res := typedCall(reg, "fields", `{"field":"f","value":"v"}`)
	if got := string(jsonv.AppendJSON(nil, res.Value)); res.IsError || got != `{"list":[],"nested":{"a":[]},"ptr":null}` {
		t.Errorf("fields: %s %+v", got, res.Err)
	}
}

type NullableCollections struct {
	List   []string            `json:"list" runcode:"nullable"`
	Nested map[string][]string `json:"nested" runcode:"nullable"`
	Plain  []int               `json:"plain"`
}

type NullableArgs struct {
	Names []string `json:"names" runcode:"nullable"`
}

// A field tagged runcode:"nullable" opts back into null: its nil is null and its type admits
// it (its elements stay non-null); as an argument, it may be sent as null.
func TestNullableTag(t *testing.T) {
	tool, err := registry.Define(registry.TypedTool[NullableArgs, NullableCollections]{
		Name: "nullable",
		Execute: func(_ context.Context, _ *registry.Invocation, in NullableArgs) (NullableCollections, error) {
			if in.Names != nil {
				return NullableCollections{Nested: map[string][]string{"a": nil}}, nil
			}
			return NullableCollections{}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(jsonv.AppendJSON(nil, tool.Output.Schema)), `{"type":"object","properties":{`+
		`"list":{"type":["array","null"],"items":{"type":"string"}},`+
		`"nested":{"type":["object","null"],"additionalProperties":{"type":"array","items":{"type":"string"}}},`+
		`"plain":{"type":"array","items":{"type":"integer"}}},`+
		`"required":["list","nested","plain"],"additionalProperties":false}`; got != want {
		t.Errorf("schema\n got %s\nwant %s", got, want)
	}
	if ts := sdkgen.TypeOf(tool.Output.Schema, 0); !strings.Contains(ts, "list: string[] | null;") || !strings.Contains(ts, "plain: number[] }") {
		t.Errorf("SDK type %s", ts)
	}
	reg := newRegistry(t, tool)
	res := typedCall(reg, "nullable", `{"names":null}`)
	if got := string(jsonv.AppendJSON(nil, res.Value)); res.IsError || got != `{"list":null,"nested":null,"plain":[]}` {
		t.Errorf("nil fields: %s %+v", got, res.Err)
	}
	res = typedCall(reg, "nullable", `{"names":[]}`)
	if got := string(jsonv.AppendJSON(nil, res.Value)); res.IsError || got != `{"list":null,"nested":{"a":[]},"plain":[]}` {
		t.Errorf("nested: %s %+v", got, res.Err)
	}
}

type (
	NullablePtr struct {
		P *string `json:"p" runcode:"nullable"`
	}
	NullableBoth struct {
		L []string `json:"l" runcode:"nonnull,nullable"`
	}
)

func TestNullableTagErrors(t *testing.T) {
	for _, c := range []struct {
		def  func() (registry.Tool, error)
		want string
	}{
		{func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[SearchFilter, NullablePtr]{Name: "x", Execute: func(context.Context, *registry.Invocation, SearchFilter) (NullablePtr, error) {
				return NullablePtr{}, nil
			}})
		}, `field registry_test.NullablePtr.P: the runcode:"nullable" tag has no effect: a *string is nullable already`},
		{func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[NonNullString, string]{Name: "x", Execute: func(context.Context, *registry.Invocation, NonNullString) (string, error) { return "", nil }})
		}, `the runcode:"nonnull" tag has no effect`},
		{func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[SearchFilter, NullableBoth]{Name: "x", Execute: func(context.Context, *registry.Invocation, SearchFilter) (NullableBoth, error) {
				return NullableBoth{}, nil
			}})
		}, `a field cannot be both "nonnull" and "nullable"`},
	} {
		if _, err := c.def(); !errors.Is(err, registry.CodeInvalidDefinition) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v\nwant %q", err, c.want)
		}
	}
}

// NonNullRoundTrip carries the tag at every kind of position the filler handles.
type NonNullRoundTrip struct {
	List     []string            `json:"list" runcode:"nonnull"`
	Bytes    []byte              `json:"bytes" runcode:"nonnull"`
	Map      map[string][]Coord  `json:"map" runcode:"nonnull"`
	Items    []NonNullRoundTrip  `json:"items,omitempty"`
	ByKey    map[RTKey]*Category `json:"byKey" runcode:"nonnull"`
	Forest   Forest              `json:"forest"`
	Untagged []int               `json:"untagged"`
	Nullable []int               `json:"nullable" runcode:"nullable"`
	Embeds
}

// returning is a Define'd tool of output type T that returns the value in *next.
type returning struct {
	typ    reflect.Type
	define func(name string, next *reflect.Value) (registry.Tool, error)
}

func returningOf[T any]() returning {
	return returning{reflect.TypeFor[T](), func(name string, next *reflect.Value) (registry.Tool, error) {
		return registry.Define(registry.TypedTool[SearchFilter, T]{
			Name: name,
			Execute: func(context.Context, *registry.Invocation, SearchFilter) (T, error) {
				return next.Interface().(T), nil
			},
		})
	}}
}

// FuzzNilAsEmptyRoundTrip: whatever Go value a Define'd tool returns, the value it gives
// satisfies its output schema, with the runcode:"nonnull" and runcode:"nullable" tags
// (NonNullRoundTrip) and the empty values of nil slices and maps on the round-trip types.
func FuzzNilAsEmptyRoundTrip(f *testing.F) {
	cases := []returning{
		returningOf[NonNullRoundTrip](), returningOf[RoundTrip](),
		returningOf[*RoundTrip](), returningOf[[]*Category](), returningOf[map[string][]byte](),
		returningOf[Forest](), returningOf[*float32](), returningOf[[3]int8](), returningOf[Twice](),
		returningOf[Embeds](), returningOf[TagBreaksTie](), returningOf[PtrEmbed](), returningOf[Pages](),
		returningOf[Points](), returningOf[map[Shade]*Twice](), returningOf[[]map[string][]string](),
	}
	for i := range cases {
		f.Add(byte(i), []byte{})
		f.Add(byte(i), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
		f.Add(byte(i), []byte(strings.Repeat("\xff\x01\x7f\x80", 40)))
	}
	var next reflect.Value // what the tools return; set before each call
	reg := registry.New()
	for i, c := range cases {
		tool, err := c.define("t"+strconv.Itoa(i), &next)
		if err != nil {
			f.Fatalf("%s: %v", c.typ, err)
		}
		if _, err := reg.Register(tool); err != nil {
			f.Fatalf("%s: %v", c.typ, err)
		}
	}
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		i := int(which) % len(cases)
		v := reflect.New(cases[i].typ).Elem()
		(&valueGen{data: data}).fill(v, 0)
		next = v
		res := reg.Execute(context.Background(), registry.Call{CallID: "c", Name: "t" + strconv.Itoa(i), Arguments: jsonv.MustParse(`{"field":"f","value":"v"}`)})
		if res.IsError {
			t.Fatalf("%s value %#v: %s", cases[i].typ, v.Interface(), res.Err.Message)
		}
	})
}
