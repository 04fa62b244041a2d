package goja

// runcode: JSON.parse without encoding/json (RUNCODE.md, change 6). Upstream decoded the text
// token by token through encoding/json's Decoder (an interface value per token, a []Value grown
// by append per array), recursed in Go once per level (ten million '[' overflowed the Go stack,
// which no recover catches) and could not be interrupted. This parser reads the string's own
// representation (the bytes of an ASCII string, the UTF-16 code units of any other) in one pass,
// keeps the open arrays and objects on explicit stacks, builds each array and object at its
// closing bracket with storage of exactly its size, shares the text's memory for the ASCII
// strings of an ASCII text, reuses one key string per distinct short property name, and polls the
// runtime's interrupt flag every jsonPollValues values, so Interrupt ends it as it ends a loop
// of JavaScript.

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/dop251/goja/unistring"
)

const (
	// jsonPollValues is how many values JSON.parse builds between polls of the interrupt flag.
	jsonPollValues = 1 << 12
	// jsonPollBytes is how many bytes of one string JSON.parse scans between polls.
	jsonPollBytes = 1 << 22
	// jsonKeyCacheSize bounds the distinct property names one parse reuses; jsonKeyCacheLen
	// bounds the length of a reused name.
	jsonKeyCacheSize = 1 << 12
	jsonKeyCacheLen  = 64
	// jsonScanDepth is the deepest text for which a failed parse is described with V8's message
	// (the describing scan, runcode_json.go, recurses in Go per level).
	jsonScanDepth = 100000
)

// SetJSONParseMaxDepth bounds the nesting of arrays and objects that JSON.parse accepts: text
// nesting deeper is refused with a RangeError ("JSON.parse: text nests deeper than n levels").
// 0, the default, accepts any depth (the parser does not recurse in Go; a reviver's walk does).
func (r *Runtime) SetJSONParseMaxDepth(n int) {
	r.jsonMaxDepth = n
}

// pollInterrupt ends the running native step as the interpreter loop ends JavaScript when the
// runtime has been interrupted: with an uncatchable *InterruptedError.
func (r *Runtime) pollInterrupt() {
	if atomic.LoadUint32(&r.vm.interrupted) != 0 {
		vm := r.vm
		vm.interruptLock.Lock()
		v := &InterruptedError{iface: vm.interruptVal}
		v.stack = vm.captureStack(nil, 0)
		vm.interruptLock.Unlock()
		panic(v)
	}
}

// jsonFrame is an array or object being parsed: its values (and, for an object, its keys) start
// at base (keyBase) of the parser's stacks.
type jsonFrame struct {
	object  bool
	base    int
	keyBase int
}

type jsonParser[T byte | uint16] struct {
	r   *Runtime
	src []T
	// str is the text when it is an ASCII string (src is its bytes): ASCII substrings without
	// escapes share its memory.
	str    string
	pos    int
	values []Value
	keys   []unistring.String
	frames []jsonFrame
	depth  int // deepest nesting reached
	buf    []uint16
	bytes  []byte
	names  map[string]unistring.String
	shapes map[jsonShapeKey]jsonShape // runcode_props.go: property names shared by objects
	built  int                        // values since the last poll
	// tooDeep is set when the text nests past the runtime's limit.
	tooDeep bool
}

// parseJSONText parses text as JSON. On a syntax error it returns ok false and the position (in
// UTF-16 code units) where the text stopped being JSON.
func (r *Runtime) parseJSONText(text String) Value {
	a, u := devirtualizeString(text)
	var (
		v     Value
		ok    bool
		depth int
		deep  bool
	)
	if u == nil {
		p := &jsonParser[byte]{r: r, src: unsafe.Slice(unsafe.StringData(string(a)), len(a)), str: string(a)}
		v, ok = p.parse()
		depth, deep = p.depth, p.tooDeep
	} else {
		p := &jsonParser[uint16]{r: r, src: u[1:]}
		v, ok = p.parse()
		depth, deep = p.depth, p.tooDeep
	}
	if deep {
		panic(r.newError(r.getRangeError(), fmt.Sprintf("JSON.parse: text nests deeper than %d levels", r.jsonMaxDepth)))
	}
	if !ok {
		if depth <= jsonScanDepth {
			if msg, ok := jsonParseErrorMessage(text.String()); ok {
				panic(r.newError(r.getSyntaxError(), msg))
			}
		}
		panic(r.newError(r.getSyntaxError(), "Unexpected token in JSON"))
	}
	return v
}

func (p *jsonParser[T]) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// parse parses the whole text: one value and nothing after it but whitespace.
func (p *jsonParser[T]) parse() (Value, bool) {
	v, ok := p.value()
	if !ok {
		return nil, false
	}
	p.skipSpace()
	return v, p.pos == len(p.src)
}

// value parses one value, with the arrays and objects it opens on the parser's stacks instead of
// the Go stack.
func (p *jsonParser[T]) value() (Value, bool) {
	bottom := len(p.frames)
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			return nil, false
		}
		var v Value
		switch c := p.src[p.pos]; c {
		case '{', '[':
			p.pos++
			if len(p.frames)-bottom+1 > p.depth {
				p.depth = len(p.frames) - bottom + 1
			}
			if max := p.r.jsonMaxDepth; max > 0 && p.depth > max {
				p.tooDeep = true
				return nil, false
			}
			p.skipSpace()
			if p.pos < len(p.src) && p.src[p.pos] == T(c+2) { // '}' or ']'
				p.pos++
				if c == '{' {
					v = p.newObject(nil, nil)
				} else {
					v = p.r.newArrayValues(nil)
				}
				break
			}
			p.frames = append(p.frames, jsonFrame{object: c == '{', base: len(p.values), keyBase: len(p.keys)})
			if c == '{' && !p.key() {
				return nil, false
			}
			continue
		case '"':
			s, ok := p.string()
			if !ok {
				return nil, false
			}
			v = s
		case 't':
			if !p.literal("true") {
				return nil, false
			}
			v = valueTrue
		case 'f':
			if !p.literal("false") {
				return nil, false
			}
			v = valueFalse
		case 'n':
			if !p.literal("null") {
				return nil, false
			}
			v = _null
		default:
			n, ok := p.number()
			if !ok {
				return nil, false
			}
			v = n
		}
		// v is complete: add it to the open container, closing those that end after it.
		for {
			if p.built++; p.built >= jsonPollValues {
				p.built = 0
				p.r.pollInterrupt()
			}
			if len(p.frames) == bottom {
				return v, true
			}
			p.values = append(p.values, v)
			f := p.frames[len(p.frames)-1]
			p.skipSpace()
			if p.pos >= len(p.src) {
				return nil, false
			}
			c := p.src[p.pos]
			if c == ',' {
				p.pos++
				if f.object && !p.key() {
					return nil, false
				}
				break
			}
			if f.object && c == '}' {
				p.pos++
				v = p.newObject(p.keys[f.keyBase:], p.values[f.base:])
			} else if !f.object && c == ']' {
				p.pos++
				v = p.r.newArrayValues(append([]Value(nil), p.values[f.base:]...))
			} else {
				return nil, false
			}
			clear(p.values[f.base:])
			p.values = p.values[:f.base]
			p.keys = p.keys[:f.keyBase]
			p.frames = p.frames[:len(p.frames)-1]
		}
	}
}

// newObject makes an ordinary object of the properties keys[i]: values[i], in that order (a
// repeated key keeps its first position and takes its last value, as CreateDataProperty does).
//
// Objects with the same keys in the same order (the records of an array, mostly) share one
// propNames slice, marked for copy (runcode_props.go), so each holds only its values.
func (p *jsonParser[T]) newObject(keys []unistring.String, values []Value) *Object {
	both := &objectAndBase{o: Object{runtime: p.r}} // runcode_alloc.go
	obj := &both.o
	o := &both.b
	*o = baseObject{
		class:      classObject,
		val:        obj,
		extensible: true,
		prototype:  p.r.global.ObjectPrototype,
	}
	obj.self = o
	if len(keys) == 0 {
		return obj
	}
	if len(keys) > compactPropsMax {
		o.propNames = make([]unistring.String, 0, len(keys))
		o.propMap = make(map[unistring.String]Value, len(keys))
		for i, k := range keys {
			o._put(k, values[i])
		}
		return obj
	}
	o.propVals = make([]Value, len(keys))
	sk := jsonShapeKey{keys[0], len(keys)}
	if sh, ok := p.shapes[sk]; ok && sh.matches(keys) {
		copy(o.propVals, values)
		o.propNames = sh.names
		if !sh.hasIndex {
			o.lastSortedPropLen = int32(len(keys))
		}
		return obj
	}
	o.propVals = o.propVals[:0]
	o.propNames = make([]unistring.String, 0, len(keys))
	for i, k := range keys {
		o._put(k, values[i])
	}
	if len(o.propNames) == len(keys) && len(p.shapes) < jsonShapeCacheSize { // no repeated key
		sh := newJSONShape(o.propNames)
		if p.shapes == nil {
			p.shapes = make(map[jsonShapeKey]jsonShape)
		}
		p.shapes[sk] = sh
		o.propNames = sh.names
	}
	return obj
}

// key parses a property name and the ':' after it, and pushes the name.
func (p *jsonParser[T]) key() bool {
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '"' {
		return false
	}
	start := p.pos + 1
	end, simple, ascii, ok := p.scanString()
	if !ok {
		return false
	}
	var k unistring.String
	switch {
	case simple && ascii && end-start <= jsonKeyCacheLen:
		k = p.cachedName(start, end)
	default:
		k = p.stringValue(start, end, simple, ascii).string()
	}
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != ':' {
		return false
	}
	p.pos++
	p.keys = append(p.keys, k)
	return true
}

// cachedName returns the property name src[start:end] (ASCII, no escapes), one string per
// distinct name.
func (p *jsonParser[T]) cachedName(start, end int) unistring.String {
	var name string
	if p.str != "" {
		name = p.str[start:end]
	} else {
		p.bytes = p.bytes[:0]
		for _, c := range p.src[start:end] {
			p.bytes = append(p.bytes, byte(c))
		}
		if k, ok := p.names[string(p.bytes)]; ok {
			return k
		}
		name = string(p.bytes)
	}
	if k, ok := p.names[name]; ok {
		return k
	}
	k := unistring.String(strings.Clone(name))
	if p.names == nil {
		p.names = make(map[string]unistring.String)
	}
	if len(p.names) < jsonKeyCacheSize {
		p.names[string(k)] = k
	}
	return k
}

// string parses a string value.
func (p *jsonParser[T]) string() (Value, bool) {
	start := p.pos + 1
	end, simple, ascii, ok := p.scanString()
	if !ok {
		return nil, false
	}
	return p.stringValue(start, end, simple, ascii), true
}

// stringValue makes the string src[start:end] (without its quotes): with no escapes (simple)
// from the text itself, otherwise from the decoded code units in p.buf.
func (p *jsonParser[T]) stringValue(start, end int, simple, ascii bool) String {
	if simple {
		if p.str != "" {
			return asciiString(p.str[start:end])
		}
		if ascii {
			b := make([]byte, end-start)
			for i, c := range p.src[start:end] {
				b[i] = byte(c)
			}
			return asciiString(unsafe.String(unsafe.SliceData(b), len(b)))
		}
		u := make(unicodeString, end-start+1)
		u[0] = unistring.BOM
		for i, c := range p.src[start:end] {
			u[i+1] = uint16(c)
		}
		return u
	}
	if ascii {
		b := make([]byte, len(p.buf))
		for i, c := range p.buf {
			b[i] = byte(c)
		}
		return asciiString(unsafe.String(unsafe.SliceData(b), len(b)))
	}
	u := make(unicodeString, len(p.buf)+1)
	u[0] = unistring.BOM
	copy(u[1:], p.buf)
	return u
}

// scanString reads the string at p.pos (its opening quote) up to and past its closing quote.
// end is the position of the closing quote; simple is whether it has no escapes (otherwise
// p.buf holds its decoded code units), ascii whether every code unit of its value is ASCII.
func (p *jsonParser[T]) scanString() (end int, simple, ascii, ok bool) {
	p.pos++
	ascii, simple = true, true
	i := p.pos
	for ; i < len(p.src); i++ {
		c := p.src[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		if c >= 0x80 {
			ascii = false
		}
		if i&(jsonPollBytes-1) == jsonPollBytes-1 {
			p.r.pollInterrupt()
		}
	}
	if i >= len(p.src) || p.src[i] < 0x20 {
		return 0, false, false, false
	}
	if p.src[i] == '"' {
		p.pos = i + 1
		return i, true, ascii, true
	}
	// Escapes: decode from the start.
	simple = false
	p.buf = p.buf[:0]
	for _, c := range p.src[p.pos:i] {
		p.buf = append(p.buf, uint16(c))
	}
	for {
		if i >= len(p.src) {
			return 0, false, false, false
		}
		c := p.src[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return i, false, ascii, true
		case c < 0x20:
			return 0, false, false, false
		case c == '\\':
			if i+1 >= len(p.src) {
				return 0, false, false, false
			}
			var d uint16
			switch p.src[i+1] {
			case '"':
				d = '"'
			case '\\':
				d = '\\'
			case '/':
				d = '/'
			case 'b':
				d = '\b'
			case 'f':
				d = '\f'
			case 'n':
				d = '\n'
			case 'r':
				d = '\r'
			case 't':
				d = '\t'
			case 'u':
				if i+6 > len(p.src) {
					return 0, false, false, false
				}
				for _, h := range p.src[i+2 : i+6] {
					var x T
					switch {
					case h >= '0' && h <= '9':
						x = h - '0'
					case h >= 'a' && h <= 'f':
						x = h - 'a' + 10
					case h >= 'A' && h <= 'F':
						x = h - 'A' + 10
					default:
						return 0, false, false, false
					}
					d = d<<4 | uint16(x)
				}
				i += 4
			default:
				return 0, false, false, false
			}
			if d >= 0x80 {
				ascii = false
			}
			p.buf = append(p.buf, d)
			i += 2
		default:
			if c >= 0x80 {
				ascii = false
			}
			p.buf = append(p.buf, uint16(c))
			i++
		}
		if len(p.buf)&(jsonPollBytes-1) == 0 {
			p.r.pollInterrupt()
		}
	}
}

func (p *jsonParser[T]) literal(word string) bool {
	if len(p.src)-p.pos < len(word) {
		return false
	}
	for i := 0; i < len(word); i++ {
		if p.src[p.pos+i] != T(word[i]) {
			return false
		}
	}
	p.pos += len(word)
	return true
}

func (p *jsonParser[T]) isDigit() bool {
	return p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9'
}

// number parses -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?. Integers of up to 15 digits are
// read directly, others by strconv.ParseFloat (which rounds as V8 does; out of range is ±Infinity
// or ±0).
func (p *jsonParser[T]) number() (Value, bool) {
	start := p.pos
	neg := false
	if p.src[p.pos] == '-' {
		neg = true
		p.pos++
	}
	if !p.isDigit() {
		return nil, false
	}
	var n int64
	digits := 0
	if p.src[p.pos] == '0' {
		p.pos++
		digits = 1
	} else {
		for p.isDigit() {
			n = n*10 + int64(p.src[p.pos]-'0')
			digits++
			p.pos++
		}
	}
	integer := true
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		integer = false
		p.pos++
		if !p.isDigit() {
			return nil, false
		}
		for p.isDigit() {
			p.pos++
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		integer = false
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if !p.isDigit() {
			return nil, false
		}
		for p.isDigit() {
			p.pos++
		}
	}
	if integer && digits <= 15 && !(neg && n == 0) {
		if neg {
			n = -n
		}
		return intToValue(n), true
	}
	var f float64
	if p.str != "" {
		f, _ = strconv.ParseFloat(p.str[start:p.pos], 64)
	} else {
		p.bytes = p.bytes[:0]
		for _, c := range p.src[start:p.pos] {
			p.bytes = append(p.bytes, byte(c))
		}
		f, _ = strconv.ParseFloat(string(p.bytes), 64)
	}
	return floatToValue(f), true
}
