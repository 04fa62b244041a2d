// Package intl implements the parts of ECMA-402 (the ECMAScript Internationalization API) that
// jsruntime exposes as Intl, for a fixed set of locales whose CLDR data is generated into
// tables.go (see gen.go). It knows nothing of goja: jsruntime converts options and values.
//
// Output is meant to match V8 with ICU 78 / CLDR 48 byte for byte for the supported locales;
// what it cannot match it refuses with a *RangeError rather than formatting differently.
package intl

//go:generate go run gen.go -cldr /tmp/cldr/node_modules

// localeData is one supported locale's CLDR data (resolved, so nothing is inherited at run
// time).
type localeData struct {
	// Tag is the locale's canonical BCP 47 tag ("en-US").
	Tag string
	Num numberData
	Cal calendarData
	// Cardinal and Ordinal are the plural rules by category ("one": "i = 1 and v = 0"), from
	// CLDR's supplemental plurals.json and ordinals.json.
	Cardinal, Ordinal map[string]string
	// Lists are the list patterns by type and style ("standard", "standard-short", "or", ...).
	Lists map[string]listPatterns
	// Relative are the relative-time fields by unit and style ("day", "day-short", ...).
	Relative map[string]relativeField
	// Units are the unit patterns of ECMA-402's sanctioned units and of the X-per-Y units
	// CLDR has, by width and unit ("long/meter", "short/kilometer-per-hour").
	Units map[string]unitPatterns
	// UnitPer is the compound "per" pattern ("{0} per {1}") by width.
	UnitPer map[string]string
}

// unitPatterns are one unit's patterns in one width.
type unitPatterns struct {
	// Count are the patterns by plural category ("one": "{0} meter").
	Count map[string]string
	// Per is the pattern for this unit as a denominator ("{0} per hour"), if CLDR has one.
	Per string
}

// numberData are the number symbols and patterns of the latn numbering system.
type numberData struct {
	Decimal, Group, Minus, Plus, Percent, Infinity, NaN, Exponential string
	// MinGrouping is CLDR's minimumGroupingDigits.
	MinGrouping int
	// Patterns: the standard decimal, percent, currency and accounting patterns, and the
	// currency ones CLDR gives for symbols that are letters next to the number.
	DecimalPattern, PercentPattern, CurrencyPattern, AccountingPattern string
	CurrencyAlphaPattern, AccountingAlphaPattern                       string
	// CurrencySpacing is inserted between a currency symbol and a digit when the symbol's
	// adjacent character is neither a symbol nor a separator (CLDR currencySpacing).
	CurrencySpacing string
	// CurrencyUnitPattern is the "{0} {1}" pattern by plural category for currencyDisplay name.
	CurrencyUnitPattern map[string]string
	// Currencies are the currency names by ISO code.
	Currencies map[string]currencyNames
	// CompactShort and CompactLong are the compact decimal patterns by magnitude ("1000") and
	// plural category ("1000/one").
	CompactShort, CompactLong map[string]string
}

// currencyNames are one currency's display names in a locale.
type currencyNames struct {
	Symbol, Narrow string
	// Name is the display name by plural category ("" is the count-less name).
	Name map[string]string
}

// calendarData is the Gregorian calendar's names and patterns.
type calendarData struct {
	// Months and Days are indexed [context][width][i]: context 0 format, 1 stand-alone; width 0
	// abbreviated, 1 narrow, 2 wide.
	Months [2][3][12]string
	Days   [2][3][7]string
	// DayPeriods are AM and PM by width (format context).
	DayPeriods [3][2]string
	// Eras are BC and AD by width.
	Eras [3][2]string
	// DateFormats, TimeFormats, DateTimeFormats and DateTimeAtTime are indexed full, long,
	// medium, short.
	DateFormats, TimeFormats, DateTimeFormats, DateTimeAtTime [4]string
	// Available are CLDR's availableFormats: skeleton to pattern.
	Available map[string]string
	// AppendZone is the appendItems pattern that adds a time zone to a pattern without one.
	AppendZone string
	// HourCycle is the region's preferred hour symbol ("h" or "H"), from timeData.
	HourCycle string
	// GMTFormat, GMTZero and HourFormat build localized GMT offsets.
	GMTFormat, GMTZero, HourFormat string
	// ZoneNames are metazone names where the locale has them: short standard, short daylight,
	// long standard, long daylight.
	ZoneNames map[string][4]string
	// ZoneSpecific are zone-specific names, as ZoneNames, by IANA zone ("Etc/UTC": UTC),
	// which win over metazone names.
	ZoneSpecific map[string][4]string
}

// listPatterns are one list style's patterns.
type listPatterns struct {
	Start, Middle, End, Two string
}

// relativeField is one unit's relative-time data in one style.
type relativeField struct {
	// Literal are the named offsets ("-1": "yesterday").
	Literal map[string]string
	// Future and Past are by plural category.
	Future, Past map[string]string
}
