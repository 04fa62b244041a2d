package sdkgen

import (
	_ "embed"
	"strings"
)

// libNames lists, one per line, the global names that TypeScript's standard library files
// declare (ES, DOM, WebWorker, ScriptHost), so that a named shape never clashes with a global
// of whatever lib an editor uses. Regenerate it after installing a new TypeScript 5 with:
//
//	cd node_modules/typescript/lib && cat lib.*.d.ts |
//	  grep -oE '^(declare )?(interface|type|var|const|let|function|class|namespace|enum) [A-Za-z_$][A-Za-z0-9_$]*' |
//	  awk '{print $NF}' | LC_ALL=C sort -u
//
// (keeping the first comment line).
//
//go:embed libnames.txt
var libNames string

// ownNames are the names the declarations themselves declare.
var ownNames = [...]string{"JsonValue", "ToolCallError", "NoArgs", "tools", "console", "Console"}

// reservedName reports whether a named shape may not take name: the declarations or a
// TypeScript lib declare it globally.
func reservedName(name string) bool {
	for _, n := range ownNames {
		if n == name {
			return true
		}
	}
	return strings.Contains(libNames, "\n"+name+"\n")
}
