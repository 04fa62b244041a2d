// The official TypeScript MCP client against `runcode serve --stdio`, for
// TestStateSharedByOneStdioSession. Usage: node tsstateclient.cjs SDK_DIR PROGRAMS_JSON COMMAND
// ARG… (PROGRAMS_JSON is a JSON array of program texts). It starts COMMAND ARG… as its server,
// prints the run_code tool's description as the first JSON line ({step: "tool"}), then calls
// run_code with each program in turn on the one session and prints one JSON line per call.
const path = require('path');
const [sdkDir, programsJSON, command, ...args] = process.argv.slice(2);
const req = (m) => require(path.join(sdkDir, 'dist', 'cjs', m));
const { Client } = req('client/index.js');
const { StdioClientTransport } = req('client/stdio.js');

const print = (step, x) => console.log(JSON.stringify({ step, ...x }));

(async () => {
  const transport = new StdioClientTransport({ command, args, env: process.env, stderr: 'ignore' });
  const client = new Client({ name: 'tsstateclient', version: '0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  print('tool', { text: tools.find((t) => t.name === 'run_code').description });
  for (const [i, code] of JSON.parse(programsJSON).entries()) {
    try {
      const res = await client.callTool({ name: 'run_code', arguments: { description: 'use state', code } }, undefined, { timeout: 120000 });
      print(String(i), { ok: true, isError: !!res.isError, text: res.content.filter((c) => c.type === 'text').map((c) => c.text).join('') });
    } catch (e) {
      print(String(i), { ok: false, text: String(e.message) });
    }
  }
  await client.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
