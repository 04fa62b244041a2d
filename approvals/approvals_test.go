package approvals_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/approvals"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

func exec(name string) registry.Execution {
	return registry.Execution{Name: name, Arguments: jsonv.ObjectValue()}
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"write", "write", true}, {"write", "write_file", false}, {"*", "fs.write_file", true},
		{"fs.*", "fs.write_file", true}, {"fs.*", "fsx.write", false}, {"*_file", "fs.write_file", true},
		{"*write*", "fs.write_file", true}, {"a*b*c", "abc", true}, {"a*b*c", "acb", false}, {"ab*ba", "aba", false},
	} {
		if got := approvals.Match(c.pattern, c.name); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
	if _, err := approvals.New(approvals.Options{Approve: []string{" "}}); err == nil {
		t.Error("an empty pattern was accepted")
	}
}

// recorder is an Asker that answers from a list and records the questions.
type recorder struct {
	answers []approvals.Answer
	err     error
	asked   []approvals.Request
}

func (r *recorder) Ask(_ context.Context, req approvals.Request) (approvals.Answer, error) {
	r.asked = append(r.asked, req)
	if r.err != nil {
		return approvals.No, r.err
	}
	a := r.answers[0]
	r.answers = r.answers[1:]
	return a, nil
}

func TestGateOrder(t *testing.T) {
	ctx := context.Background()
	t.Run("no asker denies at once as unavailable", func(t *testing.T) {
		g, _ := approvals.New(approvals.Options{})
		if got := g.Approve(ctx, exec("w"), ""); got != registry.Unavailable {
			t.Fatalf("got %d", got)
		}
	})
	t.Run("patterns and yes approve without asking", func(t *testing.T) {
		r := &recorder{}
		g, _ := approvals.New(approvals.Options{Approve: []string{"fs.*"}, Asker: r})
		if got := g.Approve(ctx, exec("fs.write"), ""); got != registry.AllowedOnce || len(r.asked) != 0 {
			t.Fatalf("pattern: got %d, asked %d", got, len(r.asked))
		}
		g, _ = approvals.New(approvals.Options{Yes: true, Asker: r})
		if got := g.Approve(ctx, exec("other"), ""); got != registry.AllowedOnce || len(r.asked) != 0 {
			t.Fatalf("yes: got %d, asked %d", got, len(r.asked))
		}
	})
	t.Run("answers", func(t *testing.T) {
		r := &recorder{answers: []approvals.Answer{approvals.Yes, approvals.No, approvals.Always}}
		g, _ := approvals.New(approvals.Options{Asker: r})
		want := []registry.Approval{registry.AllowedOnce, registry.Rejected, registry.AllowedOnce, registry.AllowedOnce, registry.AllowedOnce}
		for i, w := range want {
			if got := g.Approve(ctx, exec("w"), "because"); got != w {
				t.Fatalf("call %d: got %d, want %d", i, got, w)
			}
		}
		if len(r.asked) != 3 || r.asked[0].Tool != "w" || r.asked[0].Reason != "because" {
			t.Fatalf("asked %+v, want 3 questions (always is remembered)", r.asked)
		}
	})
	t.Run("always is per session", func(t *testing.T) {
		r := &recorder{answers: []approvals.Answer{approvals.Always, approvals.No}}
		type key struct{}
		g, _ := approvals.New(approvals.Options{Asker: r, Session: func(ctx context.Context) string { s, _ := ctx.Value(key{}).(string); return s }})
		a := context.WithValue(ctx, key{}, "a")
		b := context.WithValue(ctx, key{}, "b")
		got := []registry.Approval{g.Approve(a, exec("w"), ""), g.Approve(a, exec("w"), ""), g.Approve(b, exec("w"), "")}
		if got[0] != registry.AllowedOnce || got[1] != registry.AllowedOnce || got[2] != registry.Rejected || len(r.asked) != 2 {
			t.Fatalf("got %v after %d questions", got, len(r.asked))
		}
		g.Forget("a")
		r.answers = []approvals.Answer{approvals.No}
		if got := g.Approve(a, exec("w"), ""); got != registry.Rejected || len(r.asked) != 3 {
			t.Fatalf("after Forget: got %d after %d questions", got, len(r.asked))
		}
	})
	t.Run("no answer", func(t *testing.T) {
		g, _ := approvals.New(approvals.Options{Asker: &recorder{err: errors.New("eof")}})
		if got := g.Approve(ctx, exec("w"), ""); got != registry.Cancelled {
			t.Fatalf("error: got %d", got)
		}
		g, _ = approvals.New(approvals.Options{Asker: &recorder{err: approvals.ErrUnavailable}})
		if got := g.Approve(ctx, exec("w"), ""); got != registry.Unavailable {
			t.Fatalf("ErrUnavailable: got %d", got)
		}
	})
	t.Run("hint", func(t *testing.T) {
		g, _ := approvals.New(approvals.Options{Hint: func(tool string, a registry.Approval) string { return "use --approve " + tool }})
		if a, why := g.ApproveExplained(ctx, exec("w"), ""); a != registry.Unavailable || why != registry.DenialMessage("w", a)+": use --approve w" {
			t.Fatalf("got %d, %q", a, why)
		}
	})
	t.Run("next", func(t *testing.T) {
		next := registry.ApproverFunc(func(context.Context, registry.Execution, string) registry.Approval { return registry.Rejected })
		g, _ := approvals.New(approvals.Options{Approve: []string{"ok"}, Next: next, Hint: func(string, registry.Approval) string { return "unused" }})
		if a, why := g.ApproveExplained(ctx, exec("w"), ""); a != registry.Rejected || why != "" {
			t.Fatalf("Next's answer: got %d, %q", a, why)
		}
		if a, _ := g.ApproveExplained(ctx, exec("ok"), ""); a != registry.AllowedOnce {
			t.Fatalf("a pre-approved tool went to Next: %d", a)
		}
	})
}

// The question shows the tool, the description and the arguments, cut at the size given, and
// escapes what could drive the terminal.
func TestQuestion(t *testing.T) {
	req := approvals.Request{Tool: "notes.write", Description: "Save \x1b[2Jthe notes",
		Arguments: jsonv.MustParse(`{"path":"a.txt","text":"` + strings.Repeat("x", 300) + `\u001b[31m"}`)}
	q := approvals.Question(req, 100)
	for _, want := range []string{"tool notes.write, which needs approval", `program: Save \x1b[2Jthe notes`, "\"path\": \"a.txt\"", "more bytes)", "y = yes, this call; n = no; a = always for this tool: "} {
		if !strings.Contains(q, want) {
			t.Errorf("question lacks %q:\n%s", want, q)
		}
	}
	if strings.ContainsRune(q, 0x1b) {
		t.Errorf("question holds a raw escape:\n%q", q)
	}
}
