package childenv_test

import (
	"runtime"
	"slices"
	"testing"

	"github.com/runcode-dev/runcode/internal/childenv"
)

func TestBuildKeepsOnlyDefaultsAndNamedVariables(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the Unix defaults")
	}
	host := []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "USER=u", "LANG=C.UTF-8", "LC_ALL=C", "TMPDIR=/tmp/u",
		"SHELL=() { :; }", "GITHUB_TOKEN=ghp_secret", "AWS_ACCESS_KEY_ID=AKIA", "AWS_SECRET_ACCESS_KEY=shh",
		"NODE_OPTIONS=--x", "=odd", "no-equals"}
	cases := []struct {
		name    string
		inherit []string
		set     []map[string]string
		want    []string
	}{
		{"defaults", nil, nil, []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "USER=u", "LANG=C.UTF-8", "LC_ALL=C", "TMPDIR=/tmp/u"}},
		{"names and prefixes", []string{"NODE_OPTIONS", "AWS_*"}, nil, []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "USER=u", "LANG=C.UTF-8", "LC_ALL=C", "TMPDIR=/tmp/u",
			"AWS_ACCESS_KEY_ID=AKIA", "AWS_SECRET_ACCESS_KEY=shh", "NODE_OPTIONS=--x"}},
		{"a named shell function is passed", []string{"SHELL"}, nil, []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "USER=u", "LANG=C.UTF-8", "LC_ALL=C", "TMPDIR=/tmp/u", "SHELL=() { :; }"}},
		{"entry values replace host values, in name order", nil, []map[string]string{{"Z": "1", "HOME": "/srv", "A": "2"}, {"Z": "3"}},
			[]string{"PATH=/usr/bin:/bin", "HOME=/srv", "USER=u", "LANG=C.UTF-8", "LC_ALL=C", "TMPDIR=/tmp/u", "A=2", "Z=3"}},
		{"all", []string{childenv.All}, nil, []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "USER=u", "LANG=C.UTF-8", "LC_ALL=C", "TMPDIR=/tmp/u",
			"SHELL=() { :; }", "GITHUB_TOKEN=ghp_secret", "AWS_ACCESS_KEY_ID=AKIA", "AWS_SECRET_ACCESS_KEY=shh", "NODE_OPTIONS=--x"}},
	}
	for _, c := range cases {
		if got := childenv.Build(host, c.inherit, c.set...); !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got  %q\n want %q", c.name, got, c.want)
		}
	}
	if got := childenv.Build(nil, nil); got == nil || len(got) != 0 {
		t.Errorf("an empty environment is %#v, want empty and not nil (nil means the whole environment to exec)", got)
	}
}

func TestCheckPattern(t *testing.T) {
	for _, ok := range []string{"PATH", "_X", "aws_2", "AWS_*", "*", "A*"} {
		if err := childenv.CheckPattern(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "2X", "A-B", "*_X", "A**", "A B", "A=B"} {
		if err := childenv.CheckPattern(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
