package registry

import (
	"context"
	"fmt"
	"sync"
)

// Scope is a registration layer for one agent, or for a preset that stands above agents. It
// inherits what its parent sees (the global layer for a top-level scope); its restrictions
// filter that inherited set; its own registrations shadow inherited tools of the same name and
// are exempt from its own restrictions; its guards apply to calls made for it and its
// descendants. Create scopes with Registry.NewScope; the zero Scope is not usable.
type Scope struct {
	reg          *Registry
	parent       *Scope
	name         string
	own          layer
	restrictions []*Restriction
	guards       []*hook[GuardFunc]
	presentation *presentDecl // PresentAs's declaration; nil: inherited
}

// NewScope returns a scope under parent (nil: directly under the global layer). name labels
// the scope in messages and is not required to be unique.
func (r *Registry) NewScope(name string, parent *Scope) *Scope {
	if parent != nil && parent.reg != r {
		panic("registry: NewScope given a parent scope of another registry")
	}
	return &Scope{reg: r, parent: parent, name: name}
}

// Name returns the scope's label.
func (s *Scope) Name() string { return s.name }

// Parent returns the parent scope (nil for a top-level scope).
func (s *Scope) Parent() *Scope { return s.parent }

// Register adds tools to the scope, shadowing inherited tools of the same names. It returns the
// function that removes exactly these registrations. Errors are as for Registry.Register.
func (s *Scope) Register(tools ...Tool) (unregister func(), err error) {
	return s.reg.register(context.Background(), s, tools)
}

// RegisterContext is Register bounded by ctx, as Registry.RegisterContext.
func (s *Scope) RegisterContext(ctx context.Context, tools ...Tool) (unregister func(), err error) {
	return s.reg.register(ctx, s, tools)
}

// Restriction filters the tools a scope inherits. Allow keeps only the named tools; Deny
// removes the named tools; both may be given. Restrictions on one scope intersect.
type Restriction struct {
	Allow []string
	Deny  []string
}

func (x *Restriction) allows(name string) bool {
	if len(x.Allow) > 0 && !contains(x.Allow, name) {
		return false
	}
	return !contains(x.Deny, name)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// allows reports whether every restriction of s lets name through. Callers hold reg.mu.
func (s *Scope) allows(name string) bool {
	for _, x := range s.restrictions {
		if !x.allows(name) {
			return false
		}
	}
	return true
}

// Restrict filters the tools the scope inherits. It fails with code INVALID_DEFINITION when the
// filter is empty, names ReservedName, names a tool the scope does not inherit, or names one of
// the scope's own registrations (restrictions never apply to those). The returned function
// lifts exactly this restriction.
func (s *Scope) Restrict(x Restriction) (lift func(), err error) {
	if len(x.Allow) == 0 && len(x.Deny) == 0 {
		return nil, invalidDefinition("restriction of scope %q names no tools: give Allow or Deny", s.name)
	}
	own := &Restriction{Allow: append([]string(nil), x.Allow...), Deny: append([]string(nil), x.Deny...)}
	s.reg.mu.Lock()
	inherited := map[string]bool{}
	for _, e := range s.reg.visibleTools(s.parent) {
		inherited[e.tool.Name] = true
	}
	for _, name := range append(append([]string(nil), own.Allow...), own.Deny...) {
		var problem string
		switch {
		case name == ReservedName:
			problem = fmt.Sprintf("cannot name the reserved Code Mode transport %q; restrict the tools it calls instead", name)
		case s.own.byName[name] != nil:
			problem = fmt.Sprintf("names %q, which the scope registers itself (restrictions apply only to inherited tools)", name)
		case !inherited[name]:
			problem = fmt.Sprintf("names unknown tool %q", name)
		}
		if problem != "" {
			s.reg.mu.Unlock()
			return nil, invalidDefinition("restriction of scope %q %s", s.name, problem)
		}
	}
	s.restrictions = append(s.restrictions, own)
	s.reg.mu.Unlock()
	s.reg.changed(s)
	var once sync.Once
	return func() {
		once.Do(func() {
			s.reg.mu.Lock()
			for i, r := range s.restrictions {
				if r == own {
					s.restrictions = append(s.restrictions[:i:i], s.restrictions[i+1:]...)
					break
				}
			}
			s.reg.mu.Unlock()
			s.reg.changed(s)
		})
	}, nil
}

// Guard registers a guard that applies to calls made for this scope and its descendants. See
// Registry.Guard.
func (s *Scope) Guard(g GuardFunc) (remove func()) {
	return addHook(s.reg, &s.guards, g)
}
