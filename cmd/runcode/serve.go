package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/mcptools"
)

// httpPath is where --http serves the streamable MCP endpoint.
const httpPath = "/mcp"

// serveCmd serves run_code to MCP clients over stdio or streamable HTTP until the context is
// cancelled or, over stdio, the client closes stdin. Configuration errors return an error (exit
// status 2); a transport that fails while serving is exit status 1.
func (c *cli) serveCmd(args []string) (int, error) {
	fs := newFlagSet(c, "serve", "[SOURCES] [LIMITS] (--stdio | --http ADDR)")
	var src sources
	src.register(fs)
	lim := limits{timeout: 10 * time.Minute, cpu: 60 * time.Second, maxOutput: 64 << 20, maxParallel: 10, isolation: "process", memory: 512 << 20}
	lim.register(fs)
	stdio := fs.Bool("stdio", false, "serve one client over stdin and stdout")
	addr := fs.String("http", "", "serve streamable HTTP on `ADDR` (host:port; the endpoint is "+httpPath+")")
	positional, err := c.parseInterleaved(fs, args)
	if err != nil {
		return 0, flagError(err)
	}
	if len(positional) > 0 {
		return 0, &usageError{fmt.Sprintf("serve takes no arguments, got %q", positional[0])}
	}
	if *stdio == (*addr != "") {
		return 0, &usageError{"serve needs exactly one of --stdio and --http ADDR"}
	}
	if err := lim.validate(); err != nil {
		return 0, err
	}
	reg, closeAll, err := codeModeRegistry(&src, lim, nil)
	if err != nil {
		return 0, err
	}
	defer closeAll()
	srv, err := mcptools.NewServer(reg, mcptools.ServerOptions{Name: "runcode", Version: version()})
	if err != nil {
		return 0, err
	}
	tools := len(reg.SDKSchemas(nil))
	if *stdio {
		fmt.Fprintf(c.stderr, "runcode: serving run_code (%d tools) over stdio\n", tools)
		err = c.serveStdio(srv)
	} else {
		err = c.serveHTTP(srv, *addr, tools)
	}
	if err != nil {
		fmt.Fprintln(c.stderr, "runcode: serve:", err)
		return exitFailed, nil
	}
	return exitOK, nil
}

// serveStdio serves one session over the CLI's stdin and stdout; the end of stdin or the
// cancellation of the context is a clean end.
func (c *cli) serveStdio(srv *mcp.Server) error {
	in, ok := c.stdin.(io.ReadCloser)
	if !ok {
		in = io.NopCloser(c.stdin)
	}
	err := srv.Run(c.ctx, &mcp.IOTransport{Reader: in, Writer: nopWriteCloser{c.stdout}})
	if err == nil || c.ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// serveHTTP serves the streamable HTTP transport on addr until the context is cancelled.
// Requests' contexts derive from the CLI's, so cancellation ends open streams and running
// programs before the shutdown.
func (c *cli) serveHTTP(srv *mcp.Server, addr string, tools int) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if !isLoopback(ln.Addr()) {
		fmt.Fprintf(c.stderr, "runcode: warning: %s is not a loopback address; anyone who reaches it can run programs against the tools\n", ln.Addr())
	}
	mux := http.NewServeMux()
	mux.Handle(httpPath, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return c.ctx },
	}
	fmt.Fprintf(c.stderr, "runcode: serving run_code (%d tools) at http://%s%s\n", tools, ln.Addr(), httpPath)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-c.ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = hs.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = hs.Close()
	}
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	return err
}

func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// nopWriteCloser keeps the CLI's stdout open when the transport closes.
type nopWriteCloser struct{ io.Writer }

// Close does nothing.
func (nopWriteCloser) Close() error { return nil }
