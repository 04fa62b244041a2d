package codemode_test

import (
	"context"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/sdkgen"
)

// deepLevels is the nesting the upstream contract requires of schema checking, SDK rendering
// and value validation.
const deepLevels = 5000

// deepTool declares parameters inside the upstream subset nested 5,000 levels two ways: v is
// 5,000 nested oneOf [X, {"type":"null"}] around a string (10,000 JSON levels), w is 5,000
// nested arrays of strings. It returns how deeply w nests.
func deepTool() registry.Tool {
	params := `{"type":"object","properties":{` +
		`"v":` + strings.Repeat(`{"oneOf":[`, deepLevels) + `{"type":"string"}` + strings.Repeat(`,{"type":"null"}]}`, deepLevels) +
		`,"w":` + strings.Repeat(`{"type":"array","items":`, deepLevels) + `{"type":"string"}` + strings.Repeat(`}`, deepLevels) +
		`},"required":["v"],"additionalProperties":false}`
	return registry.Tool{
		Name:       "deep",
		Parameters: jsonv.MustParse(params),
		Output:     registry.OutputOf(jsonv.MustParse(`{"type":"number"}`)),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			n := 0
			for w := inv.Arguments.Lookup("w"); w.Kind() == jsonv.Array; w = w.Index(0) {
				n++
			}
			return jsonv.NumberValue(float64(n))
		},
	}
}

// A tool whose parameters nest 5,000 levels inside the upstream subset registers, renders in
// its SDK and validates deep arguments from a program, each in time linear in its size: these
// steps used to be refused (the schema limits) or to take minutes (the compile is cubic in
// depth), so the test's own timeout bounds them.
func TestDeepSubsetSchemaEndToEnd(t *testing.T) {
	for _, isolation := range []string{jsruntime.IsolationInProcess, jsruntime.IsolationProcess} {
		t.Run(isolation, func(t *testing.T) { testDeepSubsetSchema(t, isolation) })
	}
}

func testDeepSubsetSchema(t *testing.T, isolation string) {
	rt := openIsolation(t, isolation)
	t.Cleanup(func() { rt.Close() })
	reg := installOn(t, rt, codemode.Options{}, deepTool())

	// v's type is the upstream's deep rendering check: it starts "string | null" and is
	// 6 + 5000 × 7 characters long.
	wantV := "v: string" + strings.Repeat(" | null", deepLevels) + ";"
	wantW := "w?: string" + strings.Repeat("[]", deepLevels) + ";"
	for name, text := range map[string]string{
		"PromptSection": codemode.PromptSection(reg),
		"DTS":           sdkgen.DTS(codemode.SDKTools(reg)),
	} {
		if !strings.Contains(text, wantV) || !strings.Contains(text, wantW) {
			t.Errorf("%s does not declare v and w in full (length %d)", name, len(text))
		}
	}

	const program = `
let w = "s";
for (let i = 0; i < 5000; i++) w = [w];
const depth = await tools.deep({v: "s", w});
let bad = 1;
for (let i = 0; i < 5000; i++) bad = [bad];
try {
	await tools.deep({v: "s", w: bad});
	return "accepted";
} catch (e) {
	return depth + " " + e.message;
}`
	res := runCode(reg, program)
	if res.IsError {
		t.Fatalf("run failed: %v", res.Err)
	}
	text := codemode.RenderText(res.Value)
	want := `5000 invalid arguments: "w` + strings.Repeat("[0]", deepLevels) + `" must be a string, got number`
	if !strings.Contains(text, want) {
		t.Fatalf("got %.300q…, want it to contain %.120q…", text, want)
	}
}
