package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
)

// TestSDKPromptIsWhatTheModelReceives: `runcode sdk --prompt` prints exactly the SDK section
// codemode gives a model in code presentation (and that serve appends to run_code's
// description), and with --compact the compact presentation, each with a final newline.
func TestSDKPromptIsWhatTheModelReceives(t *testing.T) {
	dir := project(t)
	src := sources{manifests: stringList{filepath.Join(dir, "tools.json")}, workspace: filepath.Join(dir, "ws")}
	reg, closeSources, err := src.load(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer closeSources()

	code, out, errOut := invoke(t, "", "sdk", "--prompt", "--tools", filepath.Join(dir, "tools.json"), "--workspace", filepath.Join(dir, "ws"))
	if code != exitOK {
		t.Fatalf("sdk --prompt exit %d: %s", code, errOut)
	}
	if want := codemode.PromptSectionFor(reg, codemode.Options{}) + "\n"; out != want {
		t.Errorf("sdk --prompt printed:\n%s\nwant:\n%s", out, want)
	}
	code, out, errOut = invoke(t, "", "sdk", "--prompt", "--compact", "--tools", filepath.Join(dir, "tools.json"), "--workspace", filepath.Join(dir, "ws"))
	if code != exitOK {
		t.Fatalf("sdk --prompt --compact exit %d: %s", code, errOut)
	}
	if want := codemode.PromptSectionFor(reg, codemode.Options{CompactAbove: 1}) + "\n"; out != want {
		t.Errorf("sdk --prompt --compact printed:\n%s\nwant:\n%s", out, want)
	}
}
