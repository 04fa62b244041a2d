// Package approvals puts a person (or a script's standing answer) behind the registry's approval
// stage: the calls of tools that need approval (registry.Tool.RequiresApproval, or a pre-execute
// listener's registry.Ask) go to a [Gate], the registry's Approver, which approves them from
// standing answers first and asks a person only about the rest:
//
//	gate, err := approvals.New(approvals.Options{
//		Approve: []string{"notes.*"}, // pre-approved tool names (* globs), as --approve gives them
//		Asker:   term,                // a person: a *Terminal, an MCP client's elicitation, …
//	})
//	reg.SetApprover(gate)
//
// The order is: Options.Yes approves everything; a tool whose name matches an Approve pattern
// is approved; a tool a person answered Always for (in the same session, see Options.Session)
// is approved; otherwise Options.Asker is asked, and with no Asker the call is denied at once as
// registry.Unavailable. Every denial reaches the program as a ToolCallError whose code is
// APPROVAL_DENIED, its message naming the tool and ending with Options.Hint's text.
//
// The registry runs the approval stage inside a run's ordered lane, so one run asks one
// question at a time; [Terminal] also serialises the questions of concurrent runs.
package approvals

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// Answer is a person's answer to one question.
type Answer uint8

// The answers. The zero Answer is No.
const (
	// No denies the call (registry.Rejected).
	No Answer = iota
	// Yes allows this call only (registry.AllowedOnce).
	Yes
	// Always allows this call and every later call of the same tool in the same session
	// without asking again.
	Always
)

// String returns "no", "yes" or "always".
func (a Answer) String() string {
	switch a {
	case Yes:
		return "yes"
	case Always:
		return "always"
	}
	return "no"
}

// Request is one call a person is asked about.
type Request struct {
	// Tool is the tool's registry name (tools.<Tool> in a program; "ns.name" for a namespaced
	// tool).
	Tool string
	// Arguments are the call's arguments.
	Arguments jsonv.Value
	// Description is the description of the run_code program that makes the call (what the
	// model says the program does), or "" for a call made outside a program.
	Description string
	// Reason is the reason of a pre-execute listener's registry.Ask, or "".
	Reason string
	// Execution is the call as the registry sees it (its call id, scope, parent).
	Execution registry.Execution
}

// Asker asks a person about one call and returns the answer. It must honour ctx (the call's
// context, which ends with its run): when ctx ends before an answer, it returns ctx's error.
// Any error means there was no answer: the call is denied as registry.Cancelled, or as
// registry.Unavailable when the error is (or wraps) ErrUnavailable.
type Asker interface {
	Ask(ctx context.Context, req Request) (Answer, error)
}

// AskerFunc adapts a function to Asker.
type AskerFunc func(ctx context.Context, req Request) (Answer, error)

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, req Request) (Answer, error) { return f(ctx, req) }

// ErrUnavailable is the error of an Asker that has no one to ask (an MCP client without the
// elicitation capability, a terminal that went away): the call is denied as
// registry.Unavailable.
var ErrUnavailable = errors.New("no one to ask for approval")

// Options configure a Gate. The zero value denies every call that needs approval.
type Options struct {
	// Approve are tool name patterns approved without asking: a registry name, or a pattern in
	// which * matches any run of characters (dots included): "write_note", "fs.*", "*".
	Approve []string
	// Yes approves every call without asking (the CLI's --yes).
	Yes bool
	// Asker asks a person about the calls nothing else approved; nil denies them at once
	// (registry.Unavailable), unless Next is set.
	Asker Asker
	// Next, when set and Asker is nil, decides the calls nothing else approved instead: another
	// Approver, such as mcpserve.Approver, which asks the person behind an MCP client. Its
	// explanation (registry.ExplainingApprover) is kept; Hint does not apply to its denials.
	Next registry.Approver
	// Hint, when set, returns text that ends the message of a call the Gate did not allow
	// (after ": "), saying how to approve it: answer is registry.Rejected, Cancelled or
	// Unavailable. "" adds nothing.
	Hint func(tool string, answer registry.Approval) string
	// Session, when set, returns the session a call belongs to (an MCP session id): Always
	// answers are remembered per session. Nil keeps one memory for the Gate (one CLI run).
	Session func(ctx context.Context) string
}

// Gate is a registry.Approver (and registry.ExplainingApprover) that approves from standing
// answers and asks Options.Asker (or Options.Next) about the rest. Create it with New; it is safe for concurrent use.
type Gate struct {
	opts   Options
	mu     sync.Mutex
	always map[alwaysKey]bool
}

type alwaysKey struct{ session, tool string }

// New returns a Gate. A pattern that is empty is an error naming it.
func New(opts Options) (*Gate, error) {
	for _, p := range opts.Approve {
		if err := CheckPattern(p); err != nil {
			return nil, err
		}
	}
	opts.Approve = append([]string(nil), opts.Approve...)
	return &Gate{opts: opts, always: map[alwaysKey]bool{}}, nil
}

// CheckPattern reports whether p is a usable tool name pattern (see Options.Approve).
func CheckPattern(p string) error {
	if strings.TrimSpace(p) == "" {
		return errors.New("an approval pattern needs a tool name (or a pattern with *, such as fs.* or *)")
	}
	return nil
}

// Match reports whether the tool name matches pattern, in which * matches any run of
// characters (dots included) and everything else matches itself.
func Match(pattern, name string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == name
	}
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(name, p)
		if i < 0 {
			return false
		}
		name = name[i+len(p):]
	}
	return len(name) >= len(last) && strings.HasSuffix(name, last)
}

// Preapproved reports whether a call of tool is approved without asking: Options.Yes, or a
// matching Options.Approve pattern.
func (g *Gate) Preapproved(tool string) bool {
	if g.opts.Yes {
		return true
	}
	for _, p := range g.opts.Approve {
		if Match(p, tool) {
			return true
		}
	}
	return false
}

// Approve decides one call (registry.Approver).
func (g *Gate) Approve(ctx context.Context, exec registry.Execution, reason string) registry.Approval {
	answer, _ := g.ApproveExplained(ctx, exec, reason)
	return answer
}

// ApproveExplained decides one call (registry.ExplainingApprover): a denial's explanation is
// the registry's message (registry.DenialMessage) ended with Options.Hint's text, or Next's own.
func (g *Gate) ApproveExplained(ctx context.Context, exec registry.Execution, reason string) (registry.Approval, string) {
	if g.opts.Asker == nil && g.opts.Next != nil && !g.Preapproved(exec.Name) {
		if ea, ok := g.opts.Next.(registry.ExplainingApprover); ok {
			return ea.ApproveExplained(ctx, exec, reason)
		}
		return g.opts.Next.Approve(ctx, exec, reason), ""
	}
	answer := g.decide(ctx, exec, reason)
	if answer == registry.AllowedOnce || g.opts.Hint == nil {
		return answer, ""
	}
	why := registry.DenialMessage(exec.Name, answer)
	if hint := g.opts.Hint(exec.Name, answer); hint != "" {
		why += ": " + hint
	}
	return answer, why
}

func (g *Gate) decide(ctx context.Context, exec registry.Execution, reason string) registry.Approval {
	if g.Preapproved(exec.Name) {
		return registry.AllowedOnce
	}
	var session string
	if g.opts.Session != nil {
		session = g.opts.Session(ctx)
	}
	key := alwaysKey{session, exec.Name}
	g.mu.Lock()
	remembered := g.always[key]
	g.mu.Unlock()
	if remembered {
		return registry.AllowedOnce
	}
	if g.opts.Asker == nil {
		return registry.Unavailable
	}
	req := Request{Tool: exec.Name, Arguments: exec.Arguments, Reason: reason, Execution: exec}
	if p, ok := codemode.ProgramOf(ctx); ok {
		req.Description = p.Description
	}
	answer, err := g.opts.Asker.Ask(ctx, req)
	switch {
	case errors.Is(err, ErrUnavailable):
		return registry.Unavailable
	case err != nil || ctx.Err() != nil:
		return registry.Cancelled
	case answer == Always:
		g.mu.Lock()
		g.always[key] = true
		g.mu.Unlock()
		return registry.AllowedOnce
	case answer == Yes:
		return registry.AllowedOnce
	}
	return registry.Rejected
}

// Forget drops the Always answers given in session (see Options.Session), as a server does when
// the session ends, so that a Gate serving many sessions holds only those still alive.
func (g *Gate) Forget(session string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for k := range g.always {
		if k.session == session {
			delete(g.always, k)
		}
	}
}
