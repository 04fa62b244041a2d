package registry

import (
	"fmt"
	"sync"
)

// Presentation is how a scope presents its tools to the model: as native tool calls, through the
// Code Mode transport (ReservedName) only, or both.
type Presentation string

// The presentations.
const (
	// PresentNative offers every visible tool as a native tool call; the transport is hidden.
	PresentNative Presentation = "native"
	// PresentCode offers the transport only: a direct call of any other visible tool fails with
	// UNKNOWN_TOOL and a hint to call it from a program (the executor collapse). Calls a program
	// makes (calls with a Parent) may still reach every visible tool.
	PresentCode Presentation = "code"
	// PresentBoth offers every visible tool as a native tool call and the transport after them.
	PresentBoth Presentation = "both"
)

// valid reports whether p is one of the three presentations.
func (p Presentation) valid() bool {
	return p == PresentNative || p == PresentCode || p == PresentBoth
}

func invalidPresentation(p Presentation) error {
	return invalidDefinition("invalid presentation %q: want %q, %q or %q", p, PresentNative, PresentCode, PresentBoth)
}

// presentDecl is one PresentAs declaration; its identity lets a disposer clear exactly it.
type presentDecl struct{ mode Presentation }

// SetDefaultPresentation sets the presentation of every scope that declares none along its
// chain, and of the global view. A new registry presents natively. It fails, changing nothing,
// when p is not one of the three presentations; a change notifies OnChange (with scope nil).
func (r *Registry) SetDefaultPresentation(p Presentation) error {
	if !p.valid() {
		return invalidPresentation(p)
	}
	r.mu.Lock()
	old := r.defaultMode()
	r.presentation = p
	r.mu.Unlock()
	if old != p {
		r.changed(nil)
	}
	return nil
}

// defaultMode returns the registry-wide default presentation. Callers hold r.mu.
func (r *Registry) defaultMode() Presentation {
	if r.presentation == "" {
		return PresentNative
	}
	return r.presentation
}

// PresentationOf returns the presentation in effect for scope: the declaration (PresentAs) of
// the nearest scope along its chain that has one, else the registry's default (also for a nil
// scope).
func (r *Registry) PresentationOf(scope *Scope) Presentation {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.presentationOf(scope)
}

// presentationOf is PresentationOf for callers that hold r.mu.
func (r *Registry) presentationOf(s *Scope) Presentation {
	for ; s != nil; s = s.parent {
		if s.presentation != nil {
			return s.presentation.mode
		}
	}
	return r.defaultMode()
}

// PresentAs declares the presentation of the scope and of every descendant that declares none.
// A scope declares at most one presentation: a second declaration fails until the first is
// disposed. The returned function removes the declaration (the scope then inherits again); a
// declaration and its removal notify OnChange.
func (s *Scope) PresentAs(p Presentation) (restore func(), err error) {
	if !p.valid() {
		return nil, invalidPresentation(p)
	}
	decl := &presentDecl{mode: p}
	s.reg.mu.Lock()
	if old := s.presentation; old != nil {
		s.reg.mu.Unlock()
		return nil, invalidDefinition("scope %q: presentation %q conflicts with %q already declared for this scope; one composition selects one presentation", s.name, p, old.mode)
	}
	s.presentation = decl
	s.reg.mu.Unlock()
	s.reg.changed(s)
	var once sync.Once
	return func() {
		once.Do(func() {
			s.reg.mu.Lock()
			removed := s.presentation == decl
			if removed {
				s.presentation = nil
			}
			s.reg.mu.Unlock()
			if removed {
				s.reg.changed(s)
			}
		})
	}, nil
}

// collapses reports whether call is a direct call the executor refuses because its scope
// presents code only: no parent, the scope's presentation is exactly PresentCode, the name is
// not the transport, and the name is visible (an invisible name keeps the generic path).
// Callers hold r.mu.
func (r *Registry) collapses(call Call) bool {
	return call.Parent.IsZero() && call.Name != ReservedName &&
		r.presentationOf(call.Scope) == PresentCode && r.resolve(call.Name, call.Scope) != nil
}

// collapseError is the failure of a collapsed call.
func collapseError(name string) *Error {
	return &Error{Code: CodeUnknownTool, Name: "ToolNotFoundError", Message: fmt.Sprintf(
		"unknown tool %q: only `%s` is callable directly \u2014 call `%s` from inside a `%s` program instead",
		name, ReservedName, name, ReservedName)}
}

// missingRuntimeError is the failure of a transport call in a scope that presents code when no
// transport is installed. It names the calling scope's own presentation.
func missingRuntimeError(p Presentation) *Error {
	return &Error{Name: "CodeRuntimeError", Message: fmt.Sprintf(
		"tool %q: mode %q requires a code runtime: install one with codemode.New, or present the scope as native",
		ReservedName, p)}
}
