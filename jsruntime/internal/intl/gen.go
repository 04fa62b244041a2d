//go:build ignore

// gen reads CLDR 48 JSON (the npm packages cldr-core, cldr-numbers-full, cldr-dates-full,
// cldr-misc-full, cldr-units-full at 48.0.0, the CLDR version of Node 22's ICU 78) and writes tables.go with the
// data of the supported locales. Regenerate with:
//
//	mkdir -p /tmp/cldr && cd /tmp/cldr && npm install cldr-core@48.0.0 cldr-numbers-full@48.0.0 \
//	    cldr-dates-full@48.0.0 cldr-misc-full@48.0.0 cldr-units-full@48.0.0
//	cd jsruntime/internal/intl && go generate
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// supported are the locales generated, with the CLDR directory each one's data comes from.
var supported = []struct{ tag, dir, region string }{
	{"en-US", "en", "US"}, {"en-GB", "en-GB", "GB"}, {"de-DE", "de", "DE"}, {"fr-FR", "fr", "FR"},
	{"es-ES", "es", "ES"}, {"ja-JP", "ja", "JP"}, {"zh-CN", "zh", "CN"}, {"ru-RU", "ru", "RU"},
	{"pt-BR", "pt", "BR"}, {"sv-SE", "sv", "SE"},
}

var root string

type obj = map[string]any

func load(path string) obj {
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		log.Fatal(err)
	}
	var o obj
	if err := json.Unmarshal(b, &o); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	return o
}

// get walks keys; it fails loudly on a missing key.
func get(o any, keys ...string) any {
	for _, k := range keys {
		m, ok := o.(obj)
		if !ok {
			log.Fatalf("not an object at %q of %v", k, keys)
		}
		if o, ok = m[k]; !ok {
			log.Fatalf("missing %q of %v", k, keys)
		}
	}
	return o
}

func str(o any, keys ...string) string { return get(o, keys...).(string) }

func opt(o any, keys ...string) string {
	for _, k := range keys {
		m, ok := o.(obj)
		if !ok {
			return ""
		}
		if o, ok = m[k]; !ok {
			return ""
		}
	}
	s, _ := o.(string)
	return s
}

// counted collects prefix-count-X keys of o into a map by X.
func counted(o obj, prefix string) map[string]string {
	out := map[string]string{}
	for k, v := range o {
		if c, ok := strings.CutPrefix(k, prefix+"-count-"); ok {
			out[c] = v.(string)
		}
	}
	return out
}

// zoneNames are a zone's or metazone's short and long, standard and daylight names.
func zoneNames(v any) [4]string {
	return [4]string{noValue(opt(v, "short", "standard")), noValue(opt(v, "short", "daylight")),
		noValue(opt(v, "long", "standard")), noValue(opt(v, "long", "daylight"))}
}

// noValue drops CLDR's "no value" marker.
func noValue(s string) string {
	if s == "∅∅∅" {
		return ""
	}
	return s
}

func rules(o obj) map[string]string {
	out := map[string]string{}
	for k, v := range o {
		c, _ := strings.CutPrefix(k, "pluralRule-count-")
		r := v.(string)
		if i := strings.Index(r, "@"); i >= 0 {
			r = r[:i]
		}
		out[c] = strings.TrimSpace(r)
	}
	return out
}

func main() {
	flag.StringVar(&root, "cldr", "", "node_modules directory holding the cldr-* packages")
	flag.Parse()
	if root == "" {
		log.Fatal("-cldr is required")
	}
	digits := get(load("cldr-core/supplemental/currencyData.json"), "supplemental", "currencyData", "fractions").(obj)
	cardinal := get(load("cldr-core/supplemental/plurals.json"), "supplemental", "plurals-type-cardinal").(obj)
	ordinal := get(load("cldr-core/supplemental/ordinals.json"), "supplemental", "plurals-type-ordinal").(obj)
	timeData := get(load("cldr-core/supplemental/timeData.json"), "supplemental", "timeData").(obj)
	mz := get(load("cldr-core/supplemental/metaZones.json"), "supplemental", "metaZones", "metazoneInfo", "timezone").(obj)

	var locales []localeData
	for _, s := range supported {
		lang := strings.Split(s.dir, "-")[0]
		n := get(load("cldr-numbers-full/main/"+s.dir+"/numbers.json"), "main", s.dir, "numbers").(obj)
		sym := get(n, "symbols-numberSystem-latn")
		cur := get(n, "currencyFormats-numberSystem-latn").(obj)
		nd := numberData{
			Decimal: str(sym, "decimal"), Group: str(sym, "group"), Minus: str(sym, "minusSign"),
			Plus: str(sym, "plusSign"), Percent: str(sym, "percentSign"), Infinity: str(sym, "infinity"),
			NaN: str(sym, "nan"), Exponential: str(sym, "exponential"),
			DecimalPattern:         str(n, "decimalFormats-numberSystem-latn", "standard"),
			PercentPattern:         str(n, "percentFormats-numberSystem-latn", "standard"),
			CurrencyPattern:        str(cur, "standard"),
			AccountingPattern:      str(cur, "accounting"),
			CurrencyAlphaPattern:   opt(cur, "standard-alphaNextToNumber"),
			AccountingAlphaPattern: opt(cur, "accounting-alphaNextToNumber"),
			CurrencySpacing:        str(cur, "currencySpacing", "beforeCurrency", "insertBetween"),
			CurrencyUnitPattern:    counted(cur, "unitPattern"),
			Currencies:             map[string]currencyNames{},
			CompactShort:           map[string]string{},
			CompactLong:            map[string]string{},
		}
		fmt.Sscan(str(n, "minimumGroupingDigits"), &nd.MinGrouping)
		for k, v := range get(n, "decimalFormats-numberSystem-latn", "short", "decimalFormat").(obj) {
			nd.CompactShort[strings.Replace(k, "-count-", "/", 1)] = v.(string)
		}
		for k, v := range get(n, "decimalFormats-numberSystem-latn", "long", "decimalFormat").(obj) {
			nd.CompactLong[strings.Replace(k, "-count-", "/", 1)] = v.(string)
		}
		curs := get(load("cldr-numbers-full/main/"+s.dir+"/currencies.json"), "main", s.dir, "numbers", "currencies").(obj)
		for code, v := range curs {
			o := v.(obj)
			names := counted(o, "displayName")
			names[""] = opt(o, "displayName")
			nd.Currencies[code] = currencyNames{Symbol: opt(o, "symbol"), Narrow: opt(o, "symbol-alt-narrow"), Name: names}
		}

		g := get(load("cldr-dates-full/main/"+s.dir+"/ca-gregorian.json"), "main", s.dir, "dates", "calendars", "gregorian").(obj)
		var cd calendarData
		widths := []string{"abbreviated", "narrow", "wide"}
		contexts := []string{"format", "stand-alone"}
		dayKeys := []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
		for c, ctx := range contexts {
			for w, width := range widths {
				for i := range 12 {
					cd.Months[c][w][i] = str(g, "months", ctx, width, fmt.Sprint(i+1))
				}
				for i, d := range dayKeys {
					cd.Days[c][w][i] = str(g, "days", ctx, width, d)
				}
			}
		}
		for w, width := range widths {
			cd.DayPeriods[w] = [2]string{str(g, "dayPeriods", "format", width, "am"), str(g, "dayPeriods", "format", width, "pm")}
		}
		for w, k := range []string{"eraAbbr", "eraNarrow", "eraNames"} {
			cd.Eras[w] = [2]string{str(g, "eras", k, "0"), str(g, "eras", k, "1")}
		}
		for i, st := range []string{"full", "long", "medium", "short"} {
			cd.DateFormats[i] = str(g, "dateFormats", st)
			cd.TimeFormats[i] = str(g, "timeFormats", st)
			cd.DateTimeFormats[i] = str(g, "dateTimeFormats", st)
			cd.DateTimeAtTime[i] = opt(g, "dateTimeFormats-atTime", "standard", st)
		}
		cd.AppendZone = str(g, "dateTimeFormats", "appendItems", "Timezone")
		cd.Available = map[string]string{}
		for k, v := range get(g, "dateTimeFormats", "availableFormats").(obj) {
			if strings.Contains(k, "-alt-") || strings.Contains(k, "-count-") {
				continue
			}
			cd.Available[k] = v.(string)
		}
		td, ok := timeData[s.region].(obj)
		if !ok {
			td = timeData["001"].(obj)
		}
		cd.HourCycle = str(td, "_preferred")
		tz := get(load("cldr-dates-full/main/"+s.dir+"/timeZoneNames.json"), "main", s.dir, "dates", "timeZoneNames").(obj)
		cd.GMTFormat, cd.GMTZero, cd.HourFormat = str(tz, "gmtFormat"), str(tz, "gmtZeroFormat"), str(tz, "hourFormat")
		cd.ZoneNames = map[string][4]string{}
		cd.ZoneSpecific = map[string][4]string{}
		var zones func(prefix string, o obj)
		zones = func(prefix string, o obj) {
			for k, v := range o {
				vo, ok := v.(obj)
				if !ok {
					continue
				}
				if _, leaf := vo["_type"]; leaf || vo["short"] != nil || vo["long"] != nil || vo["exemplarCity"] != nil {
					if n := zoneNames(vo); n != [4]string{} {
						cd.ZoneSpecific[prefix+k] = n
					}
					continue
				}
				zones(prefix+k+"/", vo)
			}
		}
		if z, ok := tz["zone"].(obj); ok {
			zones("", z)
		}
		if metas, ok := tz["metazone"].(obj); ok {
			for name, v := range metas {
				if n := zoneNames(v); n != [4]string{} {
					cd.ZoneNames[name] = n
				}
			}
		}

		ld := localeData{Tag: s.tag, Num: nd, Cal: cd,
			Cardinal: rules(cardinal[lang].(obj)), Ordinal: rules(ordinal[lang].(obj)),
			Lists: map[string]listPatterns{}, Relative: map[string]relativeField{}}
		lp := get(load("cldr-misc-full/main/"+s.dir+"/listPatterns.json"), "main", s.dir, "listPatterns").(obj)
		for k, v := range lp {
			name, _ := strings.CutPrefix(k, "listPattern-type-")
			ld.Lists[name] = listPatterns{Start: str(v, "start"), Middle: str(v, "middle"), End: str(v, "end"), Two: str(v, "2")}
		}
		fields := get(load("cldr-dates-full/main/"+s.dir+"/dateFields.json"), "main", s.dir, "dates", "fields").(obj)
		for _, unit := range []string{"year", "quarter", "month", "week", "day", "hour", "minute", "second"} {
			for _, style := range []string{"", "-short", "-narrow"} {
				f := fields[unit+style].(obj)
				rf := relativeField{Literal: map[string]string{}}
				for k, v := range f {
					if off, ok := strings.CutPrefix(k, "relative-type-"); ok {
						rf.Literal[off] = v.(string)
					}
				}
				if fu, ok := f["relativeTime-type-future"].(obj); ok {
					rf.Future = counted(fu, "relativeTimePattern")
					rf.Past = counted(f["relativeTime-type-past"].(obj), "relativeTimePattern")
				}
				ld.Relative[unit+style] = rf
			}
		}
		units := get(load("cldr-units-full/main/"+s.dir+"/units.json"), "main", s.dir, "units").(obj)
		ld.Units, ld.UnitPer = map[string]unitPatterns{}, map[string]string{}
		for _, width := range []string{"long", "short", "narrow"} {
			wo := get(units, width).(obj)
			ld.UnitPer[width] = str(wo, "per", "compoundUnitPattern")
			for k, v := range wo {
				// Keys are category-unit ("length-meter", "speed-kilometer-per-hour").
				_, name, ok := strings.Cut(k, "-")
				if !ok || !sanctionedOrPer(name) {
					continue
				}
				vo := v.(obj)
				ld.Units[width+"/"+name] = unitPatterns{Count: counted(vo, "unitPattern"), Per: opt(vo, "perUnitPattern")}
			}
		}
		locales = append(locales, ld)
	}

	curDigits := map[string]int{}
	for code, v := range digits {
		var d int
		fmt.Sscan(str(v, "_digits"), &d)
		if code != "DEFAULT" {
			curDigits[code] = d
		}
	}
	zoneMeta := map[string]string{}
	var walk func(prefix string, o obj)
	walk = func(prefix string, o obj) {
		for k, v := range o {
			switch v := v.(type) {
			case obj:
				walk(prefix+k+"/", v)
			case []any:
				for _, e := range v {
					u := get(e, "usesMetazone").(obj)
					if _, ended := u["_to"]; !ended {
						zoneMeta[prefix+k] = u["_mzone"].(string)
					}
				}
			}
		}
	}
	walk("", mz)

	var b bytes.Buffer
	b.WriteString("// Code generated by gen.go from CLDR 48.0.0 JSON; DO NOT EDIT.\n\npackage intl\n\n")
	b.WriteString("// locales are the supported locales' data, in the order of supported tags.\n")
	fmt.Fprintf(&b, "var locales = %#v\n\n", locales)
	b.WriteString("// currencyDigits are ISO 4217 minor-unit digits where they differ from 2 (CLDR currencyData).\n")
	fmt.Fprintf(&b, "var currencyDigits = %#v\n\n", curDigits)
	b.WriteString("// zoneMeta maps IANA zones to their current CLDR metazone.\n")
	fmt.Fprintf(&b, "var zoneMeta = %#v\n", zoneMeta)
	src := strings.ReplaceAll(b.String(), "main.", "")
	out, err := format.Source([]byte(src))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("tables.go", out, 0o644); err != nil {
		log.Fatal(err)
	}
	keys := make([]string, 0, len(locales))
	for _, l := range locales {
		keys = append(keys, l.Tag)
	}
	sort.Strings(keys)
	log.Printf("wrote tables.go: %d locales %v, %d bytes", len(locales), keys, len(out))
}

// sanctionedOrPer: a unit ECMA-402 sanctions, or X-per-Y of two (CLDR has a few, such as
// kilometer-per-hour, as units of their own).
func sanctionedOrPer(u string) bool {
	sanctioned := strings.Fields(`acre bit byte celsius centimeter day degree fahrenheit fluid-ounce foot gallon
		gigabit gigabyte gram hectare hour inch kilobit kilobyte kilogram kilometer liter megabit megabyte meter
		microsecond mile mile-scandinavian milliliter millimeter millisecond minute month nanosecond ounce percent
		petabyte pound second stone terabit terabyte week yard year`)
	in := func(s string) bool {
		for _, x := range sanctioned {
			if x == s {
				return true
			}
		}
		return false
	}
	if x, y, ok := strings.Cut(u, "-per-"); ok {
		return in(x) && in(y)
	}
	return in(u)
}

// The types below are a copy of types.go's (this program is package main): tables.go, which
// compiles against types.go, fails to build if they drift apart.

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
