package mcptools

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Issue 26: a server entry says which of its tools need approval.
func TestParseConfigApprovalKeys(t *testing.T) {
	data := `{"mcpServers": {
	  "all": {"command": "/bin/a", "approval": "required", "autoApprove": ["read"]},
	  "some": {"command": "/bin/b", "approve": ["w1"], "requireApproval": ["w2", "w1"]},
	  "none": {"command": "/bin/c", "approval": "none"}
	}}`
	cfg, err := ParseConfig("c.json", []byte(data), testEnv)
	if err != nil {
		t.Fatal(err)
	}
	all, some, none := cfg.Sources[0], cfg.Sources[1], cfg.Sources[2]
	if all.Approval != ApprovalRequired || !reflect.DeepEqual(some.RequireApproval, []string{"w1", "w2"}) || none.Approval != ApprovalNone || len(cfg.Notes) != 0 {
		t.Fatalf("all %q, some %q, none %q, notes %q", all.Approval, some.RequireApproval, none.Approval, cfg.Notes)
	}
	for _, c := range []struct {
		src         Source
		name        string
		destructive bool
		want        bool
	}{
		{all, "write", false, true}, {all, "read", true, false},
		{some, "w2", false, true}, {some, "other", false, false}, {some, "other", true, true},
		{none, "other", true, false},
		{Source{AutoApprove: []string{"x"}}, "x", true, false},
	} {
		if got := c.src.requiresApproval(c.name, c.destructive); got != c.want {
			t.Errorf("%s: %s (destructive %v) requires approval %v, want %v", c.src.Name, c.name, c.destructive, got, c.want)
		}
	}
	for _, c := range []struct{ data, want string }{
		{`{"mcpServers": {"m": {"command": "x", "approval": "always"}}}`, `server "m": "approval": must be "required" or "none", not "always"`},
		{`{"mcpServers": {"m": {"command": "x", "approve": "w"}}}`, `server "m": "approve": must be an array of strings, not string`},
		{`{"mcpServers": {"m": {"command": "x", "approve": ["w"], "alwaysAllow": ["w"]}}}`, `server "m": "autoApprove": names tool "w", which the entry also says needs approval: keep it in one list`},
	} {
		_, err := ParseConfig("c.json", []byte(c.data), testEnv)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant …%s…", c.data, err, c.want)
		}
	}
}
