package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestSDKCompact(t *testing.T) {
	dir := project(t)
	code, out, errOut := invoke(t, "", "sdk", "--compact", "--tools", filepath.Join(dir, "tools.json"))
	if code != exitOK {
		t.Fatalf("sdk --compact exit %d: %s", code, errOut)
	}
	for _, want := range []string{"catalog.describe", "declare const catalog", "\n- add — Add two numbers.\n", "\n- shout — Upper-case a word.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("sdk --compact output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "add(args:") || !strings.HasSuffix(out, "\n") {
		t.Error("sdk --compact must print the compact section with a final newline, not the declarations")
	}
}
