// The Node side of the differential suite: runs one program (already stripped of TypeScript and
// wrapped as `async function __main(tools, console, ToolCallError)` by the Go test) against the
// workspace tools implemented here with runcode's result shapes, and prints what runcode would
// print for the model: the logs, then the rendered result (reference/upstream-behaviour.md
// §3.6, §4.11), or the failure text.
//
// usage: node harness.mjs PROGRAM.js WORKSPACE
import fs from "node:fs";
import path from "node:path";
import util from "node:util";

const [programFile, root] = process.argv.slice(2);

class ToolCallError extends Error {
  constructor(toolName, message) {
    super(message);
    this.name = "ToolCallError";
    this.toolName = toolName;
  }
}

function clean(p) {
  const c = path.posix.normalize(p === undefined || p === "" ? "." : p);
  if (c.startsWith("..") || path.posix.isAbsolute(c)) throw new Error(`path ${JSON.stringify(p)} is outside the workspace`);
  return c.replace(/\/$/, "") || ".";
}
const abs = (rel) => path.join(root, rel);
const byName = (a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b)));

function typeOf(st) {
  if (st.isSymbolicLink()) return "symlink";
  if (st.isDirectory()) return "dir";
  if (st.isFile()) return "file";
  return "other";
}

function walk(dirRel, out) {
  const names = fs.readdirSync(abs(dirRel)).sort(byName);
  for (const name of names) {
    const rel = dirRel === "." ? name : `${dirRel}/${name}`;
    const st = fs.lstatSync(abs(rel));
    if (st.isDirectory()) {
      if (name === ".git" || name === "node_modules") continue;
      out.push({ rel, dir: true });
      walk(rel, out);
    } else {
      out.push({ rel, dir: false, st });
    }
  }
  return out;
}

function globRegExp(pattern) {
  const segs = pattern.split("/");
  let re = "^";
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    if (seg === "**") {
      re += last ? ".*" : "(?:[^/]+/)*";
      return;
    }
    for (let k = 0; k < seg.length; k++) {
      const c = seg[k];
      if (c === "*") re += "[^/]*";
      else if (c === "?") re += "[^/]";
      else if (c === "[") {
        const end = seg.indexOf("]", k + 1);
        re += "[" + seg.slice(k + 1, end).replace(/^!/, "^") + "]";
        k = end;
      } else re += c.replace(/[.+^${}()|\\]/g, "\\$&");
    }
    if (!last) re += "/";
  });
  return new RegExp(re + "$", "u");
}

const tools = {
  async read_file(args = {}) {
    const rel = clean(args.path);
    let data;
    try { data = fs.readFileSync(abs(rel), "utf8"); } catch { throw new ToolCallError("read_file", `cannot read ${JSON.stringify(args.path)}: no such file`); }
    const total = (data.match(/\n/g)?.length ?? 0) + (data.length > 0 && !data.endsWith("\n") ? 1 : 0);
    const start = args.startLine ?? 1;
    let end = args.endLine === undefined || args.endLine > total ? total : args.endLine;
    let content = data;
    if (start > 1 || end < total) {
      const lines = data.split(/(?<=\n)/);
      content = lines.slice(start - 1, end).join("");
    }
    return { path: rel, content, startLine: start, endLine: end, totalLines: total };
  },
  async write_file(args = {}) {
    const rel = clean(args.path);
    if (args.createDirs) fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
    fs.writeFileSync(abs(rel), args.content);
    return { path: rel, bytesWritten: Buffer.byteLength(args.content) };
  },
  async list_dir(args = {}) {
    const rel = clean(args.path);
    const entries = fs.readdirSync(abs(rel)).sort(byName).map((name) => {
      const st = fs.lstatSync(abs(rel === "." ? name : `${rel}/${name}`));
      const type = typeOf(st);
      return { name, type, size: type === "file" ? st.size : 0 };
    });
    return { path: rel, entries };
  },
  async stat(args = {}) {
    const rel = clean(args.path);
    const st = fs.lstatSync(abs(rel));
    const bits = "rwxrwxrwx".split("").map((c, i) => (st.mode & (1 << (8 - i)) ? c : "-")).join("");
    const t = typeOf(st);
    const lead = t === "dir" ? "d" : t === "symlink" ? "L" : "-";
    return { path: rel, type: t, size: st.size, modTime: new Date(Math.floor(st.mtimeMs / 1000) * 1000).toISOString().replace(".000Z", "Z"), mode: lead + bits };
  },
  async glob(args = {}) {
    const base = clean(args.path);
    const re = globRegExp(args.pattern);
    const matches = walk(base, [])
      .map((e) => e.rel)
      .filter((rel) => re.test(base === "." ? rel : rel.slice(base.length + 1)));
    return { matches: matches.slice(0, 10000), truncated: matches.length > 10000 };
  },
  async grep(args = {}) {
    const base = clean(args.path);
    const re = new RegExp(args.pattern, args.ignoreCase ? "iu" : "u");
    const limit = args.maxMatches ?? 1000;
    const globRe = args.glob ? globRegExp(args.glob) : null;
    let files = fs.lstatSync(abs(base)).isFile() ? [{ rel: base, dir: false }] : walk(base, []);
    const matches = [];
    for (const f of files) {
      if (f.dir) continue;
      if (globRe && !globRe.test(base === "." || f.rel === base ? f.rel : f.rel.slice(base.length + 1))) continue;
      const data = fs.readFileSync(abs(f.rel), "utf8");
      if (data.includes("\0")) continue;
      const lines = data.split("\n");
      if (lines.at(-1) === "") lines.pop();
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i].replace(/\r$/, "");
        if (!re.test(line)) continue;
        if (matches.length === limit) return { matches, truncated: true };
        const cps = [...line];
        matches.push({ path: f.rel, line: i + 1, text: cps.length > 500 ? cps.slice(0, 500).join("") : line });
      }
    }
    return { matches, truncated: false };
  },
};

// Every tool is called with JSON arguments, as over any RPC layer.
const wire = {};
for (const [name, fn] of Object.entries(tools)) {
  wire[name] = async (args) => {
    const json = args === undefined ? {} : JSON.parse(JSON.stringify(args));
    const out = await fn(json);
    return JSON.parse(JSON.stringify(out));
  };
}

const logs = [];
const render = (args) => args.map((a) => (typeof a === "string" ? a : util.inspect(a, { depth: 4, maxArrayLength: 100, maxStringLength: 10000 }))).join(" ");
const console_ = Object.create(null);
for (const m of ["log", "info", "warn", "error", "debug"]) console_[m] = (...a) => { logs.push(render(a)); };

// The upstream renderer: JSON.stringify(v, null, 2) up to an indentation of 10, compact below.
function pretty(v, depth) {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if ((depth + 1) * 2 > 10) return JSON.stringify(v);
  const pad = "  ".repeat(depth + 1), end = "  ".repeat(depth);
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    return "[\n" + v.map((x) => pad + pretty(x, depth + 1)).join(",\n") + "\n" + end + "]";
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return "{}";
  return "{\n" + keys.map((k) => pad + JSON.stringify(k) + ": " + pretty(v[k], depth + 1)).join(",\n") + "\n" + end + "}";
}

const code = fs.readFileSync(programFile, "utf8");
const main = new Function(code + "\nreturn __main;")();
let text;
try {
  const value = await main(wire, console_, ToolCallError);
  const parts = [];
  if (logs.join("\n") !== "") parts.push(logs.join("\n"));
  if (value !== undefined) {
    const json = JSON.stringify(value);
    if (json !== undefined) {
      const v = JSON.parse(json);
      const s = typeof v === "string" ? v : pretty(v, 0);
      if (s !== "") parts.push(s);
    }
  }
  text = parts.length ? parts.join("\n") : "(run_code completed with no output)";
} catch (e) {
  const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  text = `Error: code run failed (exception): ${msg}`;
  if (logs.length) text += "\nCaptured output:\n" + logs.join("\n");
}
process.stdout.write(text + "\n");
// The run ends when the program settles, cancelling pending timers, as runcode does.
process.exit(0);
