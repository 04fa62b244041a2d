package jsruntime

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
	jsast "github.com/dop251/goja/ast"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/runcode-dev/runcode/internal/progform"
)

// sourceFile is the name stack traces and syntax errors give the model's program.
const sourceFile = "main.ts"

// Bounds of the per-runtime cache of compiled programs.
const (
	maxCachedPrograms = 64
	maxCachedSource   = 256 << 10
)

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
	polyfills uint32
	// generators is set when the code has a '*', so may define generators (see
	// guardGenerators).
	generators bool
}

// programCache is a small bounded cache of compiled programs, keyed by parameters and source.
// Evicts the oldest entry when full.
type programCache struct {
	mu      sync.Mutex
	entries map[string]compiled
	order   []string
}

func (c *programCache) get(key string) (compiled, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	return e, ok
}

func (c *programCache) put(key string, e compiled) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = make(map[string]compiled)
	}
	if _, ok := c.entries[key]; ok {
		return
	}
	if len(c.order) >= maxCachedPrograms {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[key] = e
	c.order = append(c.order, key)
}

// programParams lists the parameters of the program function: each namespace's global, each
// declared error class, then console.
func programParams(nss []Namespace) []string {
	params := make([]string, 0, 2*len(nss)+1)
	for _, ns := range nss {
		params = append(params, ns.Global)
	}
	for _, ns := range nss {
		if ns.ErrorClass != nil {
			params = append(params, ns.ErrorClass.Name)
		}
	}
	return append(params, "console")
}

// compile transforms and compiles req.Program, or returns the syntax error message.
func (g *Goja) compile(req Request) compiled {
	prefix := "(async function (" + strings.Join(programParams(req.Bindings), ", ") + `) {"use strict";`
	key := prefix + "\x00" + req.Program
	if e, ok := g.cache.get(key); ok {
		return e
	}
	e := transformAndCompile(prefix, req.Program)
	if len(req.Program) <= maxCachedSource {
		g.cache.put(key, e)
	}
	return e
}

// transformAndCompile wraps program as the body of an async function expression (the prefix on
// line 1, so line numbers do not move), strips TypeScript and lowers what goja lacks with esbuild,
// and compiles the result. The script's completion value is the program function.
//
// Fast path: a program that goja already accepts as written (plain JavaScript using nothing
// esbuild would have to lower) is compiled directly, which skips the transform, the most costly
// step of a run. TypeScript syntax, async generators, for await, using and decorators do not
// parse in goja, so those programs take the transform as before. Lines are the model's own either
// way; without a source map goja counts the wrapper prefix in line 1's columns, which
// fixLineOneColumns takes out of failure messages.
func transformAndCompile(prefix, program string) compiled {
	// goja's and esbuild's parsers recurse per level of nesting: measure it first (nesting.go).
	if msg := sourceNestingError("the program", program); msg != "" {
		return compiled{msg: sourceFile + ": RangeError: " + msg}
	}
	// A module-form program (export default <expr>) runs as the equivalent body, on the same
	// lines (internal/progform).
	program, convErr := progform.ToBody(program)
	if convErr != nil {
		return compiled{msg: sourceFile + ":" + convErr.Error()}
	}
	prg, err := compileWrapped(sourceFile, prefix+program+"\n})")
	if err == nil {
		return compiled{prg: prg, lineOneShift: utf16Len(prefix), polyfills: polyfillsNamed(program), generators: strings.Contains(program, "*")}
	}
	if errors.Is(err, errRegexpLiteral) {
		return compiled{msg: err.Error()}
	}
	res := api.Transform(prefix+program+"\n})", api.TransformOptions{
		Loader:     api.LoaderTS,
		Sourcefile: sourceFile,
		// An external map, inlined below once line 1's columns are shifted past the prefix
		// (goja reads inline maps itself; the effect is api.SourceMapInline's).
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
	sourceMap, err := inlineSourceMap(res.Map, len(prefix))
	if err != nil {
		sourceMap = "\n//# sourceMappingURL=data:application/json;base64," + base64.StdEncoding.EncodeToString(res.Map) + "\n"
	}
	prg, err = compileWrapped("main.js", string(res.Code)+sourceMap)
	if err != nil {
		return compiled{msg: err.Error()}
	}
	return compiled{prg: prg, polyfills: polyfillsNamed(string(res.Code)), generators: strings.Contains(string(res.Code), "*")}
}

// compileWrapped parses and compiles a wrapped program, refusing one whose text closed the
// wrapper function early: a program such as `}); code; (async function () {` parses, but would
// run code at the top level of the script, outside the strict-mode function body and its
// parameters. The wrapper is the script's only expression statement and its last statement; all
// that may precede it are the declarations of helpers esbuild adds when it lowers syntax.
func compileWrapped(name, src string) (*goja.Program, error) {
	ast, err := goja.Parse(name, src)
	if err != nil {
		return nil, err
	}
	if err := checkWrapper(ast); err != nil {
		return nil, err
	}
	// goja compiles each regular-expression literal while compiling the program, in one
	// native step: measure them first (regexpguard.go).
	if mayHoldCostlyRegexp(src) {
		if msg := regexpLiteralError("the program", ast); msg != "" {
			return nil, fmt.Errorf("%w: %s", errRegexpLiteral, msg)
		}
	}
	return goja.CompileAST(ast, false)
}

// errRegexpLiteral is the failure of a program with a regular-expression literal over the
// limits of regexpguard.go.
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
