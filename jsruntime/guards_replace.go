package jsruntime

import (
	"fmt"
	"math"

	"github.com/dop251/goja"
)

// A replacement template expands per match, and "$`" and "$'" expand to the text before and after
// the match: "a".repeat(1e5).replaceAll("a", "$`") asks for 5e9 characters in one native step, a
// fatal out-of-memory error in goja. guardReplacements wraps String.prototype.replace and
// replaceAll and RegExp.prototype[Symbol.replace]: when a template could expand past maxString
// (the bound assumes every position matches and every "$`", "$'" and capture expands to the
// whole subject), the
// native method gets a Go function instead that expands the template (GetSubstitution) and
// throws a RangeError once the expansions pass half of maxString. Smaller cases keep the native
// path.

// guardReplacements installs the wrapper on RegExp.prototype[Symbol.replace]; the String methods'
// wrappers are slowStringMethods rows with replaceArg set.
func (rl *realm) guardReplacements(maxString int64) error {
	vm := rl.vm
	proto, ok := vm.GlobalObject().Get("RegExp").(*goja.Object).Get("prototype").(*goja.Object)
	if !ok {
		return fmt.Errorf("jsruntime: RegExp.prototype is missing")
	}
	origValue := proto.GetSymbol(goja.SymReplace)
	orig, ok := goja.AssertFunction(origValue)
	if !ok {
		return fmt.Errorf("jsruntime: RegExp.prototype[Symbol.replace] is missing")
	}
	wrapper := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		s := call.Argument(0).ToString()
		v, err := orig(call.This, s, rl.boundedReplacement(s, call.Argument(1), maxString))
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	return defineSymbolMethod(vm, proto, goja.SymReplace, "[Symbol.replace]", wrapper, 2)
}

// boundedReplacement returns what the native replace of subject should get for replaceValue:
// a function unchanged; a template (converted to a string) whose expansions cannot pass maxString
// as it is; any other template as a Go function that expands it and counts.
func (rl *realm) boundedReplacement(subject, replaceValue goja.Value, maxString int64) goja.Value {
	if _, callable := goja.AssertFunction(replaceValue); callable {
		return replaceValue
	}
	tmpl, ok := replaceValue.ToString().(goja.String)
	if !ok {
		return replaceValue
	}
	str, _ := subject.(goja.String)
	n := float64(0)
	if str != nil {
		n = float64(str.Length())
	}
	// Literal text expands once per match; "$&" to the match, and matches do not overlap, so all
	// of its expansions together are at most the subject; "$`", "$'" and captures (which a
	// lookahead can take from beyond the match) are bounded only by the subject, per match.
	whole, perMatch := 0, 0
	for i := 0; i+1 < tmpl.Length(); i++ {
		if tmpl.CharAt(i) != '$' {
			continue
		}
		switch c := tmpl.CharAt(i + 1); {
		case c == '$':
			i++
		case c == '&':
			whole++
		case c == '`' || c == '\'' || c == '<' || (c >= '0' && c <= '9'):
			perMatch++
		}
	}
	if n+(n+1)*(float64(tmpl.Length())+float64(perMatch)*n)+float64(whole)*n <= float64(maxString) {
		return tmpl
	}
	// The native method holds every expansion until it joins them into the result: half of
	// maxString for the expansions keeps the step's allocation near maxString.
	total := 0
	limit := int(min(maxString/2, math.MaxInt32))
	return rl.vm.ToValue(func(call goja.FunctionCall) goja.Value {
		args := call.Arguments
		var groups *goja.Object
		if len(args) > 0 {
			if o, ok := args[len(args)-1].(*goja.Object); ok {
				groups, args = o, args[:len(args)-1]
			}
		}
		if len(args) < 3 {
			panic(rl.vm.NewTypeError("replace: unexpected replacer arguments"))
		}
		matched := args[0].ToString().(goja.String)
		whole := args[len(args)-1].ToString().(goja.String)
		position := int(args[len(args)-2].ToInteger())
		captures := args[1 : len(args)-2]
		return rl.substitute(matched, whole, position, captures, groups, tmpl, &total, limit)
	})
}

// substitute is GetSubstitution: tmpl expanded for one match of matched at position in str,
// adding the expansion's length to *total and throwing a RangeError when it passes limit.
func (rl *realm) substitute(matched, str goja.String, position int, captures []goja.Value, groups *goja.Object,
	tmpl goja.String, total *int, limit int) goja.Value {
	var b goja.StringBuilder
	add := func(s goja.String) {
		if *total += s.Length(); *total > limit {
			panic(rl.rangeError("Invalid string length"))
		}
		b.WriteString(s)
	}
	capture := func(i int) {
		if v := captures[i-1]; v != nil && !goja.IsUndefined(v) {
			add(v.ToString().(goja.String))
		}
	}
	isDigit := func(c uint16) bool { return c >= '0' && c <= '9' }
	n, m := tmpl.Length(), len(captures)
	literal := 0 // start of the pending literal text
	flush := func(end int) {
		if end > literal {
			add(tmpl.Substring(literal, end))
		}
	}
	for i := 0; i < n-1; i++ {
		if tmpl.CharAt(i) != '$' {
			continue
		}
		c := tmpl.CharAt(i + 1)
		skip := 2 // characters the expansion consumed
		switch {
		case c == '$':
			flush(i + 1)
		case c == '&':
			flush(i)
			add(matched)
		case c == '`':
			flush(i)
			add(str.Substring(0, min(position, str.Length())))
		case c == '\'':
			flush(i)
			tail := min(position+matched.Length(), str.Length())
			add(str.Substring(tail, str.Length()))
		case isDigit(c):
			d := int(c - '0')
			if i+2 < n && isDigit(tmpl.CharAt(i+2)) {
				if dd := d*10 + int(tmpl.CharAt(i+2)-'0'); dd >= 1 && dd <= m {
					flush(i)
					capture(dd)
					skip = 3
					break
				}
			}
			if d < 1 || d > m {
				continue
			}
			flush(i)
			capture(d)
		case c == '<' && groups != nil:
			end := -1
			for j := i + 2; j < n; j++ {
				if tmpl.CharAt(j) == '>' {
					end = j
					break
				}
			}
			if end < 0 {
				continue
			}
			flush(i)
			if v := groups.Get(tmpl.Substring(i+2, end).String()); v != nil && !goja.IsUndefined(v) {
				add(v.ToString().(goja.String))
			}
			skip = end - i + 1
		default:
			continue
		}
		literal = i + skip
		i += skip - 1
	}
	flush(n)
	return b.String()
}
