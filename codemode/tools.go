package codemode

import (
	"sync"

	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/sdkgen"
)

// maxCachedScopes bounds the scopes whose tools are cached at once: past it the cache starts
// over, so that an embedder that makes a scope per conversation does not grow it without end.
const maxCachedScopes = 256

// scopeTools are the tools a run in one scope sees: their names, the names prepared as the
// tools namespace's members, and what is derived from their SDK schemas on demand. They are
// built once per scope and registry state, so that what a run builds for its bindings does not
// grow with the number of tools.
type scopeTools struct {
	names []string
	// writeTool is the call path of a tool that writes files ("tools.write_file"), which the
	// output budget's note suggests; "" when the scope has none.
	writeTool string
	// namespaces holds each tool's registry namespace, nil when none is namespaced.
	namespaces []string
	members    *jsruntime.Members
	// sdkTools returns the schemas as sdkgen sees them, built on first use (by the catalog).
	sdkTools func() []sdkgen.Tool
	// compact reports whether the compact presentation is in effect, decided on first use.
	compact func() bool
	// declarations returns the .d.ts a typecheck uses (with the catalog when compact, and the
	// programs global when saved programs are bound), built on first use: rendering them costs
	// about a quarter of a warm check at 50 tools.
	declarations func() string
	// programNames are the registry names of the saved programs (and programs.save) the run
	// binds as the programs global, programMembers their names there; programs the saved
	// programs as sdkgen declares them, and save whether programs.save is bound.
	programNames, programMembers []string
	programs                     []sdkgen.Program
	save                         bool
	// catalog is what catalog.search and describe look in: the tools, and the saved programs
	// under their call paths (programs.x).
	catalog func() []sdkgen.Tool
	// visible holds the registry names of the tools and programs the run binds.
	visible map[string]bool
}

// toolsFor returns the tools a run in scope sees, cached until the registry changes.
func (cm *codeMode) toolsFor(scope *registry.Scope) (*scopeTools, error) {
	cm.mu.Lock()
	t, ok := cm.tools[scope]
	generation := cm.generation
	cm.mu.Unlock()
	if ok {
		return t, nil
	}
	schemas, progs := splitPrograms(cm.reg.SDKSchemas(scope))
	names := make([]string, len(schemas))
	var namespaces []string // nil while no tool is namespaced
	for i, s := range schemas {
		names[i] = s.Name
		if s.Namespace != "" {
			if namespaces == nil {
				namespaces = make([]string, len(schemas))
			}
			namespaces[i] = s.Namespace
		}
	}
	members, err := dispatch.ToolMembers(names, namespaces)
	if err != nil {
		return nil, err
	}
	t = &scopeTools{names: names, writeTool: writeToolOf(names), namespaces: namespaces, members: members,
		sdkTools:     sync.OnceValue(func() []sdkgen.Tool { return toSDKTools(schemas) }),
		programNames: progs.names, programMembers: progs.members, programs: progs.sdk, save: progs.save,
		visible: make(map[string]bool, len(names)+len(progs.names))}
	for _, n := range names {
		t.visible[n] = true
	}
	for _, n := range progs.names {
		t.visible[n] = true
	}
	t.compact = sync.OnceValue(func() bool { return cm.compactFor(t.sdkTools(), t.programs, t.save) })
	t.catalog = sync.OnceValue(func() []sdkgen.Tool { return catalogEntries(t.sdkTools(), t.programs) })
	t.declarations = sync.OnceValue(func() string {
		decls := sdkgen.DTS(t.sdkTools())
		if t.compact() {
			decls += catalogDeclaration
		}
		decls += sdkgen.ProgramsDeclaration(t.programs, t.save)
		if cm.opts.State != nil {
			decls += "\n" + sdkgen.StateDeclaration + "\n"
		}
		return decls
	})
	cm.mu.Lock()
	// A change notified since the schemas were read may not be in them: keep them for this run
	// only.
	if cm.generation == generation {
		if cm.tools == nil || len(cm.tools) >= maxCachedScopes {
			cm.tools = map[*registry.Scope]*scopeTools{}
		}
		cm.tools[scope] = t
	}
	cm.mu.Unlock()
	return t, nil
}

// forgetTools drops the cached tools; the registry calls it on every change.
func (cm *codeMode) forgetTools(*registry.Scope) {
	cm.mu.Lock()
	cm.tools = nil
	cm.generation++
	cm.mu.Unlock()
}
