package mcpserve_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcpserve"
)

// declaresOutputSchema reports whether cs's run_code declares an outputSchema.
func declaresOutputSchema(t *testing.T, cs *mcp.ClientSession) bool {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return list.Tools[0].OutputSchema != nil
}

// bigProgram prints n lines of 1,000 bytes, then returns "the end".
func bigProgram(n int) string {
	return `const line = "x".repeat(1000); for (let i = 0; i < ` + itoa(n) + `; i++) console.log(line); return "the end";`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// The output travels twice only when that costs little: auto sends structuredContent with
// small replies and not with large ones (and so declares no outputSchema, which would promise
// it on every reply); never sends none; always sends it and declares the schema (issue 24,
// item 15).
func TestServerStructuredModes(t *testing.T) {
	// Without the model's output budget, which would shrink the large reply below
	// AutoStructuredBytes first (TestServerRepliesWithinTheOutputBudget has it on).
	reg := outcomeRegistryWith(t, jsruntime.Config{}, codemode.Options{OutputBudget: -1})
	ctx := context.Background()
	for _, c := range []struct {
		mode                   mcpserve.StructuredMode
		schema, small, onLarge bool
	}{
		{"", false, true, false},
		{mcpserve.StructuredAuto, false, true, false},
		{mcpserve.StructuredNever, false, false, false},
		{mcpserve.StructuredAlways, true, true, true},
	} {
		cs := srvConnect(t, reg, mcpserve.ServerOptions{Structured: c.mode}, nil)
		if got := declaresOutputSchema(t, cs); got != c.schema {
			t.Errorf("%q: declares an outputSchema: %v, want %v", c.mode, got, c.schema)
		}
		for _, run := range []struct {
			code string
			want bool
		}{{"return 1", c.small}, {bigProgram(1500), c.onLarge}} { // 1.5 MB: over AutoStructuredBytes
			res, err := srvCallRunCode(ctx, cs, run.code)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				t.Fatalf("%q: %.200s", c.mode, srvTexts(res))
			}
			if got := res.StructuredContent != nil; got != run.want {
				t.Errorf("%q, %d bytes of text: structuredContent sent: %v, want %v", c.mode, len(srvTexts(res)[0]), got, run.want)
			}
		}
	}
}

func TestServerRefusesAnUnknownStructuredMode(t *testing.T) {
	f := newSrvFixture(t)
	if _, err := mcpserve.NewServer(f.reg, mcpserve.ServerOptions{Structured: "sometimes"}); err == nil || !strings.Contains(err.Error(), `"sometimes"`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := mcpserve.NewServer(f.reg, mcpserve.ServerOptions{MaxReplyBytes: 100}); err == nil || !strings.Contains(err.Error(), "MaxReplyBytes") {
		t.Fatalf("err = %v", err)
	}
}

// No reply exceeds MaxReplyBytes: structuredContent goes first, then the text is cut, keeping
// its start and its end (the result) around a marker that says how much was cut, with a last
// block saying how to get the rest. Under always, the structuredContent left is an output-limit
// failure valid under the declared schema.
func TestServerBoundsEachReply(t *testing.T) {
	// The output budget off: it would keep the output well under MaxReplyBytes first.
	reg := outcomeRegistryWith(t, jsruntime.Config{}, codemode.Options{OutputBudget: -1})
	const maxReply = 64 << 10
	for _, mode := range []mcpserve.StructuredMode{mcpserve.StructuredAuto, mcpserve.StructuredNever, mcpserve.StructuredAlways} {
		cs := srvConnect(t, reg, mcpserve.ServerOptions{Structured: mode, MaxReplyBytes: maxReply}, nil)
		res, err := srvCallRunCode(context.Background(), cs, `console.log("first line"); `+bigProgram(300))
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > maxReply {
			t.Fatalf("%s: the reply takes %d bytes, over %d", mode, len(data), maxReply)
		}
		texts := srvTexts(res)
		if len(texts) != 2 {
			t.Fatalf("%s: %d text blocks, want the cut text and the note", mode, len(texts))
		}
		text, note := texts[0], texts[1]
		if !strings.HasPrefix(text, "first line\nxxx") || !strings.HasSuffix(text, "xxx\nthe end") || !strings.Contains(text, " bytes cut here …]") {
			t.Errorf("%s: cut text = %.100q … %.100q", mode, text, text[max(len(text)-100, 0):])
		}
		if !strings.Contains(note, "cut to fit one MCP message of at most 65536 bytes") || !strings.Contains(note, "prints or returns less") {
			t.Errorf("%s: note = %q", mode, note)
		}
		if mode != mcpserve.StructuredAlways {
			if res.StructuredContent != nil || res.IsError {
				t.Errorf("%s: structuredContent %v, isError %v; want none, false", mode, res.StructuredContent != nil, res.IsError)
			}
			continue
		}
		if !res.IsError {
			t.Errorf("always: isError false beside an output-limit outcome")
		}
		checkOutcome(t, structured(t, outcomeSchema(t, cs), res), map[string]any{"logs": []any{}, "error": map[string]any{"kind": "output-limit"}}, "did not fit one MCP message")
	}
}

// With the model's output budget on (codemode's default), 1.5 MB of logs reach an MCP client
// as a reply within the budget, cut in the middle with a note on what was cut; auto then sends
// structuredContent too, since the reply is small.
func TestServerRepliesWithinTheOutputBudget(t *testing.T) {
	reg := outcomeRegistry(t, jsruntime.Config{}, nil)
	cs := srvConnect(t, reg, mcpserve.ServerOptions{}, nil)
	res, err := srvCallRunCode(context.Background(), cs, bigProgram(1500))
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(data) > 3*codemode.DefaultOutputBudget {
		t.Fatalf("reply of %d bytes (isError %v), want a success within a few times the %d-byte budget", len(data), res.IsError, codemode.DefaultOutputBudget)
	}
	text := strings.Join(srvTexts(res), "\n")
	if len(srvTexts(res)[0]) > codemode.DefaultOutputBudget || !strings.Contains(text, "more lines") || !strings.Contains(text, "the end") {
		t.Errorf("text (%d bytes) not cut to the budget with a marker and the result: %.200q … %.200q", len(text), text, text[max(len(text)-200, 0):])
	}
	if res.StructuredContent == nil {
		t.Errorf("auto: no structuredContent beside a reply within the budget")
	}
}
