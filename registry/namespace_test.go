package registry_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// namespaced returns echoTool as member member of namespace ns.
func namespaced(ns, member string) registry.Tool {
	t := echoTool()
	t.Namespace, t.Name = ns, registry.QualifiedName(ns, member)
	return t
}

func TestNamespacedToolsKeepTheirNamespaceAsData(t *testing.T) {
	reg := newRegistry(t, namespaced("memory", "read_file"), namespaced("fs", "read_file"), echoTool())
	var got []string
	for _, s := range reg.SDKSchemas(nil) {
		got = append(got, s.Namespace+"|"+s.Member()+"|"+s.Name)
	}
	if want := "memory|read_file|memory.read_file fs|read_file|fs.read_file |echo|echo"; strings.Join(got, " ") != want {
		t.Fatalf("schemas = %q, want %q", got, want)
	}
	res := reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: "fs.read_file", Arguments: jsonv.MustParse(`{"value":"x"}`)})
	if res.IsError || res.Value.AsString() != "echo:x" {
		t.Fatalf("result = %+v", res)
	}
	// A flat tool whose name merely contains a dot is not namespaced.
	flat := echoTool()
	flat.Name = "a.b"
	reg = newRegistry(t, flat)
	if s := reg.SDKSchemas(nil)[0]; s.Namespace != "" || s.Member() != "a.b" {
		t.Fatalf("flat dotted tool = %+v", s)
	}
}

func TestNamespacedNameMustFollowTheRule(t *testing.T) {
	for _, name := range []string{"read_file", "memory.", "memoryx.read", "mem.read"} {
		tool := echoTool()
		tool.Namespace, tool.Name = "memory", name
		_, err := registry.New().Register(tool)
		if !errors.Is(err, registry.CodeInvalidDefinition) || !strings.Contains(err.Error(), `namespace "memory"`) {
			t.Errorf("name %q: err = %v", name, err)
		}
	}
}

func TestANameCannotBeBothToolAndNamespace(t *testing.T) {
	memory := echoTool()
	memory.Name = "memory"
	// In one registration, in either order.
	for _, tools := range [][]registry.Tool{{memory, namespaced("memory", "read")}, {namespaced("memory", "read"), memory}} {
		if _, err := registry.New().Register(tools...); !errors.Is(err, registry.CodeInvalidDefinition) || !strings.Contains(err.Error(), `"memory" is both a tool and a namespace`) {
			t.Errorf("err = %v", err)
		}
	}
	// Across registrations, in either order; unregistering frees the name.
	reg := registry.New()
	unregister, err := reg.Register(namespaced("memory", "read"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Register(memory); err == nil {
		t.Fatal("a tool named like a registered namespace was accepted")
	}
	unregister()
	unregister, err = reg.Register(memory)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Register(namespaced("memory", "read")); err == nil {
		t.Fatal("a namespace named like a registered tool was accepted")
	}
	unregister()
	if _, err := reg.Register(namespaced("memory", "read")); err != nil {
		t.Fatal(err)
	}
}

func TestAScopeCannotClashWithWhatItInherits(t *testing.T) {
	memory := echoTool()
	memory.Name = "memory"
	reg := newRegistry(t, namespaced("memory", "read"))
	if _, err := reg.NewScope("agent", nil).Register(memory); !errors.Is(err, registry.CodeInvalidDefinition) || !strings.Contains(err.Error(), `"memory" is both`) {
		t.Fatalf("flat tool over an inherited namespace: err = %v", err)
	}
	reg = newRegistry(t, memory)
	if _, err := reg.NewScope("agent", nil).Register(namespaced("memory", "read")); !errors.Is(err, registry.CodeInvalidDefinition) || !strings.Contains(err.Error(), `"memory" is both`) {
		t.Fatalf("namespace over an inherited flat tool: err = %v", err)
	}
	// A namespace shared by the scope and its parent is fine.
	reg = newRegistry(t, namespaced("memory", "read"))
	if _, err := reg.NewScope("agent", nil).Register(namespaced("memory", "write")); err != nil {
		t.Fatal(err)
	}
}
