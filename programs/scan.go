package programs

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/runcode-dev/runcode/sdkgen"
)

// accessChain matches a global followed by member accesses: .name, ?.name, ["name"], ['name'].
var accessChain = regexp.MustCompile(`(tools|programs)((?:\s*\??\.\s*[A-Za-z_$][A-Za-z0-9_$]*|\s*\[\s*(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*\])+)`)

// accessKey matches one access of a chain.
var accessKey = regexp.MustCompile(`\??\.\s*([A-Za-z_$][A-Za-z0-9_$]*)|\[\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*\]`)

// chains returns the member keys of every access chain on global in src (tools.a.b → [a b]):
// those whose global stands on its own (not a property, x.tools, nor part of a longer name).
func chains(src, global string) [][]string {
	var out [][]string
	for _, m := range accessChain.FindAllStringSubmatchIndex(src, -1) {
		if src[m[2]:m[3]] != global {
			continue
		}
		if m[0] > 0 {
			c := src[m[0]-1]
			if c == '.' || c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				continue
			}
		}
		var keys []string
		for _, k := range accessKey.FindAllStringSubmatch(src[m[4]:m[5]], -1) {
			if k[1] != "" {
				keys = append(keys, k[1])
				continue
			}
			lit := k[2]
			if lit[0] == '\'' {
				lit = `"` + strings.ReplaceAll(strings.ReplaceAll(lit[1:len(lit)-1], `\'`, `'`), `"`, `\"`) + `"`
			}
			s, err := strconv.Unquote(lit)
			if err != nil {
				break
			}
			keys = append(keys, s)
		}
		out = append(out, keys)
	}
	return out
}

// ToolsCalled returns the registry names of the tools of sdk that src names, sorted: tools.x,
// tools["x"] and tools.ns.member (any mix of dots and string keys). It is a scan of the text,
// not of the program's meaning: a tool named in a comment counts, and one reached through a
// computed key (tools[name]) or an alias of tools does not.
func ToolsCalled(src string, sdk []sdkgen.Tool) []string {
	top := map[string]string{}
	spaced := map[[2]string]string{}
	for _, t := range sdk {
		if t.Namespace == "" {
			top[t.Name] = t.Name
			continue
		}
		member := strings.TrimPrefix(t.Name, t.Namespace+".")
		spaced[[2]string{t.Namespace, member}] = t.Name
	}
	found := map[string]bool{}
	for _, keys := range chains(src, "tools") {
		if name, ok := top[keys[0]]; ok {
			found[name] = true
			continue
		}
		if len(keys) > 1 {
			if name, ok := spaced[[2]string{keys[0], keys[1]}]; ok {
				found[name] = true
			}
		}
	}
	return sortedKeys(found)
}

// ProgramsCalled returns the names of the programs of saved that src calls (programs.x,
// programs["x"]), sorted; a scan like ToolsCalled.
func ProgramsCalled(src string, saved []Program) []string {
	names := map[string]bool{}
	for _, p := range saved {
		names[p.Name] = true
	}
	found := map[string]bool{}
	for _, keys := range chains(src, sdkgen.ProgramsGlobal) {
		if names[keys[0]] {
			found[keys[0]] = true
		}
	}
	return sortedKeys(found)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
