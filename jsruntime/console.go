package jsruntime

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/runcode-dev/runcode/jsonv"
)

// consoleMethods are the only methods of the program's console; every level logs alike.
var consoleMethods = [...]string{"log", "info", "warn", "error", "debug"}

// consoleObject builds the program's console: a null-prototype object with exactly the five
// methods, each appending one log line of its arguments rendered and joined by a space.
func (rl *realm) consoleObject() *goja.Object {
	vm := rl.vm
	obj := vm.CreateObject(nil)
	logFn := func(call goja.FunctionCall) goja.Value {
		r := rl.owner
		parts := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			parts[i] = r.inspectArg(a)
		}
		r.log(strings.Join(parts, " "))
		return goja.Undefined()
	}
	for _, name := range consoleMethods {
		f := vm.ToValue(logFn).(*goja.Object)
		_ = f.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = obj.DefineDataProperty(name, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	return obj
}

// Limits of the rendering, as Node's util.inspect with depth 4, maxArrayLength 100 and
// maxStringLength 10000.
const (
	inspectDepth     = 4
	inspectMaxArray  = 100
	inspectMaxString = 10000
	inspectBreak     = 80
	inspectCompact   = 3
)

// inspectArg renders one console argument: strings verbatim, anything else approximately as
// Node's util.inspect does.
func (r *run) inspectArg(v goja.Value) string {
	if s, ok := v.(goja.String); ok {
		return s.String()
	}
	in := inspector{r: r, seen: map[*goja.Object]bool{}}
	return in.format(v, 0)
}

// inspector approximates Node's util.inspect: single-line when short, otherwise one entry a
// line, arrays of more than six short entries grouped in columns.
type inspector struct {
	r            *run
	seen         map[*goja.Object]bool
	indent       int
	currentDepth int
}

func (in *inspector) format(v goja.Value, depth int) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return formatPrimitive(v)
	}
	if in.seen[o] {
		return "[Circular *1]"
	}
	if _, ok := goja.AssertFunction(o); ok {
		return formatFunction(o)
	}
	if o.ExportType() == proxyType && !in.r.realm.isNamespace(o) {
		return "[Proxy]" // a namespace object shows its members
	}
	if in.r.isError(o) {
		if stack := o.Get("stack"); !isNullish(stack) {
			return strings.TrimSuffix(jsString(stack), "\n")
		}
		return "[" + jsString(o) + "]"
	}
	switch o.ClassName() {
	case "Date":
		if t, ok := o.Export().(time.Time); ok {
			return t.UTC().Format("2006-01-02T15:04:05.000Z")
		}
		return "Invalid Date"
	case "RegExp":
		return jsString(o)
	case "Array":
		if depth > inspectDepth {
			return "[Array]"
		}
		return in.formatArray(o, depth)
	}
	if depth > inspectDepth {
		return "[Object]"
	}
	return in.formatObject(o, depth)
}

func (in *inspector) formatArray(o *goja.Object, depth int) string {
	in.seen[o] = true
	defer delete(in.seen, o)
	in.currentDepth = depth
	n := o.Get("length").ToInteger()
	shown := min(n, inspectMaxArray)
	out := make([]string, 0, shown+1)
	numeric := true
	in.indent += 2
	for i := int64(0); i < shown; i++ {
		item := o.Get(strconv.FormatInt(i, 10))
		if !isNumberLike(item) {
			numeric = false
		}
		out = append(out, in.format(item, depth+1))
	}
	in.indent -= 2
	if n > shown {
		out = append(out, "... "+strconv.FormatInt(n-shown, 10)+" more item"+plural(n-shown))
	}
	prefix := ""
	if proto := o.Prototype(); proto != in.r.intr.arrayProto {
		prefix = constructorName(proto, "Array") + "(" + strconv.FormatInt(n, 10) + ")"
	}
	entries := len(out)
	if entries > 6 {
		out = groupArrayElements(out, in.indent, n > shown, numeric)
	}
	return in.reduce(out, prefix, "[", "]", depth, entries == len(out))
}

func (in *inspector) formatObject(o *goja.Object, depth int) string {
	in.seen[o] = true
	defer delete(in.seen, o)
	in.currentDepth = depth
	prefix := ""
	switch proto := o.Prototype(); {
	case proto == nil:
		prefix = "[Object: null prototype]"
	case proto != in.r.intr.objectProto:
		prefix = constructorName(proto, o.ClassName())
	}
	keys := o.Keys()
	out := make([]string, 0, len(keys))
	in.indent += 2
	for _, k := range keys {
		out = append(out, formatKey(k)+": "+in.format(o.Get(k), depth+1))
	}
	in.indent -= 2
	if len(out) == 0 {
		if prefix != "" {
			return prefix + " {}"
		}
		return "{}"
	}
	return in.reduce(out, prefix, "{", "}", depth, true)
}

// reduce joins entries on one line when they fit the break length and the object has at most
// three levels of nesting below it, else one entry a line (Node's reduceToSingleString).
func (in *inspector) reduce(out []string, prefix, open, close string, depth int, ungrouped bool) string {
	if len(out) == 0 {
		if prefix != "" {
			return prefix + " " + open + close
		}
		return open + close
	}
	base := ""
	if prefix != "" {
		base = prefix + " "
	}
	if ungrouped && in.currentDepth-depth < inspectCompact {
		start := len(out) + in.indent + len(open) + len(prefix) + 10
		if belowBreakLength(out, start) {
			joined := strings.Join(out, ", ")
			if !strings.Contains(joined, "\n") {
				return base + open + " " + joined + " " + close
			}
		}
	}
	ind := "\n" + strings.Repeat(" ", in.indent)
	return base + open + ind + "  " + strings.Join(out, ","+ind+"  ") + ind + close
}

func belowBreakLength(out []string, start int) bool {
	total := len(out) + start
	if total+len(out) > inspectBreak {
		return false
	}
	for _, s := range out {
		total += utf16Len(s)
		if total > inspectBreak {
			return false
		}
	}
	return true
}

// groupArrayElements lays out more than six short array entries in columns, as Node does.
func groupArrayElements(out []string, indent int, hasMore, numeric bool) []string {
	const separatorSpace = 2
	outputLength := len(out)
	if hasMore {
		outputLength--
	}
	dataLen := make([]int, outputLength)
	totalLength, maxLength := 0, 0
	for i := range outputLength {
		l := utf16Len(out[i])
		dataLen[i] = l
		totalLength += l + separatorSpace
		maxLength = max(maxLength, l)
	}
	actualMax := maxLength + separatorSpace
	if actualMax*3+indent >= inspectBreak || (float64(totalLength)/float64(actualMax) <= 5 && maxLength > 6) {
		return out
	}
	averageBias := math.Sqrt(float64(actualMax) - float64(totalLength)/float64(len(out)))
	biasedMax := math.Max(float64(actualMax)-3-averageBias, 1)
	columns := min(
		int(math.Round(math.Sqrt(2.5*biasedMax*float64(outputLength))/biasedMax)),
		(inspectBreak-indent)/actualMax,
		inspectCompact*4,
		15,
	)
	if columns <= 1 {
		return out
	}
	maxLineLength := make([]int, 0, columns)
	for i := range columns {
		lineLength := 0
		for j := i; j < len(out); j += columns {
			if j < outputLength {
				lineLength = max(lineLength, dataLen[j])
			}
		}
		maxLineLength = append(maxLineLength, lineLength+separatorSpace)
	}
	var grouped []string
	for i := 0; i < outputLength; i += columns {
		end := min(i+columns, outputLength)
		var b strings.Builder
		j := i
		for ; j < end-1; j++ {
			b.WriteString(pad(out[j]+", ", maxLineLength[j-i], numeric))
		}
		if numeric {
			b.WriteString(pad(out[j], maxLineLength[j-i]-separatorSpace, true))
		} else {
			b.WriteString(out[j])
		}
		grouped = append(grouped, b.String())
	}
	if hasMore {
		grouped = append(grouped, out[outputLength])
	}
	return grouped
}

// pad pads s with spaces to width, on the left when numeric (padStart) else on the right.
func pad(s string, width int, numeric bool) string {
	n := width - utf16Len(s)
	if n <= 0 {
		return s
	}
	if numeric {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}

func isNumberLike(v goja.Value) bool {
	if _, isObj := v.(*goja.Object); isObj || v == nil {
		return false
	}
	switch v.Export().(type) {
	case int64, float64, *big.Int:
		return true
	}
	return false
}

func plural(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// constructorName names an object's class from its prototype's constructor, as Node prefixes
// class instances ("Foo {}").
func constructorName(proto *goja.Object, fallback string) string {
	if proto != nil {
		if c, ok := proto.Get("constructor").(*goja.Object); ok {
			if name := c.Get("name"); name != nil {
				if s, ok := name.(goja.String); ok && s.String() != "" {
					return s.String()
				}
			}
		}
	}
	return fallback
}

func formatFunction(o *goja.Object) string {
	name := ""
	if n, ok := o.Get("name").(goja.String); ok {
		name = n.String()
	}
	if name == "" {
		return "[Function (anonymous)]"
	}
	return "[Function: " + name + "]"
}

func formatPrimitive(v goja.Value) string {
	if _, ok := v.(*goja.Symbol); ok {
		return jsString(v)
	}
	switch x := v.Export().(type) {
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		switch {
		case math.IsNaN(x):
			return "NaN"
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		case x == 0 && math.Signbit(x):
			return "-0"
		}
		return jsonv.FormatNumber(x)
	case string:
		return quoteJS(x)
	case *big.Int:
		return x.String() + "n"
	}
	return jsString(v)
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z_0-9]*$`)

func formatKey(k string) string {
	if identRE.MatchString(k) {
		return k
	}
	return quoteJS(k)
}

// quoteJS quotes a string as util.inspect does: single quotes unless the string contains one
// and no double quote (then double quotes), control characters escaped, long strings cut.
func quoteJS(s string) string {
	more := 0
	if n := utf16Len(s); n > inspectMaxString {
		more = n - inspectMaxString
		s = string([]rune(s)[:inspectMaxString])
	}
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 {
		if strings.IndexByte(s, '"') < 0 {
			q = '"'
		} else if strings.IndexByte(s, '`') < 0 && !strings.Contains(s, "${") {
			q = '`'
		}
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, c := range s {
		switch {
		case c == rune(q) || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\v':
			b.WriteString(`\v`)
		case c < 0x20 || c == 0x7f:
			b.WriteString(`\x`)
			b.WriteString(strings.ToUpper(strconv.FormatInt(int64(c)|0x100, 16)[1:]))
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte(q)
	if more > 0 {
		b.WriteString("... " + strconv.Itoa(more) + " more character" + plural(int64(more)))
	}
	return b.String()
}
