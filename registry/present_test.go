package registry_test

import (
	"context"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

func TestPresenters(t *testing.T) {
	exec := func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.NullValue(), nil }
	plain := registry.Tool{Name: "plain", Output: registry.AnyOutput(), Execute: exec}
	shell := registry.Tool{Name: "shell", Output: registry.AnyOutput(), Execute: exec,
		PresentCall: func(args jsonv.Value) *registry.CallView {
			return &registry.CallView{Card: registry.CardTerminal, Title: args.Lookup("cmd").AsString(), Cwd: "/w"}
		},
		PresentResult: func(args jsonv.Value, res registry.ResultSummary) *registry.ResultView {
			code := 0
			if res.IsError {
				code = 1
			}
			return &registry.ResultView{Card: registry.CardTerminal, Output: registry.TextOf(res.Content), ExitCode: &code}
		}}
	broken := registry.Tool{Name: "broken", Output: registry.AnyOutput(), Execute: exec,
		PresentCall: func(jsonv.Value) *registry.CallView { panic("presenter bug") },
		PresentResult: func(jsonv.Value, registry.ResultSummary) *registry.ResultView {
			return &registry.ResultView{Card: "hologram"}
		}}
	invalid := registry.Tool{Name: "invalid", Output: registry.AnyOutput(), Execute: exec,
		PresentCall: func(jsonv.Value) *registry.CallView { return &registry.CallView{Card: registry.CardSearch, Title: "x"} },
		PresentResult: func(jsonv.Value, registry.ResultSummary) *registry.ResultView {
			return &registry.ResultView{Card: registry.CardSearch, Shape: "tree"}
		}}
	reg := newRegistry(t, plain, shell, broken, invalid)
	args := jsonv.MustParse(`{"cmd":"ls -l"}`)

	if v := reg.PresentCall("shell", args, nil); v.Card != registry.CardTerminal || v.Title != "ls -l" || v.Cwd != "/w" {
		t.Fatalf("shell call view: %+v", v)
	}
	for _, name := range []string{"plain", "broken", "invalid", "missing"} {
		if v := reg.PresentCall(name, args, nil); v.Card != registry.CardGeneric || v.Title != name || v.RawInput.String() != args.String() {
			t.Errorf("%s falls back to %+v", name, v)
		}
	}
	v := reg.PresentResult("shell", args, registry.ResultSummary{Content: []registry.Content{registry.TextContent("out")}, IsError: true}, nil)
	if v == nil || v.Output != "out" || *v.ExitCode != 1 {
		t.Fatalf("shell result view: %+v", v)
	}
	for _, name := range []string{"plain", "broken", "invalid", "missing"} {
		if v := reg.PresentResult(name, args, registry.ResultSummary{}, nil); v != nil {
			t.Errorf("%s result view = %+v, want nil", name, v)
		}
	}
}
