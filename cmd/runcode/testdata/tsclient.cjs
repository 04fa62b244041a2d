// The official TypeScript MCP client against `runcode serve --http`, for
// TestServeHTTPOfficialClientAfterSessionEnds. Usage: node tsclient.cjs SDK_DIR ENDPOINT WAIT_MS
// (SDK_DIR is the @modelcontextprotocol/sdk package directory). It calls run_code, waits WAIT_MS (past
// the server's session timeout) or, with WAIT_MS 0, lets a second client take its session's
// place at the cap; then calls again on the same client, then recovers as the README says (a
// new transport) and calls once more. Each step prints one JSON line.
const path = require('path');
const [sdkDir, endpoint, waitMs] = process.argv.slice(2);
const req = (m) => require(path.join(sdkDir, 'dist', 'cjs', m));
const { Client } = req('client/index.js');
const { StreamableHTTPClientTransport } = req('client/streamableHttp.js');

const print = (step, x) => console.log(JSON.stringify({ step, ...x }));
const call = async (client, code) => {
  try {
    const res = await client.callTool({ name: 'run_code', arguments: { description: 'test', code } });
    return { ok: true, text: res.content.map((c) => c.text).join(''), isError: !!res.isError };
  } catch (e) {
    return { ok: false, code: e.code, error: String(e.message) };
  }
};
const connect = async () => {
  const client = new Client({ name: 'tsclient', version: '0' });
  client.onerror = () => {}; // the standalone stream's 404 after the session ends
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  return client;
};

(async () => {
  const client = await connect();
  print('first', await call(client, 'return 1 + 1'));
  if (Number(waitMs) > 0) {
    await new Promise((r) => setTimeout(r, Number(waitMs)));
  } else {
    const other = await connect(); // at --max-sessions 1: ends the idle session of client
    print('other', await call(other, 'return "other"'));
    await other.close();
  }
  print('stale', await call(client, 'return 2 + 2'));
  print('again', await call(client, 'return 3 + 3'));
  // Recovery: a new session on a new transport (the same Client, closed first).
  await client.close();
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  print('recovered', await call(client, 'return 4 + 4'));
  await client.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
