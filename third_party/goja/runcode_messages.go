package goja

// runcode: V8's (Node 22's) messages for the TypeErrors and ReferenceErrors programs read. See
// RUNCODE.md.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/unistring"
)

// nullishName is "null" for null and "undefined" otherwise (for undefined).
func nullishName(v Value) string {
	if v == _null {
		return "null"
	}
	return "undefined"
}

// propertyKeyText renders a property key as V8 does in its messages: a symbol as
// Symbol(description), anything else as its string.
func propertyKeyText(key any) string {
	switch k := key.(type) {
	case unistring.String:
		return k.String()
	case *Symbol:
		return k.descriptiveString().String()
	case Value:
		return k.String()
	}
	return ""
}

// newReadPropertyError is V8's TypeError for reading key of base, null or undefined.
func (r *Runtime) newReadPropertyError(base Value, key any) *Object {
	return r.NewTypeError("Cannot read properties of %s (reading '%s')", nullishName(base), propertyKeyText(key))
}

// readBase is base as an object, for reading key; it throws V8's TypeError when base is null or
// undefined.
func (r *Runtime) readBase(base Value, key any) *Object {
	if base == _null || base == _undefined {
		panic(r.newReadPropertyError(base, key))
	}
	return base.ToObject(r)
}

// setBase is base as an object, for setting key; it throws V8's TypeError when base is null or
// undefined.
func (r *Runtime) setBase(base Value, key any) *Object {
	if base == _null || base == _undefined {
		panic(r.NewTypeError("Cannot set properties of %s (setting '%s')", nullishName(base), propertyKeyText(key)))
	}
	return base.ToObject(r)
}

// pcName is the source name of what the instruction at pc calls.
type pcName struct {
	pc   int
	name string
}

// addName records name for the instruction about to be emitted at pc ("" records nothing).
func (p *Program) addName(pc int, name string) {
	if name != "" {
		p.names = append(p.names, pcName{pc, name})
	}
}

// nameAt returns the name recorded for the instruction at pc. It runs only on the way to an
// error, so a linear search is enough.
func (p *Program) nameAt(pc int) (string, bool) {
	if p == nil {
		return "", false
	}
	for _, n := range p.names {
		if n.pc == pc {
			return n.name, true
		}
	}
	return "", false
}

// isConstructor reports whether v is an object with a [[Construct]].
func isConstructor(v Value) bool {
	o, ok := v.(*Object)
	return ok && o.self.assertConstructor() != nil
}

// calleeText renders a callee as V8's CallPrinter does in "x is not a function": identifiers,
// this, member chains, calls as (...), string literals quoted, and "(intermediate value)" for
// any other expression.
func calleeText(e ast.Expression) string {
	switch e := e.(type) {
	case *ast.Identifier:
		return e.Name.String()
	case *ast.ThisExpression:
		return "this"
	case *ast.SuperExpression:
		return "super"
	case *ast.StringLiteral:
		return strconv.Quote(e.Value.String())
	case *ast.NumberLiteral:
		return e.Literal
	case *ast.DotExpression:
		return calleeText(e.Left) + "." + e.Identifier.Name.String()
	case *ast.PrivateDotExpression:
		return calleeText(e.Left) + ".#" + e.Identifier.Name.String()
	case *ast.BracketExpression:
		left := calleeText(e.Left)
		if _, ok := e.Left.(*ast.Optional); ok {
			left += "."
		}
		switch m := e.Member.(type) {
		case *ast.StringLiteral:
			return left + "." + m.Value.String()
		case *ast.NumberLiteral:
			if !strings.HasSuffix(m.Literal, "n") { // a BigInt is an intermediate value
				return left + "[" + m.Literal + "]"
			}
		case *ast.Identifier:
			return left + "[" + m.Name.String() + "]"
		}
		return left + "[(intermediate value)]"
	case *ast.CallExpression:
		return calleeText(e.Callee) + "(...)"
	case *ast.Optional:
		return calleeText(e.Expression) + "?"
	case *ast.OptionalChain:
		return calleeText(e.Expression)
	}
	return "(intermediate value)"
}

// newNotIterableError is V8's TypeError for iterating v: "x is not iterable" naming the source
// expression when prg records one at pc, and otherwise V8's description of the value
// ("number 5 is not iterable (cannot read property Symbol(Symbol.iterator))").
func (r *Runtime) newNotIterableError(v Value, prg *Program, pc int) *Object {
	if name, ok := prg.nameAt(pc); ok {
		return r.NewTypeError("%s is not iterable", name)
	}
	var what string
	switch v := v.(type) {
	case valueUndefined:
		what = "undefined"
	case valueNull:
		what = "object null"
	case valueInt, valueFloat:
		what = "number " + v.String()
	case valueBool:
		what = "boolean " + v.String()
	case *valueBigInt:
		what = "bigint " + v.String()
	case *Symbol:
		what = "symbol " + v.descriptiveString().String()
	case *Object:
		what = "object"
		if _, ok := v.self.assertCallable(); ok {
			what = "function"
		}
	default:
		what = "object"
	}
	return r.NewTypeError("%s is not iterable (cannot read property Symbol(Symbol.iterator))", what)
}

// accessBeforeInit is V8's ReferenceError for a lexical binding used before its declaration ran,
// naming it when the program records its name at the current instruction.
func (vm *vm) accessBeforeInit() referenceError {
	if name, ok := vm.prg.nameAt(vm.pc); ok {
		return referenceError(fmt.Sprintf("Cannot access '%s' before initialization", name))
	}
	return errAccessBeforeInit
}
