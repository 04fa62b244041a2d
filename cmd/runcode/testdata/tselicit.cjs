// The official TypeScript MCP client against `runcode serve --stdio`, answering the server's
// approval requests (elicitation/create), for TestServeApprovalsOfficialClient. Usage:
// node tselicit.cjs SDK_DIR MODE PROGRAM_FILE COMMAND ARG… (SDK_DIR is the @modelcontextprotocol/sdk
// package directory; the client starts COMMAND ARG… as its server). MODE says how the person
// answers: accept, decline, cancel, none (the client declares no elicitation capability),
// silent (never answers), slow:MS (accepts after MS milliseconds), abort (the client cancels
// its run_code call while the question is open). It calls run_code with the program in
// PROGRAM_FILE, then `return 1 + 1` on the same session, and prints one JSON line per step.
// With an http:// URL for COMMAND, it connects to `runcode serve --http` there instead.
const fs = require('fs');
const path = require('path');
const [sdkDir, mode, programFile, command, ...args] = process.argv.slice(2);
const req = (m) => require(path.join(sdkDir, 'dist', 'cjs', m));
const { Client } = req('client/index.js');
const { StdioClientTransport } = req('client/stdio.js');
const { StreamableHTTPClientTransport } = req('client/streamableHttp.js');
const { ElicitRequestSchema } = req('types.js');

const print = (step, x) => console.log(JSON.stringify({ step, ...x }));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const run = new AbortController();
let withdrawn;
const questionWithdrawn = new Promise((resolve) => { withdrawn = resolve; });
const call = async (client, code, signal) => {
  const start = Date.now();
  try {
    const res = await client.callTool({ name: 'run_code', arguments: { description: 'write a note', code } }, undefined, { timeout: 120000, signal });
    return { ok: true, isError: !!res.isError, text: res.content.filter((c) => c.type === 'text').map((c) => c.text).join(''), ms: Date.now() - start };
  } catch (e) {
    return { ok: false, error: String(e.message), ms: Date.now() - start };
  }
};

(async () => {
  const transport = /^https?:/.test(command)
    ? new StreamableHTTPClientTransport(new URL(command))
    : new StdioClientTransport({ command, args, env: process.env, stderr: 'ignore' });
  const client = new Client({ name: 'tselicit', version: '0' }, mode === 'none' ? {} : { capabilities: { elicitation: {} } });
  client.onerror = (e) => print('transport-error', { error: String(e && e.message) });
  if (mode !== 'none') {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      print('asked', { text: request.params.message });
      extra.signal.addEventListener('abort', () => { print('question-withdrawn', {}); withdrawn(); });
      switch (mode) {
        case 'accept':
          return { action: 'accept', content: {} };
        case 'decline':
          return { action: 'decline' };
        case 'cancel':
          return { action: 'cancel' };
        case 'abort':
          setTimeout(() => run.abort(), 200);
          return new Promise(() => {});
        case 'silent':
          return new Promise(() => {});
        default: // slow:MS
          await sleep(Number(mode.split(':')[1]));
          return { action: 'accept', content: {} };
      }
    });
  }
  await client.connect(transport);
  print('run', await call(client, fs.readFileSync(programFile, 'utf8'), run.signal));
  if (mode === 'abort') await Promise.race([questionWithdrawn, new Promise((r) => setTimeout(r, 10000).unref())]); // the server's notifications/cancelled
  print('after', await call(client, 'return 1 + 1'));
  client.onerror = () => {}; // closing aborts the HTTP client's standalone stream
  await client.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
