package typecheck

import (
	"bufio"
	"strings"
	"testing"
)

func FuzzParseOutput(f *testing.F) {
	for _, s := range []string{
		"main.ts(1,43): error TS2322: Type 'string' is not assignable to type 'number'.\n",
		"main.ts(2,3): error TS2345: Argument.\n  The types.\n    Type.\n",
		"tools.d.ts(1,1): error TS1005: ';' expected.\nerror TS5023: Unknown compiler option 'x'.\n",
		"  stray continuation\n", "main.ts(a,b): error TSx: y", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		diags, other := ParseOutput(out)
		for _, d := range diags {
			if d.File == ProgramFile {
				t.Fatalf("the program's diagnostics have File %q", d.File)
			}
			if strings.Contains(d.OneLine(), "\n") {
				t.Fatalf("OneLine has a newline: %q", d.OneLine())
			}
		}
		for _, o := range other {
			if strings.TrimSpace(o) == "" {
				t.Fatal("a blank line reported")
			}
		}
	})
}

func FuzzReadFrame(f *testing.F) {
	for _, s := range []string{
		"Content-Length: 2\r\n\r\n{}",
		"Content-Length: 5\r\n\r\n{}\n",
		"\r\nContent-Length: 2\r\n\r\n{}",
		"Content-Length: -1\r\n\r\n", "Content-Length: 99999999999\r\n\r\n", "X: y\r\n\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r := bufio.NewReader(strings.NewReader(in))
		for range 10 {
			body, err := readFrame(r)
			if err != nil {
				return
			}
			if len(body) > maxMessage {
				t.Fatalf("a %d-byte message", len(body))
			}
		}
	})
}
