package jsruntime

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"
	jsast "github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/sync/singleflight"

	"github.com/runcode-dev/runcode/internal/progform"
	"github.com/runcode-dev/runcode/jsruntime/internal/sourcemap"
	"github.com/runcode-dev/runcode/jsruntime/internal/srcscan"
)

// sourceFile is the name stack traces and syntax errors give the model's program.
const sourceFile = "main.ts"

// transformedFile and sourceMapFile name esbuild's output and its source map, which goja is
// given from memory (see compileWrapped).
const (
	transformedFile = "main.js"
	sourceMapFile   = "main.js.map"
)

// errForeignSourceMap refuses a source map other than the transform's own.
var errForeignSourceMap = errors.New("jsruntime: source maps are read from memory only")

// maxCacheBytes bounds the per-runtime cache of compiled programs by their estimated size
// (cacheCost): 64 MiB, about 4 MiB of program text. Any program whose estimate fits is cached,
// whatever its size; the least recently used entries make room.
const maxCacheBytes = 64 << 20

// cacheCostPerByte is the estimated heap a compiled program holds per byte of its source: the
// goja program (instructions, constants, the transformed text and its source map) measured at
// 15-17 bytes per source byte for TypeScript and JavaScript of a few KiB.
const cacheCostPerByte = 16

// cacheCost is the estimated heap of a cache entry for a program of n bytes under key.
func cacheCost(key string, n int) int64 { return int64(len(key)) + cacheCostPerByte*int64(n) }

// compiled is the outcome of transforming and compiling one program: a program, or the
// message of the syntax error that stopped it.
type compiled struct {
	prg *goja.Program
	msg string
	// lineOneShift, when positive, is how many columns (UTF-16 units) goja counts on line 1
	// before the program starts: the wrapper prefix of a program compiled without a source map.
	lineOneShift int
	// polyfills is the set of built-ins the program names that the realm must add (see
	// polyfillsNamed).
	polyfills uint64
	// generators is set when the code has a '*', so may define generators (see
	// guardGenerators).
	generators bool
}

// programCache is a cache of compiled programs, keyed by parameters and source, bounded by
// the estimated bytes of its entries (maxCacheBytes) and evicting the least recently used.
// Concurrent runs of the same program that is not cached yet compile it once: the first
// compiles, the others wait for its result.
type programCache struct {
	mu       sync.Mutex
	maxBytes int64 // 0: maxCacheBytes
	bytes    int64
	entries  map[string]*list.Element // of *cacheEntry
	lru      list.List                // most recently used at the front
	flight   singleflight.Group
	// compiles counts the programs transformed and compiled (cache misses that did the work).
	compiles atomic.Int64
}

type cacheEntry struct {
	key  string
	cost int64
	c    compiled
}

func (c *programCache) get(key string) (compiled, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return compiled{}, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*cacheEntry).c, true
}

// put adds e under key, evicting the least recently used entries until the estimated total is
// within maxBytes. An entry whose estimate alone is over maxBytes is not kept.
func (c *programCache) put(key string, n int, e compiled) {
	cost := cacheCost(key, n)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.maxBytes == 0 {
		c.maxBytes = maxCacheBytes
	}
	if cost > c.maxBytes {
		return
	}
	if c.entries == nil {
		c.entries = make(map[string]*list.Element)
	}
	if _, ok := c.entries[key]; ok {
		return
	}
	for c.bytes+cost > c.maxBytes {
		oldest := c.lru.Back()
		old := oldest.Value.(*cacheEntry)
		c.lru.Remove(oldest)
		delete(c.entries, old.key)
		c.bytes -= old.cost
	}
	c.entries[key] = c.lru.PushFront(&cacheEntry{key: key, cost: cost, c: e})
	c.bytes += cost
}

// compile returns the compiled program under key, from the cache or by calling build once
// however many callers ask for the same key at once. A caller whose ctx ends while it waits for
// another's build gets ctx's error; the build goes on for the others and the cache.
func (c *programCache) compile(ctx context.Context, key string, n int, build func() compiled) (compiled, error) {
	if e, ok := c.get(key); ok {
		return e, nil
	}
	ch := c.flight.DoChan(key, func() (any, error) {
		if e, ok := c.get(key); ok { // built by a flight that ended after our get
			return e, nil
		}
		c.compiles.Add(1)
		e := build()
		c.put(key, n, e)
		return e, nil
	})
	select {
	case res := <-ch:
		return res.Val.(compiled), nil
	case <-ctx.Done():
		return compiled{}, context.Cause(ctx)
	}
}

// programParams lists the parameters of the program function: each namespace's global, each
// declared error class, then console.
func programParams(nss []Namespace) []string {
	params := make([]string, 0, 2*len(nss)+1)
	for _, ns := range nss {
		params = append(params, ns.Global)
	}
	for _, ns := range nss {
		if ns.ErrorClass != nil && !slices.Contains(params[len(nss):], ns.ErrorClass.Name) {
			params = append(params, ns.ErrorClass.Name) // once for namespaces that share it
		}
	}
	return append(params, "console")
}

// compile transforms and compiles req.Program, or returns the syntax error message; it fails
// only when ctx ends while another run is compiling the same program.
func (g *Goja) compile(ctx context.Context, req Request) (compiled, error) {
	prefix := "(async function (" + strings.Join(programParams(req.Bindings), ", ") + `) {"use strict";`
	key := prefix + "\x00" + req.Program
	return g.cache.compile(ctx, key, len(req.Program), func() compiled { return transformAndCompile(prefix, req.Program) })
}

// transformAndCompile wraps program as the body of an async function expression (the prefix on
// line 1, so line numbers do not move), strips TypeScript and lowers what goja lacks with esbuild,
// and compiles the result. The script's completion value is the program function.
//
// Fast path: a program that goja already accepts as written (plain JavaScript using nothing
// esbuild would have to lower) is compiled directly, which skips the transform, the most costly
// step of a run. TypeScript syntax, async generators, for await, using and decorators do not
// parse in goja, so those programs take the transform as before. So do programs that may hold
// type arguments JavaScript reads as comparisons (new Set<string>(xs) is `new Set < string >
// (xs)` to goja, a ReferenceError or, worse, a wrong answer; see srcscan.Scan). Lines are the model's own either
// way; without a source map goja counts the wrapper prefix in line 1's columns, which
// fixLineOneColumns takes out of failure messages.
// errTypeArguments sends a program that may hold TypeScript type arguments to the transform.
var errTypeArguments = errors.New("the program may hold TypeScript type arguments")

func transformAndCompile(prefix, program string) compiled {
	// goja's and esbuild's parsers recurse per level of nesting: measure it first (srcscan).
	nesting, arrows, typeArgs := srcscan.Scan(program)
	if msg := nestingError("the program", nesting, arrows); msg != "" {
		return compiled{msg: sourceFile + ": RangeError: " + msg}
	}
	// A module-form program (export default <expr>) runs as the equivalent body, on the same
	// lines (internal/progform).
	program, convErr := progform.ToBody(program)
	if convErr != nil {
		return compiled{msg: sourceFile + ":" + convErr.Error()}
	}
	wrapped := prefix + program + "\n})"
	var prg *goja.Program
	err := errTypeArguments
	if !typeArgs {
		prg, err = compileWrapped(sourceFile, wrapped, nil)
	}
	if err == nil {
		return compiled{prg: prg, lineOneShift: utf16Len(prefix), polyfills: polyfillsNamed(program), generators: strings.Contains(program, "*")}
	}
	if errors.Is(err, errRegexpLiteral) {
		return compiled{msg: err.Error()}
	}
	res := api.Transform(wrapped, api.TransformOptions{
		Loader:     api.LoaderTS,
		Sourcefile: sourceFile,
		// An external map, which goja is given from memory once line 1's columns are shifted
		// past the prefix (see compileWrapped; the effect is api.SourceMapInline's).
		Sourcemap:      api.SourceMapExternal,
		SourcesContent: api.SourcesContentExclude,
		Supported: map[string]bool{
			"async-generator": false,
			"for-await":       false,
			"using":           false,
			"decorators":      false,
		},
	})
	if len(res.Errors) > 0 {
		msgs := make([]string, len(res.Errors))
		for i, m := range res.Errors {
			msgs[i] = formatTransformError(m, len(prefix))
		}
		return compiled{msg: strings.Join(msgs, "\n")}
	}
	sourceMap, err := sourcemap.Shift(res.Map, len(prefix))
	if err != nil {
		sourceMap = res.Map
	}
	code := string(res.Code)
	prg, err = compileWrapped(transformedFile, code+"\n//# sourceMappingURL="+sourceMapFile+"\n", sourceMap)
	if err != nil {
		return compiled{msg: err.Error()}
	}
	return compiled{prg: prg, polyfills: polyfillsNamed(code), generators: strings.Contains(code, "*")}
}

// compileWrapped parses and compiles a wrapped program, refusing one whose text closed the
// wrapper function early: a program such as `}); code; (async function () {` parses, but would
// run code at the top level of the script, outside the strict-mode function body and its
// parameters. The wrapper is the script's only expression statement and its last statement; all
// that may precede it are the declarations of helpers esbuild adds when it lowers syntax.
//
// sourceMap, when not nil, is the source map of src, which names it as sourceMapFile; goja reads
// no other. Without one, source maps are off: a program's own sourceMappingURL comment would
// otherwise make goja read the file it names (the host's files, or a device or pipe that never
// ends).
func compileWrapped(name, src string, sourceMap []byte) (*goja.Program, error) {
	opt := parser.WithDisableSourceMaps
	if sourceMap != nil {
		opt = parser.WithSourceMapLoader(func(path string) ([]byte, error) {
			if path != sourceMapFile {
				return nil, errForeignSourceMap
			}
			return sourceMap, nil
		})
	}
	ast, err := goja.Parse(name, src, opt)
	if err != nil {
		return nil, err
	}
	if err := checkWrapper(ast); err != nil {
		return nil, err
	}
	// goja compiles each regular-expression literal while compiling the program, in one
	// native step: measure them first (guards_regexp.go).
	if mayHoldCostlyRegexp(src) {
		if msg := regexpLiteralError("the program", ast); msg != "" {
			return nil, fmt.Errorf("%w: %s", errRegexpLiteral, msg)
		}
	}
	return goja.CompileAST(ast, false)
}

// errRegexpLiteral is the failure of a program with a regular-expression literal over the
// limits of guards_regexp.go.
var errRegexpLiteral = errors.New(sourceFile + ": RangeError")

// errOutsideBody is the syntax error of a program that closes its own function body.
var errOutsideBody = errors.New(sourceFile + ": SyntaxError: the program closes the function body it runs in; write statements only")

func checkWrapper(prg *jsast.Program) error {
	body := prg.Body
	if len(body) == 0 {
		return errOutsideBody
	}
	last, ok := body[len(body)-1].(*jsast.ExpressionStatement)
	if !ok {
		return errOutsideBody
	}
	if _, ok := last.Expression.(*jsast.FunctionLiteral); !ok {
		return errOutsideBody
	}
	for _, st := range body[:len(body)-1] {
		switch st.(type) {
		case *jsast.VariableStatement, *jsast.LexicalDeclaration, *jsast.FunctionDeclaration:
		default:
			return errOutsideBody
		}
	}
	return nil
}

// formatTransformError renders an esbuild error as "main.ts:<line>:<column>: <text>" with the
// model's own 1-based line and column (in UTF-16 code units, as JavaScript counts them).
func formatTransformError(m api.Message, prefixLen int) string {
	loc := m.Location
	if loc == nil {
		return m.Text
	}
	line := loc.LineText
	col := min(max(loc.Column, 0), len(line))
	if loc.Line == 1 {
		if col >= prefixLen && len(line) >= prefixLen {
			line, col = line[prefixLen:], col-prefixLen
		} else {
			line, col = "", 0
		}
	}
	return fmt.Sprintf("%s:%d:%d: %s", sourceFile, loc.Line, utf16Len(line[:col])+1, m.Text)
}

// utf16Len returns the length of s in UTF-16 code units, as JavaScript's String.length.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// fixLineOneColumns subtracts shift from every "main.ts:1:<column>" position in msg whose
// column lies past it, so a program compiled on the fast path reports its own columns.
func fixLineOneColumns(msg string, shift int) string {
	const marker = sourceFile + ":1:"
	if shift <= 0 || !strings.Contains(msg, marker) {
		return msg
	}
	var b strings.Builder
	for {
		i := strings.Index(msg, marker)
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		b.WriteString(msg[:i+len(marker)])
		msg = msg[i+len(marker):]
		j := 0
		for j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
			j++
		}
		if col, err := strconv.Atoi(msg[:j]); err == nil && col > shift {
			b.WriteString(strconv.Itoa(col - shift))
		} else {
			b.WriteString(msg[:j])
		}
		msg = msg[j:]
	}
}
