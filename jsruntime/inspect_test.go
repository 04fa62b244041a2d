package jsruntime_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// inspectCase is one entry of testdata/inspect_cases.json: a program and the log entries Node 22
// wrote for it (see testdata/inspect_cases.js for how they were made).
type inspectCase struct {
	Program string   `json:"program"`
	Node    []string `json:"node"`
}

// TestConsoleMatchesNode runs each program of testdata/inspect_cases.json and compares the logs
// with Node 22's, byte for byte. With RUNCODE_NODE set to a node binary, it first regenerates the
// expectations with it and checks the file is current.
func TestConsoleMatchesNode(t *testing.T) {
	data, err := os.ReadFile("testdata/inspect_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	if node := os.Getenv("RUNCODE_NODE"); node != "" {
		out, err := exec.Command(node, "testdata/inspect_cases.js").Output()
		if err != nil {
			t.Fatalf("%s testdata/inspect_cases.js: %v", node, err)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("testdata/inspect_cases.json is not what %s prints now: regenerate it (see testdata/inspect_cases.js)", node)
		}
	}
	var cases []inspectCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	g := newRuntime(t, jsruntime.Config{})
	for _, c := range cases {
		t.Run(c.Program, func(t *testing.T) {
			res := run(t, g, c.Program, nil)
			if res.Error != nil {
				t.Fatalf("%s: %s", res.Error.Kind, res.Error.Message)
			}
			got, want := strings.Join(res.Logs, "\n---\n"), strings.Join(c.Node, "\n---\n")
			if got != want {
				t.Errorf("got\n%s\nwant (Node 22)\n%s", got, want)
			}
		})
	}
}
