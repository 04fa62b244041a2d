package jsruntime_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/runcode-dev/runcode/jsruntime"
)

// TestConformanceV8ErrorMessages runs testdata/errors/v8_messages.js, which collects the
// messages of the TypeErrors, ReferenceErrors and JSON.parse SyntaxErrors programs read (issue
// 22, item 6: `null.x` said "Cannot read property 'x' of undefined"), and compares each with
// Node 22's, recorded in v8_messages.node22.json (the program says how to make it again), in
// both isolations.
func TestConformanceV8ErrorMessages(t *testing.T) {
	program, err := os.ReadFile("testdata/errors/v8_messages.js")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/errors/v8_messages.node22.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	for _, iso := range isolations {
		t.Run(iso.name, func(t *testing.T) {
			rt := iso.new(t, jsruntime.Config{})
			defer rt.Close()
			res, err := rt.Run(context.Background(), jsruntime.Request{Program: string(program)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Error != nil {
				t.Fatalf("%s: %s", res.Error.Kind, res.Error.Message)
			}
			var got []string
			if err := json.Unmarshal([]byte(res.Value.String()), &got); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d messages, Node 22 gave %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("got  %s\nwant %s", got[i], want[i])
				}
			}
		})
	}
}

// An uncaught one reads the same, with the program's line.
func TestConformanceV8ErrorMessagesUncaught(t *testing.T) {
	forEachIsolation(t, []confCase{
		{name: "null.x", program: "const v = null;\nreturn v.x", want: "exception: TypeError: Cannot read properties of null (reading 'x')\n\tat main.ts:2:10(…"},
		{name: "not a function", program: "const o = {};\no.run()", want: "exception: TypeError: o.run is not a function\n\tat main.ts:2:6(…"},
		{name: "JSON", program: "JSON.parse('<html>')", want: "exception: SyntaxError: Unexpected token '<', \"<html>\" is not valid JSON\n\tat …"},
	})
}
