package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/runcode-dev/runcode/codemode"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/runcode-dev/runcode/approvals"
	"github.com/runcode-dev/runcode/jsruntime"

	"github.com/runcode-dev/runcode/internal/readlimit"
	"github.com/runcode-dev/runcode/mcpserve"
)

// httpPath is where --http serves the streamable MCP endpoint.
const httpPath = "/mcp"

// authTokenEnv names the environment variable that sets the bearer token when
// --auth-token-file is not given.
const authTokenEnv = "RUNCODE_AUTH_TOKEN"

// Defaults of serve's own flags.
const (
	defaultSessionTimeout = 30 * time.Minute
	defaultMaxSessions    = 100
	defaultDrainTimeout   = 30 * time.Second
)

// serveFlags are serve's flags beside the sources and limits.
type serveFlags struct {
	stdio          bool
	addr           string
	maxMessage     byteSize
	tokenFile      string
	insecureNoAuth bool
	sessionTimeout time.Duration
	maxSessions    int
	drainTimeout   time.Duration
	stateless      bool
	structured     string
	maxReply       byteSize
}

func (s *serveFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&s.stdio, "stdio", false, "serve one client over stdin and stdout")
	fs.StringVar(&s.addr, "http", "", "serve streamable HTTP on `ADDR` (host:port; the endpoint is "+httpPath+")")
	fs.Var(&s.maxMessage, "max-message", "the largest inbound message (a line over --stdio, a request body over --http), in bytes or KiB/MiB/GiB; a larger one gets an error response")
	fs.StringVar(&s.tokenFile, "auth-token-file", "", "--http: require Authorization: Bearer <the token in `FILE`> on "+httpPath+" (default: $"+authTokenEnv+" when set)")
	fs.BoolVar(&s.insecureNoAuth, "insecure-no-auth", false, "--http: serve a non-loopback address without a token (anyone who reaches it can run programs)")
	fs.DurationVar(&s.sessionTimeout, "session-timeout", s.sessionTimeout, "--http: end MCP sessions idle for this long (0: never)")
	fs.IntVar(&s.maxSessions, "max-sessions", s.maxSessions, "--http: the most live MCP sessions; a new one at the cap ends the session idle the longest, or gets 503 when every session has a request in flight (0: no cap)")
	s.registerStateless(fs)
	fs.StringVar(&s.structured, "structured", "auto", "when replies carry structuredContent beside their text: `auto|always|never` (auto: only replies of at most 1MiB with it, and run_code declares no outputSchema; always: every reply, and the outputSchema is declared)")
	fs.Var(&s.maxReply, "max-reply", "the largest reply, in bytes or KiB/MiB/GiB (below the 10MiB line limit of the TypeScript SDK's stdio client); a larger one loses its structuredContent, then its text is cut with a marker")
	fs.DurationVar(&s.drainTimeout, "drain-timeout", s.drainTimeout, "on SIGINT/SIGTERM, how long runs in flight may finish before they are aborted (a run still going 2s after its abort is abandoned, and serve exits 1)")
}

// validate checks the flags; set names the flags given on the command line.
func (s *serveFlags) validate(set map[string]bool) error {
	switch {
	case s.stdio == (s.addr != ""):
		return &flagUsageError{"serve needs exactly one of --stdio and --http ADDR"}
	case s.maxMessage < 1<<10:
		return &flagUsageError{"--max-message must be at least 1KiB"}
	case s.sessionTimeout < 0:
		return &flagUsageError{"--session-timeout must not be negative"}
	case s.maxSessions < 0:
		return &flagUsageError{"--max-sessions must not be negative"}
	case s.drainTimeout < 0:
		return &flagUsageError{"--drain-timeout must not be negative"}
	case s.maxReply < 16<<10:
		return &flagUsageError{"--max-reply must be at least 16KiB"}
	}
	if _, err := mcpserve.ParseStructuredMode(s.structured); err != nil {
		return &flagUsageError{fmt.Sprintf("--structured %q: want auto, always or never", s.structured)}
	}
	if err := s.validateStateless(set); err != nil {
		return err
	}
	if s.stdio {
		for _, name := range []string{"auth-token-file", "insecure-no-auth", "session-timeout", "max-sessions"} {
			if set[name] {
				return &flagUsageError{fmt.Sprintf("--%s applies to --http only", name)}
			}
		}
	}
	return nil
}

// maxTokenFileBytes bounds --auth-token-file: a token is a line, not a file of any size.
const maxTokenFileBytes = 64 << 10

// token returns the bearer token of --auth-token-file, else of $RUNCODE_AUTH_TOKEN, else "".
func (s *serveFlags) token() (string, error) {
	if s.tokenFile == "" {
		return strings.TrimSpace(os.Getenv(authTokenEnv)), nil
	}
	data, err := readlimit.File(s.tokenFile, maxTokenFileBytes)
	if err != nil {
		return "", fmt.Errorf("--auth-token-file: %w", err)
	}
	token := strings.TrimSpace(string(data))
	if token == "" {
		return "", fmt.Errorf("--auth-token-file: %s holds no token", s.tokenFile)
	}
	return token, nil
}

// serveCmd serves run_code to MCP clients over stdio or streamable HTTP until the client closes
// stdin (stdio) or a first SIGINT/SIGTERM (the context) drains the server. Configuration errors
// return an error (exit status 2); a transport that fails while serving is exit status 1.
func (c *cli) serveCmd(args []string) (int, error) {
	fs := newFlagSet(c, "serve", "[SOURCES] [LIMITS] (--stdio | --http ADDR) [SERVE FLAGS]")
	var src sources
	src.register(fs)
	lim := defaultLimits()
	lim.register(fs)
	lim.registerPool(fs)
	sf := serveFlags{maxMessage: mcpserve.DefaultMaxMessageBytes, sessionTimeout: defaultSessionTimeout, maxSessions: defaultMaxSessions, drainTimeout: defaultDrainTimeout, maxReply: mcpserve.DefaultMaxReplyBytes}
	sf.register(fs)
	var lf logFlags
	lf.register(fs)
	c.registerCompact(fs)
	var appr approvalFlags
	appr.register(fs)
	c.registerState(fs)
	c.registerPrograms(fs)
	positional, err := c.parseInterleaved(fs, args)
	if err != nil {
		return 0, flagError(err)
	}
	if len(positional) > 0 {
		return 0, &usageError{fmt.Sprintf("serve takes no arguments, got %q", positional[0])}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := sf.validate(set); err != nil {
		return 0, err
	}
	if err := lim.validate(); err != nil {
		return 0, err
	}
	if err := lf.validate(); err != nil {
		return 0, err
	}
	if err := appr.validate(); err != nil {
		return 0, err
	}
	src.noApprovals = appr.none
	if err := c.state.validate(); err != nil {
		return 0, err
	}
	switch {
	case sf.stdio:
		c.stateMode = stateProcess
	case sf.stateless:
		c.stateMode = stateNoneServed
	default:
		c.stateMode = stateSession
	}
	logTo := c.stderr
	if lf.format == "json" {
		c.stderr = &lineLogger{logger: lf.logger(logTo)} // every line of stderr a JSON record
	}
	var ln net.Listener
	var token string
	if !sf.stdio {
		if token, err = sf.token(); err != nil {
			return 0, err
		}
		if info, err := os.Stat(sf.tokenFile); sf.tokenFile != "" && err == nil && info.Mode().Perm()&0o004 != 0 {
			fmt.Fprintf(c.stderr, "runcode: warning: --auth-token-file %s is readable by every user of this machine; chmod 600 it\n", sf.tokenFile)
		}
		if ln, err = listen(sf.addr, token != "", sf.insecureNoAuth); err != nil {
			return 0, err
		}
		defer ln.Close()
		if !isLoopback(ln.Addr()) && token == "" {
			fmt.Fprintf(c.stderr, "runcode: warning: %s is not a loopback address and --insecure-no-auth is set: anyone who reaches it can run programs against the tools\n", ln.Addr())
		}
	}
	lim.warmTypecheck = true // one compiler process for all the runs of --typecheck
	if c.tracing, err = openTracing(c.ctx, c.stderr); err != nil {
		return 0, err
	}
	defer flushTracing(c.tracing, c.stderr) // once drained and closed: every span has ended
	opened, err := c.codeModeRegistry(&src, lim, nil)
	if err != nil {
		return 0, err
	}
	reg := opened.reg
	// Calls that need approval: the flags' standing answers, then the person behind the MCP
	// client (mcpserve.Approver: elicitation, or the in-band form). The runs are an agent of
	// their own (a scope), which the registry's approval stage requires.
	approver, err := approvals.New(approvals.Options{Approve: appr.approve, Yes: appr.yes, Next: mcpserve.Approver()})
	if err != nil {
		opened.close()
		return 0, err
	}
	reg.SetApprover(approver)
	abandoned := false
	defer func() {
		if abandoned {
			opened.abandon(abandonCloseLimit)
		} else {
			opened.close()
		}
	}()
	gate := mcpserve.NewRunGate()
	pool, _ := opened.rt.(*jsruntime.ProcessPool) // nil in-process: no worker metrics
	ops := newServiceOps(lf, logTo, gate, pool)
	defer reg.OnResult(ops.metrics.observeSubCall)()
	stateKey, err := requestStateKey()
	if err != nil {
		return 0, err
	}
	if stateKey == nil && sf.stateless {
		fmt.Fprintf(c.stderr, "runcode: warning: $%s is not set, so this replica signs in-band approval states with a key of its own: a client's retry that lands on another replica is refused; give every replica the same key\n", requestStateKeyEnv)
	}
	srv, err := mcpserve.NewServer(reg, mcpserve.ServerOptions{Name: "runcode", Version: version(), Gate: gate, CompactAbove: c.compactAbove(), OnRun: ops.onRun,
		Structured: mcpserve.StructuredMode(sf.structured), MaxReplyBytes: int(sf.maxReply), SessionState: c.sessionState, State: opened.state,
		Scope: reg.NewScope("serve", nil), ApprovalTimeout: approvalTimeout(lim.timeout), RequestStateKey: stateKey})
	if err != nil {
		return 0, err
	}
	if opened.compiler != nil {
		// The library is polled, so that the run_code description (mcpserve follows the
		// registry's changes) lists the programs saved while serving.
		pollCtx, stopPolling := context.WithCancel(c.ctx)
		wait := reloadPrograms(pollCtx, opened.cm, func(err error) { fmt.Fprintln(c.stderr, "runcode: warning: program library:", err) })
		defer wait()
		defer stopPolling()
	}
	tools := len(codemode.SDKTools(reg))
	opts := mcpserve.ServeOptions{Gate: gate, DrainTimeout: sf.drainTimeout, StuckGrace: stuckGrace, OnDrain: func(n mcpserve.DrainNotice) {
		hint := ""
		if n.Stage == mcpserve.DrainWaiting {
			hint = " (signal again to exit at once)"
		}
		fmt.Fprintf(c.stderr, "runcode: %s%s\n", n, hint)
	}}
	if sf.stdio {
		fmt.Fprintf(c.stderr, "runcode: serving run_code (%d tools) over stdio\n", tools)
		in, ok := c.stdin.(io.ReadCloser)
		if !ok {
			in = io.NopCloser(c.stdin)
		}
		opts.Stdio = &mcpserve.LineTransport{Reader: in, Writer: nopWriteCloser{c.stdout}, MaxMessageBytes: int(sf.maxMessage)}
	} else {
		h := mcpserve.NewHTTPHandler(srv, mcpserve.HTTPOptions{
			Token:           token,
			SessionTimeout:  sf.sessionTimeout,
			MaxSessions:     sf.maxSessions,
			MaxMessageBytes: int64(sf.maxMessage),
			Stateless:       sf.stateless,
			Gate:            gate,
		})
		auth := "no authentication (loopback only)"
		if token != "" {
			auth = "bearer token required"
		}
		if sf.stateless {
			auth += "; stateless"
		}
		fmt.Fprintf(c.stderr, "runcode: serving run_code (%d tools) at http://%s%s (%s)\n", tools, ln.Addr(), httpPath, auth)
		mux := http.NewServeMux()
		mux.Handle(httpPath, h)
		ops.routes(mux, h)
		opts.Listener, opts.HTTP, opts.Handler = ln, h, mux
	}
	err = mcpserve.Serve(c.ctx, srv, opts)
	if errors.Is(err, mcpserve.ErrRunsAbandoned) {
		abandoned = true
		return exitFailed, nil // the drain said why
	}
	if err != nil {
		fmt.Fprintln(c.stderr, "runcode: serve:", err)
		return exitFailed, nil
	}
	return exitOK, nil
}

// listen listens on addr. Without a token, only a loopback address is served, unless insecure;
// the address is checked before binding, so a refused address is never bound.
func listen(addr string, hasToken, insecure bool) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, &usageError{fmt.Sprintf("--http %q: %v", addr, err)}
	}
	mayServe := func(ok bool, shown string) error {
		if ok || hasToken || insecure {
			return nil
		}
		return fmt.Errorf("refusing to serve %s without authentication: it is not a loopback address, so anyone who reaches it could run programs against the tools; set a token with --auth-token-file FILE or $%s (or pass --insecure-no-auth)", shown, authTokenEnv)
	}
	if err := mayServe(hostIsLoopback(host), addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if err := mayServe(isLoopback(ln.Addr()), ln.Addr().String()); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// hostIsLoopback reports whether host can only mean loopback addresses: a loopback IP, or a name
// whose every address is loopback. The empty host (every interface) is not.
func hostIsLoopback(host string) bool {
	if host == "" {
		return false
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.Unmap().IsLoopback()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return false
	}
	for _, a := range addrs {
		if !a.Unmap().IsLoopback() {
			return false
		}
	}
	return true
}

func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// nopWriteCloser keeps the CLI's stdout open when the transport closes.
type nopWriteCloser struct{ io.Writer }

// Close does nothing.
func (nopWriteCloser) Close() error { return nil }

// requestStateKeyEnv names the key that signs the request state of in-band approvals
// (mcpserve.ServerOptions.RequestStateKey): the same on every replica of a stateless deployment.
const requestStateKeyEnv = "RUNCODE_REQUEST_STATE_KEY"

// requestStateKey returns the key in $RUNCODE_REQUEST_STATE_KEY, or nil when it is not set.
func requestStateKey() ([]byte, error) {
	key := strings.TrimSpace(os.Getenv(requestStateKeyEnv))
	switch {
	case key == "":
		return nil, nil
	case len(key) < mcpserve.MinRequestStateKeyBytes:
		return nil, &usageError{fmt.Sprintf("$%s must be at least %d bytes (a random string; the same on every replica), got %d", requestStateKeyEnv, mcpserve.MinRequestStateKeyBytes, len(key))}
	}
	return []byte(key), nil
}

// approvalTimeout is how long serve waits for a person's approval: mcpserve.DefaultApprovalTimeout,
// or three quarters of the run's wall time when that is shorter, so that the program still has
// time to handle the denial (DECISIONS row 95).
func approvalTimeout(wall time.Duration) time.Duration {
	return min(mcpserve.DefaultApprovalTimeout, wall*3/4)
}
