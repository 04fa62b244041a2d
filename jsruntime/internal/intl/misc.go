package intl

import (
	"math"
	"sort"
	"strings"
)

// PluralRules is a resolved Intl.PluralRules.
type PluralRules struct {
	typ string
	nf  *NumberFormat
}

// NewPluralRules resolves options as InitializePluralRules does.
func NewPluralRules(loc Locale, o Options) (*PluralRules, error) {
	const ctor = "Intl.PluralRules"
	if _, err := getString(o, ctor, "localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	typ, err := getString(o, ctor, "type", []string{"cardinal", "ordinal"}, "cardinal")
	if err != nil {
		return nil, err
	}
	nf := &NumberFormat{loc: loc, style: "decimal", notation: "standard", useGrouping: "false", signDisplay: "auto"}
	if err := nf.setDigitOptions(o, 0, 3); err != nil {
		return nil, err
	}
	return &PluralRules{typ: typ, nf: nf}, nil
}

func (pr *PluralRules) rules() map[string]string {
	if pr.typ == "ordinal" {
		return pr.nf.loc.data.Ordinal
	}
	return pr.nf.loc.data.Cardinal
}

// Select returns n's plural category.
func (pr *PluralRules) Select(n Number) string {
	d := n.d
	if d.nan || d.inf {
		return "other"
	}
	d.neg = false
	pr.nf.round(&d)
	ip, fp := d.intFrac()
	if fl := pr.nf.fractionLen(d, fp); fl > len(fp) {
		fp += strings.Repeat("0", fl-len(fp))
	}
	return pluralCategory(pr.rules(), operandsOf(ip, fp))
}

// ResolvedOptions returns resolvedOptions() in V8's order.
func (pr *PluralRules) ResolvedOptions() []Field {
	var cats []string
	for c := range pr.rules() {
		if c != "other" {
			cats = append(cats, c)
		}
	}
	sort.Strings(cats)
	cats = append(cats, "other")
	nf := pr.nf
	// Plural rules exist per language: V8 (ICU) resolves the locale to its language.
	lang, _, _ := strings.Cut(nf.loc.Tag, "-")
	f := []Field{{"locale", lang}, {"type", pr.typ}, {"minimumIntegerDigits", nf.minInt}}
	if nf.sigDigits {
		f = append(f, Field{"minimumSignificantDigits", nf.minSD}, Field{"maximumSignificantDigits", nf.maxSD})
	} else {
		f = append(f, Field{"minimumFractionDigits", nf.minFD}, Field{"maximumFractionDigits", nf.maxFD})
	}
	return append(f, Field{"pluralCategories", cats}, Field{"roundingIncrement", 1}, Field{"roundingMode", nf.roundingMode},
		Field{"roundingPriority", "auto"}, Field{"trailingZeroDisplay", nf.trailingZeroDisplay})
}

// ListFormat is a resolved Intl.ListFormat.
type ListFormat struct {
	loc         Locale
	typ, style  string
	patterns    listPatterns
	spanishList bool
}

// NewListFormat resolves options as Intl.ListFormat's constructor does.
func NewListFormat(loc Locale, o Options) (*ListFormat, error) {
	const ctor = "Intl.ListFormat"
	if _, err := getString(o, ctor, "localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	lf := &ListFormat{loc: loc}
	var err error
	if lf.typ, err = getString(o, ctor, "type", []string{"conjunction", "disjunction", "unit"}, "conjunction"); err != nil {
		return nil, err
	}
	if lf.style, err = getString(o, ctor, "style", []string{"long", "short", "narrow"}, "long"); err != nil {
		return nil, err
	}
	key := map[string]string{"conjunction": "standard", "disjunction": "or", "unit": "unit"}[lf.typ]
	if lf.style != "long" {
		key += "-" + lf.style
	}
	lf.patterns = loc.data.Lists[key]
	lf.spanishList = strings.HasPrefix(loc.data.Tag, "es-")
	return lf, nil
}

// FormatToParts joins items.
func (lf *ListFormat) FormatToParts(items []string) []Part {
	n := len(items)
	switch n {
	case 0:
		return nil
	case 1:
		return []Part{{Type: "element", Value: items[0]}}
	}
	// Built from the end: the last two with the end (or two-item) pattern, then middles, then
	// the start.
	pat := lf.patterns.End
	if n == 2 {
		pat = lf.patterns.Two
	}
	parts := lf.apply(pat, []Part{{Type: "element", Value: items[n-2]}}, []Part{{Type: "element", Value: items[n-1]}}, items[n-1])
	for i := n - 3; i >= 0; i-- {
		pat := lf.patterns.Middle
		if i == 0 {
			pat = lf.patterns.Start
		}
		parts = lf.apply(pat, []Part{{Type: "element", Value: items[i]}}, parts, items[i+1])
	}
	return parts
}

// apply substitutes a and b into a "{0}…{1}" pattern; next is the item after the joint (for
// Spanish, whose "y" and "o" change before some sounds, as ICU does).
func (lf *ListFormat) apply(pat string, a, b []Part, next string) []Part {
	i0, i1 := strings.Index(pat, "{0}"), strings.Index(pat, "{1}")
	mid := pat[i0+3 : i1]
	if lf.spanishList {
		mid = spanishJoint(mid, next)
	}
	var out []Part
	if i0 > 0 {
		out = append(out, Part{Type: "literal", Value: pat[:i0]})
	}
	out = append(out, a...)
	if mid != "" {
		out = append(out, Part{Type: "literal", Value: mid})
	}
	out = append(out, b...)
	if rest := pat[i1+3:]; rest != "" {
		out = append(out, Part{Type: "literal", Value: rest})
	}
	return out
}

// spanishJoint is ICU's Spanish rule: "y" becomes "e" before an /i/ sound ("i", "hi", not
// "hie"), "o" becomes "u" before an /o/ sound ("o", "ho", "8", "11").
func spanishJoint(mid, next string) string {
	lower := strings.ToLower(next)
	switch mid {
	case " y ":
		if (strings.HasPrefix(lower, "i") || strings.HasPrefix(lower, "í") || strings.HasPrefix(lower, "hi") || strings.HasPrefix(lower, "hí")) &&
			!strings.HasPrefix(lower, "hia") && !strings.HasPrefix(lower, "hie") && !strings.HasPrefix(lower, "hio") && !strings.HasPrefix(lower, "hiu") {
			return " e "
		}
	case " o ":
		if strings.HasPrefix(lower, "o") || strings.HasPrefix(lower, "ó") || strings.HasPrefix(lower, "ho") || strings.HasPrefix(lower, "hó") ||
			strings.HasPrefix(lower, "8") || lower == "11" || strings.HasPrefix(lower, "11 ") || strings.HasPrefix(lower, "11.") || strings.HasPrefix(lower, "11,") {
			return " u "
		}
	}
	return mid
}

// ResolvedOptions returns resolvedOptions() in V8's order.
func (lf *ListFormat) ResolvedOptions() []Field {
	return []Field{{"locale", lf.loc.Tag}, {"type", lf.typ}, {"style", lf.style}}
}

// RelativeTimeFormat is a resolved Intl.RelativeTimeFormat.
type RelativeTimeFormat struct {
	loc            Locale
	style, numeric string
	nf             *NumberFormat
}

// NewRelativeTimeFormat resolves options as Intl.RelativeTimeFormat's constructor does.
func NewRelativeTimeFormat(loc Locale, o Options) (*RelativeTimeFormat, error) {
	const ctor = "Intl.RelativeTimeFormat"
	if _, err := getString(o, ctor, "localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	if nu, ok, err := o.String("numberingSystem"); err != nil {
		return nil, err
	} else if ok && nu != "latn" {
		return nil, rangeErrorf("Intl.RelativeTimeFormat: numberingSystem %q is not supported (only latn)", nu)
	}
	rf := &RelativeTimeFormat{loc: loc}
	var err error
	if rf.style, err = getString(o, ctor, "style", []string{"long", "short", "narrow"}, "long"); err != nil {
		return nil, err
	}
	if rf.numeric, err = getString(o, ctor, "numeric", []string{"always", "auto"}, "always"); err != nil {
		return nil, err
	}
	if rf.nf, err = NewNumberFormat(loc, NoOptions{}); err != nil {
		return nil, err
	}
	return rf, nil
}

var relativeUnits = []string{"year", "quarter", "month", "week", "day", "hour", "minute", "second"}

// FormatToParts formats value units from now.
func (rf *RelativeTimeFormat) FormatToParts(value float64, unit string) ([]Part, error) {
	u := strings.TrimSuffix(unit, "s")
	known := false
	for _, k := range relativeUnits {
		known = known || k == u
	}
	if !known {
		return nil, rangeErrorf("Invalid unit argument for format() '%s'", unit)
	}
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return nil, rangeErrorf("Invalid value: %v", value)
	}
	key := u
	if rf.style != "long" {
		key += "-" + rf.style
	}
	field := rf.loc.data.Relative[key]
	past := value < 0 || (value == 0 && math.Signbit(value))
	if rf.numeric == "auto" {
		if v := value; v == math.Trunc(v) && math.Abs(v) <= 3 {
			if lit, ok := field.Literal[formatInt(int(v))]; ok {
				return []Part{{Type: "literal", Value: lit}}, nil
			}
		}
	}
	abs := math.Abs(value)
	num := rf.nf.FormatToParts(Float(abs))
	d := Float(abs).d
	rf.nf.round(&d)
	ip, fp := d.intFrac()
	cat := pluralCategory(rf.loc.data.Cardinal, operandsOf(ip, fp))
	pats := field.Future
	if past {
		pats = field.Past
	}
	pat, ok := pats[cat]
	if !ok {
		pat = pats["other"]
	}
	for i := range num {
		num[i].Unit = u
	}
	i := strings.Index(pat, "{0}")
	var out []Part
	if i > 0 {
		out = append(out, Part{Type: "literal", Value: pat[:i]})
	}
	out = append(out, num...)
	if rest := pat[i+3:]; rest != "" {
		out = append(out, Part{Type: "literal", Value: rest})
	}
	return out, nil
}

func formatInt(i int) string {
	if i < 0 {
		return "-" + formatInt(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return formatInt(i/10) + string(rune('0'+i%10))
}

// ResolvedOptions returns resolvedOptions() in V8's order.
func (rf *RelativeTimeFormat) ResolvedOptions() []Field {
	return []Field{{"locale", rf.loc.Tag}, {"style", rf.style}, {"numeric", rf.numeric}, {"numberingSystem", "latn"}}
}
