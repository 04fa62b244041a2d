package intl

import (
	"slices"
	"strings"
	"unicode"
)

// sanctionedUnits are ECMA-402's sanctioned simple unit identifiers (sorted).
var sanctionedUnits = []string{"acre", "bit", "byte", "celsius", "centimeter", "day", "degree", "fahrenheit",
	"fluid-ounce", "foot", "gallon", "gigabit", "gigabyte", "gram", "hectare", "hour", "inch", "kilobit",
	"kilobyte", "kilogram", "kilometer", "liter", "megabit", "megabyte", "meter", "microsecond", "mile",
	"mile-scandinavian", "milliliter", "millimeter", "millisecond", "minute", "month", "nanosecond", "ounce",
	"percent", "petabyte", "pound", "second", "stone", "terabit", "terabyte", "week", "yard", "year"}

func isSanctionedUnit(u string) bool {
	_, ok := slices.BinarySearch(sanctionedUnits, u)
	return ok
}

// wellFormedUnit is IsWellFormedUnitIdentifier: a sanctioned unit or X-per-Y of two.
func wellFormedUnit(u string) bool {
	if isSanctionedUnit(u) {
		return true
	}
	x, y, ok := strings.Cut(u, "-per-")
	return ok && isSanctionedUnit(x) && isSanctionedUnit(y)
}

// unitPatterns resolves unit's patterns by plural category in width ("long", "short",
// "narrow") as ICU's LongNameHandler does: CLDR's own entry for the unit if it has one; for
// X-per-Y otherwise, X's patterns placed in Y's perUnitPattern, or, where Y has none, in the
// compound "per" pattern with Y's singular name.
func (l *localeData) unitPatterns(unit, width string) map[string]string {
	if u, ok := l.Units[width+"/"+unit]; ok {
		return u.Count
	}
	x, y, _ := strings.Cut(unit, "-per-")
	num, den := l.Units[width+"/"+x], l.Units[width+"/"+y]
	out := make(map[string]string, len(num.Count))
	if den.Per != "" {
		for cat, p := range num.Count {
			out[cat] = strings.Replace(den.Per, "{0}", p, 1)
		}
		return out
	}
	one, ok := den.Count["one"]
	if !ok {
		one = den.Count["other"]
	}
	name := strings.TrimFunc(strings.Replace(one, "{0}", "", 1), unicode.IsSpace)
	per := strings.Replace(l.UnitPer[width], "{1}", name, 1)
	for cat, p := range num.Count {
		out[cat] = strings.Replace(per, "{0}", p, 1)
	}
	return out
}

// unitParts places number into pattern's "{0}"; the text around it is "unit" parts, with the
// white space at their edges as "literal" parts.
func unitParts(pattern string, number []Part) []Part {
	before, after, _ := strings.Cut(pattern, "{0}")
	var out []Part
	out = appendUnitText(out, before)
	out = append(out, number...)
	return appendUnitText(out, after)
}

func appendUnitText(out []Part, s string) []Part {
	if s == "" {
		return out
	}
	trimmed := strings.TrimLeftFunc(s, unicode.IsSpace)
	if lead := s[:len(s)-len(trimmed)]; lead != "" {
		out = append(out, Part{Type: "literal", Value: lead})
	}
	core := strings.TrimRightFunc(trimmed, unicode.IsSpace)
	if core != "" {
		out = append(out, Part{Type: "unit", Value: core})
	}
	if trail := trimmed[len(core):]; trail != "" {
		out = append(out, Part{Type: "literal", Value: trail})
	}
	return out
}
