package intl

import (
	"strings"
	"unicode"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// Collator is a resolved Intl.Collator, comparing with golang.org/x/text/collate (CLDR root
// collation and the locale's tailoring).
type Collator struct {
	loc         Locale
	sensitivity string
	numeric     bool
	ignorePunct bool
	c           *collate.Collator
	reordered   []*unicode.RangeTable
}

// NewCollator resolves options as InitializeCollator does.
func NewCollator(loc Locale, o Options) (*Collator, error) {
	const ctor = "Intl.Collator"
	usage, err := getString(o, ctor, "usage", []string{"sort", "search"}, "sort")
	if err != nil {
		return nil, err
	}
	if usage != "sort" {
		return nil, rangeErrorf("Intl.Collator: usage %q is not supported by this runtime (only sort)", usage)
	}
	if _, err := getString(o, ctor, "localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	if co, ok, err := o.String("collation"); err != nil {
		return nil, err
	} else if ok && co != "default" {
		return nil, rangeErrorf("Intl.Collator: collation %q is not supported by this runtime", co)
	}
	cl := &Collator{loc: loc}
	numeric, _, err := o.Bool("numeric")
	if err != nil {
		return nil, err
	}
	cl.numeric = numeric
	caseFirst, err := getString(o, ctor, "caseFirst", []string{"upper", "lower", "false"}, "false")
	if err != nil {
		return nil, err
	}
	if caseFirst != "false" {
		return nil, rangeErrorf("Intl.Collator: caseFirst %q is not supported by this runtime", caseFirst)
	}
	if cl.sensitivity, err = getString(o, ctor, "sensitivity", []string{"base", "accent", "case", "variant"}, "variant"); err != nil {
		return nil, err
	}
	ip, _, err := o.Bool("ignorePunctuation")
	if err != nil {
		return nil, err
	}
	cl.ignorePunct = ip
	var opts []collate.Option
	switch cl.sensitivity {
	case "base":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreDiacritics)
	case "accent":
		opts = append(opts, collate.IgnoreCase)
	case "case":
		// ICU's case level (case differences count, accents do not) has no equivalent in
		// x/text: IgnoreDiacritics still orders case above accents differently.
		return nil, rangeErrorf("Intl.Collator: sensitivity \"case\" is not supported by this runtime")
	}
	if cl.numeric {
		opts = append(opts, collate.Numeric)
	}
	if cl.ignorePunct {
		return nil, rangeErrorf("Intl.Collator: ignorePunctuation is not supported by this runtime")
	}
	tag := language.MustParse(loc.data.Tag)
	cl.c = collate.New(tag, opts...)
	cl.reordered = reorderedScripts[strings.Split(loc.data.Tag, "-")[0]]
	return cl, nil
}

// reorderedScripts are the scripts CLDR 48's tailorings sort before Latin ([reorder ...]),
// which x/text's CLDR 23 tables do not: comparisons between these and other letters are
// refused.
var reorderedScripts = map[string][]*unicode.RangeTable{
	"ru": {unicode.Cyrillic},
	"ja": {unicode.Hiragana, unicode.Katakana, unicode.Han},
	"zh": {unicode.Han, unicode.Bopomofo},
}

// letterScripts reports whether s has letters in the reordered scripts and letters outside
// them.
func letterScripts(s string, reordered []*unicode.RangeTable) (in, out bool) {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		if unicode.In(r, reordered...) {
			in = true
		} else {
			out = true
		}
	}
	return in, out
}

// Compare compares a and b: -1, 0 or 1. Under a locale that reorders scripts, strings whose
// letters mix a reordered script with another are refused: their order would differ from V8's.
func (cl *Collator) Compare(a, b string) (int, error) {
	if cl.reordered != nil {
		ain, aout := letterScripts(a, cl.reordered)
		bin, bout := letterScripts(b, cl.reordered)
		if (ain || bin) && (aout || bout) {
			return 0, rangeErrorf("Intl.Collator: %s sorts its script before Latin and other scripts (CLDR script reordering), which this runtime does not implement: comparing %.20q with %.20q is refused",
				cl.loc.Tag, a, b)
		}
	}
	return cl.c.CompareString(a, b), nil
}

// ResolvedOptions returns resolvedOptions() in V8's order.
func (cl *Collator) ResolvedOptions() []Field {
	return []Field{{"locale", cl.loc.Tag}, {"usage", "sort"}, {"sensitivity", cl.sensitivity},
		{"ignorePunctuation", cl.ignorePunct}, {"collation", "default"}, {"numeric", cl.numeric}, {"caseFirst", "false"}}
}
