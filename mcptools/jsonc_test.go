package mcptools

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestStripJSONC(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a": 1, // x` + "\n" + `}`, `{"a": 1      ` + "\n" + `}`},
		{`[1, /* a, */ 2,]`, `[1,          2 ]`},
		{`{"a": [1,], "b": {"c": 2,},}`, `{"a": [1 ], "b": {"c": 2 } }`},
		{"/* two\r\nlines */{}", "      \r\n        {}"},
		{`{"url": "http://h/*x*/", "c": "// no", "q": "\"//\\"}`, `{"url": "http://h/*x*/", "c": "// no", "q": "\"//\\"}`},
		{`[1, /**/ ]`, `[1       ]`},
		// Not trailing commas: left for the JSON parser to refuse.
		{`[,]`, `[,]`},
		{`{,}`, `{,}`},
		{`[1,,]`, `[1,,]`},
		{`{"a":,}`, `{"a":,}`},
		// Unterminated strings and stray slashes are the parser's to report.
		{`{"a": "// x`, `{"a": "// x`},
		{`[1 / 2]`, `[1 / 2]`},
		{`[1]//`, `[1]  `},
	} {
		got, err := stripJSONC([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("stripJSONC(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := stripJSONC([]byte("{\n\n/* open")); err == nil || err.Error() != "a /* comment on line 3 has no closing */" {
		t.Errorf("unterminated comment: %v", err)
	}
}

// FuzzJSONC: stripping never panics, keeps every offset and line break, changes bytes only to
// spaces, returns valid JSON unchanged byte for byte, and, when comments and trailing commas are
// added to valid JSON, returns JSON of the same meaning.
func FuzzJSONC(f *testing.F) {
	for _, seed := range []string{
		`{"mcpServers": {"m": {"command": "npx", "args": ["-y", "x"]}}}`,
		`{"a": "//", "b": "/*", "c": "*/", "d": "\"", "e": "\\", "f": "\\\""}`,
		`[1, 2.5e3, -0, true, false, null, "x", [], {}, [[]], {"": {}}]`,
		"// c\n{/* c */\"a\": [1, 2,], /* c */}",
		`{"a": 1,}`, `[,]`, `/*`, `"\`, `{"a": "\u00e9\ud83d\ude00"}`, "\"x\"\n// end",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := stripJSONC(data)
		if err != nil {
			if !bytes.Contains(data, []byte("/*")) {
				t.Fatalf("error without a /*: %v", err)
			}
			return
		}
		if len(out) != len(data) {
			t.Fatalf("length %d → %d", len(data), len(out))
		}
		for i := range data {
			if out[i] != data[i] && (out[i] != ' ' || data[i] == '\n') {
				t.Fatalf("byte %d: %q → %q", i, data[i], out[i])
			}
		}
		if !json.Valid(data) {
			return
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("valid JSON changed:\n%q\n%q", data, out)
		}
		decorated := decorateJSON(data)
		stripped, err := stripJSONC(decorated)
		if err != nil {
			t.Fatalf("%q: %v", decorated, err)
		}
		var want, got bytes.Buffer
		if err := json.Compact(&want, data); err != nil {
			t.Fatal(err)
		}
		if err := json.Compact(&got, stripped); err != nil {
			t.Fatalf("%q stripped to %q: %v", decorated, stripped, err)
		}
		if want.String() != got.String() {
			t.Fatalf("%q stripped to %q, not %q", decorated, got.String(), want.String())
		}
	})
}

// decorateJSON returns valid JSON text with a block comment after every "{", "[", ":" and ",",
// a line comment before every closing bracket, and a trailing comma after the last member of
// every non-empty object and array. The comments hold the bytes that matter to a scanner:
// quotes, slashes, stars, commas and brackets.
func decorateJSON(data []byte) []byte {
	const block = `/* "q\" // , ] } * / */`
	const line = "// \"q /* , ] } */\n"
	var b bytes.Buffer
	lastSignificant := byte(0)
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case '"':
			j := i + 1
			for data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			b.Write(data[i : j+1])
			i = j
			lastSignificant = '"'
			continue
		case '}', ']':
			if lastSignificant != '{' && lastSignificant != '[' {
				b.WriteByte(',')
			}
			b.WriteString(line)
			b.WriteByte(c)
		case '{', '[', ':', ',':
			b.WriteByte(c)
			b.WriteString(block)
		default:
			b.WriteByte(c)
		}
		if !strings.ContainsRune(" \t\r\n", rune(c)) {
			lastSignificant = c
		}
	}
	return b.Bytes()
}
