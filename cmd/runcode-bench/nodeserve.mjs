// A minimal MCP server over streamable HTTP, on the official TypeScript SDK, whose one tool
// run_code runs a program in node:vm with a `tools` object: the Node baseline of
// `runcode-bench -serve`. usage: node nodeserve.mjs (prints "listening on PORT"; NODE_PATH
// names the node_modules holding @modelcontextprotocol/sdk).
import { createRequire } from "node:module";
import http from "node:http";
import vm from "node:vm";
import { randomUUID } from "node:crypto";
import path from "node:path";

const require = createRequire(path.join(process.env.NODE_PATH, "noop.js"));
const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StreamableHTTPServerTransport } = require("@modelcontextprotocol/sdk/server/streamableHttp.js");
const { z } = require("zod");

const tools = {
  nap: () => new Promise((resolve) => setTimeout(() => resolve("rested"), 100)),
};

function newServer() {
  const server = new McpServer({ name: "node-vm-baseline", version: "0.0.0" });
  server.tool("run_code", "Run a JavaScript program.", { code: z.string(), description: z.string() }, async ({ code }) => {
    const logs = [];
    const sandbox = { tools, console: { log: (...a) => logs.push(a.join(" ")) } };
    try {
      const fn = vm.runInNewContext(`(async () => {\n${code}\n})`, sandbox, { timeout: 60000 });
      const value = await fn();
      const text = [...logs, value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value, null, 2)].filter(Boolean).join("\n");
      return { content: [{ type: "text", text: text || "(run_code completed with no output)" }] };
    } catch (e) {
      return { isError: true, content: [{ type: "text", text: `Error: code run failed (exception): ${e}` }] };
    }
  });
  return server;
}

const transports = new Map();
const httpServer = http.createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
  const sid = req.headers["mcp-session-id"];
  let transport = sid && transports.get(sid);
  if (!transport) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
    await newServer().connect(transport);
  }
  await transport.handleRequest(req, res, body);
});
httpServer.listen(0, "127.0.0.1", () => console.log(`listening on ${httpServer.address().port}`));
