package mcptools_test

import (
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// installCodeMode installs run_code in reg, with opts on a new in-process runtime with cfg
// (closed when the test ends), and presents code.
func installCodeMode(t *testing.T, reg *registry.Registry, cfg jsruntime.Config, opts codemode.Options) {
	t.Helper()
	rt, err := jsruntime.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	opts.Runtime = rt
	if err := codemode.Install(reg, opts); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		t.Fatal(err)
	}
}
