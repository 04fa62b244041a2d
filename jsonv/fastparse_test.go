package jsonv

import (
	"reflect"
	"strings"
	"testing"
)

// parseSlow is Parse's encoding/json path alone.
func parseSlow(data []byte) (Value, error) {
	if err := checkText(data); err != nil {
		return Value{}, err
	}
	return decodeText(data)
}

var fastParseSeeds = []string{
	`{"a":[1,-2.5e3,0,-0,1E+2,true,false,null,"x\u00e9\ud83d\ude00\n\"\\\/"],"b":{},"c":[],"a":2}`,
	` [ 1 , { "k" : "v" } ] `, `"\u0000"`, `0.1e-7`, `123456789012345678901234567890`,
	`1e400`, `01`, `-`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `[1 2]`, `tru`, `nul`, `"\x"`, "\"\x01\"", `1 2`,
	`{"a":1}x`, `[`, `"abc`, `"\ud83d\ude00"`, `1.`, `.5`, `-01`, `1e`, `1e+`, `[[[]]]`,
}

func TestFastParseDecodesLikeEncodingJSON(t *testing.T) {
	for _, s := range fastParseSeeds {
		checkFastParse(t, []byte(s))
	}
	deep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, ok := parseFast([]byte(deep)); !ok {
		t.Error("parseFast gives up on nesting at MaxDepth")
	}
}

// checkFastParse checks that parseFast decodes data exactly as encoding/json does, and gives
// up exactly on the texts encoding/json refuses.
func checkFastParse(t *testing.T, data []byte) {
	t.Helper()
	if checkText(data) != nil {
		return
	}
	slow, slowErr := parseSlow(data)
	fast, ok := parseFast(data)
	switch {
	case ok && slowErr != nil:
		t.Fatalf("%q: parseFast decodes %s, encoding/json refuses it: %v", data, fast, slowErr)
	case !ok && slowErr == nil:
		t.Fatalf("%q: parseFast gives up on what encoding/json decodes as %s", data, slow)
	case ok && !reflect.DeepEqual(fast, slow):
		t.Fatalf("%q: parseFast = %s, encoding/json = %s", data, fast, slow)
	}
}

// FuzzFastParse checks parseFast against encoding/json on any text.
func FuzzFastParse(f *testing.F) {
	for _, s := range fastParseSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkFastParse(t, data) })
}
