package mcptools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/sdkgen"
)

// The value a program receives is decided by the tool's declaration (DECISIONS row 16): a tool
// without an outputSchema gives its text as one string, even when that text is JSON; a tool
// with one gives its structuredContent.
func TestConvertResultFollowsTheDeclaration(t *testing.T) {
	cases := []struct {
		name       string
		structured bool
		result     string
		want       string // the value as JSON
	}{
		{"text that is JSON stays a string", false,
			`{"content":[{"type":"text","text":"{\"a\":1}"}]}`, `"{\"a\":1}"`},
		{"a JSON number as text stays a string", false,
			`{"content":[{"type":"text","text":"42"}]}`, `"42"`},
		{"text blocks joined by a newline", false,
			`{"content":[{"type":"text","text":"one"},{"type":"text","text":"two"}]}`, `"one\ntwo"`},
		{"JSON split over blocks stays a string", false,
			`{"content":[{"type":"text","text":"["},{"type":"text","text":"1]"}]}`, `"[\n1]"`},
		{"no content is the empty string", false,
			`{"content":[]}`, `""`},
		{"structuredContent of an undeclared tool is ignored", false,
			`{"content":[{"type":"text","text":"plain"}],"structuredContent":{"a":1}}`, `"plain"`},
		{"an image is left out of the value", false,
			`{"content":[{"type":"text","text":"look:"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":"done"}]}`, `"look:\ndone"`},
		{"only an image is the empty string", false,
			`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}`, `""`},
		{"a resource link is described", false,
			`{"content":[{"type":"resource_link","uri":"test://1","name":"one","mimeType":"text/plain"}]}`, `"[resource link: one <test://1> (text/plain)]"`},
		{"an embedded text resource keeps its text", false,
			`{"content":[{"type":"resource","resource":{"uri":"test://2","mimeType":"text/plain","text":"{\"x\":2}"}}]}`, `"[resource test://2]\n{\"x\":2}"`},
		{"a declared tool gives its structuredContent", true,
			`{"content":[{"type":"text","text":"ignored"}],"structuredContent":{"temperature":22.5}}`, `{"temperature":22.5}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := convertResult(jsonv.MustParse(c.result), "t", c.structured)
			if out.err != nil {
				t.Fatalf("err = %v", out.err)
			}
			if got := string(jsonv.AppendJSON(nil, out.value)); got != c.want {
				t.Errorf("value = %s, want %s", got, c.want)
			}
		})
	}
}

func TestConvertResultImagesAreForwarded(t *testing.T) {
	for _, structured := range []bool{false, true} {
		out := convertResult(jsonv.MustParse(`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}],"structuredContent":{}}`), "t", structured)
		if !out.hasImage || len(out.content) != 1 || out.content[0].Type != "image" || out.content[0].Data != "AAAA" {
			t.Errorf("structured=%v: content %+v, hasImage %v", structured, out.content, out.hasImage)
		}
	}
}

// A tool that declares an outputSchema but returns no structuredContent breaks the MCP
// contract: the call fails with INVALID_TOOL_OUTPUT naming what is missing and quoting the text
// the server sent instead, rather than handing the program a value its type does not describe.
func TestConvertResultMissingStructuredContent(t *testing.T) {
	for _, result := range []string{
		`{"content":[{"type":"text","text":"{\"temperature\":1}"}]}`,
		`{"content":[{"type":"text","text":"{\"temperature\":1}"}],"structuredContent":null}`,
	} {
		out := convertResult(jsonv.MustParse(result), "t", true)
		if !errors.Is(out.err, registry.CodeInvalidToolOutput) {
			t.Fatalf("%s: err = %v, want INVALID_TOOL_OUTPUT", result, out.err)
		}
		msg := out.err.Error()
		if !strings.HasPrefix(msg, `tool "t" returned invalid output: it declares an outputSchema but returned no structuredContent; its text: {"temperature":1}`) {
			t.Errorf("message = %q", msg)
		}
	}
	long := strings.Repeat("x", 2000)
	out := convertResult(jsonv.MustParse(`{"content":[{"type":"text","text":"`+long+`"}]}`), "t", true)
	if msg := out.err.Error(); len(msg) > 600 || !strings.Contains(msg, "…") {
		t.Errorf("a long text is not shortened in the message: %d bytes", len(msg))
	}
}

// isError wins over everything else, with or without an outputSchema.
func TestConvertResultIsError(t *testing.T) {
	for _, structured := range []bool{false, true} {
		out := convertResult(jsonv.MustParse(`{"isError":true,"content":[{"type":"text","text":"Entity with name nobody not found"}]}`), "t", structured)
		if out.err == nil || out.err.Error() != "Entity with name nobody not found" {
			t.Errorf("structured=%v: err = %v", structured, out.err)
		}
		if errors.Is(out.err, registry.CodeInvalidToolOutput) {
			t.Errorf("structured=%v: a tool failure is not an output violation", structured)
		}
		out = convertResult(jsonv.MustParse(`{"isError":true,"content":[]}`), "t", structured)
		if out.err == nil || out.err.Error() != "the tool reported an error without a message" {
			t.Errorf("structured=%v: err = %v", structured, out.err)
		}
	}
	out := convertResult(jsonv.MustParse(`{"isError":true,"content":[],"structuredContent":{"reason":"quota"}}`), "t", true)
	if out.err == nil || out.err.Error() != `the tool reported an error: {"reason":"quota"}` {
		t.Errorf("err = %v", out.err)
	}
}

// Every tool's declared output: its outputSchema, else {"type":"string"}.
func TestToolOutputSchema(t *testing.T) {
	var s Server
	for def, want := range map[string]string{
		`{"name":"plain","inputSchema":{"type":"object"}}`:                                   `{"type":"string"}`,
		`{"name":"shaped","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}`: `{"type":"object"}`,
		`{"name":"odd","inputSchema":{"type":"object"},"outputSchema":"not a schema"}`:       `{"type":"string"}`,
		`{"name":"nulled","inputSchema":{"type":"object"},"outputSchema":null}`:              `{"type":"string"}`,
	} {
		tl, err := s.tool(jsonv.MustParse(def))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(jsonv.AppendJSON(nil, tl.Output.Schema)); got != want {
			t.Errorf("%s: output schema %s, want %s", def, got, want)
		}
	}
}

// The golden declaration files of the captured servers (sdkgen/testdata/mcp) are exactly what
// runcode renders for those servers once imported: the fixture tool lists converted here the way
// Connect converts them, rendered as codemode renders a registry's SDK.
func TestFixtureGoldensMatchImportedTools(t *testing.T) {
	dir := filepath.Join("..", "sdkgen", "testdata", "mcp")
	for _, name := range []string{"server-everything", "server-filesystem", "server-memory"} {
		data, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var s Server
		reg := registry.New()
		for _, def := range jsonv.MustParse(string(data)).Lookup("tools").Items() {
			tl, err := s.tool(def)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := reg.Register(tl); err != nil {
				t.Fatal(err)
			}
		}
		golden, err := os.ReadFile(filepath.Join(dir, name+".d.ts.golden"))
		if err != nil {
			t.Fatal(err)
		}
		if got := sdkgen.DTS(codemode.SDKTools(reg)); got != string(golden) {
			t.Errorf("%s: the golden file differs from the imported tools' declarations (regenerate with UPDATE_GOLDEN=1 go test ./sdkgen -run TestMCPFixtures):\n%s", name, got)
		}
	}
}
