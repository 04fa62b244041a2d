package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
)

// nestedProperties returns an object schema nesting levels objects through "properties".
func nestedProperties(levels int) jsonv.Value {
	return jsonv.MustParse(strings.Repeat(`{"type":"object","properties":{"a":`, levels) + `{"type":"string"}` + strings.Repeat(`}}`, levels))
}

// nestedFullProperties is nestedProperties with a leaf outside the upstream subset
// (minLength), so that the full compiler and its limits apply.
func nestedFullProperties(levels int) jsonv.Value {
	return jsonv.MustParse(strings.Repeat(`{"type":"object","properties":{"a":`, levels) + `{"type":"string","minLength":1}` + strings.Repeat(`}}`, levels))
}

// nestedOneOf returns a schema nesting levels one-branch oneOf (outside the upstream subset,
// which wants two branches at least), 2×levels+1 JSON levels.
func nestedOneOf(levels int) jsonv.Value {
	return jsonv.MustParse(strings.Repeat(`{"oneOf":[`, levels) + `{"type":"string"}` + strings.Repeat(`]}`, levels))
}

func toolWith(name string, params jsonv.Value) Tool {
	return Tool{Name: name, Parameters: params, Output: AnyOutput(), Execute: func(context.Context, *Invocation) (jsonv.Value, error) {
		return jsonv.NullValue(), nil
	}}
}

// A schema outside the upstream subset of 5,000 nested levels (which used to compile for
// longer than minutes, the compile growing with the cube of the depth) is refused at once,
// naming the tool, well within a deadline that a compile of it would miss by orders of
// magnitude.
func TestDeepSchemaIsRefusedPromptly(t *testing.T) {
	for name, schema := range map[string]jsonv.Value{"properties": nestedFullProperties(5000), "oneOf": nestedOneOf(5000)} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := New().RegisterContext(ctx, toolWith("deep", schema))
			if !errors.Is(err, ErrSchemaTooLarge) || !errors.Is(err, CodeInvalidDefinition) {
				t.Fatalf("err = %v, want INVALID_DEFINITION wrapping ErrSchemaTooLarge", err)
			}
			if want := fmt.Sprintf(`tool "deep": parameters schema: schema too large: it nests %d levels deep, more than the limit of %d`+outsideSubset, schema.Depth(), MaxSchemaDepth); err.Error() != want {
				t.Errorf("err = %q, want %q", err, want)
			}
		})
	}
}

// At the depth limit a schema outside the subset still registers, and validates what it
// declares.
func TestSchemaAtTheDepthLimitRegisters(t *testing.T) {
	levels := (MaxSchemaDepth - 1) / 2 // each level is two JSON levels; the leaf is one
	schema := nestedFullProperties(levels)
	if schema.Depth() > MaxSchemaDepth {
		t.Fatalf("test schema nests %d levels", schema.Depth())
	}
	reg := New()
	if _, err := reg.Register(toolWith("deep", schema)); err != nil {
		t.Fatal(err)
	}
	bad := strings.Repeat(`{"a":`, levels) + `1` + strings.Repeat(`}`, levels)
	res := reg.Execute(context.Background(), Call{CallID: "c", Name: "deep", Arguments: jsonv.MustParse(bad)})
	if !errors.Is(res.Err, CodeInvalidArgs) || !strings.Contains(res.Err.Error(), "must be a string, got number") {
		t.Fatalf("err = %v, want INVALID_ARGS about the leaf", res.Err)
	}
}

// A schema of more than MaxSchemaValues values (the compiler is quadratic in its subschemas)
// is refused.
func TestWideSchemaIsRefused(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range MaxSchemaValues / 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"minLength":1}`, i)
	}
	b.WriteString(`}}`)
	_, err := New().Register(toolWith("wide", jsonv.MustParse(b.String())))
	if !errors.Is(err, ErrSchemaTooLarge) || !strings.Contains(err.Error(), fmt.Sprintf(`tool "wide": parameters schema: schema too large: it holds more than %d JSON values`, MaxSchemaValues)) {
		t.Fatalf("err = %v", err)
	}
}

// Registration stops at a done context, adding nothing, with an error that wraps the
// context's.
func TestRegisterContextStopsWhenDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	reg := New()
	_, err := reg.RegisterContext(ctx, toolWith("a", jsonv.MustParse(`{"type":"object"}`)))
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), `tool "a"`) {
		t.Fatalf("err = %v, want one wrapping context.Canceled naming the tool", err)
	}
	if len(reg.Schemas(nil)) != 0 {
		t.Fatal("a tool was registered")
	}
	s := reg.NewScope("agent", nil)
	if _, err := s.RegisterContext(ctx, toolWith("b", jsonv.Value{})); !errors.Is(err, context.Canceled) {
		t.Fatalf("scope: err = %v", err)
	}
}

// Tools that declare the same schema share one compiled schema, and a tool the Compiler
// prepared is registered without compiling again.
func TestSchemasAreCompiledOncePerRegistry(t *testing.T) {
	reg := New()
	schema := `{"type":"object","properties":{"n":{"type":"number","minimum":0}},"required":["n"]}`
	if _, err := reg.Register(toolWith("a", jsonv.MustParse(schema)), toolWith("b", jsonv.MustParse(schema))); err != nil {
		t.Fatal(err)
	}
	reg.mu.RLock()
	a, b := reg.global.byName["a"], reg.global.byName["b"]
	reg.mu.RUnlock()
	if a.params != b.params || a.output != b.output {
		t.Error("two tools with the same schemas hold two compilations")
	}

	c := NewCompiler()
	prepared, err := c.Compile(context.Background(), toolWith("c", jsonv.MustParse(`{"type":"object","properties":{"s":{"type":"string","pattern":"^x"}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	fresh := New()
	if _, err := fresh.Register(prepared); err != nil {
		t.Fatal(err)
	}
	fresh.mu.RLock()
	e := fresh.global.byName["c"]
	fresh.mu.RUnlock()
	if e.params != prepared.compiled.params {
		t.Error("registering a compiled tool compiled its parameters again")
	}
	if got, _ := fresh.Get("c", nil); got.compiled != nil {
		t.Error("Get returns the compiled schemas with the tool")
	}
	// A compiled tool whose schema was replaced afterwards is compiled anew.
	changed := prepared
	changed.Parameters = jsonv.MustParse(`{"type":"object","properties":{"s":{"type":5}}}`)
	if _, err := New().Register(changed); !errors.Is(err, CodeInvalidDefinition) {
		t.Fatalf("changed schema: err = %v, want INVALID_DEFINITION", err)
	}
}

// A schema the registry checked itself, without the full compiler, still validates exactly:
// the deferred compile runs on the first value the fast subset cannot decide.
func TestDeferredCompileValidates(t *testing.T) {
	reg := New()
	schema := jsonv.MustParse(`{"type":"object","properties":{"n":{"type":"integer","minimum":1},"s":{"type":"string","pattern":"^[a-z]+$"}},"required":["n"]}`)
	if !certainlyValid(schema) {
		t.Fatal("test schema is not certainlyValid")
	}
	if _, err := reg.Register(toolWith("t", schema)); err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]string{
		`{"n":2,"s":"ab"}`: "",
		`{"n":0}`:          `"n": minimum: got 0, want 1`,
		`{"n":1,"s":"A"}`:  `"s": 'A' does not match pattern '^[a-z]+$'`,
		`{}`:               `missing required property "n"`,
	} {
		res := reg.Execute(context.Background(), Call{CallID: "c", Name: "t", Arguments: jsonv.MustParse(args)})
		switch {
		case want == "" && res.IsError:
			t.Errorf("%s: %v", args, res.Err)
		case want != "" && (!errors.Is(res.Err, CodeInvalidArgs) || !strings.Contains(res.Err.Error(), want)):
			t.Errorf("%s: err = %v, want INVALID_ARGS containing %q", args, res.Err, want)
		}
	}
}

// Schemas the registry checks itself are exactly those the full compiler also accepts, for
// the keywords it knows; anything unusual goes to the compiler.
func TestCertainlyValidDefersOnlyWhatCompiles(t *testing.T) {
	valid := []string{
		`{}`, `true`, `false`, `{"type":["string","null"]}`, `{"enum":[1,"a",null,{"x":1}]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`,
		`{"anyOf":[{"type":"string","maxLength":3},{"type":"number","multipleOf":0.5}]}`,
		`{"type":"array","items":{"type":"string","format":"uri"},"minItems":1,"uniqueItems":true}`,
		`{"not":{"const":3},"description":"d","title":"t","examples":[1],"default":2,"deprecated":true}`,
		`{"$schema":"https://json-schema.org/schema"}`, `{"$schema":"http://json-schema.org/schema#"}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema"}`, `{"$schema":"http://json-schema.org/draft-06/schema#"}`,
	}
	for _, s := range valid {
		doc := jsonv.MustParse(s)
		if !certainlyValid(doc) {
			t.Errorf("%s: not certainlyValid", s)
		}
		if _, err := compileFull(doc); err != nil {
			t.Errorf("%s: the compiler refuses it: %v", s, err)
		}
	}
	deferred := []string{
		`{"type":"strin"}`, `{"type":["string","string"]}`, `{"type":[]}`, `{"required":["a","a"]}`,
		`{"minLength":-1}`, `{"minLength":1.5}`, `{"multipleOf":0}`, `{"pattern":"("}`, `{"anyOf":[]}`,
		`{"description":5}`, `{"$ref":"#"}`, `{"items":[{}]}`, `{"$schema":"http://json-schema.org/draft-04/schema#"}`,
		`{"properties":{"a":{"$schema":"http://json-schema.org/draft-07/schema#"}}}`, `{"x-custom":1}`,
	}
	long := make([]string, 20)
	for i := range long {
		long[i] = fmt.Sprintf("%q", fmt.Sprint("p", i))
	}
	if doc := jsonv.MustParse(`{"required":[` + strings.Join(long, ",") + `]}`); !certainlyValid(doc) {
		t.Error("20 distinct required names: not certainlyValid")
	}
	deferred = append(deferred, `{"required":[`+strings.Join(long, ",")+`,"p3"]}`, `{"required":["a","b","c","b"]}`)
	for _, s := range deferred {
		if certainlyValid(jsonv.MustParse(s)) {
			t.Errorf("%s: certainlyValid, want it left to the compiler", s)
		}
	}
}

// FuzzCertainlyValid checks the one promise certainlyValid makes: a schema it vouches for
// compiles with the full compiler.
func FuzzCertainlyValid(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"integer","minimum":0}},"required":["a"]}`,
		`{"anyOf":[{"type":"string","pattern":"^a+$"},{"enum":[1]}]}`,
		`{"type":"array","items":{"not":{"const":null}},"maxItems":3}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","oneOf":[true,false]}`,
		`{"format":"date","minProperties":0,"exclusiveMaximum":1e300}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		doc, err := jsonv.Parse([]byte(schema))
		if err != nil || checkSchemaLimits(doc, jsonv.AppendJSON(nil, doc)) != nil || !certainlyValid(doc) {
			return
		}
		if _, err := compileFull(doc); err != nil {
			t.Fatalf("certainlyValid(%s), but the compiler refuses it: %v", schema, err)
		}
	})
}

// A registry holds a schema while a registered tool uses it: unregistering the last such tool,
// or a registration that fails, leaves none behind.
func TestSchemaCacheFollowsRegistrations(t *testing.T) {
	reg := New()
	schema := jsonv.MustParse(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	unregA, err := reg.Register(toolWith("a", schema))
	if err != nil {
		t.Fatal(err)
	}
	unregB, err := reg.Register(toolWith("b", jsonv.MustParse(schema.String())))
	if err != nil {
		t.Fatal(err)
	}
	if n := reg.schemas.len(); n != 2 { // the parameters, and AnyOutput's {}
		t.Fatalf("cache holds %d schemas, want 2", n)
	}
	unregA()
	unregA() // a second call changes nothing
	if n := reg.schemas.len(); n != 2 {
		t.Fatalf("after one of two users left: cache holds %d schemas, want 2", n)
	}
	unregB()
	if n := reg.schemas.len(); n != 0 {
		t.Fatalf("after the last user left: cache holds %d schemas, want 0", n)
	}
	if _, err := reg.Register(toolWith("c", schema), toolWith("c", schema)); err == nil {
		t.Fatal("a tool defined twice registered")
	}
	if _, err := reg.Register(toolWith("d", schema), toolWith("e", jsonv.MustParse(`{"type":5}`))); err == nil {
		t.Fatal("an invalid schema registered")
	}
	if n := reg.schemas.len(); n != 0 {
		t.Fatalf("after failed registrations: cache holds %d schemas, want 0", n)
	}
}

// BenchmarkRegisterDeepSchema registers one tool whose parameters nest levels objects deep
// and validates one invalid call: outside the upstream subset at the depth limit (the full
// compiler forced by the invalid call) and far beyond it (refused); inside the subset far
// beyond it, as nested objects and as nested nullable oneOf (validated by the subset
// validator, never compiled).
func BenchmarkRegisterDeepSchema(b *testing.B) {
	for _, bc := range []struct {
		name   string
		levels int
		schema func(int) jsonv.Value
		bad    func(int) jsonv.Value
	}{
		{"full", (MaxSchemaDepth - 1) / 2, nestedFullProperties, nestedObjectValue},
		{"full", 5000, nestedFullProperties, nestedObjectValue},
		{"subset", 1000, nestedProperties, nestedObjectValue},
		{"subset", 5000, nestedProperties, nestedObjectValue},
		{"subset-oneOf", 1000, nestedNullable, func(int) jsonv.Value { return jsonv.MustParse(`{"v":1}`) }},
		{"subset-oneOf", 5000, nestedNullable, func(int) jsonv.Value { return jsonv.MustParse(`{"v":1}`) }},
	} {
		schema, bad := bc.schema(bc.levels), bc.bad(bc.levels)
		refused := bc.name == "full" && schema.Depth() > MaxSchemaDepth
		b.Run(fmt.Sprintf("%s/levels=%d", bc.name, bc.levels), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				reg := New()
				_, err := reg.Register(toolWith("deep", schema))
				if refused {
					if !errors.Is(err, ErrSchemaTooLarge) {
						b.Fatal(err)
					}
					continue
				}
				if err != nil {
					b.Fatal(err)
				}
				if res := reg.Execute(context.Background(), Call{CallID: "c", Name: "deep", Arguments: bad}); !errors.Is(res.Err, CodeInvalidArgs) {
					b.Fatal(res.Err)
				}
			}
		})
	}
}

// Registrations racing on the same new schemas share the cache safely, and leave nothing
// behind once all are unregistered.
func TestConcurrentRegistrationsShareSchemas(t *testing.T) {
	reg := New()
	schema := `{"type":"object","properties":{"n":{"type":"integer","minimum":0}}}`
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				unregister, err := reg.Register(toolWith(fmt.Sprintf("t%d_%d", i, j), jsonv.MustParse(schema)))
				if err != nil {
					t.Error(err)
					return
				}
				res := reg.Execute(context.Background(), Call{CallID: "c", Name: fmt.Sprintf("t%d_%d", i, j), Arguments: jsonv.MustParse(`{"n":-1}`)})
				if !errors.Is(res.Err, CodeInvalidArgs) {
					t.Errorf("err = %v, want INVALID_ARGS", res.Err)
				}
				unregister()
			}
		}()
	}
	wg.Wait()
	if n := reg.schemas.len(); n != 0 {
		t.Fatalf("cache holds %d schemas after every tool left", n)
	}
}
