package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

const addPy = `import json, sys
args = json.load(sys.stdin)
print(json.dumps(args["a"] + args["b"]))
`

const addSchema = `{"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"], "additionalProperties": false}`

func TestExecute(t *testing.T) {
	type file struct {
		content string
		mode    os.FileMode
	}
	tests := []struct {
		name  string
		tool  string // the manifest entry, without "name" (added as "t")
		files map[string]file
		args  string
		// cancelAfter cancels the call's context after this long (0: never).
		cancelAfter time.Duration
		maxOutput   int
		wantValue   string // the result as compact JSON, for a success
		wantErr     string // the failure message
		wantPrefix  bool   // wantErr is a prefix
		wantCode    registry.Code
		within      time.Duration // the call must return within this long (0: no bound)
		// check runs after the call, in the manifest directory.
		check func(t *testing.T, dir string)
	}{
		{
			name:      "python script adds",
			tool:      `"parameters": ` + addSchema + `, "output": {"type": "number"}, "command": ["python3", "add.py"]`,
			files:     map[string]file{"add.py": {addPy, 0o644}},
			args:      `{"a": 1, "b": 2}`,
			wantValue: `3`,
		},
		{
			name:      "shell command echoes its arguments in order",
			tool:      `"command": ["sh", "-c", "cat"]`,
			args:      `{"b": 2, "a": [1, "x", null, true], "c": {"z": 1, "y": 2}}`,
			wantValue: `{"b":2,"a":[1,"x",null,true],"c":{"z":1,"y":2}}`,
		},
		{
			name:      "arguments arrive as one line",
			tool:      `"command": ["sh", "-c", "read -r line && printf '{\"line\": %s}' \"$line\""]`,
			args:      `{"n": 5}`,
			wantValue: `{"line":{"n":5}}`,
		},
		{
			name:      "relative ./script.sh resolves against the manifest directory",
			tool:      `"command": ["./script.sh", "one", "two words"]`,
			files:     map[string]file{"script.sh": {"#!/bin/sh\nprintf '[\"%s\", \"%s\", \"%s\"]' \"$1\" \"$2\" \"$(basename \"$PWD\")\"\n", 0o755}},
			args:      `{}`,
			wantValue: `["one","two words","manifest"]`,
		},
		{
			name:      "relative path without ./ resolves against the manifest directory",
			tool:      `"command": ["bin/tool.sh"]`,
			files:     map[string]file{"bin/tool.sh": {"#!/bin/sh\necho '\"from bin\"'\n", 0o755}},
			args:      `{}`,
			wantValue: `"from bin"`,
		},
		{
			name:      "runs in the manifest directory",
			tool:      `"command": ["sh", "-c", "cat data.json"]`,
			files:     map[string]file{"data.json": {`{"here": true}`, 0o644}},
			args:      `{}`,
			wantValue: `{"here":true}`,
		},
		{
			name:     "exit 1 fails with the trimmed stderr",
			tool:     `"command": ["sh", "-c", "echo partial; echo '  boom: bad input  ' >&2; echo second line >&2; exit 1"]`,
			args:     `{}`,
			wantErr:  "boom: bad input  \nsecond line",
			wantCode: "",
		},
		{
			name:    "exit 3 with empty stderr",
			tool:    `"command": ["sh", "-c", "exit 3"]`,
			args:    `{}`,
			wantErr: "exit status 3",
		},
		{
			name:    "white-space stderr counts as empty",
			tool:    `"command": ["sh", "-c", "echo '   ' >&2; exit 4"]`,
			args:    `{}`,
			wantErr: "exit status 4",
		},
		{
			name:    "stdout that is not JSON",
			tool:    `"command": ["sh", "-c", "echo hello world"]`,
			args:    `{}`,
			wantErr: `command "t" printed output that is not JSON: hello world`,
		},
		{
			name:    "JSON whose text is not UTF-8 is refused, not altered",
			tool:    `"command": ["sh", "-c", "printf '{\"a\":\"caf\\351\"}'"]`,
			args:    `{}`,
			wantErr: `command "t" printed output that is not JSON: text that cannot be decoded unaltered: not valid UTF-8 (byte offset 9)`,
		},
		{
			name:    "two JSON values are not one",
			tool:    `"command": ["sh", "-c", "echo 1 2"]`,
			args:    `{}`,
			wantErr: `command "t" printed output that is not JSON: 1 2`,
		},
		{
			name:    "empty stdout is not JSON",
			tool:    `"command": ["true"]`,
			args:    `{}`,
			wantErr: `command "t" printed output that is not JSON: `,
		},
		{
			name:    "long non-JSON stdout is cut to 200 bytes",
			tool:    `"command": ["sh", "-c", "printf 'x%.0s' $(seq 1 300)"]`,
			args:    `{}`,
			wantErr: `command "t" printed output that is not JSON: ` + strings.Repeat("x", 200),
		},
		{
			name:       "missing program",
			tool:       `"command": ["runcode-no-such-program-xyz"]`,
			args:       `{}`,
			wantErr:    `command "t" could not run: exec: "runcode-no-such-program-xyz": executable file not found in $PATH`,
			wantPrefix: true,
		},
		{
			name:       "missing relative script",
			tool:       `"command": ["./nope.sh"]`,
			args:       `{}`,
			wantErr:    `command "t" could not run: `,
			wantPrefix: true,
		},
		{
			name: "timeout kills the command and its grandchild",
			tool: `"command": ["sh", "-c", "sleep 30 & echo $! > bg.pid; sleep 30"], "timeout": "300ms"`,
			args: `{}`,
			// Returning at all proves the background sleep, which holds stdout, is gone: the
			// wait delay for escaped processes (2s) is longer than this bound.
			within:  time.Second,
			wantErr: `command "t" timed out after 300ms`,
			check: func(t *testing.T, dir string) {
				data, err := os.ReadFile(filepath.Join(dir, "bg.pid"))
				if err != nil {
					t.Fatal(err)
				}
				pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
				if err != nil {
					t.Fatal(err)
				}
				waitGone(t, pid)
			},
		},
		{
			name:        "cancellation kills the command",
			tool:        `"command": ["sh", "-c", "sleep 30 & echo $! > bg.pid; sleep 30"]`,
			args:        `{}`,
			cancelAfter: 200 * time.Millisecond,
			within:      time.Second,
			wantErr:     `command "t" cancelled`,
			wantCode:    registry.CodeAborted,
			check: func(t *testing.T, dir string) {
				data, err := os.ReadFile(filepath.Join(dir, "bg.pid"))
				if err != nil {
					t.Fatal(err)
				}
				pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
				waitGone(t, pid)
			},
		},
		{
			name:      "a fast command beats its timeout",
			tool:      `"command": ["sh", "-c", "echo 7"], "timeout": "10s"`,
			args:      `{}`,
			wantValue: `7`,
		},
		{
			name:     "arguments are validated against parameters before the command runs",
			tool:     `"parameters": ` + addSchema + `, "command": ["sh", "-c", "touch ran; echo 0"]`,
			args:     `{"a": "one", "b": 2}`,
			wantErr:  `invalid arguments: "a" must be a number, got string`,
			wantCode: registry.CodeInvalidArgs,
			check: func(t *testing.T, dir string) {
				if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
					t.Error("the command ran despite invalid arguments")
				}
			},
		},
		{
			name:     "missing required argument",
			tool:     `"parameters": ` + addSchema + `, "command": ["python3", "add.py"]`,
			files:    map[string]file{"add.py": {addPy, 0o644}},
			args:     `{"a": 1}`,
			wantErr:  `invalid arguments: missing required property "b"`,
			wantCode: registry.CodeInvalidArgs,
		},
		{
			name:     "output schema violation",
			tool:     `"output": {"type": "number"}, "command": ["sh", "-c", "echo '\"three\"'"]`,
			args:     `{}`,
			wantErr:  `tool "t" returned invalid output: "value" must be a number, got string`,
			wantCode: registry.CodeInvalidToolOutput,
		},
		{
			name:      "no output schema accepts any JSON value",
			tool:      `"command": ["sh", "-c", "echo null"]`,
			args:      `{}`,
			wantValue: `null`,
		},
		{
			name:      "stdout cap",
			tool:      `"command": ["sh", "-c", "yes"]`,
			args:      `{}`,
			maxOutput: 1000,
			within:    5 * time.Second,
			wantErr:   `command "t" printed more than 1000 bytes on stdout`,
		},
		{
			name:      "stderr cap",
			tool:      `"command": ["sh", "-c", "yes >&2"]`,
			args:      `{}`,
			maxOutput: 1 << 20,
			within:    5 * time.Second,
			wantErr:   `command "t" printed more than 1 MiB on stderr`,
		},
		{
			name:      "output just under the cap",
			tool:      `"command": ["sh", "-c", "printf '\"%s\"' 12345678"]`,
			args:      `{}`,
			maxOutput: 10,
			wantValue: `"12345678"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "manifest")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, f := range tt.files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, dir, name, f.content, f.mode)
			}
			manifest := `{"tools": [{"name": "t", ` + tt.tool + `}]}`
			path := writeFile(t, dir, "tools.json", manifest, 0o644)
			var tools []registry.Tool
			if tt.maxOutput > 0 {
				specs, err := parseSpecs([]byte(manifest), "json", dir, path)
				if err != nil {
					t.Fatal(err)
				}
				specs[0].maxOutput = tt.maxOutput
				tools = []registry.Tool{specs[0].tool()}
			} else {
				var err error
				if tools, err = Load(path); err != nil {
					t.Fatal(err)
				}
			}
			reg := newRegistry(t, tools...)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelAfter > 0 {
				timer := time.AfterFunc(tt.cancelAfter, cancel)
				defer timer.Stop()
			}
			start := time.Now()
			res := reg.Execute(ctx, registry.Call{CallID: "c1", Name: "t", Arguments: jsonv.MustParse(tt.args)})
			elapsed := time.Since(start)
			if tt.within > 0 && elapsed > tt.within {
				t.Errorf("the call took %v, want at most %v", elapsed, tt.within)
			}
			if tt.wantValue != "" {
				if res.IsError {
					t.Fatalf("call failed: %s", res.Err.Message)
				}
				if got := res.Value.String(); got != tt.wantValue {
					t.Errorf("value = %s, want %s", got, tt.wantValue)
				}
			} else {
				if !res.IsError {
					t.Fatalf("call succeeded with %s, want error %q", res.Value, tt.wantErr)
				}
				got := res.Err.Message
				if tt.wantPrefix && !strings.HasPrefix(got, tt.wantErr) || !tt.wantPrefix && got != tt.wantErr {
					t.Errorf("error = %q\nwant    %q", got, tt.wantErr)
				}
				if res.Err.Code != tt.wantCode {
					t.Errorf("code = %q, want %q", res.Err.Code, tt.wantCode)
				}
			}
			if tt.check != nil {
				tt.check(t, dir)
			}
		})
	}
}

// waitGone waits up to two seconds for process pid to be gone (or a zombie, when nothing
// reaps orphans in this container).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		if processGone(pid) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d is still running", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name.
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] == 'Z' || stat[i+2] == 'X'
	}
	return false
}

func TestCancelledBeforeStart(t *testing.T) {
	dir := t.TempDir()
	specs, err := parseSpecs([]byte(`{"tools": [{"name": "t", "command": ["sh", "-c", "touch ran; echo 1"]}]}`), "json", dir, "tools.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = specs[0].execute(ctx, &registry.Invocation{Execution: registry.Execution{Name: "t", Arguments: jsonv.MustParse(`{}`)}})
	if !errors.Is(err, registry.CodeAborted) || err.Error() != `command "t" cancelled` {
		t.Errorf("err = %v, want ABORTED cancelled", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the command ran although the context was already cancelled")
	}
}

func TestConcurrentCalls(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "add.py", addPy, 0o644)
	path := writeFile(t, dir, "tools.yaml", "tools:\n  - name: add\n    parameters: "+addSchema+"\n    command: [python3, add.py]\n    concurrencySafe: true\n", 0o644)
	reg := loadRegistry(t, path)
	var wg sync.WaitGroup
	results := make([]registry.Result, 8)
	for i := range results {
		wg.Go(func() {
			args := jsonv.MustParse(fmt.Sprintf(`{"a": %d, "b": 100}`, i))
			results[i] = reg.Execute(context.Background(), registry.Call{CallID: fmt.Sprint("c", i), Name: "add", Arguments: args})
		})
	}
	wg.Wait()
	for i, res := range results {
		if res.IsError {
			t.Errorf("call %d: %s", i, res.Err.Message)
			continue
		}
		if got, want := res.Value.AsNumber(), float64(i+100); got != want {
			t.Errorf("call %d = %v, want %v", i, got, want)
		}
	}
}

func TestSnippet(t *testing.T) {
	euro := "€" // three bytes
	tests := []struct {
		in, want string
	}{
		{"  hi \n", "hi"},
		{strings.Repeat("a", 199) + euro, strings.Repeat("a", 199)},
		{strings.Repeat("a", 198) + euro, strings.Repeat("a", 198)},
		{strings.Repeat("a", 197) + euro + "zz", strings.Repeat("a", 197) + euro},
	}
	for _, tt := range tests {
		if got := snippet([]byte(tt.in)); got != tt.want {
			t.Errorf("snippet(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNoLeakedGoroutines checks that a call leaves no goroutine behind, whether its command
// succeeds, fails, times out or is cancelled.
func TestNoLeakedGoroutines(t *testing.T) {
	dir := t.TempDir()
	specs, err := parseSpecs([]byte(`{"tools": [
		{"name": "ok", "command": ["sh", "-c", "echo 1"]},
		{"name": "fail", "command": ["sh", "-c", "echo no >&2; exit 1"]},
		{"name": "slow", "command": ["sh", "-c", "sleep 30 & sleep 30"], "timeout": "100ms"},
		{"name": "hang", "command": ["sleep", "30"]}
	]}`), "json", dir, "tools.json")
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	for _, s := range specs {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		_, _ = s.execute(ctx, &registry.Invocation{Execution: registry.Execution{Name: s.name, Arguments: jsonv.MustParse(`{"x": 1}`)}})
		cancel()
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
