package codemode_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/sdkgen"
)

func nop(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.NullValue(), nil }

// compactRegistry is setup's registry with the compact presentation forced on (CompactAbove 1).
func compactRegistry(t *testing.T, tools ...registry.Tool) *registry.Registry {
	t.Helper()
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return installOn(t, rt, codemode.Options{CompactAbove: 1}, append([]registry.Tool{{Name: "echo", Output: registry.AnyOutput(), Execute: nop}}, tools...)...)
}

func TestCatalogIsBoundOnlyUnderTheCompactPresentation(t *testing.T) {
	full := setup(t, jsruntime.Config{}, nil)
	res := runCode(full, `const catalog = [1, 2]; return catalog.length`)
	if res.IsError || res.Content[0].Text != "2" {
		t.Fatalf("full presentation: a program could not name a variable catalog: %s", registry.TextOf(res.Content))
	}
	compact := compactRegistry(t)
	if res := runCode(compact, `return typeof catalog.describe`); res.Content[0].Text != "function" {
		t.Fatalf("compact presentation: %s", registry.TextOf(res.Content))
	}
}

func TestCatalogHelpers(t *testing.T) {
	reg := compactRegistry(t, registry.Tool{
		Name:        "read_file",
		Description: "Reads a file from the workspace.",
		Parameters:  jsonv.MustParse(`{"type":"object","properties":{"path":{"$ref":"#/$defs/path"}},"required":["path"],"$defs":{"path":{"type":"string","description":"A path."}}}`),
		Execute:     nop,
		Output:      registry.AnyOutput(),
	})
	for _, c := range []struct{ code, want string }{
		{`return await catalog.describe("read_file")`, "/** A path. */\ntype ReadFile_Path = string\n\ndeclare const tools: {\n  /** Reads a file from the workspace. */\n  read_file(args: { path: ReadFile_Path }): Promise<JsonValue>;\n}"},
		{`return (await catalog.search("file")).map(t => t.name).join()`, "read_file"},
		{`return JSON.stringify(await catalog.search({query: "", limit: 1}))`, `[{"name":"echo","description":""}]`},
		{`try { await catalog.describe("read_fil") } catch (e) { return e.message }`, `no tool is named "read_fil"; similar: "read_file" (catalog.search finds tools by words)`},
		{`try { await catalog.describe(1) } catch (e) { return e.message }`, "catalog.describe takes a tool name (a string)"},
		{`try { await catalog.search({query: "x", limit: 0}) } catch (e) { return e.message }`, "catalog.search: limit must be a positive number"},
		{`try { await catalog.describe("run_code") } catch (e) { return e.message.slice(0, 27) }`, `no tool is named "run_code"`},
	} {
		res := runCode(reg, c.code)
		if res.IsError {
			t.Fatalf("%s: %s", c.code, res.Err.Message)
		}
		if got := res.Content[0].Text; got != c.want {
			t.Errorf("%s\n got: %q\nwant: %q", c.code, got, c.want)
		}
	}
}

func TestPromptSectionFor(t *testing.T) {
	var tools []registry.Tool
	for i := range 200 {
		tools = append(tools, registry.Tool{
			Name:        fmt.Sprintf("tool_%03d", i),
			Description: "Does a thing with a file. More words follow here.",
			Parameters:  jsonv.MustParse(`{"type":"object","properties":{"path":{"type":"string","description":"Absolute path of the file."},"limit":{"type":"integer","minimum":1}},"required":["path"]}`),
			Execute:     nop,
			Output:      registry.AnyOutput(),
		})
	}
	reg := setup(t, jsruntime.Config{}, nil, tools...)
	full := codemode.PromptSection(reg)
	if got := codemode.PromptSectionFor(reg, codemode.Options{CompactAbove: -1}); got != full {
		t.Error("negative CompactAbove must never compact")
	}
	if got := codemode.PromptSectionFor(reg, codemode.Options{CompactAbove: len(full)}); got != full {
		t.Error("a section of exactly CompactAbove bytes is kept in full")
	}
	compact := codemode.PromptSectionFor(reg, codemode.Options{CompactAbove: len(full) - 1})
	if compact != sdkgen.CompactSection(codemode.SDKTools(reg)) || !strings.Contains(compact, "\n- tool_042 — Does a thing with a file.") {
		t.Errorf("compact section:\n%s", compact)
	}
	// The default: 200 such tools are past DefaultCompactAbove, one is not.
	if len(full) <= codemode.DefaultCompactAbove || codemode.PromptSectionFor(reg, codemode.Options{}) != compact {
		t.Errorf("200 tools (%d bytes) should be compact by default", len(full))
	}
	small := setup(t, jsruntime.Config{}, nil)
	if codemode.PromptSectionFor(small, codemode.Options{}) != codemode.PromptSection(small) {
		t.Error("one tool should be presented in full by default")
	}
}
