package sdkgen

import (
	"regexp"
	"strconv"
	"strings"
)

// ProgramsGlobal is the global through which a program calls saved programs:
// `await programs.NAME(input)`, and proposes saving one with `programs.save(name, source,
// description?)`.
const ProgramsGlobal = "programs"

// ProgramsTypes is the namespace of the declarations that ProgramsDeclaration writes for each
// saved program: ProgramsTypes.<key>.Input and ProgramsTypes.<key>.Output.
const ProgramsTypes = "RuncodePrograms"

// Program is one saved program as the SDK sees it.
type Program struct {
	// Name is the program's name in the library: programs.<Name>, or programs["a-b"] when it
	// is not an identifier.
	Name string
	// Description is shown as a JSDoc line above the program's member.
	Description string
	// Declarations is the module-form program's own .d.ts as the TypeScript compiler emitted it
	// (typecheck.Checker.Declarations): its exported `Input` type, when it declares one, and its
	// default export as `declare const X: T; export default X;`. Empty declares an input of
	// Record<string, never> and an output of null (what a program without a result resolves).
	Declarations string
}

// ProgramsDeclaration declares the programs global for the saved programs progs (sorted by name
// as tools are), to append to DTS or Declarations of the tools: each program is a function of
// its exact Input type (optional when the program declares none: Record<string, never>) that
// resolves its exact output type, and programs.save proposes saving a program (the host asks for
// approval). It returns "" when save is false and progs is empty.
func ProgramsDeclaration(progs []Program, save bool) string {
	if len(progs) == 0 && !save {
		return ""
	}
	sorted := sortedPrograms(progs)
	var b strings.Builder
	if len(sorted) > 0 {
		b.WriteString("declare namespace " + ProgramsTypes + " {\n")
		for i, p := range sorted {
			b.WriteString("  namespace " + programKey(i) + " {\n")
			body, hasInput := programBody(p.Declarations)
			for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
				if line != "" {
					b.WriteString("    " + line + "\n")
				}
			}
			if !hasInput {
				b.WriteString("    export type Input = Record<string, never>;\n")
			}
			b.WriteString("  }\n")
		}
		b.WriteString("}\n")
	}
	b.WriteString("/** Saved programs: each runs as a nested run of its own, through the same tool pipeline, and resolves its result. */\n")
	b.WriteString("declare const " + ProgramsGlobal + ": {\n")
	for i, p := range sorted {
		if p.Description != "" {
			b.WriteString("  /** " + strings.ReplaceAll(Summary(p.Description), "*/", "*\\/") + " */\n")
		}
		key := p.Name
		if !isIdent(key) {
			key = strconv.Quote(key)
		}
		ns := ProgramsTypes + "." + programKey(i)
		opt := ""
		if _, hasInput := programBody(p.Declarations); !hasInput {
			opt = "?"
		}
		b.WriteString("  " + key + "(input" + opt + ": " + ns + ".Input): Promise<" + ns + ".Output>;\n")
	}
	if save {
		b.WriteString("  /** Propose saving a module-form program (export default its result; an exported Input type is its input, read as the global input) in the library as name; the host asks for approval, then typechecks and saves it. */\n")
		b.WriteString("  save(name: string, source: string, description?: string): Promise<{ name: string; tools: string[] }>;\n")
	}
	b.WriteString("};\n")
	return b.String()
}

// ProgramsSummary is the compact listing of saved programs for a prompt: one line per program,
// its call and the summary of its description.
func ProgramsSummary(progs []Program) string {
	var b strings.Builder
	for _, p := range sortedPrograms(progs) {
		b.WriteString("- " + ProgramPath(p.Name))
		if s := Summary(p.Description); s != "" {
			b.WriteString(": " + s)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// ProgramPath is how a program calls the saved program name: programs.name, or
// programs["a-b"] when name is not an identifier.
func ProgramPath(name string) string {
	if isIdent(name) {
		return ProgramsGlobal + "." + name
	}
	return ProgramsGlobal + "[" + strconv.Quote(name) + "]"
}

func sortedPrograms(progs []Program) []Program {
	tools := make([]Tool, len(progs))
	for i, p := range progs {
		tools[i] = Tool{Name: p.Name}
	}
	order := sortedTools(tools)
	byName := make(map[string]Program, len(progs))
	for _, p := range progs {
		byName[p.Name] = p
	}
	out := make([]Program, len(order))
	for i, t := range order {
		out[i] = byName[t.Name]
	}
	return out
}

// programKey is the namespace of the i-th program's types (names need not be identifiers).
func programKey(i int) string { return "p" + strconv.Itoa(i) }

var (
	exportDefault = regexp.MustCompile(`(?m)^export default ([A-Za-z_$][A-Za-z0-9_$]*);\s*$`)
	exportEmpty   = regexp.MustCompile(`(?m)^export \{\};\s*$`)
	declareLine   = regexp.MustCompile(`(?m)^(export )?declare `)
	exportsInput  = regexp.MustCompile(`(?m)^export (declare )?(type|interface) Input\b`)
)

// programBody turns a module's emitted declarations into the body of a namespace: `declare`
// dropped (the namespace is ambient already), `export default X` become `export type Output =
// typeof X` (null without a default export). It reports whether the module exports Input.
func programBody(dts string) (string, bool) {
	hasInput := exportsInput.MatchString(dts)
	output := "export type Output = null;"
	if m := exportDefault.FindStringSubmatch(dts); m != nil {
		output = "export type Output = typeof " + m[1] + ";"
		dts = exportDefault.ReplaceAllString(dts, "")
	}
	dts = exportEmpty.ReplaceAllString(dts, "")
	dts = declareLine.ReplaceAllString(dts, "$1")
	return dts + "\n" + output + "\n", hasInput
}
