package registry

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

// nestedNullable returns tool parameters {"v": S} where S nests levels oneOf [S', {"type":
// "null"}] around {"type":"string"}: the upstream's deep rendering case, 2×levels+3 JSON
// levels.
func nestedNullable(levels int) jsonv.Value {
	return jsonv.MustParse(`{"type":"object","properties":{"v":` + strings.Repeat(`{"oneOf":[`, levels) + `{"type":"string"}` +
		strings.Repeat(`,{"type":"null"}]}`, levels) + `},"required":["v"]}`)
}

// nestedObjectValue returns {"a":{"a":…1…}}, levels deep: invalid for nestedProperties.
func nestedObjectValue(levels int) jsonv.Value {
	return jsonv.MustParse(strings.Repeat(`{"a":`, levels) + `1` + strings.Repeat(`}`, levels))
}

func execute(reg *Registry, name string, args jsonv.Value) Result {
	return reg.Execute(context.Background(), Call{CallID: "c", Name: name, Arguments: args})
}

// A schema inside the upstream subset registers at 5,000 levels (10,000 JSON levels, far past
// MaxSchemaDepth) and validates deep values in linear time: on the cubic compile these would
// not finish in minutes, so the test's own timeout bounds them.
func TestSubsetSchemaRegistersAtAnyDepth(t *testing.T) {
	const levels = 5000
	reg := New()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := reg.RegisterContext(ctx, toolWith("objects", nestedProperties(levels)), toolWith("nullable", nestedNullable(levels))); err != nil {
		t.Fatal(err)
	}

	good := jsonv.MustParse(strings.Repeat(`{"a":`, levels) + `"x"` + strings.Repeat(`}`, levels))
	if res := execute(reg, "objects", good); res.IsError {
		t.Fatalf("objects, valid value: %v", res.Err)
	}
	res := execute(reg, "objects", nestedObjectValue(levels))
	path := strings.TrimSuffix(strings.Repeat("a.", levels), ".")
	if want := `invalid arguments: "` + path + `" must be a string, got number`; !errors.Is(res.Err, CodeInvalidArgs) || res.Err.Error() != want {
		t.Fatalf("objects, invalid value: err = %.200v…, want INVALID_ARGS naming the leaf's path", res.Err)
	}

	if res := execute(reg, "nullable", jsonv.MustParse(`{"v":"s"}`)); res.IsError {
		t.Fatalf("nullable, a string: %v", res.Err)
	}
	for args, want := range map[string]string{
		`{"v":1}`: `invalid arguments: "v" must be a string, got number; ` + strings.Repeat(`"v" must be a null, got number; `, maxRegistryViolations-1) +
			fmt.Sprintf("and %d more violations", levels+1-maxRegistryViolations),
		`{"v":null}`: `invalid arguments: "v" must match exactly one oneOf branch (matched 2)`, // null | null
		`{}`:         `invalid arguments: missing required property "v"`,
	} {
		if res := execute(reg, "nullable", jsonv.MustParse(args)); !errors.Is(res.Err, CodeInvalidArgs) || res.Err.Error() != want {
			t.Errorf("nullable %s: err = %v, want %q", args, res.Err, want)
		}
	}
}

// A deep value that violates the schema at every level gets the first maxRegistryViolations
// messages and a count of the rest, not thousands of messages each naming a path thousands of
// segments long.
func TestDeepViolationsAreBounded(t *testing.T) {
	const levels = 5000
	schema := jsonv.MustParse(strings.Repeat(`{"type":"object","required":["a","b"],"properties":{"b":{"type":"string"},"a":`, levels) +
		`{"type":"string"}` + strings.Repeat(`}}`, levels))
	reg := New()
	if _, err := reg.Register(toolWith("t", schema)); err != nil {
		t.Fatal(err)
	}
	value := jsonv.MustParse(strings.Repeat(`{"a":`, levels) + `"x"` + strings.Repeat(`}`, levels)) // no "b" anywhere
	res := execute(reg, "t", value)
	msg := res.Err.Error()
	if !errors.Is(res.Err, CodeInvalidArgs) || !strings.HasPrefix(msg, `invalid arguments: missing required property "b"; missing required property "a.b"; `) ||
		!strings.HasSuffix(msg, fmt.Sprintf("; and %d more violations", levels-maxRegistryViolations)) {
		t.Fatalf("err = %.300v…", res.Err)
	}
}

// Outside the subset the limits still hold; inside it they do not apply at all.
func TestSchemaLimitsApplyOutsideTheSubsetOnly(t *testing.T) {
	wide := func(leaf string) jsonv.Value {
		var b strings.Builder
		b.WriteString(`{"type":"object","properties":{`)
		for i := range MaxSchemaValues / 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"p%d":%s`, i, leaf)
		}
		b.WriteString(`}}`)
		return jsonv.MustParse(b.String())
	}
	reg := New()
	if _, err := reg.Register(toolWith("wide", wide(`{"type":"string"}`))); err != nil {
		t.Fatalf("a wide subset schema: %v", err)
	}
	if res := execute(reg, "wide", jsonv.MustParse(`{"p4999":5}`)); res.Err == nil || res.Err.Error() != `invalid arguments: "p4999" must be a string, got number` {
		t.Fatalf("err = %v", res.Err)
	}
	if _, err := reg.Register(toolWith("wider", wide(`{"type":"string","format":"email"}`))); !errors.Is(err, ErrSchemaTooLarge) {
		t.Fatalf("a wide schema outside the subset: err = %v, want ErrSchemaTooLarge", err)
	}
}

// subsetAndFullViolations validates v against doc as the registry does for a subset schema
// and as it does for any other.
func subsetAndFullViolations(doc, v jsonv.Value) (subset, full []string) {
	subset = (&compiledSchema{doc: doc, subset: true}).violations(v, "")
	full = (&compiledSchema{doc: doc}).violations(v, "")
	return subset, full
}

// messageSet splits violations joined by the full validator's path ("; " within one leaf) and
// sorts them: the two validators report in different orders.
func messageSet(v []string) []string {
	if len(v) == 0 {
		return nil
	}
	set := strings.Split(strings.Join(v, "; "), "; ")
	slices.Sort(set)
	return set
}

// For subset schemas, the subset validator writes the registry's messages exactly (in schema
// order rather than path order), except for a value matching several oneOf branches.
func TestSubsetMessagesKeepTheRegistryShape(t *testing.T) {
	cases := []struct{ schema, value string }{
		{`{"type":"object","properties":{"file":{"type":"string"}}}`, `{"file":1}`},
		{`{"type":"object","properties":{"n":{"type":"integer"},"b":{"type":"boolean"},"z":{"type":"null"}}}`, `{"n":1.5,"b":"x","z":0}`},
		{`{"type":"object","required":["a","b"],"properties":{"a":{"type":"string"},"b":{"type":"string"}},"additionalProperties":false}`, `{"x":1,"y":[]}`},
		{`{"type":"array","items":{"type":"object","properties":{"c":{"type":"string","enum":["red","green"]}}}}`, `[{"c":"red"},{"c":"blue"},5]`},
		{`{"type":"object","properties":{"k":{"type":"number","const":3,"enum":[3,4]}}}`, `{"k":5}`},
		{`{"type":"object","properties":{"o":{"type":"object"},"a":{"type":"array"}}}`, `{"o":[],"a":{}}`},
		{`{"type":"string"}`, `{}`},
		{`{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"null"}]}}}`, `{"v":5}`},
		{`{"type":"object","properties":{"v":{"oneOf":[{"type":"object","properties":{"a":{"type":"string"},"b":{}},"required":["a","b"]},{"type":"null"}]}}}`, `{"v":{"a":1}}`},
	}
	for _, c := range cases {
		doc := jsonv.MustParse(c.schema)
		if !inSubset(doc) {
			t.Fatalf("%s is outside the subset", c.schema)
		}
		subset, full := subsetAndFullViolations(doc, jsonv.MustParse(c.value))
		if len(full) == 0 || !slices.Equal(messageSet(subset), messageSet(full)) {
			t.Errorf("%s, %s:\nsubset %q\nfull   %q", c.schema, c.value, subset, full)
		}
	}
}

func mentionsOneOf(violations []string) bool {
	return slices.ContainsFunc(violations, func(v string) bool { return strings.Contains(v, "oneOf") })
}

// FuzzSubsetValidatorAgreesWithCompiler: inSubset decides as CheckSubsetSchema does, and for a
// schema inside the subset the registry's subset validation agrees with the full compiler's on
// every value, with the same messages where the schema has no oneOf.
func FuzzSubsetValidatorAgreesWithCompiler(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"integer","enum":[1,2]}},"required":["a"],"additionalProperties":false}`, `{"a":1,"b":2}`)
	f.Add(`{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `2.5`)
	f.Add(`{"type":"array","items":{"oneOf":[{"type":"string","const":"x"},{"type":"null"}]}}`, `["x",null,"y"]`)
	f.Add(`{"type":"object","properties":{"o":{"type":"object","properties":{},"additionalProperties":false}}}`, `{"o":{"k":[]}}`)
	f.Add(`{"type":"string","enum":["a","b"],"const":"a"}`, `"c"`)
	f.Add(`{"type":"object","properties":{"x":{"type":"boolean"}},"x-extra":1}`, `{"x":1}`)
	f.Fuzz(func(t *testing.T, schemaText, valueText string) {
		doc, err1 := jsonv.ParseString(schemaText)
		value, err2 := jsonv.ParseString(valueText)
		if err1 != nil || err2 != nil {
			return
		}
		if in := inSubset(doc); in != (CheckSubsetSchema(doc) == nil) {
			t.Fatalf("inSubset(%s) = %v, CheckSubsetSchema: %v", schemaText, in, CheckSubsetSchema(doc))
		}
		if !inSubset(doc) || checkSchemaLimits(doc, jsonv.AppendJSON(nil, doc)) != nil {
			return
		}
		subset, full := subsetAndFullViolations(doc, value)
		if (len(subset) > 0) != (len(full) > 0) {
			t.Fatalf("schema %s, value %s: subset %q, full %q", schemaText, valueText, subset, full)
		}
		// Only the message for a value matching several oneOf branches is the subset's own.
		if !mentionsOneOf(subset) && !mentionsOneOf(full) && !slices.Equal(messageSet(subset), messageSet(full)) {
			t.Fatalf("schema %s, value %s: messages differ:\nsubset %q\nfull   %q", schemaText, valueText, subset, full)
		}
	})
}

// nestedNullableObjects returns levels nested oneOf [{"type":"object","properties":{"a": …}},
// {"type":"null"}] around {"type":"string"}: four JSON levels each.
func nestedNullableObjects(levels int) jsonv.Value {
	return jsonv.MustParse(strings.Repeat(`{"oneOf":[{"type":"object","properties":{"a":`, levels) + `{"type":"string"}` +
		strings.Repeat(`}},{"type":"null"}]}`, levels))
}

// A value failing nested oneOf through objects fails a branch at every level, each naming a
// path as deep as its level: only the messages reported are rendered, so the work stays
// linear (rendering all of them would cost the square of the depth).
func TestDeepOneOfViolationsRenderOnlyWhatIsReported(t *testing.T) {
	const levels = 2900 // 11,601 JSON levels, within jsonv.MaxDepth
	reg := New()
	if _, err := reg.Register(toolWith("t", nestedNullableObjects(levels))); err != nil {
		t.Fatal(err)
	}
	if res := execute(reg, "t", jsonv.MustParse(strings.Repeat(`{"a":`, levels)+`"x"`+strings.Repeat(`}`, levels))); res.IsError {
		t.Fatalf("a valid value: %v", res.Err)
	}
	res := execute(reg, "t", nestedObjectValue(levels))
	leaf := `invalid arguments: "` + strings.TrimSuffix(strings.Repeat("a.", levels), ".") + `" must be a string, got number; `
	below := `"` + strings.TrimSuffix(strings.Repeat("a.", levels-1), ".") + `" must be a null, got object; `
	msg := res.Err.Error()
	if !errors.Is(res.Err, CodeInvalidArgs) || !strings.HasPrefix(msg, leaf+below) ||
		!strings.HasSuffix(msg, fmt.Sprintf("; and %d more violations", levels+1-maxRegistryViolations)) {
		t.Fatalf("err = %.300v…", res.Err)
	}
}
