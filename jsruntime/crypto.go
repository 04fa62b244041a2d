package jsruntime

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/dop251/goja"
)

// randomFill(buffer, offset, length) fills bytes [offset, offset+length) of an ArrayBuffer with
// cryptographically strong random bytes (crypto.getRandomValues; the polyfill checks the view and
// the 65,536-byte quota).
func (rl *realm) randomFill(call goja.FunctionCall) goja.Value {
	buf, ok := call.Argument(0).Export().(goja.ArrayBuffer)
	if !ok || buf.Detached() {
		panic(rl.vm.NewTypeError("The data argument must be an integer-type TypedArray"))
	}
	data := buf.Bytes()
	off, n := call.Argument(1).ToInteger(), call.Argument(2).ToInteger()
	if off < 0 || n < 0 || off+n > int64(len(data)) {
		panic(rl.vm.NewTypeError("invalid view"))
	}
	_, _ = rand.Read(data[off : off+n]) // crypto/rand.Read never fails (it crashes the program instead)
	return call.Argument(0)
}

// randomUUID returns a random (version 4) UUID in its 36-character form.
func (rl *realm) randomUUID(goja.FunctionCall) goja.Value {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return rl.vm.ToValue(string(s[:]))
}

// loneSurrogate(s) returns the index of the first lone surrogate in the string s, or -1
// (String.prototype.isWellFormed).
func (rl *realm) loneSurrogate(call goja.FunctionCall) goja.Value {
	s, _ := call.Argument(0).(goja.String)
	return rl.vm.ToValue(loneSurrogateIndex(s))
}

// wellFormed(s) returns s with its lone surrogates replaced by U+FFFD
// (String.prototype.toWellFormed; URL's conversion to a USVString).
func (rl *realm) wellFormed(call goja.FunctionCall) goja.Value {
	s, ok := call.Argument(0).(goja.String)
	if !ok || loneSurrogateIndex(s) < 0 {
		return call.Argument(0)
	}
	return rl.vm.ToValue(s.String()) // the UTF-8 conversion replaces lone surrogates with U+FFFD
}

func loneSurrogateIndex(s goja.String) int {
	if s == nil {
		return -1
	}
	n := s.Length()
	for i := 0; i < n; i++ {
		c := s.CharAt(i)
		if c < 0xD800 || c > 0xDFFF {
			continue
		}
		if c <= 0xDBFF && i+1 < n {
			if d := s.CharAt(i + 1); d >= 0xDC00 && d <= 0xDFFF {
				i++
				continue
			}
		}
		return i
	}
	return -1
}
