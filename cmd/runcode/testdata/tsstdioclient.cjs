// The official TypeScript MCP client against `runcode serve --stdio`, for
// TestServeStdioOfficialClientOutputBudget. Usage: node tsstdioclient.cjs SDK_DIR PROGRAM_FILE
// COMMAND ARG… (SDK_DIR is the @modelcontextprotocol/sdk package directory; the client starts
// COMMAND ARG… as its server, with this process's environment). It calls run_code with the
// program in PROGRAM_FILE, then with a small one on the same session, and prints one JSON line
// per step: the text, structuredContent as JSON, and any error of the call or the transport.
const fs = require('fs');
const path = require('path');
const [sdkDir, programFile, command, ...args] = process.argv.slice(2);
const req = (m) => require(path.join(sdkDir, 'dist', 'cjs', m));
const { Client } = req('client/index.js');
const { StdioClientTransport } = req('client/stdio.js');

const print = (step, x) => console.log(JSON.stringify({ step, ...x }));
const call = async (client, code) => {
  try {
    const res = await client.callTool({ name: 'run_code', arguments: { description: 'test', code } }, undefined, { timeout: 120000 });
    return {
      ok: true,
      isError: !!res.isError,
      text: res.content.filter((c) => c.type === 'text').map((c) => c.text).join(''),
      structured: res.structuredContent === undefined ? null : JSON.stringify(res.structuredContent),
    };
  } catch (e) {
    return { ok: false, error: String(e.message) };
  }
};

(async () => {
  const transport = new StdioClientTransport({ command, args, env: process.env, stderr: 'ignore' });
  const client = new Client({ name: 'tsstdioclient', version: '0' });
  client.onerror = (e) => print('transport-error', { error: String(e && e.message) });
  await client.connect(transport);
  print('big', await call(client, fs.readFileSync(programFile, 'utf8')));
  print('after', await call(client, 'return 1 + 1'));
  await client.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
