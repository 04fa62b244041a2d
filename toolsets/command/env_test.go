package command

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// printEnv is a command whose result is its environment as a JSON object.
const printEnv = `"command": ["python3", "-c", "import json, os; print(json.dumps(dict(os.environ)))"]`

// A command tool gets a minimal environment: PATH, HOME and the like, and what its entry's
// "inheritEnv" names; never the rest of the host's, where secrets meant for MCP servers live
// (a --config entry's ${VAR} must be set there).
func TestCommandsGetMinimalEnvironments(t *testing.T) {
	t.Setenv("RUNCODE_TEST_SECRET_A", "tok-A-4f9c1e7b22")
	t.Setenv("RUNCODE_TEST_KEEP_ONE", "kept")
	t.Setenv("RUNCODE_TEST_NAMED", "named")
	t.Setenv("HOME", "/home/runcode-test")
	manifest := `{"tools": [
	  {"name": "minimal", ` + printEnv + `},
	  {"name": "named", ` + printEnv + `, "inheritEnv": ["RUNCODE_TEST_KEEP_*", "RUNCODE_TEST_NAMED"]},
	  {"name": "all", ` + printEnv + `, "inheritEnv": true},
	  {"name": "none", ` + printEnv + `, "inheritEnv": false}
	]}`
	specs, err := parseSpecs([]byte(manifest), "json", t.TempDir(), "tools.json")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]jsonv.Value{}
	for _, s := range specs {
		v, err := s.execute(context.Background(), &registry.Invocation{Execution: registry.Execution{Name: s.name, Arguments: jsonv.MustParse(`{}`)}})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		env[s.name] = v
	}
	for name, want := range map[string][]string{
		"minimal": {"HOME", "PATH"},
		"none":    {"HOME", "PATH"},
		"named":   {"HOME", "PATH", "RUNCODE_TEST_KEEP_ONE", "RUNCODE_TEST_NAMED"},
		"all":     {"HOME", "PATH", "RUNCODE_TEST_KEEP_ONE", "RUNCODE_TEST_NAMED", "RUNCODE_TEST_SECRET_A"},
	} {
		got := env[name]
		if got.Lookup("HOME").AsString() != "/home/runcode-test" || got.Lookup("PATH").AsString() == "" {
			t.Errorf("%s lacks HOME or PATH: %s", name, got)
		}
		var runcode []string // the test's own variables it got
		for _, m := range got.Members() {
			if strings.HasPrefix(m.Key, "RUNCODE_TEST_") {
				runcode = append(runcode, m.Key)
			}
		}
		slices.Sort(runcode)
		if !slices.Equal(runcode, want[2:]) {
			t.Errorf("%s got the test's variables %q, want %q", name, runcode, want[2:])
		}
	}
}
