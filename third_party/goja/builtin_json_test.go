package goja

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestJSONMarshalObject(t *testing.T) {
	vm := New()
	o := vm.NewObject()
	o.Set("test", 42)
	o.Set("testfunc", vm.Get("Error"))
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"test":42}` {
		t.Fatalf("Unexpected value: %s", b)
	}
}

func TestJSONMarshalGoDate(t *testing.T) {
	vm := New()
	o := vm.NewObject()
	o.Set("test", time.Unix(86400, 0).UTC())
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"test":"1970-01-02T00:00:00Z"}` {
		t.Fatalf("Unexpected value: %s", b)
	}
}

func TestJSONMarshalObjectCircular(t *testing.T) {
	vm := New()
	o := vm.NewObject()
	o.Set("o", o)
	_, err := json.Marshal(o)
	if err == nil {
		t.Fatal("Expected error")
	}
	if !strings.HasSuffix(err.Error(), "Converting circular structure to JSON") {
		t.Fatalf("Unexpected error: %v", err)
	}
}

func TestJSONStringifyCircularWrappedGo(t *testing.T) {
	type CircularType struct {
		Self *CircularType
	}
	vm := New()
	v := CircularType{}
	v.Self = &v
	vm.Set("v", &v)
	_, err := vm.RunString("JSON.stringify(v)")
	if err == nil {
		t.Fatal("Expected error")
	}
	if !strings.HasPrefix(err.Error(), "TypeError: Converting circular structure to JSON") {
		t.Fatalf("Unexpected error: %v", err)
	}
}

func TestJSONParseReviver(t *testing.T) {
	// example from
	// https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/JSON/parse
	const SCRIPT = `
	JSON.parse('{"p": 5}', function(key, value) {
	  return typeof value === 'number'
        ? value * 2 // return value * 2 for numbers
	    : value     // return everything else unchanged
	 })["p"]
	`

	testScript(SCRIPT, intToValue(10), t)
}

func TestQuoteMalformedSurrogatePair(t *testing.T) {
	testScript(`JSON.stringify("\uD800")`, asciiString(`"\ud800"`), t)
}

func TestEOFWrapping(t *testing.T) {
	vm := New()

	_, err := vm.RunString("JSON.parse('{')")
	if err == nil {
		t.Fatal("Expected error")
	}

	// runcode: V8's message for this text (runcode_json.go).
	if !strings.Contains(err.Error(), "Expected property name or '}' in JSON at position 1 (line 1 column 2)") {
		t.Fatalf("Error doesn't contain human-friendly wrapper: %v", err)
	}
}

type testMarshalJSONErrorStruct struct {
	e error
}

func (s *testMarshalJSONErrorStruct) MarshalJSON() ([]byte, error) {
	return nil, s.e
}

func TestMarshalJSONError(t *testing.T) {
	vm := New()
	v := testMarshalJSONErrorStruct{e: errors.New("test error")}
	vm.Set("v", &v)
	_, err := vm.RunString("JSON.stringify(v)")
	if !errors.Is(err, v.e) {
		t.Fatalf("Unexpected error: %v", err)
	}
}

func BenchmarkJSONStringify(b *testing.B) {
	b.StopTimer()
	vm := New()
	var createObj func(level int) *Object
	createObj = func(level int) *Object {
		o := vm.NewObject()
		o.Set("field1", "test")
		o.Set("field2", 42)
		if level > 0 {
			level--
			o.Set("obj1", createObj(level))
			o.Set("obj2", createObj(level))
		}
		return o
	}

	o := createObj(3)
	json := vm.Get("JSON").(*Object)
	stringify, _ := AssertFunction(json.Get("stringify"))
	b.StartTimer()
	for i := 0; i < b.N; i++ {
		stringify(nil, o)
	}
}

// runcode: JSON.parse's messages are V8's (Node 22's) for the same text (computed with Node 22).
func TestJSONParseV8Messages(t *testing.T) {
	for text, want := range map[string]string{
		``:                                    "Unexpected end of JSON input",
		`[`:                                   "Unexpected end of JSON input",
		`x`:                                   `Unexpected token 'x', "x" is not valid JSON`,
		`undefined`:                           `"undefined" is not valid JSON`,
		`[1,]`:                                `Unexpected token ']', "[1,]" is not valid JSON`,
		`{"a":1}x`:                            "Unexpected non-whitespace character after JSON at position 7 (line 1 column 8)",
		`{"a" 1}`:                             "Expected ':' after property name in JSON at position 5 (line 1 column 6)",
		"[\n1\n2]":                            "Expected ',' or ']' after array element in JSON at position 4 (line 3 column 1)",
		`"\u12g4"`:                            "Bad Unicode escape in JSON at position 5 (line 1 column 6)",
		`01`:                                  "Unexpected number in JSON at position 1 (line 1 column 2)",
		`<html><body>Not found</body></html>`: `Unexpected token '<', "<html><bod"... is not valid JSON`,
		`{"aaaaaaaaaaaaaaaaaaaa": tru}`:       `Unexpected token '}', ..."aaaa": tru}" is not valid JSON`,
		`[1,2,3,4,5,6,7,8,9,10,11,x,13,14]`:   `Unexpected token 'x', ..."8,9,10,11,x,13,14]" is not valid JSON`,
	} {
		_, err := New().RunString("JSON.parse(" + strconv.Quote(text) + ")")
		if err == nil || !strings.HasPrefix(err.Error(), "SyntaxError: "+want+" at") {
			t.Errorf("JSON.parse(%q): %v, want %s", text, err, want)
		}
	}
}
