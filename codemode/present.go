package codemode

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/sdkgen"
)

// The names and orders of the system-prompt sections Sections returns. Orders leave room for
// other sections: per-tool guidance usually sits between 100 and 199, after the code-only notice
// and around the SDK.
const (
	SectionCodeOnly      = "tools:code-only"
	SectionCodeOnlyOrder = 99
	SectionSDK           = "tools:sdk"
	SectionSDKOrder      = 150
)

// codeOnlyText is the text of the tools:code-only section.
const codeOnlyText = "`run_code` is the only tool you can call directly (a direct call to any other tool fails): " +
	"use the others from inside a `run_code` program."

// WireSchemas returns the tool list a model talking for scope (nil: the global view) is sent,
// by the scope's presentation (registry.Registry.PresentationOf): every visible tool under
// native; only run_code under code; every visible tool and run_code last under both. Under code
// or both without run_code installed, run_code is missing; Sections reports that.
func WireSchemas(reg *registry.Registry, scope *registry.Scope) []registry.Schema {
	mode := reg.PresentationOf(scope)
	var out []registry.Schema
	for _, s := range reg.Schemas(scope) {
		isTransport := s.Name == registry.ReservedName
		switch {
		case mode == registry.PresentCode && !isTransport, mode == registry.PresentNative && isTransport:
			continue
		}
		out = append(out, s)
	}
	return out
}

// Section is one section of a system prompt.
type Section struct {
	// Name identifies the section (SectionCodeOnly, SectionSDK); a prompt assembler may let a
	// scope's section replace a global one of the same name.
	Name string
	// Order places the section in the prompt: lower first.
	Order int
	// Text is the section's text; empty text is left out of the rendered prompt.
	Text string
}

// SectionOptions configure Sections.
type SectionOptions struct {
	// CompactAbove is the size in bytes of the full SDK section above which the compact
	// presentation is used, as Options.CompactAbove (zero: DefaultCompactAbove; negative: never).
	// Pass the value given to Install: programs get the catalog helpers only when Install's
	// threshold selects the compact presentation.
	CompactAbove int
	// State declares the state binding in the SDK section (sdkgen.StateSection): pass true
	// when Install's Options.State is set, so that the model learns of state only where it
	// works.
	State bool
}

// Sections returns the Code Mode sections of the system prompt for scope (nil: the global view),
// by its presentation, in order:
//
//   - SectionCodeOnly (order 99): under code only, the notice that run_code is the only tool the
//     model may call directly; empty otherwise.
//   - SectionSDK (order 150): under code and both, the SDK of the scope's tools (the full
//     declarations, or the compact presentation past opts.CompactAbove, as PromptSectionFor);
//     empty under native.
//
// Empty sections are returned too; RenderPrompt leaves them out. A scope that presents code or
// both while run_code is not installed is a misconfiguration, reported as an error naming the
// scope's mode.
func Sections(reg *registry.Registry, scope *registry.Scope, opts SectionOptions) ([]Section, error) {
	mode := reg.PresentationOf(scope)
	codeOnly := Section{Name: SectionCodeOnly, Order: SectionCodeOnlyOrder}
	sdk := Section{Name: SectionSDK, Order: SectionSDKOrder}
	if mode != registry.PresentNative {
		if _, ok := reg.Get(registry.ReservedName, scope); !ok {
			return nil, fmt.Errorf("mode %q requires a code runtime: install one with codemode.New, or present the scope as native", mode)
		}
		tools, progs := splitPrograms(reg.SDKSchemas(scope))
		sdk.Text = sectionFor(toSDKTools(tools), progs, opts.CompactAbove)
		if opts.State {
			sdk.Text += "\n\n" + sdkgen.StateSection
		}
	}
	if mode == registry.PresentCode {
		codeOnly.Text = codeOnlyText
	}
	return []Section{codeOnly, sdk}, nil
}

// RenderPrompt renders sections as one prompt: the sections with non-blank text, by Order (equal
// orders keep their order in the slice), each without trailing newlines, separated by a blank
// line.
func RenderPrompt(sections []Section) string {
	sorted := slices.Clone(sections)
	slices.SortStableFunc(sorted, func(a, b Section) int { return cmp.Compare(a.Order, b.Order) })
	var parts []string
	for _, s := range sorted {
		if strings.TrimSpace(s.Text) != "" {
			parts = append(parts, strings.TrimRight(s.Text, "\n"))
		}
	}
	return strings.Join(parts, "\n\n")
}

// presentCall presents a pending run_code call as the upstream does: the model's description
// as the title, kind "execute", the program as the raw input. Arguments without a code and a
// description string get nil, so the registry falls back to the generic view.
func presentCall(args jsonv.Value) *registry.CallView {
	code, description := args.Lookup("code"), args.Lookup("description")
	if code.Kind() != jsonv.String || description.Kind() != jsonv.String {
		return nil
	}
	return &registry.CallView{Card: registry.CardGeneric, Title: description.AsString(), Kind: "execute", RawInput: code}
}
