package mcpserve

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// splitArguments moves out the arguments of a run_code call only, and only when every member
// that decides it appears once and the arguments are a valid object; the rest of the message
// is kept byte for byte.
func TestSplitArguments(t *testing.T) {
	for _, c := range []struct {
		msg, rest, args string // rest "": not moved
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_code","arguments":{"code":"return 1"}}}`,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_code","arguments":{}}}`, `{"code":"return 1"}`},
		{` { "params" : { "arguments" : { "code" : "}\"{" } , "_meta" : {"a":[1,{"b":"]"}]}, "name" : "run_code" } , "method" : "tools/call" , "id" : "x" } `,
			` { "params" : { "arguments" : {} , "_meta" : {"a":[1,{"b":"]"}]}, "name" : "run_code" } , "method" : "tools/call" , "id" : "x" } `, `{ "code" : "}\"{" }`},
		{`{"\u006dethod":"tools/call","params":{"n\u0061me":"run\u005fcode","\u0061rguments":{"code":"x"}}}`,
			`{"\u006dethod":"tools/call","params":{"n\u0061me":"run\u005fcode","\u0061rguments":{}}}`, `{"code":"x"}`},
		{`{"method":"tools/call","params":{"name":"other","arguments":{"code":"x"}}}`, "", ""},
		{`{"method":"tools/list","params":{"name":"run_code","arguments":{"code":"x"}}}`, "", ""},
		{`{"method":"tools/call","params":{"name":"run_code","arguments":{"code":"x"},"arguments":{"code":"y"}}}`, "", ""},
		{`{"method":"tools/call","params":{"name":"run_code","name":"other","arguments":{"code":"x"}}}`, "", ""},
		{`{"method":"tools/call","method":"tools/list","params":{"name":"run_code","arguments":{"code":"x"}}}`, "", ""},
		{`{"method":"tools/call","params":{"name":"run_code","arguments":{"code":tru}}}`, "", ""},
		{`{"method":"tools/call","params":{"name":"run_code","arguments":["x"]}}`, "", ""},
		{`{"method":"tools/call","params":{"name":"run_code","arguments":null}}`, "", ""},
		{`{"method":"tools/call","params":{"name":"run_code","arguments":{"code":"x"}}`, "", ""},
		{`{"method":"tools/call","params":{"name":"run_code","arguments":{"code":"x"}}} x`, "", ""},
		{`{"method":"tools/call","params":{"name":"run_code","arguments":}}`, "", ""},
		{`[{"method":"tools/call","params":{"name":"run_code","arguments":{}}}]`, "", ""},
		{`{"method":"tools/call","params":{"name":"run_code","arguments":{"code":"x}}}`, "", ""},
	} {
		rest, args, ok := splitArguments([]byte(c.msg))
		if ok != (c.rest != "") || string(rest) != c.rest || string(args) != c.args {
			t.Errorf("%s:\ngot  %v %s | %s\nwant %s | %s", c.msg, ok, rest, args, c.rest, c.args)
		}
	}
}

// What splitArguments moves out is a valid object standing where the {} of the rest stands, and
// it moves the arguments of every valid run_code call whose deciding members appear once.
func FuzzSplitArguments(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_code","arguments":{"code":"return 1"}}}`,
		` { "params" : { "arguments" : { "code" : "}\"{" } , "_meta" : {"a":[1,{"b":"]"}]}, "name" : "run_code" } , "method" : "tools/call" , "id" : "x" } `,
		`{"\u006dethod":"tools/call","params":{"n\u0061me":"run\u005fcode","\u0061rguments":{"code":"x"}}}`,
		`{"method":"tools/call","params":{"name":"run_code","arguments":{"code":"x"},"arguments":{}}}`,
		`{"method":"tools/call","params":{"name":"run_code","arguments":[]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		rest, args, ok := splitArguments(msg)
		if ok {
			if !json.Valid(args) || args[0] != '{' {
				t.Fatalf("moved %q, not an object", args)
			}
			for i := range len(msg) - len(args) + 1 {
				if bytes.HasPrefix(msg[i:], args) && bytes.Equal(rest, slices.Concat(msg[:i], []byte("{}"), msg[i+len(args):])) {
					return
				}
			}
			t.Fatalf("rest %q is not %q with its arguments %q replaced by {}", rest, msg, args)
			return
		}
		var m struct {
			Method string
			Params struct {
				Name      string
				Arguments json.RawMessage
			}
		}
		if !json.Valid(msg) || json.Unmarshal(msg, &m) != nil || m.Method != "tools/call" || m.Params.Name != "run_code" || len(m.Params.Arguments) == 0 || m.Params.Arguments[0] != '{' {
			return
		}
		if strings.Count(string(msg), `"method"`) == 1 && strings.Count(string(msg), `"params"`) == 1 && strings.Count(string(msg), `"name"`) == 1 &&
			strings.Count(string(msg), `"arguments"`) == 1 && !bytes.Contains(msg, []byte(`\`)) && bytes.Count(msg, []byte(`{`)) == 2 {
			t.Fatalf("a plain run_code call was not split: %q", msg)
		}
	})
}
