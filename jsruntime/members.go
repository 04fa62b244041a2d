package jsruntime

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/runcode-dev/runcode/jsonv"
)

// Member is a function's place in a namespace: its name, and its group ("" for none; see
// Function.Group).
type Member struct {
	Name, Group string
}

// Dispatch is the host function of every member of a namespace bound with Members: member is
// the function's index in the list. Its contract is HostFunc's.
type Dispatch func(ctx context.Context, member int, args jsonv.Value, settle func(jsonv.Value, error))

// Members is a namespace's list of functions without their host functions, checked and indexed
// once for all the runs that bind it (Namespace.Members): a run of a namespace bound this way
// costs the same whatever the number of its functions, since the runtime builds a function only
// when the program first reads it, and recognises a list it has seen by identity. Build it with
// NewMembers; it is immutable and safe for concurrent use.
type Members struct {
	list   []Member
	top    *level
	groups []*level // in order of their first function
}

// level is the member index of one object: the namespace's (group "") or a group's.
type level struct {
	group string
	names []string       // the object's members in declaration order
	index map[string]int // name → position in names
	// slots holds, per position, the function's index in the list, or -1-g for group g.
	slots []int
	// keys is the order of the object's own keys: positions of the names that are array
	// indices, ascending, then the others in declaration order (an ordinary object's order).
	keys []int
}

// NewMembers checks and indexes ms: names unique among the ungrouped functions and within each
// group, no group named like an ungrouped function. Its error matches ErrInvalidRequest.
func NewMembers(ms []Member) (*Members, error) {
	m, p := newMembers(ms)
	if p != nil {
		return nil, misuse("%s", p.describe(""))
	}
	return m, nil
}

// Len returns the number of functions.
func (m *Members) Len() int { return len(m.list) }

// At returns function i.
func (m *Members) At(i int) Member { return m.list[i] }

// membersProblem is what is wrong with a member list.
type membersProblem struct {
	kind        int // problemDuplicate or problemGroupClash
	name, group string
}

const (
	problemDuplicate = iota
	problemGroupClash
)

// describe says what is wrong, naming the binding when global is not empty.
func (p *membersProblem) describe(global string) string {
	in, of := "", ""
	if global != "" {
		in, of = fmt.Sprintf(" in binding %q", global), fmt.Sprintf(" of binding %q", global)
	}
	switch {
	case p.kind == problemGroupClash && global != "":
		return fmt.Sprintf("group %q%s has the name of a function of the binding", p.group, in)
	case p.kind == problemGroupClash:
		return fmt.Sprintf("group %q has the name of an ungrouped function", p.group)
	case p.group != "":
		return fmt.Sprintf("duplicate function %q in group %q%s", p.name, p.group, of)
	}
	return fmt.Sprintf("duplicate function %q%s", p.name, in)
}

func newMembers(ms []Member) (*Members, *membersProblem) {
	m := &Members{list: slices.Clone(ms), top: newLevel("", len(ms))}
	groupIndex := map[string]int{}
	for j, f := range m.list {
		lvl := m.top
		if f.Group != "" {
			g, ok := groupIndex[f.Group]
			if !ok {
				if _, clash := m.top.index[f.Group]; clash {
					return nil, &membersProblem{kind: problemGroupClash, group: f.Group}
				}
				g = len(m.groups)
				groupIndex[f.Group] = g
				m.groups = append(m.groups, newLevel(f.Group, 0))
				m.top.add(f.Group, -1-g)
			}
			lvl = m.groups[g]
		}
		if pos, dup := lvl.index[f.Name]; dup {
			if lvl.slots[pos] < 0 {
				return nil, &membersProblem{kind: problemGroupClash, group: f.Name}
			}
			return nil, &membersProblem{kind: problemDuplicate, name: f.Name, group: f.Group}
		}
		lvl.add(f.Name, j)
	}
	m.top.order()
	for _, g := range m.groups {
		g.order()
	}
	return m, nil
}

func newLevel(group string, n int) *level {
	return &level{group: group, index: make(map[string]int, n)}
}

// add appends a member.
func (l *level) add(name string, slot int) {
	l.index[name] = len(l.names)
	l.names = append(l.names, name)
	l.slots = append(l.slots, slot)
}

// order computes keys.
func (l *level) order() {
	l.keys = make([]int, 0, len(l.names))
	var indices []int
	for pos, name := range l.names {
		if _, ok := arrayIndex(name); ok {
			indices = append(indices, pos)
		} else {
			l.keys = append(l.keys, pos)
		}
	}
	if indices == nil {
		return
	}
	slices.SortFunc(indices, func(a, b int) int {
		x, _ := arrayIndex(l.names[a])
		y, _ := arrayIndex(l.names[b])
		return cmp.Compare(x, y)
	})
	l.keys = append(indices, l.keys...)
}

// arrayIndex reports whether name is an array index (the canonical decimal form of an integer
// below 2^32-1), which an ordinary object lists before its other keys, in ascending order.
func arrayIndex(name string) (int64, bool) {
	if name == "" || len(name) > 10 || (len(name) > 1 && name[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(name, 10, 32)
	if err != nil || n == 1<<32-1 || strconv.FormatUint(n, 10) != name {
		return 0, false
	}
	return int64(n), true
}

// sameNames reports whether fns has exactly m's names and groups, in order.
func (m *Members) sameNames(fns []Function) bool {
	if len(fns) != len(m.list) {
		return false
	}
	for i, f := range fns {
		if m.list[i] != (Member{Name: f.Name, Group: f.Group}) {
			return false
		}
	}
	return true
}
