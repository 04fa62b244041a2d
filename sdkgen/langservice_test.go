package sdkgen

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

// typeScript5 returns node and the directory of a TypeScript 5 package (the language service
// editors run), or skips the test. It looks at $RUNCODE_TS5 (the package directory, or an npm
// prefix holding node_modules/typescript), then at the global npm packages.
func typeScript5(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed; CI installs it with typescript@5 (npm i --prefix DIR typescript@5, RUNCODE_TS5=DIR)")
	}
	var candidates []string
	if d := os.Getenv("RUNCODE_TS5"); d != "" {
		candidates = append(candidates, d, filepath.Join(d, "node_modules", "typescript"))
	}
	if out, err := exec.Command("npm", "root", "-g").Output(); err == nil {
		candidates = append(candidates, filepath.Join(strings.TrimSpace(string(out)), "typescript"))
	}
	for _, c := range candidates {
		data, err := os.ReadFile(filepath.Join(c, "package.json"))
		if err != nil {
			continue
		}
		var pkg struct{ Name, Version string }
		if json.Unmarshal(data, &pkg) == nil && pkg.Name == "typescript" && strings.HasPrefix(pkg.Version, "5.") {
			return node, c
		}
	}
	t.Skip("typescript@5 not found: npm i --prefix DIR typescript@5 and set RUNCODE_TS5=DIR (.ci/run does)")
	return "", ""
}

// lsProbe is one question to the language service (testdata/langservice.js).
type lsProbe struct {
	Kind string `json:"kind"`
	At   string `json:"at"`
	Name string `json:"name,omitempty"`
}

type lsResult struct {
	Display       string `json:"display"`
	Documentation string `json:"documentation"`
	Error         string `json:"error"`
}

// TestLanguageService: in an editor (the TypeScript 5 language service), hovering a tool,
// completing it after "tools." and the signature help of a call all show the tool's
// description, as written: "**/*.ext" reads as such (no backslash), with at most an invisible
// U+200B between "*" and "/". A property's description shows on hover too.
func TestLanguageService(t *testing.T) {
	node, ts := typeScript5(t)
	tools := append(loadMCPFixture(t, "server-filesystem"), Tool{
		Name:        "my-tool.x",
		Description: "Lists files matching **/*.go */ in order.",
		Parameters:  jsonv.MustParse(`{"type":"object","properties":{"glob":{"type":"string","description":"A glob such as src/**/*.ts."}},"required":["glob"]}`),
		Output:      textOutput,
	})
	var search Tool
	for _, tl := range tools {
		if tl.Name == "search_files" {
			search = tl
		}
	}
	if !strings.Contains(search.Description, "**/*.ext") {
		t.Fatalf("the fixture's search_files no longer has a glob in its description: %q", search.Description)
	}
	program := `export {};
const found: { content: string } = await tools.search_files({ path: ".", pattern: "*.go" });
void tools.search_files;
const listed: string = await tools["my-tool.x"]({ glob: "src/**/*.ts" });
void [found, listed];
`
	dir := t.TempDir()
	for name, text := range map[string]string{"tools.d.ts": DTS(tools), "program.ts": program} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	probes := []lsProbe{
		{Kind: "hover", At: "tools.search_files"},
		{Kind: "completion", At: "void tools.", Name: "search_files"},
		{Kind: "signature", At: "tools.search_files("},
		{Kind: "signature", At: `tools["my-tool.x"](`},
		{Kind: "hover", At: `{ glob`},
	}
	wants := []string{search.Description, search.Description, search.Description,
		"Lists files matching **/*.go */ in order.", "A glob such as src/**/*.ts."}
	pj, _ := json.Marshal(probes)
	cmd := exec.Command(node, filepath.Join("testdata", "langservice.js"), ts, dir, string(pj))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("langservice.js: %v\n%s", err, out)
	}
	var got struct {
		Version     string
		Diagnostics []string
		Results     []lsResult
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("langservice.js output %q: %v", out, err)
	}
	t.Logf("TypeScript %s", got.Version)
	if len(got.Diagnostics) > 0 {
		t.Errorf("the program does not typecheck: %q", got.Diagnostics)
	}
	for i, p := range probes {
		r := got.Results[i]
		if r.Error != "" {
			t.Errorf("%s at %q: %s", p.Kind, p.At, r.Error)
			continue
		}
		want := strings.Join(strings.FieldsFunc(wants[i], isJSSpace), " ")
		shown := strings.ReplaceAll(r.Documentation, "\u200b", "")
		if shown != want || strings.Contains(r.Documentation, `\/`) {
			t.Errorf("%s at %q shows %q (display %q), want %q", p.Kind, p.At, r.Documentation, r.Display, want)
		}
	}
}
