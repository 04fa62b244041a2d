// Package mcpwire holds what both halves of MCP (the client in mcptools, the server in
// mcpserve) need on the wire: newline-delimited JSON-RPC connections that answer bad input
// instead of ending, bounded line reading, and the streaming scanners that find a message's id.
package mcpwire

// DefaultMaxMessageBytes is the default cap on one JSON-RPC message, in either direction. A
// run_code call carries the whole program text, so the cap is far above the SDK's defaults (16
// MiB per line over stdio, 4 MiB per HTTP body), and equal to the CLI's default --max-output.
const DefaultMaxMessageBytes = 64 << 20
