package main

// The approval flags of run and serve (docs/approvals.md): which calls are approved without
// asking, and who is asked about the others (package approvals).

import (
	"flag"
	"fmt"
	"os"

	"github.com/runcode-dev/runcode/approvals"
	"github.com/runcode-dev/runcode/registry"
)

// approvalFlags are --approve, --yes and --no-approvals.
type approvalFlags struct {
	approve stringList
	yes     bool
	none    bool
}

func (a *approvalFlags) register(fs *flag.FlagSet) {
	fs.Var(&a.approve, "approve", "approve every call of tool `NAME` without asking (* matches any characters: fs.*, *); repeatable")
	fs.BoolVar(&a.yes, "yes", false, "approve every call that needs approval without asking")
	fs.BoolVar(&a.none, "no-approvals", false, "no tool needs approval: ignore manifests' and configs' approval settings and MCP destructiveHint annotations (trusted setups)")
}

// validate checks the patterns.
func (a *approvalFlags) validate() error {
	for _, p := range a.approve {
		if err := approvals.CheckPattern(p); err != nil {
			return &flagUsageError{fmt.Sprintf("--approve %q: %v", p, err)}
		}
	}
	return nil
}

// gate returns run's Approver: the flags' standing answers, then asker (nil: deny at once),
// with hint ending the message of a denied call.
func (a *approvalFlags) gate(asker approvals.Asker, hint func(string, registry.Approval) string) (*approvals.Gate, error) {
	return approvals.New(approvals.Options{Approve: a.approve, Yes: a.yes, Asker: asker, Hint: hint})
}

// runApprovalHint is run's hint for a call denied without a person to ask.
func runApprovalHint(tool string, answer registry.Approval) string {
	if answer != registry.Unavailable {
		return ""
	}
	return fmt.Sprintf("there is no terminal to ask on; approve it with --approve %s, or every call that needs approval with --yes", tool)
}

// terminal returns the Asker of run: a Terminal when stdin and stderr are terminals (the
// question goes to stderr), else nil (calls that need approval are denied at once). The
// returned function closes it.
func (c *cli) terminal() (approvals.Asker, func()) {
	in, _ := c.stdin.(*os.File)
	out, _ := c.stderr.(*os.File)
	t, err := approvals.OpenTerminal(in, out, approvals.TerminalOptions{})
	if err != nil {
		return nil, func() {}
	}
	return t, func() { t.Close() }
}
