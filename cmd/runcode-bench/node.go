package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// errNoNode reports that node is not on PATH.
var errNoNode = errors.New("node is not on PATH")

// nodeHost is the long-lived Node process. It reads one job per stdin line ({"program",
// "code", "want", "n", "warmup"}); per run it spawns a fresh worker_thread running the program as
// the body of an async function with a tools proxy, answers every tool call (a postMessage to
// this thread) with its arguments (echo), and times the run with process.hrtime from spawning
// the worker to receiving its result; the worker is then terminated (not timed). It answers each
// job with one stdout line {"program", "samples_ns": [...]} or {"program", "error"}.
const nodeHost = `'use strict';
const path = require('node:path');
const readline = require('node:readline');
const { Worker } = require('node:worker_threads');
const workerFile = path.join(__dirname, 'worker.js');

function runOnce(code) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const w = new Worker(workerFile, { workerData: { code } });
    w.on('error', reject);
    w.on('message', (m) => {
      if (m.type === 'call') {
        w.postMessage({ id: m.id, value: m.args });
        return;
      }
      const ns = Number(process.hrtime.bigint() - t0);
      w.terminate().then(() => m.error ? reject(new Error(m.error)) : resolve({ ns, value: m.value }));
    });
  });
}

async function job(j) {
  const samples = [];
  for (let i = 0; i < j.warmup + j.n; i++) {
    const { ns, value } = await runOnce(j.code);
    const got = JSON.stringify(value);
    if (got !== j.want) throw new Error('result ' + got + ', want ' + j.want);
    if (i >= j.warmup) samples.push(ns);
  }
  return samples;
}

const rl = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
rl.on('line', (line) => {
  const j = JSON.parse(line);
  queue = queue.then(() => job(j)).then(
    (samples) => process.stdout.write(JSON.stringify({ program: j.program, samples_ns: samples }) + '\n'),
    (e) => process.stdout.write(JSON.stringify({ program: j.program, error: String(e && e.stack || e) }) + '\n'));
});
rl.on('close', () => queue.then(() => process.exit(0)));
`

// nodeWorker is the per-run worker: the program becomes an async function of tools, whose
// every property is a function that posts a call to the host and awaits its answer.
const nodeWorker = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const pending = new Map();
let next = 0;
parentPort.on('message', (m) => {
  const p = pending.get(m.id);
  pending.delete(m.id);
  if (m.error) p.reject(new Error(m.error)); else p.resolve(m.value);
});
const tools = new Proxy({}, {
  get: (_, name) => (args) => new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    parentPort.postMessage({ type: 'call', id, name, args });
  }),
});
const AsyncFunction = (async () => {}).constructor;
new AsyncFunction('tools', workerData.code)(tools).then(
  (value) => parentPort.postMessage({ type: 'done', value }),
  (e) => parentPort.postMessage({ type: 'done', error: String(e && e.stack || e) }));
`

// nodeResult is what timeNode measured.
type nodeResult struct {
	Version string
	Samples map[string][]time.Duration // by program name
}

// timeNode runs every program n times (after warmup runs) in the Node host, one fresh worker
// per run.
func timeNode(ctx context.Context, n int) (nodeResult, error) {
	bin, err := exec.LookPath("node")
	if err != nil {
		return nodeResult{}, errNoNode
	}
	version, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return nodeResult{}, fmt.Errorf("node --version: %w", err)
	}
	dir, err := os.MkdirTemp("", "runcode-bench-node-")
	if err != nil {
		return nodeResult{}, err
	}
	defer os.RemoveAll(dir)
	for name, src := range map[string]string{"host.js": nodeHost, "worker.js": nodeWorker} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			return nodeResult{}, err
		}
	}

	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, filepath.Join(dir, "host.js"))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nodeResult{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nodeResult{}, err
	}
	if err := cmd.Start(); err != nil {
		return nodeResult{}, err
	}
	// The host exits when its stdin closes, after its last answer; Wait reaps it on every path.
	defer cmd.Wait()
	defer stdin.Close()

	res := nodeResult{Version: strings.TrimSpace(string(version)), Samples: map[string][]time.Duration{}}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 16<<20)
	enc := json.NewEncoder(stdin)
	for _, p := range programs {
		job := map[string]any{"program": p.Name, "code": p.Code, "want": p.Want, "n": n, "warmup": warmup}
		if err := enc.Encode(job); err != nil {
			return nodeResult{}, err
		}
		if !lines.Scan() {
			return nodeResult{}, fmt.Errorf("node host exited: %v", lines.Err())
		}
		var answer struct {
			Program   string  `json:"program"`
			SamplesNS []int64 `json:"samples_ns"`
			Error     string  `json:"error"`
		}
		if err := json.Unmarshal(lines.Bytes(), &answer); err != nil {
			return nodeResult{}, fmt.Errorf("node host answer: %w", err)
		}
		if answer.Error != "" {
			return nodeResult{}, fmt.Errorf("%s: %s", p.Name, answer.Error)
		}
		for _, ns := range answer.SamplesNS {
			res.Samples[p.Name] = append(res.Samples[p.Name], time.Duration(ns))
		}
	}
	return res, nil
}
