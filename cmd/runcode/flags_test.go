package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A bad flag is one line on stderr that says what to write instead, and exit status 2.
func TestFlagErrorsAreOneLineWithASuggestion(t *testing.T) {
	dir := project(t)
	prog := filepath.Join(dir, "nothing.ts")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--timout", "5s", prog}, "unknown flag --timout (did you mean --timeout?)"},
		{[]string{"run", "-timout", "5s", prog}, "unknown flag --timout (did you mean --timeout?)"},
		{[]string{"run", "--timeout", "5", prog}, `invalid --timeout "5": add a unit, e.g. 5s`},
		{[]string{"run", "--cpu", "1.5", prog}, `invalid --cpu "1.5": add a unit, e.g. 1.5s`},
		{[]string{"run", "--timeout", "soon", prog}, `invalid --timeout "soon": use a duration such as 30s, 500ms or 10m`},
		{[]string{"run", "--memory", "64MB", prog}, `invalid --memory "64MB": sizes are plain bytes or KiB, MiB or GiB, e.g. 64MiB`},
		{[]string{"run", "--max-output", "lots", prog}, `invalid --max-output "lots": sizes are plain bytes or KiB, MiB or GiB, e.g. 64MiB`},
		{[]string{"run", "--max-parallel", "many", prog}, `invalid --max-parallel "many": use a whole number, e.g. 10`},
		{[]string{"run", "--json=maybe", prog}, `invalid --json "maybe": a switch takes no value (write --json alone, or --json=false)`},
		{[]string{"run", prog, "--timeout"}, "--timeout needs a value (a duration, e.g. 30s)"},
		{[]string{"run", "--frobnicate", prog}, `unknown flag --frobnicate (see "runcode run --help")`},
		{[]string{"sdk", "--compcat"}, "unknown flag --compcat (did you mean --compact?)"},
		{[]string{"sdk", "-o"}, "-o needs a value (FILE)"},
		{[]string{"tools", "--jsno"}, "unknown flag --jsno (did you mean --json?)"},
		{[]string{"serve", "--stdio", "--drain-timout", "5s"}, "unknown flag --drain-timout (did you mean --drain-timeout?)"},
		{[]string{"serve", "--stdio", "--max-message", "1MB"}, `invalid --max-message "1MB": sizes are plain bytes or KiB, MiB or GiB, e.g. 1MiB`},
		{[]string{"run", "--isolation", "inproces", prog}, `--isolation must be inprocess or process, got "inproces" (did you mean inprocess?)`},
		{[]string{"run", "--timeout", "0s", prog}, "--timeout must be positive"},
		{[]string{"serve", "--workspace", dir}, "serve needs exactly one of --stdio and --http ADDR"},
	} {
		code, out, errOut := invoke(t, "", c.args...)
		if code != exitUsage || out != "" || errOut != "runcode: "+c.want+"\n" {
			t.Errorf("runcode %s: exit %d, stdout %q, stderr %q; want exit 2 and the one line %q", strings.Join(c.args, " "), code, out, errOut, "runcode: "+c.want)
		}
	}
}

// Every command's --help lists every flag the CLI contract (shared/CLI.md) gives it, spelled
// as the docs spell them, with defaults in the units a user writes.
func TestHelpListsEveryFlagWithHumanDefaults(t *testing.T) {
	sources := []string{"--tools FILE", "--mcp 'CMD ARG…'", "--mcp-url URL", "--workspace DIR"}
	limits := []string{"--timeout DURATION", "--cpu DURATION", "--max-output SIZE", "--max-parallel N",
		"--isolation process|inprocess", "--memory SIZE", "--max-write SIZE"}
	for cmd, flags := range map[string][]string{
		"run":   append(append([]string{"--json", "--trace FILE", "--replay FILE", "--compact"}, sources...), limits...),
		"sdk":   append([]string{"-o FILE", "--compact"}, sources...),
		"tools": append([]string{"--json"}, sources...),
		"serve": append(append([]string{"--stdio", "--http ADDR", "--compact", "--auth-token-file FILE", "--insecure-no-auth",
			"--session-timeout DURATION", "--max-sessions N", "--drain-timeout DURATION", "--max-message SIZE", "--workers N", "--max-queued N"}, sources...), limits...),
	} {
		code, out, errOut := invoke(t, "", cmd, "--help")
		if code != exitOK || errOut != "" {
			t.Fatalf("%s --help: exit %d, stderr %q", cmd, code, errOut)
		}
		for _, f := range flags {
			if !strings.Contains(out, "\n  "+f+"\n") {
				t.Errorf("%s --help does not list %q:\n%s", cmd, f, out)
			}
		}
		if strings.Contains(out, "\n  -"+strings.TrimPrefix(flags[1], "--")) {
			t.Errorf("%s --help spells a flag with one dash:\n%s", cmd, out)
		}
	}
	_, out, _ := invoke(t, "", "run", "--help")
	for _, want := range []string{"(default 64MiB)", "(default 512MiB)", "(default 256MiB)", "(default 10m)", "(default 60s)", "(default process)", "(default 10)"} {
		if !strings.Contains(out, want) {
			t.Errorf("run --help lacks %q:\n%s", want, out)
		}
	}
	for _, raw := range []string{"67108864", "536870912", "10m0s", "1m0s"} {
		if strings.Contains(out, raw) {
			t.Errorf("run --help prints the raw default %q:\n%s", raw, out)
		}
	}
	_, out, _ = invoke(t, "", "serve", "--help")
	if !strings.Contains(out, "(default 30m)") || !strings.Contains(out, "(default 30s)") {
		t.Errorf("serve --help lacks its human defaults:\n%s", out)
	}
}

func TestHumanDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{time.Hour: "1h", 90 * time.Minute: "90m", 10 * time.Minute: "10m", 2 * time.Minute: "2m",
		90 * time.Second: "90s", time.Minute: "60s", 30 * time.Second: "30s", 250 * time.Millisecond: "250ms", 1500 * time.Millisecond: "1.5s"} {
		if got := humanDuration(d); got != want {
			t.Errorf("humanDuration(%v) = %q, want %q", d, got, want)
		}
		if back, err := time.ParseDuration(want); err != nil || back != d {
			t.Errorf("%q does not parse back to %v", want, d)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 1: "1", 1000: "1000", 1 << 10: "1KiB", 1536 << 10: "1536KiB", 64 << 20: "64MiB", 1 << 30: "1GiB", 3 << 30: "3GiB"} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
		var b byteSize
		if err := b.Set(want); err != nil || int64(b) != n {
			t.Errorf("Set(%q) = %d, %v; want %d", want, b, err, n)
		}
	}
}

// run --compact gives programs the catalog helpers even for a handful of tools.
func TestRunCompact(t *testing.T) {
	dir := project(t)
	program := `const found = await catalog.search({ query: "upper-case" }); return found.map(t => t.name)`
	code, out, errOut := invoke(t, program, "run", "--compact", "--isolation", "inprocess", "--tools", filepath.Join(dir, "tools.json"), "-")
	if code != exitOK || out != "[\n  \"shout\"\n]\n" {
		t.Fatalf("run --compact: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// Without --compact a small tool set is presented in full, without the helpers.
	code, out, _ = invoke(t, "return typeof catalog", "run", "--isolation", "inprocess", "--tools", filepath.Join(dir, "tools.json"), "-")
	if code != exitOK || out != "undefined\n" {
		t.Fatalf("run without --compact: exit %d, stdout %q", code, out)
	}
}

// serve --compact describes run_code with the compact section, and its programs get the
// catalog helpers.
func TestServeCompact(t *testing.T) {
	dir := fixture(t, map[string]string{"notes.txt": "alpha\n"})
	cs, exit, stderr, err := connectServeStdio(context.Background(), "--compact", "--isolation", "inprocess", "--workspace", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cs.Close()
		if code := <-exit; code != exitOK {
			t.Errorf("serve exited %d: %s", code, stderr.String())
		}
	}()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || !strings.Contains(list.Tools[0].Description, "catalog.describe") {
		t.Fatalf("run_code's description is not the compact section: %+v", list.Tools)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{
		"description": "Look up a tool", "code": `return (await catalog.search({ query: "read" }))[0].name`,
	}})
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); res.IsError || !ok || tc.Text != "read_file" {
		t.Fatalf("result = %+v (isError %v)", res.Content[0], res.IsError)
	}
}

// A size either parses to a count that formats back to itself, or is refused with the units.
func FuzzByteSize(f *testing.F) {
	for _, s := range []string{"0", "64MiB", "1 KiB", "12XB", "-1", "9223372036854775807", "4GiB", "1B", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b byteSize
		if err := b.Set(s); err != nil {
			if !strings.Contains(err.Error(), "KiB, MiB or GiB") {
				t.Fatalf("Set(%q) error %q does not name the units", s, err)
			}
			return
		}
		var back byteSize
		if err := back.Set(b.String()); err != nil || back != b {
			t.Fatalf("Set(%q) = %d, formats as %q, which parses to %d (%v)", s, b, b.String(), back, err)
		}
	})
}
