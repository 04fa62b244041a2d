package sdkgen

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CatalogGlobal is the global through which a program reaches the discovery helpers of the
// compact presentation: catalog.describe(name) and catalog.search(query). The name says what
// the object is (a catalog of the tools, searched and read, never called) and cannot be
// mistaken for a tool of the `tools` object.
const CatalogGlobal = "catalog"

// DefaultSearchLimit is how many tools catalog.search returns when the program gives no limit.
const DefaultSearchLimit = 10

// maxSummary is the longest one-line summary CompactSection writes, in runes.
const maxSummary = 160

const (
	// compactInstructions open the compact section: the tools are listed, not declared, and a
	// program looks their types up.
	compactInstructions = "There are too many tools to declare here, so they are listed below by name with a one-line summary. " +
		"A run_code program calls them as " + callsAs + callOutcome + "\n" +
		"\n" +
		"To learn a tool's arguments and result, look it up from a program with the `catalog` helpers (declared below) and print what you need; a first short program that only looks tools up is a good start:\n" +
		"- `await catalog.describe(\"name\")` resolves to the TypeScript declaration of that tool (its arguments and result), as a string; it rejects for an unknown name.\n" +
		"- `await catalog.search(\"words\")` resolves to the tools whose name or description best match the words, best first, as `{ name, description }` objects; pass `{ query: \"words\", limit: 20 }` for more than 10.\n" +
		"\n" +
		"```ts\n" +
		"type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }\n" +
		"\n" +
		toolCallErrorDecl
	// compactTools declares the tools object when no tool is namespaced.
	compactTools = "declare const tools: { [name: string]: " + compactToolType + " };\n"
	// compactToolType is the type of one tool in the compact presentation.
	compactToolType = "(args?: { [key: string]: JsonValue }) => Promise<JsonValue>"
	// compactCatalog declares the catalog helpers and closes the block.
	compactCatalog = "\n" +
		"declare const catalog: {\n" +
		"  describe(name: string): Promise<string>;\n" +
		"  search(query: string | { query: string; limit?: number }): Promise<{ name: string; description: string }[]>;\n" +
		"};\n" +
		"```\n" +
		"\n" +
		"The available tools (name — summary):"
)

// CompactSection returns the compact SDK prompt section for registries too large to declare in
// full: the instruction block of Section, then a paragraph on the catalog helpers with their
// declarations, then one line per tool, sorted as Declarations sorts them: "- <key> — <summary>"
// where key is written as in the SDK (bare or JSON-quoted) and summary is the first sentence of
// the description (whitespace collapsed, at most 160 characters); a tool without a description
// has just its key. There is no trailing newline.
//
// Namespaced tools are listed as <namespace>.<member>, each part written as a key, and the
// declaration of the tools object adds one object per namespace.
func CompactSection(tools []Tool) string {
	sorted := sortedTools(tools)
	g := gen{buf: make([]byte, 0, len(compactInstructions)+len(compactCatalog)+80*len(sorted))}
	g.str(compactInstructions)
	var namespaces []string
	for _, t := range sorted {
		if t.Namespace != "" && !slices.Contains(namespaces, t.Namespace) {
			namespaces = append(namespaces, t.Namespace)
		}
	}
	if len(namespaces) == 0 {
		g.str(compactTools)
	} else {
		g.str("declare const tools: { [name: string]: " + compactToolType + " } & {")
		for i, ns := range namespaces {
			if i > 0 {
				g.str(";")
			}
			g.str(" ")
			g.key(ns)
			g.str(": { [name: string]: " + compactToolType + " }")
		}
		g.str(" };\n")
	}
	g.str(compactCatalog)
	for _, t := range sorted {
		g.str("\n- ")
		if t.Namespace != "" {
			g.key(t.Namespace)
			g.str(".")
		}
		g.key(t.member())
		if s := Summary(t.Description); s != "" {
			g.str(" — ")
			g.str(s)
		}
	}
	return string(g.buf)
}

// Summary returns the first sentence of a description on one line: whitespace runs collapsed,
// cut after the first '.', '!' or '?' that ends the text or is followed by a space and a word
// that does not start with a lower-case letter ("e.g. this" goes on), and shortened to 160
// characters with an ellipsis.
func Summary(desc string) string {
	text := strings.Join(strings.FieldsFunc(desc, isJSSpace), " ")
	for i := 0; i < len(text); i++ {
		if c := text[i]; (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' && !lowerAt(text, i+2)) {
			text = text[:i+1]
			break
		}
	}
	if utf8.RuneCountInString(text) > maxSummary {
		n := 0
		for i := range text {
			if n == maxSummary-1 {
				text = strings.TrimRight(text[:i], " ") + "…"
				break
			}
			n++
		}
	}
	return text
}

// Describe returns the TypeScript declarations of one tool, found by its exact name: the type
// aliases it needs, then "declare const tools: {…}" with the tool's one member, as
// Declarations(tools) writes it (the alias names included) except that object types the tool
// shares with other tools are written in place. ok is false when no tool has that name.
func Describe(tools []Tool, name string) (string, bool) {
	sorted := sortedTools(tools)
	i, ok := slices.BinarySearchFunc(sorted, name, func(t Tool, name string) int {
		if c := compareUTF16(t.Name, name); c != 0 {
			return c
		}
		return strings.Compare(t.Name, name)
	})
	if !ok {
		return "", false
	}
	pre := prefixes(sorted)
	return declarations(sorted[i:i+1], pre[i:i+1], false, false), true
}

// Search returns the tools that match query best, best first, at most limit of them (all
// matches when limit ≤ 0). The query is split into words (runs of letters and digits, lower
// case); a tool scores for each word that equals a word of its name (4), occurs inside its
// name (2), equals a word of its description (2) or starts one (1); a plural "s" is ignored
// when words are compared. Tools scoring nothing are left out; ties keep the Declarations
// order. An empty query matches every tool. The result is deterministic.
func Search(tools []Tool, query string, limit int) []Tool {
	sorted := sortedTools(tools)
	terms := words(query)
	type hit struct {
		t     Tool
		score int
	}
	var hits []hit
	for _, t := range sorted {
		score := 0
		if len(terms) == 0 {
			score = 1
		}
		name := strings.ToLower(t.Name)
		nameWords, descWords := words(t.Name), words(t.Description)
		for _, term := range terms {
			switch {
			case slices.ContainsFunc(nameWords, func(w string) bool { return sameWord(w, term) }):
				score += 4
			case strings.Contains(name, term):
				score += 2
			}
			switch {
			case slices.ContainsFunc(descWords, func(w string) bool { return sameWord(w, term) }):
				score += 2
			case slices.ContainsFunc(descWords, func(w string) bool { return strings.HasPrefix(w, term) }):
				score++
			}
		}
		if score > 0 {
			hits = append(hits, hit{t, score})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.score, a.score) })
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]Tool, len(hits))
	for i, h := range hits {
		out[i] = h.t
	}
	return out
}

// words splits text into lower-case runs of letters and digits; camelCase humps start words
// too ("readFile" → "read", "file").
func words(text string) []string {
	var out []string
	var cur []rune
	prevLower := false
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	for _, r := range text {
		switch {
		case unicode.IsUpper(r):
			if prevLower {
				flush()
			}
			cur = append(cur, unicode.ToLower(r))
			prevLower = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur = append(cur, r)
			prevLower = true
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return out
}

// sameWord reports whether two lower-case words are equal, ignoring a plural "s".
func sameWord(a, b string) bool {
	return a == b || strings.TrimSuffix(a, "s") == strings.TrimSuffix(b, "s")
}

// lowerAt reports whether text has a lower-case letter at byte offset i.
func lowerAt(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return unicode.IsLower(r)
}
