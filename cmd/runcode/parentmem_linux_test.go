package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/internal/procstatus"
)

// bigFileBytes is the size of the file the parallel reads read: read_file's largest.
const bigFileBytes = 16 << 20

// parallelReads reads the big file 30 times at once and returns the total length read; each
// content is let go as soon as it is measured, so the worker holds one or two at a time.
const parallelReads = `const ns = await Promise.all(Array.from({length: 30}, async () => (await tools.read_file({path: "big.txt"})).content.length));
return ns.reduce((a, b) => a + b, 0);`

// peakRSS runs the CLI (exe, or this test binary as the CLI when exe is empty) with args and returns its exit status, its standard output and the
// peak resident size of the CLI process itself (VmHWM, polled until it exits; its workers are
// other processes and do not count).
func peakRSS(t *testing.T, exe string, args ...string) (int, string, int64) {
	t.Helper()
	var p *cliProcess
	if exe == "" {
		p = startCLI(t, args...)
	} else {
		p = startExecutable(t, exe, os.Environ(), args...)
	}
	status := "/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/status"
	var peak int64
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(60 * time.Second)
	for done := false; !done; {
		select {
		case <-p.exited:
			done = true
		case <-tick.C:
			peak = max(peak, procstatus.Bytes(status, "VmHWM:"))
		case <-deadline:
			t.Fatalf("the CLI did not exit within 60s; stderr:\n%s", p.stderr.String())
		}
	}
	out, _ := io.ReadAll(p.lines)
	return p.cmd.ProcessState.ExitCode(), string(out), peak
}

// TestRunBoundsParentMemoryOfParallelReads: under process isolation, 30 concurrent 16 MiB
// reads with --max-parallel 30 took the CLI process (not the worker) to 1.6–1.9 GiB with
// --memory 512MiB, each read_file body holding several copies of the file unaccounted; in
// process, the same run failed (worker-exit: the heap watchdog counts the tool bodies too).
// The sub-call memory budget admits the reads in turn: all 30 complete, and the CLI's peak
// stays within --memory over its own baseline (measured: 290–390 MiB in all, against 1,650).
func TestRunBoundsParentMemoryOfParallelReads(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 480 MiB through a worker")
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	line := "the quick brown fox jumps over the lazy dog 0123456789\n"
	text := strings.Repeat(line, bigFileBytes/len(line)+1)[:bigFileBytes-1] + "\n"
	if err := os.WriteFile(filepath.Join(ws, "big.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"reads.ts": parallelReads, "small.ts": `return (await tools.read_file({path: "small.txt"})).content.length;`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "small.txt"), []byte("small\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const memory = 512 << 20
	// The race detector's shadow memory is not the CLI's: under -race (the README's test
	// command) the test measures a CLI built without it, so the bound is checked there too.
	var exe string
	if raceBuild {
		exe = filepath.Join(t.TempDir(), "runcode")
		if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	for _, isolation := range []string{"process", "inprocess"} {
		t.Run(isolation, func(t *testing.T) {
			flags := []string{"run", "--isolation", isolation, "--memory", "512MiB", "--max-parallel", "30", "--workspace", ws}
			code, out, baseline := peakRSS(t, exe, append(flags, filepath.Join(dir, "small.ts"))...)
			if code != 0 || out != "6\n" {
				t.Fatalf("baseline run: exit %d, stdout %q", code, out)
			}
			code, out, peak := peakRSS(t, exe, append(flags, filepath.Join(dir, "reads.ts"))...)
			if want := strconv.Itoa(30*bigFileBytes) + "\n"; code != 0 || out != want {
				t.Fatalf("exit %d, stdout %q, want %q (every read completes)", code, out, want)
			}
			t.Logf("CLI peak RSS: %d MiB (baseline %d MiB)", peak>>20, baseline>>20)
			if baseline == 0 {
				t.Skip("no VmHWM in /proc/<pid>/status")
			}
			// In process the program's heap lives in the CLI too: the heap watchdog holds it to
			// --memory, beside the sub-call data, and the collector's headroom is on top.
			limit, what := baseline+memory, "--memory (512 MiB)"
			if isolation == "inprocess" {
				limit, what = baseline+2*memory, "twice --memory (1,024 MiB)"
			}
			if peak > limit {
				t.Fatalf("the CLI's peak RSS is %d MiB, over %s plus its baseline (%d MiB)", peak>>20, what, baseline>>20)
			}
		})
	}
}
