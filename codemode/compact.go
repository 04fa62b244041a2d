package codemode

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/sdkgen"
)

// DefaultCompactAbove is the size, in bytes, of the full SDK prompt section above which
// PromptSectionFor switches to the compact presentation when Options.CompactAbove is zero.
//
// 32,000 bytes is about 8,000 tokens. The tools of the reference MCP servers (everything,
// filesystem, memory) average about 340 bytes each in the SDK, so this is roughly 90 such tools,
// past the size at which peers move to search/describe discovery: beyond it the declarations
// cost more prompt on every turn than one look-up program costs once. Measuring the text rather
// than counting tools also catches a few tools with enormous schemas.
const DefaultCompactAbove = 32_000

// maxSearchLimit caps the limit a program may pass to catalog.search.
const maxSearchLimit = 100

// compactFor reports whether the compact presentation is in effect for tools, those of one
// scope. Rendering the full section to measure it costs more than a run, so toolsFor asks
// once per scope and registry state.
func (cm *codeMode) compactFor(tools []sdkgen.Tool, progs []sdkgen.Program, save bool) bool {
	if cm.opts.CompactAbove < 0 {
		return false
	}
	limit := cm.opts.CompactAbove
	if limit == 0 {
		limit = DefaultCompactAbove
	}
	return len(sdkgen.Section(tools))+len(programsBlock(progs, save, false)) > limit
}

// PromptSectionFor returns the system-prompt section that teaches the model the SDK of reg's
// tools: the full declarations (PromptSection), or the compact presentation
// (sdkgen.CompactSection: names with one-line summaries, and the catalog helpers a program uses
// to look up a tool's declarations) when the full section is longer than opts.CompactAbove
// bytes (DefaultCompactAbove when zero; negative never compacts). Programs get the catalog
// helpers only under the compact presentation, so that in the full one the name stays free for
// the program's own variables.
//
// When opts.State is set, the section ends with the declaration of the state binding
// (sdkgen.StateSection).
func PromptSectionFor(reg *registry.Registry, opts Options) string {
	tools, progs := splitPrograms(reg.SDKSchemas(nil))
	section := sectionFor(toSDKTools(tools), progs, opts.CompactAbove)
	if opts.State != nil {
		section += "\n\n" + sdkgen.StateSection
	}
	return section
}

// sectionFor picks the full or the compact section for tools and the saved programs: the
// programs' declarations follow the tools' in the full one, their names and summaries in the
// compact one (catalog.describe("programs.x") gives a program's declarations there).
func sectionFor(tools []sdkgen.Tool, progs savedPrograms, compactAbove int) string {
	full := sdkgen.Section(tools) + programsBlock(progs.sdk, progs.save, false)
	if compactAbove == 0 {
		compactAbove = DefaultCompactAbove
	}
	if compactAbove < 0 || len(full) <= compactAbove {
		return full
	}
	return sdkgen.CompactSection(tools) + programsBlock(progs.sdk, progs.save, true)
}

// catalogNamespace returns the program's catalog global (sdkgen.CatalogGlobal) over the tools
// the program may call: describe(name) resolves to the declarations of one tool
// (sdkgen.Describe), search(query) to the best matching tools as {name, description} objects
// (sdkgen.Search); search also takes {query, limit}.
func catalogNamespace(list func() []sdkgen.Tool, progs []sdkgen.Program) jsruntime.Namespace {
	return jsruntime.Namespace{
		Global: sdkgen.CatalogGlobal,
		Functions: []jsruntime.Function{
			{Name: "describe", Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
				if text, ok := describeProgram(progs, args); ok {
					settle(jsonv.StringValue(text), nil)
					return
				}
				settle(describe(list(), args))
			}},
			{Name: "search", Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
				settle(search(list(), args))
			}},
		},
	}
}

func describe(tools []sdkgen.Tool, args jsonv.Value) (jsonv.Value, error) {
	if args.Kind() != jsonv.String {
		return jsonv.Value{}, errors.New("catalog.describe takes a tool name (a string)")
	}
	name := args.AsString()
	if text, ok := sdkgen.Describe(tools, name); ok {
		return jsonv.StringValue(text), nil
	}
	msg := fmt.Sprintf("no tool is named %q", name)
	if hits := sdkgen.Search(tools, name, 3); len(hits) > 0 {
		names := make([]string, len(hits))
		for i, h := range hits {
			names[i] = fmt.Sprintf("%q", h.Name)
		}
		msg += "; similar: " + strings.Join(names, ", ")
	}
	return jsonv.Value{}, errors.New(msg + " (catalog.search finds tools by words)")
}

func search(tools []sdkgen.Tool, args jsonv.Value) (jsonv.Value, error) {
	query, limit := args, jsonv.Value{}
	if args.Kind() == jsonv.Object {
		query, limit = args.Lookup("query"), args.Lookup("limit")
	}
	if query.Kind() != jsonv.String {
		return jsonv.Value{}, errors.New(`catalog.search takes a query string, or {query: string, limit?: number}`)
	}
	n := sdkgen.DefaultSearchLimit
	if limit.IsDefined() {
		if limit.Kind() != jsonv.Number || limit.AsNumber() < 1 {
			return jsonv.Value{}, errors.New("catalog.search: limit must be a positive number")
		}
		n = int(min(limit.AsNumber(), maxSearchLimit))
	}
	hits := sdkgen.Search(tools, query.AsString(), n)
	out := make([]jsonv.Value, len(hits))
	for i, h := range hits {
		out[i] = jsonv.ObjectValue(
			jsonv.Member{Key: "name", Value: jsonv.StringValue(h.Name)},
			jsonv.Member{Key: "description", Value: jsonv.StringValue(h.Description)},
		)
	}
	return jsonv.ArrayValue(out...), nil
}
