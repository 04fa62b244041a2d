package sdkgen

import (
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

func namespacedTools() []Tool {
	path := jsonv.MustParse(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)
	str := jsonv.MustParse(`{"type":"string"}`)
	return []Tool{
		{Name: "fs.read_file", Namespace: "fs", Description: "Read a file (server).", Parameters: path, Output: str},
		{Name: "read_file", Description: "Read a file (workspace).", Parameters: path, Output: str},
		{Name: "my-server.odd-tool", Namespace: "my-server", Parameters: path, Output: str},
		{Name: "fs.list", Namespace: "fs", Parameters: path, Output: str},
		{Name: "fs.x", Description: "A flat tool whose name has a dot.", Parameters: path, Output: str},
	}
}

func TestNamespacesNestInTheDeclarations(t *testing.T) {
	got := Declarations(namespacedTools())
	want := `declare class ToolCallError extends Error { toolName: string; code?: string }

declare const tools: {
  fs: {
    list(args: { path: string }): Promise<string>;
    /** Read a file (server). */
    read_file(args: { path: string }): Promise<string>;
  };
  /** A flat tool whose name has a dot. */
  "fs.x"(args: { path: string }): Promise<string>;
  "my-server": {
    "odd-tool"(args: { path: string }): Promise<string>;
  };
  /** Read a file (workspace). */
  read_file(args: { path: string }): Promise<string>;
}`
	if got != want {
		t.Fatalf("declarations:\n%s\nwant:\n%s", got, want)
	}
}

func TestNamespacedToolsInTheCompactSection(t *testing.T) {
	got := CompactSection(namespacedTools())
	for _, want := range []string{
		`declare const tools: { [name: string]: (args?: { [key: string]: JsonValue }) => Promise<JsonValue> } & { fs: { [name: string]: (args?: { [key: string]: JsonValue }) => Promise<JsonValue> }; "my-server": { [name: string]: (args?: { [key: string]: JsonValue }) => Promise<JsonValue> } };`,
		"\n- fs.list\n- fs.read_file — Read a file (server).\n- \"fs.x\" — A flat tool whose name has a dot.\n- \"my-server\".\"odd-tool\"\n- read_file — Read a file (workspace).",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("compact section lacks %q:\n%s", want, got)
		}
	}
	d, ok := Describe(namespacedTools(), "fs.read_file")
	if !ok || !strings.Contains(d, "declare const tools: {\n  fs: {\n    /** Read a file (server). */\n    read_file(args: { path: string }): Promise<string>;\n  };\n}") {
		t.Errorf("describe = %q, %v", d, ok)
	}
}

func TestNamespacedMultiLineTypesIndentOneLevelDeeper(t *testing.T) {
	tool := Tool{Name: "m.t", Namespace: "m", Parameters: jsonv.MustParse(`{"type":"object","properties":{"a":{"type":"string","description":"The a."},"b":{"type":"number","description":"The b."}}}`)}
	got := DTS([]Tool{tool})
	if !strings.Contains(got, "  m: {\n    t(args?: {\n      /** The a. */ a?: string;\n      /** The b. */ b?: number;\n    }): Promise<JsonValue>;\n  };\n") {
		t.Fatalf("dts:\n%s", got)
	}
}
