package registry

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// compiledSchema is one distinct JSON Schema (by canonical bytes), checked at registration and
// shared by every tool of a registry that declares it. A schema inside the upstream subset is
// never compiled: the fast subset, then the subset validator decide. Otherwise the full
// compiler runs at registration for a schema certainlyValid cannot vouch for, or else on the
// first validation the fast subset cannot decide, once.
type compiledSchema struct {
	key string      // the canonical bytes: the compact JSON text
	doc jsonv.Value // the schema as first registered
	// subset: doc is inside the upstream subset (CheckSubsetSchema), validated by the subset
	// validator at any depth and never compiled.
	subset bool

	// fast is doc in the fast subset (nil: not in it), made on the first validation: most
	// registered tools are never called.
	fastOnce sync.Once
	fast     *fastSchema

	once sync.Once
	full *jsonschema.Schema
	err  error // the full compiler's complaint (only for a deferred compile; never expected)
}

// noLoader refuses every external reference: a tool schema must be self-contained.
type noLoader struct{}

// Load refuses u.
func (noLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("external schema reference %q is not allowed", u)
}

// schemaLocation is where a schema sits for the compiler; messages leave it out.
const schemaLocation = "mem://runcode/schema.json"

// compileSchema checks doc and returns it compiled and acquired in cache (the caller releases
// it), from cache when the cache holds a schema with the same canonical bytes. Errors name neither tool nor role; the caller adds them. An
// undefined doc compiles to nil (anything goes).
func compileSchema(cache *schemaCache, doc jsonv.Value) (*compiledSchema, error) {
	if !doc.IsDefined() {
		return nil, nil
	}
	// A schema inside the subset is never compiled, so it may be as deep and as large as any
	// JSON value; any other schema must stay within the compiler's limits. The subset check is
	// linear, and the depth check constant, so a deep schema is refused (or accepted) promptly.
	subset := inSubset(doc)
	if !subset {
		if err := checkSchemaDepth(doc); err != nil {
			return nil, err // before encoding it
		}
	}
	text := jsonv.AppendJSON(make([]byte, 0, 512), doc)
	if !subset {
		if err := checkSchemaLimits(doc, text); err != nil {
			return nil, err
		}
	}
	key := string(text)
	if s := cache.acquireKey(key); s != nil {
		return s, nil
	}
	s := &compiledSchema{key: key, doc: doc, subset: subset}
	if !subset && !certainlyValid(doc) {
		full, err := compileFull(doc)
		if err != nil {
			return nil, err
		}
		s.once.Do(func() { s.full = full })
	}
	return cache.acquire(s), nil
}

// compileFull runs the full compiler, which also validates doc against its meta-schema.
func compileFull(doc jsonv.Value) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{"mem": noLoader{}, "file": noLoader{}, "http": noLoader{}, "https": noLoader{}})
	if err := c.AddResource(schemaLocation, doc.Any()); err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), schemaLocation, ""))
	}
	s, err := c.Compile(schemaLocation)
	if err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), schemaLocation, ""))
	}
	return s, nil
}

// fastSubset returns the schema in the fast subset, or nil when it is not in it.
func (s *compiledSchema) fastSubset() *fastSchema {
	s.fastOnce.Do(func() { s.fast = compileFast(s.doc, true) })
	return s.fast
}

// validator returns the fully compiled schema, compiling it on first use.
func (s *compiledSchema) validator() (*jsonschema.Schema, error) {
	s.once.Do(func() { s.full, s.err = compileFull(s.doc) })
	return s.full, s.err
}

// violations validates v and returns one message per leaf violation, each naming the JSON path
// of the offending value from rootLabel, as the upstream renders paths: rootLabel for the root,
// <path>.<key> for an object's member, <path>[<i>] for an array's element. An empty rootLabel
// (tool arguments) leaves paths below the root bare ("file", "tags[1]") and names the root
// itself "arguments".
func (s *compiledSchema) violations(v jsonv.Value, rootLabel string) []string {
	if s == nil {
		return nil
	}
	if fast := s.fastSubset(); fast != nil && fast.accepts(v) {
		return nil
	}
	if s.subset {
		return validateSubsetForRegistry(s.doc, v, rootLabel)
	}
	full, err := s.validator()
	if err != nil {
		// certainlyValid vouched for a schema the compiler refuses: a bug, reported on the call
		// rather than crashing the host.
		return []string{"the schema cannot be compiled: " + err.Error()}
	}
	err = full.Validate(v.Any())
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{err.Error()}
	}
	p := message.NewPrinter(language.English)
	var leaves []*jsonschema.ValidationError
	stack := []*jsonschema.ValidationError{ve}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(e.Causes) > 0 {
			for i := len(e.Causes) - 1; i >= 0; i-- {
				stack = append(stack, e.Causes[i])
			}
			continue
		}
		leaves = append(leaves, e)
	}
	// The validator visits properties in map order; sort by location so messages are stable.
	sort.SliceStable(leaves, func(i, j int) bool {
		return strings.Join(leaves[i].InstanceLocation, "\x00") < strings.Join(leaves[j].InstanceLocation, "\x00")
	})
	out := make([]string, len(leaves))
	for i, e := range leaves {
		out[i] = describeViolation(p, e, rootLabel)
	}
	return out
}

func describeViolation(p *message.Printer, e *jsonschema.ValidationError, rootLabel string) string {
	path := underRoot(rootLabel, jsonPath(e.InstanceLocation))
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		msgs := make([]string, len(k.Missing))
		for i, m := range k.Missing {
			msgs[i] = "missing required property " + strconv.Quote(joinPath(path, m))
		}
		return strings.Join(msgs, "; ")
	case *kind.Type:
		want := strings.Join(k.Want, " or ")
		return quotePath(path) + " must be " + article(want) + want + ", got " + k.Got
	case *kind.Enum:
		if want, err := jsonv.FromGo(k.Want); err == nil {
			return quotePath(path) + " must be one of " + want.String()
		}
	case *kind.Const:
		if want, err := jsonv.FromGo(k.Want); err == nil {
			return quotePath(path) + " must be " + want.String()
		}
	case *kind.AdditionalProperties:
		msgs := make([]string, len(k.Properties))
		for i, prop := range k.Properties {
			msgs[i] = quotePath(joinPath(path, prop)) + " is not a declared property (additionalProperties: false)"
		}
		return strings.Join(msgs, "; ")
	}
	return quotePath(path) + ": " + e.ErrorKind.LocalizedString(p)
}

func article(word string) string {
	if word == "" {
		return ""
	}
	switch word[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an "
	}
	return "a "
}

// jsonPath renders an instance location like a.b[2].c (no leading dot).
func jsonPath(loc []string) string {
	var b strings.Builder
	for _, seg := range loc {
		if _, err := strconv.Atoi(seg); err == nil && seg != "" && (seg == "0" || seg[0] != '0') {
			b.WriteString("[" + seg + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// underRoot returns path (as jsonPath renders it) below the root label.
func underRoot(rootLabel, path string) string {
	switch {
	case rootLabel == "":
		return path
	case path == "":
		return rootLabel
	case path[0] == '[':
		return rootLabel + path
	}
	return rootLabel + "." + path
}

// argumentsLabel names the root of a value validated with an empty root label: tool arguments.
const argumentsLabel = "arguments"

// quotePath quotes a full path for a message, naming an empty one argumentsLabel.
func quotePath(path string) string {
	if path == "" {
		path = argumentsLabel
	}
	return strconv.Quote(path)
}
