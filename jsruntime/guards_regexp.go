package jsruntime

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dop251/goja"
	jsast "github.com/dop251/goja/ast"
)

// Limits of the patterns a program may compile. Compiling a regular expression is one native
// step that no budget interrupts: goja hands the pattern to Go's RE2 or, when RE2 rejects it
// (lookarounds, backreferences), to regexp2, whose compiler is quadratic in nested groups
// ('(?='.repeat(n) + 'a' + ')'.repeat(n): 10,000 levels 0.2s, 20,000 1s, a million ran for more
// than ten minutes), while RE2 copies each counted repetition ('a{1000}'.repeat(3000), 21,000
// characters, took 0.9s and 700 MB). Measured on a loaded 2-core machine, the worst pattern found
// at each limit compiles in well under a quarter of a second (GUARDS.md).
const (
	// maxRegexpSource bounds the length of a pattern, in UTF-16 code units (262,144). At the
	// cap, the slowest shapes measured (52,000 lookaheads in a row, an alternation of 131,072
	// branches, 20,000 named groups, backreferences) compile in 17-35 ms and allocate 18-40 MB
	// (BenchmarkRegexpCompileAtLimits).
	maxRegexpSource = 1 << 18
	// maxRegexpNesting bounds the nesting of groups in a pattern given to the RegExp
	// constructor, compile, match, matchAll or search (RE2 refuses more than 1,000 anyway;
	// 1,000 nested lookaheads take regexp2 about 1.5 ms).
	maxRegexpNesting = 1000
	// maxRegexpExpansion bounds the elements a pattern's counted repetitions add when each
	// x{n,m} is written out m times (nested ones multiply), the copies RE2 makes: at the cap RE2
	// compiles in about 22 ms and allocates about 25 MB.
	maxRegexpExpansion = 100_000
	// maxRegexpFolded bounds, for a case-insensitive pattern (flag i), the code points its
	// classes cover ('.' about 1.1M, \W, \S and \D about 2.2M each, a range its span):
	// regexp2 case-folds each class code point by code point, about 11 ns per code point (100
	// \W took 2.5s), and goja compiles any pattern with regexp2 when a global or sticky search
	// starts past 0. At the cap (1<<24: fifteen '.' or seven \W) a compile takes 0.16-0.23s.
	maxRegexpFolded = 1 << 24
	// maxRegexpPropertyRanges bounds the code point ranges a pattern's Unicode property
	// escapes (\p{…}, \P{…} with the u flag) are compiled to: goja writes each one out as its
	// ranges (\p{L} 684, the largest 905), which RE2 and regexp2 then parse; at the cap regexp2
	// took 1.5 times as long as at the expansion limit (BenchmarkRegexpCompileAtLimits).
	maxRegexpPropertyRanges = 1 << 15
)

// Messages of the regexp guard (thrown as RangeError).
const (
	msgRegexpTooLong       = "%s: the pattern is %d characters long, over the limit of %d"
	msgRegexpTooDeep       = "%s: the pattern nests groups more than %d levels deep"
	msgRegexpTooExpanded   = "%s: the pattern's counted repetitions ({n,m}) add more than %d elements"
	msgRegexpTooFolded     = "%s: the case-insensitive pattern's classes cover more than %d code points ('.' counts 1114112, \\W, \\S and \\D 2228224 each)"
	msgRegexpTooManyRanges = "%s: the pattern's Unicode property escapes (\\p{…}, \\P{…}) stand for more than %d code point ranges"
)

// regexpPatternError returns the message for a pattern over the limits, or "" when it is
// within them. length is the pattern's length in UTF-16 code units; nesting is checked only when
// checkNesting (literals are held to the source nesting limit instead, see checkRegexpLiterals).
func regexpPatternError(what, src, flags string, length int, checkNesting bool) string {
	if length > maxRegexpSource {
		return fmt.Sprintf(msgRegexpTooLong, what, length, maxRegexpSource)
	}
	nesting, expansion := measureRegexp(src)
	unicode := strings.ContainsAny(flags, "uv")
	switch {
	case checkNesting && nesting > maxRegexpNesting:
		return fmt.Sprintf(msgRegexpTooDeep, what, maxRegexpNesting)
	case expansion > maxRegexpExpansion:
		return fmt.Sprintf(msgRegexpTooExpanded, what, maxRegexpExpansion)
	case unicode && propertyRanges(src) > maxRegexpPropertyRanges:
		return fmt.Sprintf(msgRegexpTooManyRanges, what, maxRegexpPropertyRanges)
	case strings.Contains(flags, "i") && foldedCodePointsOf(src, unicode, strings.Contains(flags, "v")) > maxRegexpFolded:
		return fmt.Sprintf(msgRegexpTooFolded, what, maxRegexpFolded)
	}
	return ""
}

// propertyEscape reports whether src[i:] is a Unicode property escape (\p{body} or \P{body},
// whose body is not a repetition count: without the u flag \p{2} is "pp") and returns the
// index after it and how many code point ranges and code points goja compiles it to with the u
// flag (0 for a name goja refuses, which never compiles).
func propertyEscape(src string, i int) (end, ranges, codePoints int, ok bool) {
	if i+2 >= len(src) || src[i] != '\\' || (src[i+1] != 'p' && src[i+1] != 'P') || src[i+2] != '{' {
		return 0, 0, 0, false
	}
	if _, _, isCount := repetitionCount(src, i+2); isCount {
		return 0, 0, 0, false
	}
	closing := strings.IndexByte(src[i+3:], '}')
	if closing < 0 {
		return 0, 0, 0, false
	}
	end = i + 3 + closing + 1
	ranges, codePoints, _ = goja.RegExpPropertyEscapeSize(src[i+3:end-1], src[i+1] == 'P')
	return end, ranges, codePoints, true
}

// propertyRanges returns the code point ranges the Unicode property escapes of src, a pattern
// with the u flag, are compiled to, in one linear pass.
func propertyRanges(src string) int {
	total := 0
	for i := 0; i < len(src); {
		if end, ranges, _, ok := propertyEscape(src, i); ok {
			total += ranges
			i = end
			continue
		}
		if src[i] == '\\' {
			i++
		}
		i++
	}
	return total
}

// Code points of the classes regexp2 case-folds without a shortcut.
const (
	dotCodePoints     = 0x110000     // '.': every code point (but the line terminators)
	negatedCodePoints = 2 * 0x110000 // \W, \S, \D: measured at twice '.'
)

// foldedCodePoints returns, in one linear pass, an upper bound of the code points regexp2
// case-folds one by one when it compiles src case-insensitively: '.', \W, \S and \D (in a class
// or not), the span of each range in a class, and with the u flag (unicode) the code points of
// each Unicode property escape, which goja writes out as ranges. It saturates far past
// maxRegexpFolded.
func foldedCodePoints(src string, unicode bool) int { return foldedCodePointsOf(src, unicode, false) }

// foldedCodePointsOf is foldedCodePoints, for a pattern of the v flag when sets: its classes
// nest, and goja writes each complement inside a class ([[^a]], [\p{L}--[^b]]) out as the
// ranges of the code points it holds, so each counts as '.' does.
func foldedCodePointsOf(src string, unicode, sets bool) int {
	const ceiling = 1 << 40
	total := 0
	add := func(n int) { total = min(total+n, ceiling) }
	for i := 0; i < len(src); {
		if end, _, codePoints, ok := propertyEscape(src, i); ok && unicode {
			add(codePoints)
			i = end
			continue
		}
		switch src[i] {
		case '\\':
			if i+1 < len(src) && strings.IndexByte("WSD", src[i+1]) >= 0 {
				add(negatedCodePoints)
			}
			i += 2
		case '.':
			add(dotCodePoints)
			i++
		case '[':
			i++
			if i < len(src) && src[i] == '^' {
				i++
			}
			for depth := 1; i < len(src) && depth > 0; {
				if sets && src[i] == '[' {
					depth++
					i++
					if i < len(src) && src[i] == '^' {
						add(dotCodePoints)
						i++
					}
					continue
				}
				if src[i] == ']' {
					depth--
					i++
					continue
				}
				if sets && strings.HasPrefix(src[i:], "--") {
					i += 2 // set difference, not a range
					continue
				}
				if end, _, codePoints, ok := propertyEscape(src, i); ok && unicode {
					add(codePoints)
					i = end
					continue
				}
				if src[i] == '\\' && i+1 < len(src) && strings.IndexByte("WSD", src[i+1]) >= 0 {
					add(negatedCodePoints)
					i += 2
					continue
				}
				lo, next := classAtom(src, i)
				if next+1 < len(src) && src[next] == '-' && src[next+1] != ']' {
					hi, after := classAtom(src, next+1)
					add(max(hi-lo+1, 0))
					i = after
					continue
				}
				i = next
			}
		default:
			i++
		}
	}
	return total
}

// classAtom decodes the class character at src[i] (a character or an escape) and returns its
// code point and the index after it; an escape that is not a character counts as 0.
func classAtom(src string, i int) (cp, next int) {
	if src[i] != '\\' {
		r, size := utf8.DecodeRuneInString(src[i:])
		return int(r), i + size
	}
	if i+1 >= len(src) {
		return 0, i + 1
	}
	hex := func(from, to int) (int, bool) {
		if to > len(src) || from >= to {
			return 0, false
		}
		v, err := strconv.ParseUint(src[from:to], 16, 32)
		return int(v), err == nil
	}
	switch c := src[i+1]; c {
	case 'u':
		if i+2 < len(src) && src[i+2] == '{' {
			if end := strings.IndexByte(src[i+3:], '}'); end >= 0 {
				if v, ok := hex(i+3, i+3+end); ok {
					return v, i + 4 + end
				}
			}
			return 0, i + 2
		}
		if v, ok := hex(i+2, i+6); ok {
			return v, i + 6
		}
		return 'u', i + 2
	case 'x':
		if v, ok := hex(i+2, i+4); ok {
			return v, i + 4
		}
		return 'x', i + 2
	default:
		r, size := utf8.DecodeRuneInString(src[i+1:])
		if c >= '0' && c <= '9' || strings.ContainsRune("dDwWsSbBfnrtvc", r) {
			return 0, i + 1 + size
		}
		return int(r), i + 1 + size
	}
}

// measureRegexp returns, in one linear pass over a JavaScript pattern, the deepest nesting of
// its groups and how many elements its counted repetitions add when written out, as RE2 writes
// them. Each atom is one element (a character class its length in bytes, a group the sum of its
// alternatives plus one), and a counted repetition x{n,m} (x{n,}: n+1) adds m-1 copies of x;
// nested repetitions multiply. It over-counts rather than under-counts (a '(' is a group
// whatever follows it, a '{' that could be a quantifier is one in either mode), and saturates
// far past maxRegexpExpansion.
func measureRegexp(src string) (nesting, expansion int) {
	const ceiling = 1 << 40
	// total is a group's size with repetitions written out, last the size of its last atom
	// (what a quantifier repeats); base counts the elements as written.
	type group struct{ total, last int }
	stack := []group{{}}
	base := 0
	add := func(n int) {
		g := &stack[len(stack)-1]
		g.total = min(g.total+n, ceiling)
		g.last = n
	}
	for i := 0; i < len(src); {
		switch c := src[i]; c {
		case '\\':
			add(1)
			base++
			i += 2
			if end, _, _, ok := propertyEscape(src, i-2); ok {
				i = end // one atom, whatever its braces hold
			}
		case '[':
			j := i + 1
			if j < len(src) && src[j] == '^' {
				j++
			}
			for j < len(src) && src[j] != ']' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			size := min(j+1, len(src)) - i
			add(size)
			base += size
			i = j + 1
		case '(':
			stack = append(stack, group{})
			nesting = max(nesting, len(stack)-1)
			i++
		case ')':
			base++
			if len(stack) > 1 {
				g := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				add(min(g.total+1, ceiling))
			} else {
				add(1)
			}
			i++
		case '|':
			add(1)
			base++
			stack[len(stack)-1].last = 0
			i++
		case '*', '+', '?':
			i++
		case '{':
			times, end, ok := repetitionCount(src, i)
			if !ok {
				add(1)
				base++
				i++
				continue
			}
			g := &stack[len(stack)-1]
			copies := min(g.last*times, ceiling)
			g.total = min(g.total+copies-g.last, ceiling)
			g.last = copies
			i = end
		default:
			add(1)
			base++
			i++
		}
	}
	for len(stack) > 1 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		add(min(g.total+1, ceiling))
		base++
	}
	return nesting, max(stack[0].total-base, 0)
}

// repetitionCount parses a quantifier {n}, {n,} or {n,m} at src[i] and returns how many copies
// of the quantified atom RE2 writes out (m, or n+1 for {n,}; at least one), saturated past
// maxRegexpExpansion, and the index after the '}'.
func repetitionCount(src string, i int) (times, end int, ok bool) {
	const ceiling = maxRegexpExpansion + 1 // more copies than that are over the limit anyway
	number := func(j int) (n, next int, ok bool) {
		start := j
		for j < len(src) && src[j] >= '0' && src[j] <= '9' {
			n = min(n*10+int(src[j]-'0'), ceiling)
			j++
		}
		return n, j, j > start
	}
	n, j, ok := number(i + 1)
	if !ok {
		return 0, 0, false
	}
	m := n
	if j < len(src) && src[j] == ',' {
		if m, j, ok = number(j + 1); !ok {
			m = n + 1
		}
	}
	if j >= len(src) || src[j] != '}' {
		return 0, 0, false
	}
	return max(min(m, ceiling), 1), j + 1, true
}

// mayHoldCostlyRegexp reports whether source text could hold a regular-expression literal over
// the limits: only text longer than the length limit, with a '{' followed by a digit, with a
// '/' followed by flags that include 'i', or with a property escape (\p, \P) can. It lets
// checkRegexpLiterals skip the parse for most text.
func mayHoldCostlyRegexp(src string) bool {
	if len(src) > maxRegexpSource {
		return true
	}
	for i := 0; i+1 < len(src); i++ {
		switch src[i] {
		case '\\':
			if src[i+1] == 'p' || src[i+1] == 'P' {
				return true // a property escape stands for up to 905 ranges
			}
		case '{':
			if src[i+1] >= '0' && src[i+1] <= '9' {
				return true
			}
		case '/':
			j := i + 1
			for j < len(src) && strings.IndexByte("dgimsuvy", src[j]) >= 0 {
				if src[j] == 'i' {
					return true
				}
				j++
			}
		}
	}
	return false
}

// regexpLiteralError returns the message for the first regular-expression literal of prg over
// the length, expansion or case-folding limit, or "". goja compiles each literal when it compiles the
// program, in one native step, so literals are measured before that. Their nesting needs no
// check of its own: every '(' of a literal counts toward srcscan.MaxNesting (5,000 nested
// lookaheads compile in about 40 ms).
func regexpLiteralError(what string, prg *jsast.Program) string {
	msg := ""
	walkRegexpLiterals(reflect.ValueOf(prg), func(re *jsast.RegExpLiteral) bool {
		msg = regexpPatternError("regular expression literal in "+what, re.Pattern, re.Flags, utf16Len(re.Pattern), false)
		return msg == ""
	})
	return msg
}

var (
	regexpLiteralType = reflect.TypeFor[*jsast.RegExpLiteral]()
	astPackage        = regexpLiteralType.Elem().PkgPath()
)

// walkRegexpLiterals calls visit for each regular-expression literal reachable from v, a goja
// AST node, until visit returns false. It follows pointers, interfaces, slices and struct
// fields whose types belong to goja's ast package (the AST is a tree: no node points back).
func walkRegexpLiterals(v reflect.Value, visit func(*jsast.RegExpLiteral) bool) bool {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return true
		}
		return walkRegexpLiterals(v.Elem(), visit)
	case reflect.Pointer:
		if v.IsNil() {
			return true
		}
		if v.Type() == regexpLiteralType {
			return visit(v.Interface().(*jsast.RegExpLiteral))
		}
		if v.Type().Elem().PkgPath() != astPackage {
			return true
		}
		return walkRegexpLiterals(v.Elem(), visit)
	case reflect.Slice:
		for i := range v.Len() {
			if !walkRegexpLiterals(v.Index(i), visit) {
				return false
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if !walkRegexpLiterals(v.Field(i), visit) {
				return false
			}
		}
	}
	return true
}

// checkRegexpLiterals throws a RangeError in the program when src, text goja is about to parse
// and compile (as eval or Function source), holds a regular-expression literal over the limits.
// Text that does not parse is left to goja, which refuses it before compiling any literal.
func (rl *realm) checkRegexpLiterals(what, src string) {
	if !mayHoldCostlyRegexp(src) {
		return
	}
	prg, err := goja.Parse("", src)
	if err != nil {
		return
	}
	if msg := regexpLiteralError(what, prg); msg != "" {
		panic(rl.rangeError(msg))
	}
}

// functionSourceWrappers are the texts goja puts around a Function-family constructor's
// assembled source before parsing it.
var functionSourceWrappers = map[string][2]string{
	"Function":          {"(function anonymous(", "\n})"},
	"AsyncFunction":     {"(async function anonymous(", "\n})"},
	"GeneratorFunction": {"(function* anonymous(", "\n})"},
}

// checkedPattern converts a pattern and flags as goja's RegExp constructor would, reading each
// property and calling each toString once, and throws a RangeError when the pattern is over the
// limits. It returns the arguments to hand goja instead: the pattern itself for a RegExp object
// (goja reads its source from the internal slot, which was measured when it was made) and
// strings otherwise, so that a second conversion cannot produce another pattern.
func (rl *realm) checkedPattern(what string, pattern, flags goja.Value) []goja.Value {
	if o, ok := pattern.(*goja.Object); ok {
		if o.ClassName() == "RegExp" {
			if flags == nil || goja.IsUndefined(flags) {
				return []goja.Value{pattern}
			}
			// New flags: case-insensitivity changes the cost (foldedCodePoints).
			f := flags.ToString()
			if strings.Contains(f.String(), "i") {
				rl.checkSourceFolding(what, o)
			}
			return []goja.Value{pattern, f}
		}
		if rl.isRegExpLike(o) {
			src := o.Get("source")
			if src == nil {
				src = goja.Undefined()
			}
			if flags == nil || goja.IsUndefined(flags) {
				flags = o.Get("flags")
				if flags == nil {
					flags = goja.Undefined()
				}
			}
			return rl.checkedStrings(what, src.ToString(), flags)
		}
	}
	if pattern == nil || goja.IsUndefined(pattern) {
		return rl.checkedStrings(what, goja.Undefined(), flags)
	}
	return rl.checkedStrings(what, pattern.ToString(), flags)
}

func (rl *realm) checkedStrings(what string, pattern, flags goja.Value) []goja.Value {
	if s, ok := pattern.(goja.String); ok {
		// The length first: a pattern of a hundred million characters is not converted.
		src := ""
		if s.Length() <= maxRegexpSource {
			src = s.String()
		}
		flagString := ""
		if flags != nil && !goja.IsUndefined(flags) {
			flags = flags.ToString()
			flagString = flags.String()
		}
		if msg := regexpPatternError(what, src, flagString, s.Length(), true); msg != "" {
			panic(rl.rangeError(msg))
		}
	}
	if flags == nil || goja.IsUndefined(flags) {
		return []goja.Value{pattern, goja.Undefined()}
	}
	return []goja.Value{pattern, flags.ToString()}
}

// sourceGetterProbe evaluates to a function returning RegExp.prototype's source getter, which
// reads a regexp's internal pattern whatever own source property the program gave it.
var sourceGetterProbe = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("regexpguard.js", `(function (p) { return Object.getOwnPropertyDescriptor(p, "source").get; })`, true)
})

// checkSourceFolding throws a RangeError when the pattern of rx, a RegExp, compiled
// case-insensitively would be over the limits: goja copies regexps with flags it reads from
// their (program-defined) flags property, through its own constructor when the regexp's
// constructor is undefined (matchAll, the generic split), so the copy may add the i flag.
func (rl *realm) checkSourceFolding(what string, rx *goja.Object) {
	src, ok := rl.invoke(rl.regexpSource, rx, nil).(goja.String)
	if !ok || src.Length() > maxRegexpSource {
		return // measured when rx was made
	}
	// The copy may add the u flag too, which compiles property escapes.
	if msg := regexpPatternError(what, src.String(), "iu", src.Length(), false); msg != "" {
		panic(rl.rangeError(msg))
	}
}

// isRegExpLike is IsRegExp for an object that is not a RegExp: a truthy Symbol.match.
func (rl *realm) isRegExpLike(o *goja.Object) bool {
	m := o.GetSymbol(goja.SymMatch)
	return m != nil && !goja.IsUndefined(m) && m.ToBoolean()
}

// guardRegExpConstructor replaces RegExp (the global and RegExp.prototype.constructor) with a
// proxy whose call and construct traps measure the pattern the original would compile
// (checkedPattern) and then call or construct through the original; and RegExp.prototype.compile,
// String.prototype.match, matchAll and search, which compile a pattern from a string too, with
// wrappers that measure it first. A proxy, because goja's native constructors cannot tell
// RegExp(re) (which is re itself) from new RegExp(re) (a copy); its traps are Go functions, cheap
// to make per realm. The original is held only by the proxy and the wrappers' Go closures.
// Literals are measured when their source is compiled (checkRegexpLiterals).
func (rl *realm) guardRegExpConstructor() error {
	vm := rl.vm
	global := vm.GlobalObject()
	orig, ok := global.Get("RegExp").(*goja.Object)
	if !ok {
		return fmt.Errorf("jsruntime: RegExp is missing")
	}
	construct, ok := goja.AssertConstructor(orig)
	if !ok {
		return fmt.Errorf("jsruntime: RegExp is not a constructor")
	}
	call, _ := goja.AssertFunction(orig)
	proto, ok := orig.Get("prototype").(*goja.Object)
	if !ok {
		return fmt.Errorf("jsruntime: RegExp.prototype is missing")
	}
	var guarded *goja.Object
	guarded = vm.ToValue(vm.NewProxy(orig, &goja.ProxyTrapConfig{
		Apply: func(_ *goja.Object, this goja.Value, args []goja.Value) goja.Value {
			pattern, flags := argument(args, 0), argument(args, 1)
			// RegExp(re) is re itself when re's constructor is RegExp (goja compares with the
			// original, which no object's constructor is any more).
			if o, ok := pattern.(*goja.Object); ok && goja.IsUndefined(flags) && (o.ClassName() == "RegExp" || rl.isRegExpLike(o)) {
				if ctor := o.Get("constructor"); ctor != nil && ctor.SameAs(guarded) {
					return o
				}
			}
			v, err := call(this, rl.checkedPattern("RegExp", pattern, flags)...)
			if err != nil {
				panic(err)
			}
			return v
		},
		Construct: func(_ *goja.Object, args []goja.Value, newTarget *goja.Object) *goja.Object {
			if newTarget == nil || newTarget == guarded {
				newTarget = orig
			}
			o, err := construct(newTarget, rl.checkedPattern("RegExp", argument(args, 0), argument(args, 1))...)
			if err != nil {
				panic(err)
			}
			return o
		},
	})).(*goja.Object)
	// goja's instanceof throws for a proxy on the right; Symbol.hasInstance, reached through
	// the proxy, takes that path instead (as for the buffer constructors).
	hasInstance := vm.ToValue(rl.ordinaryHasInstance).(*goja.Object)
	if err := nameFunction(vm, hasInstance, "[Symbol.hasInstance]", 1); err != nil {
		return err
	}
	if err := orig.DefineDataPropertySymbol(goja.SymHasInstance, hasInstance, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	if err := proto.DefineDataProperty("constructor", guarded, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	if err := global.DefineDataProperty("RegExp", guarded, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}

	prg, err := sourceGetterProbe()
	if err != nil {
		return err
	}
	probe, err := vm.RunProgram(prg)
	if err != nil {
		return err
	}
	probeFn, _ := goja.AssertFunction(probe)
	if rl.regexpSource, err = probeFn(goja.Undefined(), proto); err != nil {
		return err
	}
	matchAll, ok := goja.AssertFunction(proto.GetSymbol(goja.SymMatchAll))
	if !ok {
		return fmt.Errorf("jsruntime: RegExp.prototype[Symbol.matchAll] is missing")
	}
	guardedMatchAll := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		if o, ok := c.This.(*goja.Object); ok && o.ClassName() == "RegExp" {
			rl.checkSourceFolding("RegExp.prototype[Symbol.matchAll]", o)
		}
		v, err := matchAll(c.This, c.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	if err := defineSymbolMethod(vm, proto, goja.SymMatchAll, "[Symbol.matchAll]", guardedMatchAll, 1); err != nil {
		return err
	}

	compile, ok := goja.AssertFunction(proto.Get("compile"))
	if !ok {
		return fmt.Errorf("jsruntime: RegExp.prototype.compile is missing")
	}
	guardedCompile := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		args := c.Arguments
		if o, ok := c.Argument(0).(*goja.Object); !ok || o.ClassName() != "RegExp" {
			pattern := c.Argument(0)
			if !goja.IsUndefined(pattern) {
				pattern = pattern.ToString()
			}
			args = rl.checkedStrings("RegExp.prototype.compile", pattern, c.Argument(1))
		}
		v, err := compile(c.This, args...)
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	if err := defineMethod(vm, proto, "compile", guardedCompile, 2); err != nil {
		return err
	}
	if err := rl.guardSplitCopy(proto, guarded); err != nil {
		return err
	}
	return rl.guardStringMatchers(orig)
}

// guardSplitCopy wraps RegExp.prototype[Symbol.split]: goja's split copies the regexp, with the
// flags its flags property names, through its species constructor. Through the guarded RegExp
// the copy is measured (checkedPattern); any other way (a constructor set to undefined leads to
// goja's own RegExp, a subclass, a replaced species) the pattern is measured first as if
// case-insensitive and unicode (checkSourceFolding).
func (rl *realm) guardSplitCopy(proto, guarded *goja.Object) error {
	orig, ok := goja.AssertFunction(proto.GetSymbol(goja.SymSplit))
	if !ok {
		return fmt.Errorf("jsruntime: RegExp.prototype[Symbol.split] is missing")
	}
	wrapper := rl.vm.ToValue(func(call goja.FunctionCall) goja.Value {
		if rx, ok := call.This.(*goja.Object); ok && rx.ClassName() == "RegExp" && !speciesIs(rx, guarded) {
			rl.checkSourceFolding("RegExp.prototype[Symbol.split]", rx)
		}
		v, err := orig(call.This, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	return defineSymbolMethod(rl.vm, proto, goja.SymSplit, "[Symbol.split]", wrapper, 2)
}

// speciesIs reports whether SpeciesConstructor(rx, %RegExp%) is ctor.
func speciesIs(rx, ctor *goja.Object) bool {
	c, ok := rx.Get("constructor").(*goja.Object)
	if !ok || !c.SameAs(ctor) {
		return false
	}
	s := c.GetSymbol(goja.SymSpecies)
	return s != nil && s.SameAs(ctor)
}

// guardStringMatchers wraps String.prototype.match, matchAll and search: given an argument
// without the method they delegate to, they compile it as a pattern (match("(?=(?=…")). The
// wrappers make that RegExp through the guarded constructor and hand it to the original.
func (rl *realm) guardStringMatchers(origRegExp *goja.Object) error {
	vm := rl.vm
	proto, ok := vm.GlobalObject().Get("String").(*goja.Object).Get("prototype").(*goja.Object)
	if !ok {
		return fmt.Errorf("jsruntime: String.prototype is missing")
	}
	construct, _ := goja.AssertConstructor(origRegExp)
	for _, m := range []struct {
		name string
		sym  *goja.Symbol
	}{{"match", goja.SymMatch}, {"matchAll", goja.SymMatchAll}, {"search", goja.SymSearch}} {
		origValue := proto.Get(m.name)
		if _, ok := goja.AssertFunction(origValue); !ok {
			return fmt.Errorf("jsruntime: String.prototype.%s is missing", m.name)
		}
		name, sym := m.name, m.sym
		wrapper := vm.ToValue(func(c goja.FunctionCall) goja.Value {
			if goja.IsUndefined(c.This) || goja.IsNull(c.This) {
				panic(vm.NewTypeError("String.prototype." + name + " called on null or undefined"))
			}
			arg := c.Argument(0)
			if o, ok := arg.(*goja.Object); ok {
				if method := o.GetSymbol(sym); o.ClassName() == "RegExp" || method != nil && !goja.IsUndefined(method) && !goja.IsNull(method) {
					return rl.invoke(origValue, c.This, c.Arguments)
				}
				if name == "matchAll" && rl.isRegExpLike(o) {
					if flags := o.Get("flags"); flags == nil || !strings.Contains(flags.String(), "g") {
						panic(vm.NewTypeError("RegExp doesn't have global flag set"))
					}
				}
			}
			var flags goja.Value = goja.Undefined()
			if name == "matchAll" {
				flags = vm.ToValue("g")
			}
			rx, err := construct(origRegExp, rl.checkedPattern("String.prototype."+name, arg, flags)...)
			if err != nil {
				panic(err)
			}
			return rl.invoke(origValue, c.This, []goja.Value{rx})
		}).(*goja.Object)
		if err := defineMethod(vm, proto, name, wrapper, 1); err != nil {
			return err
		}
	}
	return nil
}

// argument is args[i], or undefined past the end.
func argument(args []goja.Value, i int) goja.Value {
	if i < len(args) {
		return args[i]
	}
	return goja.Undefined()
}
