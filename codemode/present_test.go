package codemode_test

import (
	"context"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// presentingRegistry returns a registry with the tools alpha and beta and, when install is set,
// run_code; its default presentation stays native.
func presentingRegistry(t *testing.T, install bool) *registry.Registry {
	t.Helper()
	reg := registry.New()
	alpha := registry.Tool{Name: "alpha", Description: "First tool.", Output: registry.AnyOutput(),
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.StringValue("a"), nil }}
	beta := registry.Tool{Name: "beta", Description: "Second tool.", Output: registry.AnyOutput(), Execute: nop}
	if _, err := reg.Register(alpha, beta); err != nil {
		t.Fatal(err)
	}
	if install {
		rt, err := jsruntime.New(jsruntime.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if err := codemode.Install(reg, codemode.Options{Runtime: rt}); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// presentingScope returns a top-level scope presenting p.
func presentingScope(t *testing.T, reg *registry.Registry, p registry.Presentation) *registry.Scope {
	t.Helper()
	s := reg.NewScope(string(p), nil)
	if _, err := s.PresentAs(p); err != nil {
		t.Fatal(err)
	}
	return s
}

func wireNames(schemas []registry.Schema) string {
	var out []string
	for _, s := range schemas {
		out = append(out, s.Name)
	}
	return strings.Join(out, ",")
}

func TestWireSchemasFollowThePresentation(t *testing.T) {
	reg := presentingRegistry(t, true)
	cases := map[registry.Presentation]string{
		registry.PresentNative: "alpha,beta",
		registry.PresentCode:   "run_code",
		registry.PresentBoth:   "alpha,beta,run_code",
	}
	for p, want := range cases {
		if got := wireNames(codemode.WireSchemas(reg, presentingScope(t, reg, p))); got != want {
			t.Errorf("%s: wire tools %s, want %s", p, got, want)
		}
	}
	if got := wireNames(codemode.WireSchemas(reg, nil)); got != "alpha,beta" {
		t.Errorf("default: wire tools %s", got)
	}
	code := codemode.WireSchemas(reg, presentingScope(t, reg, registry.PresentCode))
	if !strings.Contains(code[0].Description, "TypeScript") || code[0].Parameters.Lookup("required").Len() != 2 {
		t.Errorf("run_code's wire schema: %+v", code[0])
	}
}

func TestSectionsFollowThePresentation(t *testing.T) {
	reg := presentingRegistry(t, true)
	for _, p := range []registry.Presentation{registry.PresentNative, registry.PresentCode, registry.PresentBoth} {
		sections, err := codemode.Sections(reg, presentingScope(t, reg, p), codemode.SectionOptions{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(sections) != 2 || sections[0].Name != codemode.SectionCodeOnly || sections[0].Order != 99 ||
			sections[1].Name != codemode.SectionSDK || sections[1].Order != 150 {
			t.Fatalf("%s: sections %+v", p, sections)
		}
		codeOnly, sdk := sections[0].Text, sections[1].Text
		if got := codeOnly != ""; got != (p == registry.PresentCode) {
			t.Errorf("%s: code-only text %q", p, codeOnly)
		}
		if got := sdk != ""; got != (p != registry.PresentNative) {
			t.Errorf("%s: SDK text present = %v", p, got)
		}
		if p == registry.PresentCode {
			if !strings.Contains(codeOnly, "`run_code` is the only tool you can call directly") {
				t.Errorf("code-only text: %q", codeOnly)
			}
			prompt := codemode.RenderPrompt(sections)
			if !strings.HasPrefix(prompt, codeOnly+"\n\n") || !strings.Contains(prompt, "alpha") {
				t.Errorf("rendered prompt:\n%s", prompt)
			}
		}
		if p == registry.PresentNative && codemode.RenderPrompt(sections) != "" {
			t.Errorf("native scope renders a prompt")
		}
	}
}

func TestSectionsSDKUsesTheCompactThreshold(t *testing.T) {
	reg := presentingRegistry(t, true)
	scope := presentingScope(t, reg, registry.PresentBoth)
	full, err := codemode.Sections(reg, scope, codemode.SectionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	compact, err := codemode.Sections(reg, scope, codemode.SectionOptions{CompactAbove: 1})
	if err != nil {
		t.Fatal(err)
	}
	opts := codemode.Options{CompactAbove: 1}
	if full[1].Text == compact[1].Text || !strings.Contains(compact[1].Text, "catalog") {
		t.Fatalf("compact threshold ignored:\n%s", compact[1].Text)
	}
	if full[1].Text != codemode.PromptSectionFor(reg, codemode.Options{}) || compact[1].Text != codemode.PromptSectionFor(reg, opts) {
		t.Fatal("Sections' SDK differs from PromptSectionFor for the same tools")
	}
}

func TestSectionsRequireACodeRuntime(t *testing.T) {
	reg := presentingRegistry(t, false)
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		t.Fatal(err)
	}
	// DECISIONS row 14: the error names the calling scope's own mode, not the default.
	both := presentingScope(t, reg, registry.PresentBoth)
	_, err := codemode.Sections(reg, both, codemode.SectionOptions{})
	want := `mode "both" requires a code runtime: install one with codemode.New, or present the scope as native`
	if err == nil || err.Error() != want {
		t.Fatalf("both without a runtime: %v", err)
	}
	if _, err := codemode.Sections(reg, nil, codemode.SectionOptions{}); err == nil || !strings.Contains(err.Error(), `mode "code" requires a code runtime`) {
		t.Fatalf("code default without a runtime: %v", err)
	}
	native := presentingScope(t, reg, registry.PresentNative)
	if sections, err := codemode.Sections(reg, native, codemode.SectionOptions{}); err != nil || codemode.RenderPrompt(sections) != "" {
		t.Fatalf("native scope without a runtime: %v", err)
	}
	// At execution, run_code fails the same way, naming the scope's mode.
	res := reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: registry.ReservedName, Scope: both,
		Arguments: jsonv.MustParse(`{"code":"return 1","description":"Return one"}`)})
	if !res.IsError || !strings.Contains(res.Err.Message, `mode "both" requires a code runtime`) {
		t.Fatalf("run_code without a runtime: %+v", res.Err)
	}
}

func TestCodeScopeReachesToolsOnlyThroughPrograms(t *testing.T) {
	reg := presentingRegistry(t, true)
	scope := presentingScope(t, reg, registry.PresentCode)
	direct := reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: "alpha", Scope: scope, Arguments: jsonv.ObjectValue()})
	want := "Error: unknown tool \"alpha\": only `run_code` is callable directly \u2014 call `alpha` from inside a `run_code` program instead"
	if got := registry.TextOf(direct.Content); got != want {
		t.Fatalf("direct call: %q", got)
	}
	res := reg.Execute(context.Background(), registry.Call{CallID: "c2", Name: registry.ReservedName, Scope: scope,
		Arguments: jsonv.MustParse(`{"code":"return await tools.alpha({})","description":"Call alpha"}`)})
	if res.IsError || registry.TextOf(res.Content) != "a" {
		t.Fatalf("program: %s", registry.TextOf(res.Content))
	}
}

func TestRenderPromptOrdersAndDropsEmptySections(t *testing.T) {
	got := codemode.RenderPrompt([]codemode.Section{
		{Name: "c", Order: 200, Text: "third\n"},
		{Name: "empty", Order: 1, Text: "  \n"},
		{Name: "a", Order: 10, Text: "first"},
		{Name: "b", Order: 10, Text: "second"},
	})
	if got != "first\n\nsecond\n\nthird" {
		t.Fatalf("RenderPrompt = %q", got)
	}
	if codemode.RenderPrompt(nil) != "" {
		t.Fatal("RenderPrompt(nil) is not empty")
	}
}

// TestRunCodeCallPresentation: a pending run_code call was presented generically (title
// "run_code", the whole arguments object as raw input). It is presented as the upstream does:
// the model's description as title, kind execute, the program as raw input; arguments that
// are not a code and a description string keep the generic view.
func TestRunCodeCallPresentation(t *testing.T) {
	reg := presentingRegistry(t, true)
	scope := presentingScope(t, reg, registry.PresentCode)
	args := jsonv.MustParse(`{"code":"return 1 + 1","description":"Add one and one"}`)
	v := reg.PresentCall(registry.ReservedName, args, scope)
	if v.Card != registry.CardGeneric || v.Title != "Add one and one" || v.Kind != "execute" ||
		v.RawInput.String() != `"return 1 + 1"` {
		t.Errorf("run_code presented as %+v (raw input %s)", v, v.RawInput)
	}
	for _, bad := range []string{`{"code":"return 1"}`, `{"code":1,"description":"d"}`, `{"code":"return 1","description":""}`, `"x"`} {
		args := jsonv.MustParse(bad)
		v := reg.PresentCall(registry.ReservedName, args, scope)
		if v.Card != registry.CardGeneric || v.Title != registry.ReservedName || v.Kind != "" || v.RawInput.String() != args.String() {
			t.Errorf("run_code with arguments %s presented as %+v, want the generic view", bad, v)
		}
	}
}
