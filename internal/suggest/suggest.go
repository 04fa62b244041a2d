// Package suggest finds the names a misspelled name was probably meant to be, for "did you
// mean …?" hints in error messages.
package suggest

import (
	"slices"
	"strings"
)

// MaxSuggestions is the most names Closest returns.
const MaxSuggestions = 3

// Closest returns up to MaxSuggestions of candidates that are close to name, closest first:
// within a small edit distance (insertions, deletions, substitutions and transpositions,
// ignoring case and the separators '_', '-' and '.'; 1 for names of up to 4 letters, 2 up to
// 8, 3 beyond), or one a prefix of the other when the shorter has at least 3 letters. It
// returns nil when nothing is close, and never name itself.
func Closest(name string, candidates []string) []string {
	key := normalize(name)
	limit := 1
	switch n := len(key); {
	case n > 8:
		limit = 3
	case n > 4:
		limit = 2
	}
	type match struct {
		name     string
		distance int
	}
	var matches []match
	for _, c := range candidates {
		if c == name || slices.ContainsFunc(matches, func(m match) bool { return m.name == c }) {
			continue
		}
		ck := normalize(c)
		d := distance(key, ck)
		switch {
		case d <= limit:
		case isPrefixPair(key, ck):
			d = limit + 1 // after every name within the distance
		default:
			continue
		}
		matches = append(matches, match{c, d})
	}
	slices.SortStableFunc(matches, func(a, b match) int {
		if a.distance != b.distance {
			return a.distance - b.distance
		}
		return strings.Compare(a.name, b.name)
	})
	if len(matches) > MaxSuggestions {
		matches = matches[:MaxSuggestions]
	}
	var out []string
	for _, m := range matches {
		out = append(out, m.name)
	}
	return out
}

// Phrase returns " (did you mean a?)", " (did you mean a or b?)" or " (did you mean a, b or
// c?)" with each name formatted by quote, or "" for no names.
func Phrase(names []string, quote func(string) string) string {
	if len(names) == 0 {
		return ""
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n)
	}
	list := q[0]
	if len(q) > 1 {
		list = strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
	}
	return " (did you mean " + list + "?)"
}

// normalize lower-cases s and drops the separators, so that readFile, read_file and
// read-file are the same name.
func normalize(s string) []rune {
	var out []rune
	for _, r := range strings.ToLower(s) {
		if r != '_' && r != '-' && r != '.' {
			out = append(out, r)
		}
	}
	return out
}

// isPrefixPair reports whether one of a and b is a prefix of the other, the shorter having at
// least 3 letters.
func isPrefixPair(a, b []rune) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 3 && slices.Equal(a, b[:len(a)])
}

// distance is the optimal string alignment distance of a and b: the fewest insertions,
// deletions, substitutions and transpositions of adjacent letters that turn a into b.
func distance(a, b []rune) int {
	// Three rows of the dynamic programme: two back (for transpositions), one back, current.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
