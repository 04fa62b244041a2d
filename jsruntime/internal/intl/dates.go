package intl

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	// The IANA time zone database is embedded so that time zones resolve the same on every
	// host, whatever its /usr/share/zoneinfo holds.
	_ "time/tzdata"
)

// DefaultTimeZone is the time zone used when a program names none: fixed, not the host's, so
// that a program formats the same everywhere.
const DefaultTimeZone = "UTC"

// DateTimeFormat is a resolved Intl.DateTimeFormat.
type DateTimeFormat struct {
	loc       Locale
	zoneName  string
	zone      *time.Location
	hourCycle string // "" when the format has no hour
	dateStyle string
	timeStyle string
	// fields are the requested components, in resolvedOptions order, with their values.
	fields  []Field
	pattern string
	// explicitHC: the hourCycle option (without hour12) sets the pattern's hour letter.
	explicitHC bool
}

// withHourLetter replaces the pattern's hour letters by hc's.
func withHourLetter(p, hc string) string {
	return mapPatternFields(p, func(c byte, n int) (byte, int) {
		if fieldKind(c) == 'h' && c != 'j' {
			c = hourLetter(hc)
		}
		return c, n
	})
}

// dateComponents are the component options in the order resolvedOptions lists them.
var dateComponents = []struct {
	name    string
	allowed []string
}{
	{"weekday", []string{"narrow", "short", "long"}},
	{"era", []string{"narrow", "short", "long"}},
	{"year", []string{"2-digit", "numeric"}},
	{"month", []string{"2-digit", "numeric", "narrow", "short", "long"}},
	{"day", []string{"2-digit", "numeric"}},
	{"dayPeriod", []string{"narrow", "short", "long"}},
	{"hour", []string{"2-digit", "numeric"}},
	{"minute", []string{"2-digit", "numeric"}},
	{"second", []string{"2-digit", "numeric"}},
	{"fractionalSecondDigits", nil},
	{"timeZoneName", []string{"short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"}},
}

var styles = []string{"full", "long", "medium", "short"}

func styleIndex(s string) int {
	for i, st := range styles {
		if st == s {
			return i
		}
	}
	return -1
}

// NewDateTimeFormat resolves options as CreateDateTimeFormat does; required and defaults are
// ToDateTimeOptions' ("date", "time" or "any"; "date", "time" or "all"), as the
// toLocale*String methods pass them.
func NewDateTimeFormat(loc Locale, o Options, required, defaults string) (*DateTimeFormat, error) {
	const ctor = "Intl.DateTimeFormat"
	df := &DateTimeFormat{loc: loc}
	if _, err := getString(o, ctor, "localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	if ca, ok, err := o.String("calendar"); err != nil {
		return nil, err
	} else if ok && ca != "gregory" {
		return nil, rangeErrorf("Intl.DateTimeFormat: calendar %q is not supported (only gregory)", ca)
	}
	if nu, ok, err := o.String("numberingSystem"); err != nil {
		return nil, err
	} else if ok && nu != "latn" {
		return nil, rangeErrorf("Intl.DateTimeFormat: numberingSystem %q is not supported (only latn)", nu)
	}
	hour12, hasHour12, err := o.Bool("hour12")
	if err != nil {
		return nil, err
	}
	hc, err := getString(o, ctor, "hourCycle", []string{"h11", "h12", "h23", "h24"}, "")
	if err != nil {
		return nil, err
	}
	// An explicit hourCycle sets the hour letter; hour12 picks the locale's 12- or 24-hour
	// pattern, whose letter may be another (ja's 12-hour patterns count from 0).
	hasHC := hc != ""
	if hasHour12 {
		// The locale's 12- or 24-hour cycle: the one its hour pattern counts in (ja's
		// 12-hour clock counts from 0, h11).
		hc = "h23"
		if p := loc.data.Cal.Available["H"]; patternHour(p) == 'k' {
			hc = "h24"
		}
		if hour12 {
			hc = "h12"
			if p := loc.data.Cal.Available["h"]; patternHour(p) == 'K' {
				hc = "h11"
			}
		}
	}
	tz, hasTZ, err := o.String("timeZone")
	if err != nil {
		return nil, err
	}
	if !hasTZ {
		tz = DefaultTimeZone
	}
	if df.zoneName, df.zone, err = resolveZone(tz); err != nil {
		return nil, err
	}
	values := map[string]string{}
	for _, c := range dateComponents {
		var v string
		if c.name == "fractionalSecondDigits" {
			n, ok, err := getNumber(o, c.name, 1, 3)
			if err != nil {
				return nil, err
			}
			if ok {
				v = strconv.Itoa(n)
			}
		} else if v, err = getString(o, ctor, c.name, c.allowed, ""); err != nil {
			return nil, err
		}
		if v != "" {
			values[c.name] = v
		}
	}
	if _, err := getString(o, ctor, "formatMatcher", []string{"basic", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	if df.dateStyle, err = getString(o, ctor, "dateStyle", styles, ""); err != nil {
		return nil, err
	}
	if df.timeStyle, err = getString(o, ctor, "timeStyle", styles, ""); err != nil {
		return nil, err
	}
	for _, unsupported := range []string{"dayPeriod", "timeZoneName"} {
		v := values[unsupported]
		if v != "" && !(unsupported == "timeZoneName" && (v == "short" || v == "shortOffset" || v == "longOffset")) {
			return nil, rangeErrorf("Intl.DateTimeFormat: %s %q is not supported by this runtime", unsupported, v)
		}
	}
	cal := &loc.data.Cal
	defaultHC := "h23"
	if cal.HourCycle == "h" {
		defaultHC = "h12"
	}
	if df.dateStyle != "" || df.timeStyle != "" {
		for _, c := range dateComponents {
			if values[c.name] != "" {
				return nil, &TypeError{Msg: "Can't set option " + c.name + " when " + map[bool]string{true: "dateStyle", false: "timeStyle"}[df.dateStyle != ""] + " is used"}
			}
		}
		if required == "date" && df.timeStyle != "" && df.dateStyle == "" {
			return nil, &TypeError{Msg: "Invalid option : timeStyle"}
		}
		if required == "time" && df.dateStyle != "" && df.timeStyle == "" {
			return nil, &TypeError{Msg: "Invalid option : dateStyle"}
		}
		if df.timeStyle != "" {
			if hc == "" {
				hc = defaultHC
			}
			df.hourCycle = hc
		}
		df.explicitHC = hasHC && !hasHour12
		df.pattern, err = df.stylePattern(hc, defaultHC)
		return df, err
	}
	needDefaults := true
	if required == "date" || required == "any" {
		for _, n := range []string{"weekday", "year", "month", "day"} {
			if values[n] != "" {
				needDefaults = false
			}
		}
	}
	if required == "time" || required == "any" {
		for _, n := range []string{"dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"} {
			if values[n] != "" {
				needDefaults = false
			}
		}
	}
	if needDefaults && (defaults == "date" || defaults == "all") {
		values["year"], values["month"], values["day"] = "numeric", "numeric", "numeric"
	}
	if needDefaults && (defaults == "time" || defaults == "all") {
		values["hour"], values["minute"], values["second"] = "numeric", "numeric", "numeric"
	}
	if values["hour"] != "" {
		if hc == "" {
			hc = defaultHC
		}
		df.hourCycle = hc
	}
	skel := skeletonOf(values, hc)
	df.pattern, err = bestPattern(cal, skel, true)
	if err != nil {
		return nil, err
	}
	if hasHC && !hasHour12 {
		df.pattern = withHourLetter(df.pattern, hc)
	}
	// resolvedOptions reports what the pattern shows, as V8 does.
	df.fields = patternFields(df.pattern)
	return df, nil
}

// resolveZone resolves a timeZone option: an IANA name (UTC's aliases resolve to "UTC"), or an
// offset "+hh:mm".
func resolveZone(tz string) (string, *time.Location, error) {
	switch strings.ToUpper(tz) {
	case "UTC", "ETC/UTC", "GMT", "ETC/GMT", "ETC/UCT", "UCT", "ETC/ZULU", "ZULU", "ETC/UNIVERSAL", "UNIVERSAL", "ETC/GREENWICH", "GREENWICH", "GMT0", "ETC/GMT0", "GMT+0", "GMT-0", "ETC/GMT+0", "ETC/GMT-0":
		return "UTC", time.UTC, nil
	}
	if len(tz) > 0 && (tz[0] == '+' || tz[0] == '-' || strings.HasPrefix(tz, "\u2212")) {
		if name, loc, ok := offsetZone(tz); ok {
			return name, loc, nil
		}
		return "", nil, rangeErrorf("Invalid time zone specified: %s", tz)
	}
	if tz != "" && !strings.ContainsAny(tz, ". \\") && !strings.HasPrefix(tz, "/") {
		if loc, err := time.LoadLocation(tz); err == nil && tz != "Local" {
			return tz, loc, nil
		}
		// IANA names are case-insensitive: find the canonical spelling among the zones CLDR
		// knows.
		for name := range zoneMeta {
			if strings.EqualFold(name, tz) {
				if loc, err := time.LoadLocation(name); err == nil {
					return name, loc, nil
				}
			}
		}
	}
	return "", nil, rangeErrorf("Invalid time zone specified: %s", tz)
}

// offsetZone parses "+hh", "+hhmm" or "+hh:mm".
func offsetZone(tz string) (string, *time.Location, bool) {
	sign := 1
	switch {
	case strings.HasPrefix(tz, "+"):
		tz = tz[1:]
	case strings.HasPrefix(tz, "-"):
		sign, tz = -1, tz[1:]
	default:
		return "", nil, false
	}
	h, m := tz, "00"
	switch len(tz) {
	case 2:
	case 4:
		h, m = tz[:2], tz[2:]
	case 5:
		if tz[2] != ':' {
			return "", nil, false
		}
		h, m = tz[:2], tz[3:]
	default:
		return "", nil, false
	}
	hv, err1 := strconv.Atoi(h)
	mv, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hv > 23 || mv > 59 || h[0] == '+' || m[0] == '+' || h[0] == '-' || m[0] == '-' {
		return "", nil, false
	}
	s := "+"
	if sign < 0 {
		s = "-"
	}
	name := s + h + ":" + m
	return name, time.FixedZone(name, sign*(hv*3600+mv*60)), true
}

// skeletonOf builds the UTS #35 skeleton for the components (in canonical field order).
func skeletonOf(v map[string]string, hc string) string {
	var b strings.Builder
	w := func(s string) { b.WriteString(s) }
	switch v["era"] {
	case "short":
		w("G")
	case "long":
		w("GGGG")
	case "narrow":
		w("GGGGG")
	}
	switch v["year"] {
	case "numeric":
		w("y")
	case "2-digit":
		w("yy")
	}
	switch v["month"] {
	case "numeric":
		w("M")
	case "2-digit":
		w("MM")
	case "short":
		w("MMM")
	case "long":
		w("MMMM")
	case "narrow":
		w("MMMMM")
	}
	switch v["weekday"] {
	case "short":
		w("EEE")
	case "long":
		w("EEEE")
	case "narrow":
		w("EEEEE")
	}
	switch v["day"] {
	case "numeric":
		w("d")
	case "2-digit":
		w("dd")
	}
	if h := v["hour"]; h != "" {
		c := map[string]string{"h11": "K", "h12": "h", "h23": "H", "h24": "k"}[hc]
		if h == "2-digit" {
			c += c
		}
		w(c)
	}
	switch v["minute"] {
	case "numeric":
		w("m")
	case "2-digit":
		w("mm")
	}
	switch v["second"] {
	case "numeric":
		w("s")
	case "2-digit":
		w("ss")
	}
	if n := v["fractionalSecondDigits"]; n != "" {
		k, _ := strconv.Atoi(n)
		w(strings.Repeat("S", k))
	}
	switch v["timeZoneName"] {
	case "short":
		w("z")
	case "shortOffset":
		w("O")
	case "longOffset":
		w("OOOO")
	}
	return b.String()
}

// skelField is one field of a skeleton or pattern: its letter (normalized to its field kind)
// and length.
type skelField struct {
	kind   byte // canonical letter: G y M E d a h m s S z
	letter byte // as written
	n      int
}

// fieldKind maps pattern letters to the field they are.
func fieldKind(c byte) byte {
	switch c {
	case 'L':
		return 'M'
	case 'c', 'e':
		return 'E'
	case 'H', 'K', 'k', 'j':
		return 'h'
	case 'b', 'B':
		return 'a'
	case 'O', 'v', 'V', 'Z', 'x', 'X':
		return 'z'
	case 'Y', 'u':
		return 'y'
	}
	return c
}

func parseSkeleton(s string) []skelField {
	var out []skelField
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		out = append(out, skelField{kind: fieldKind(s[i]), letter: s[i], n: j - i})
		i = j
	}
	return out
}

// numericField reports whether a field of this letter and length is shown as a number.
func numericField(f skelField) bool {
	switch f.kind {
	case 'M', 'E':
		return f.n <= 2 && f.kind == 'M'
	case 'G', 'a', 'z':
		return false
	}
	return true
}

const dateKinds = "GyMEd"

// bestPattern is a simplified ICU DateTimePatternGenerator.getBestPattern: the available
// format whose skeleton has the requested fields and is closest in field widths, its widths
// adjusted to the request; a request no available format covers is split into its date and
// time parts, joined by the dateTimeFormat the date part's widths select. matchHour keeps the
// requested hour width (V8 asks ICU for that).
func bestPattern(cal *calendarData, skeleton string, matchHour bool) (string, error) {
	req := parseSkeleton(skeleton)
	// Fractional seconds are not in CLDR's skeletons: ICU finds the pattern without them and
	// appends them to the seconds.
	frac := 0
	for i, f := range req {
		if f.kind == 'S' {
			frac = f.n
			req = append(req[:i:i], req[i+1:]...)
			break
		}
	}
	p, err := bestJoined(cal, req, matchHour, skeleton)
	if err != nil || frac == 0 {
		return p, err
	}
	sec := false
	out := mapPatternFields(p, func(c byte, n int) (byte, int) {
		if c == 's' {
			sec = true
		}
		return c, n
	})
	if !sec {
		return "", rangeErrorf("Intl.DateTimeFormat: fractionalSecondDigits without seconds is not supported by this runtime")
	}
	var b strings.Builder
	quoted := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		b.WriteByte(c)
		if c == '\'' {
			quoted = !quoted
		}
		if !quoted && c == 's' && (i+1 == len(out) || out[i+1] != 's') {
			b.WriteString("'" + decimalSep + "'" + strings.Repeat("S", frac))
		}
	}
	return b.String(), nil
}

// decimalSep is replaced by the locale's decimal separator when the pattern is formatted.
const decimalSep = "\x00"

// bestJoined is bestPattern without fractional seconds: an available pattern with all the
// fields, else the date part's and the time part's patterns joined by the dateTimeFormat the
// date part's widths select.
func bestJoined(cal *calendarData, req []skelField, matchHour bool, skeleton string) (string, error) {
	if p, ok := bestRaw(cal, req, matchHour); ok {
		return p, nil
	}
	var date, tm []skelField
	for _, f := range req {
		if strings.IndexByte(dateKinds, f.kind) >= 0 {
			date = append(date, f)
		} else {
			tm = append(tm, f)
		}
	}
	fail := rangeErrorf("Intl.DateTimeFormat: this combination of options (skeleton %s) is not supported by this runtime", skeleton)
	tp, ok := bestTime(cal, tm, matchHour)
	if len(date) == 0 {
		if !ok {
			return "", fail
		}
		return tp, nil
	}
	dp, okd := bestRaw(cal, date, matchHour)
	if len(tm) == 0 || !ok || !okd {
		return "", fail
	}
	style := 3
	for _, f := range date {
		if f.kind == 'M' && f.n == 4 {
			style = 1
		}
		if f.kind == 'M' && f.n == 3 && style > 2 {
			style = 2
		}
	}
	for _, f := range date {
		if f.kind == 'E' && f.n == 4 && style == 1 {
			style = 0
		}
	}
	glue := cal.DateTimeAtTime[style]
	if glue == "" {
		glue = cal.DateTimeFormats[style]
	}
	return strings.NewReplacer("{1}", dp, "{0}", tp).Replace(glue), nil
}

// bestTime is the pattern for time fields: an available one, else one without the zone with
// the zone appended as ICU's appendItems do; a zone alone is shown by itself.
func bestTime(cal *calendarData, tm []skelField, matchHour bool) (string, bool) {
	if p, ok := bestRaw(cal, tm, matchHour); ok {
		return p, true
	}
	n := len(tm)
	if n == 0 || tm[n-1].kind != 'z' {
		return "", false
	}
	zone := strings.Repeat(string(tm[n-1].letter), tm[n-1].n)
	if n == 1 {
		return zone, true
	}
	if p, ok := genericZoneVariant(cal, tm, matchHour); ok {
		return p, true
	}
	p, ok := bestRaw(cal, tm[:n-1], matchHour)
	if !ok {
		return "", false
	}
	if n == 2 && tm[0].kind == 'h' {
		p = widenHourAsGenericZone(cal, p)
	}
	return strings.NewReplacer("{0}", p, "{1}", zone).Replace(cal.AppendZone), true
}

// widenHourAsGenericZone gives a 24-hour hour shown alone with a zone the width of the hour in
// the locale's "Hv" format, as V8 shows it: ru's hour alone is "H" ("3") but with a zone "03
// UTC", after its "HH 'ч'. v"; es keeps "H" ("3 UTC"), after "H 'h' v".
func widenHourAsGenericZone(cal *calendarData, p string) string {
	hv, ok := cal.Available["Hv"]
	if !ok {
		return p
	}
	width := 0
	mapPatternFields(hv, func(c byte, n int) (byte, int) {
		if c == 'H' {
			width = n
		}
		return c, n
	})
	return mapPatternFields(p, func(c byte, n int) (byte, int) {
		if c == 'H' && n < width {
			return c, width
		}
		return c, n
	})
}

// genericZoneVariant is the time pattern ICU's generator picks for time fields with a zone
// where the locale has an available format of the same fields with the generic zone ("hv",
// "Hmv"): that format, its zone field the requested one (ru "h a, v" gives "10 PM, GMT-5", zh
// "v HH:mm" gives "GMT-5 22:04"), rather than the pattern without the zone with the zone
// appended. Node 22 shows it for 12-hour hours and for hours with minutes; for a 24-hour hour
// alone it does not use the locale's "Hv" (en "HH'h' v" would give "22h EST" where V8 gives
// "22 EST"), so that case keeps the appended zone.
func genericZoneVariant(cal *calendarData, tm []skelField, matchHour bool) (string, bool) {
	n := len(tm)
	zone := tm[n-1]
	hour24Alone := n == 2 && tm[0].kind == 'h' && hourType(tm[0].letter) == 24
	if hour24Alone {
		return "", false
	}
	req := append(append([]skelField(nil), tm[:n-1]...), skelField{kind: 'z', letter: 'v', n: 1})
	p, ok := bestRaw(cal, req, matchHour)
	if !ok {
		return "", false
	}
	return mapPatternFields(p, func(c byte, k int) (byte, int) {
		if c == 'v' {
			return zone.letter, zone.n
		}
		return c, k
	}), true
}

// candidate is a pattern the generator may choose and the skeleton it was registered with.
type candidate struct {
	skel    []skelField
	pattern string
}

// candidates are ICU's generator entries: the date and time style patterns (registered first,
// with skeletons of their exact field widths, so they win ties) and the availableFormats.
func candidates(cal *calendarData) []candidate {
	var out []candidate
	for _, p := range append(cal.DateFormats[:], cal.TimeFormats[:]...) {
		sk := patternSkeleton(p)
		// An availableFormats entry with the same skeleton replaces the style pattern.
		if _, ok := cal.Available[skelString(sk)]; !ok {
			out = append(out, candidate{sk, p})
		}
	}
	keys := make([]string, 0, len(cal.Available))
	for k := range cal.Available {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, candidate{parseSkeleton(k), cal.Available[k]})
	}
	return out
}

// canonicalOrder is the order of field kinds in a skeleton.
const canonicalOrder = "GyMEdahmsSz"

// patternSkeleton is the skeleton of a pattern's fields (without day periods), in canonical
// order.
func patternSkeleton(p string) []skelField {
	var fs []skelField
	mapPatternFields(p, func(c byte, n int) (byte, int) {
		if k := fieldKind(c); k != 'a' {
			fs = append(fs, skelField{kind: k, letter: c, n: n})
		}
		return c, n
	})
	sort.SliceStable(fs, func(i, j int) bool {
		return strings.IndexByte(canonicalOrder, fs[i].kind) < strings.IndexByte(canonicalOrder, fs[j].kind)
	})
	return fs
}

// bestRaw finds the closest candidate with exactly the requested fields.
func bestRaw(cal *calendarData, req []skelField, matchHour bool) (string, bool) {
	best, bestDist := "", math.MaxInt
	var bestSkel []skelField
	for _, cand := range candidates(cal) {
		if len(cand.skel) != len(req) {
			continue
		}
		dist := 0
		for i := range req {
			c, r := cand.skel[i], req[i]
			if c.kind != r.kind {
				dist = -1
				break
			}
			if c.kind == 'h' && hourType(c.letter) != hourType(r.letter) {
				dist = -1
				break
			}
			if c.kind == 'z' && c.letter != r.letter {
				dist = -1
				break
			}
			if numericField(c) != numericField(r) {
				dist += 0x100
			}
			dist += abs(widthClass(c) - widthClass(r))
		}
		if dist >= 0 && dist < bestDist {
			best, bestDist, bestSkel = cand.pattern, dist, cand.skel
		}
	}
	if bestSkel == nil {
		return "", false
	}
	return adjustFields(best, bestSkel, req, matchHour), true
}

// widthClass is a field's width for matching: 1 to 3 letters of a text-only field (weekday,
// era, zone) are all the abbreviated form.
func widthClass(f skelField) int {
	if (f.kind == 'E' || f.kind == 'G' || f.kind == 'z') && f.n <= 3 {
		return 3
	}
	return f.n
}

// hourType groups hour letters by cycle: 12-hour (h, K) and 24-hour (H, k).
func hourType(c byte) int {
	if c == 'h' || c == 'K' {
		return 12
	}
	return 24
}

func skelString(fs []skelField) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(strings.Repeat(string(f.letter), f.n))
	}
	return b.String()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// adjustFields widens or narrows the pattern's fields to the requested widths as ICU's
// adjustFieldTypes does: a field whose matched skeleton width already equals the request
// keeps the pattern's width; numeric and text forms are not converted; minutes and seconds
// keep the pattern's width; hours take the requested width when matchHour; the hour letter
// is the requested one.
func adjustFields(pattern string, skel, req []skelField, matchHour bool) string {
	want := map[byte]skelField{}
	have := map[byte]skelField{}
	for _, f := range req {
		want[f.kind] = f
	}
	for _, f := range skel {
		have[f.kind] = f
	}
	return mapPatternFields(pattern, func(c byte, n int) (byte, int) {
		k := fieldKind(c)
		r, ok := want[k]
		if !ok {
			return c, n
		}
		if k == 'z' {
			return r.letter, r.n
		}
		if k == 'm' || k == 's' {
			return c, n
		}
		s := have[k]
		pf := skelField{kind: k, letter: c, n: n}
		if s.n == r.n || numericField(pf) != numericField(r) {
			return c, n
		}
		return c, r.n
	})
}

// mapPatternFields rewrites each field of a pattern (letters outside quotes) through f.
func mapPatternFields(p string, f func(c byte, n int) (byte, int)) string {
	var b strings.Builder
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			j := i + 1
			for j < len(p) && p[j] != '\'' {
				j++
			}
			if j < len(p) {
				j++
			}
			b.WriteString(p[i:j])
			i = j
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(p) && p[j] == c {
				j++
			}
			nc, nn := f(c, j-i)
			b.WriteString(strings.Repeat(string(nc), nn))
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// stylePattern is the pattern for dateStyle and timeStyle; an hour cycle other than the
// locale's asks the generator for the time pattern's fields with the other hour letter.
func (df *DateTimeFormat) stylePattern(hc, defaultHC string) (string, error) {
	cal := &df.loc.data.Cal
	var dp, tp string
	if df.dateStyle != "" {
		dp = cal.DateFormats[styleIndex(df.dateStyle)]
	}
	if df.timeStyle != "" {
		tp = cal.TimeFormats[styleIndex(df.timeStyle)]
		if hc != "" && hourType(hourLetter(hc)) != hourType(patternHour(tp)) {
			var sk strings.Builder
			mapPatternFields(tp, func(c byte, n int) (byte, int) {
				switch fieldKind(c) {
				case 'h':
					c = hourLetter(hc)
				case 'a':
					return c, n
				}
				sk.WriteString(strings.Repeat(string(c), n))
				return c, n
			})
			p, err := bestPattern(cal, sk.String(), true)
			if err != nil {
				return "", err
			}
			tp = p
		}
		if df.explicitHC {
			tp = withHourLetter(tp, hc)
		}
	}
	switch {
	case dp == "":
		return tp, nil
	case tp == "":
		return dp, nil
	}
	glue := cal.DateTimeAtTime[styleIndex(df.dateStyle)]
	if glue == "" {
		glue = cal.DateTimeFormats[styleIndex(df.dateStyle)]
	}
	return strings.NewReplacer("{1}", dp, "{0}", tp).Replace(glue), nil
}

func hourLetter(hc string) byte {
	return map[string]byte{"h11": 'K', "h12": 'h', "h23": 'H', "h24": 'k'}[hc]
}

func patternHour(p string) byte {
	var h byte = 'H'
	mapPatternFields(p, func(c byte, n int) (byte, int) {
		if fieldKind(c) == 'h' {
			h = c
		}
		return c, n
	})
	return h
}

// patternFields are the component options a pattern shows, as resolvedOptions reports them.
func patternFields(p string) []Field {
	got := map[string]string{}
	mapPatternFields(p, func(c byte, n int) (byte, int) {
		var name, v string
		text := map[int]string{1: "short", 2: "short", 3: "short", 4: "long", 5: "narrow"}
		num := map[int]string{1: "numeric", 2: "2-digit"}
		switch fieldKind(c) {
		case 'G':
			name, v = "era", text[n]
		case 'y':
			name, v = "year", "numeric"
			if n == 2 {
				v = "2-digit"
			}
		case 'M':
			name = "month"
			if n <= 2 {
				v = num[n]
			} else {
				v = text[n]
			}
		case 'E':
			name, v = "weekday", text[n]
			if n <= 3 {
				v = "short"
			}
		case 'd':
			name, v = "day", num[min(n, 2)]
		case 'h':
			name, v = "hour", num[min(n, 2)]
		case 'm':
			name, v = "minute", num[min(n, 2)]
		case 's':
			name, v = "second", num[min(n, 2)]
		case 'S':
			name, v = "fractionalSecondDigits", strconv.Itoa(n)
		case 'z':
			name = "timeZoneName"
			switch {
			case c == 'O' && n == 4:
				v = "longOffset"
			case c == 'O':
				v = "shortOffset"
			case n == 4:
				v = "long"
			default:
				v = "short"
			}
		}
		if name != "" {
			got[name] = v
		}
		return c, n
	})
	var out []Field
	for _, c := range dateComponents {
		if v, ok := got[c.name]; ok {
			if c.name == "fractionalSecondDigits" {
				k, _ := strconv.Atoi(v)
				out = append(out, Field{c.name, k})
				continue
			}
			out = append(out, Field{c.name, v})
		}
	}
	return out
}

// ResolvedOptions returns resolvedOptions() in V8's order.
func (df *DateTimeFormat) ResolvedOptions() []Field {
	f := []Field{{"locale", df.loc.Tag}, {"calendar", "gregory"}, {"numberingSystem", "latn"}, {"timeZone", df.zoneName}}
	if df.hourCycle != "" {
		f = append(f, Field{"hourCycle", df.hourCycle}, Field{"hour12", df.hourCycle == "h11" || df.hourCycle == "h12"})
	}
	f = append(f, df.fields...)
	if df.dateStyle != "" {
		f = append(f, Field{"dateStyle", df.dateStyle})
	}
	if df.timeStyle != "" {
		f = append(f, Field{"timeStyle", df.timeStyle})
	}
	return f
}

// maxTime is ECMAScript's time value limit (ms from the epoch).
const maxTime = 8.64e15

// Format formats the time value ms (milliseconds since the epoch).
func (df *DateTimeFormat) Format(ms float64) (string, error) {
	parts, err := df.FormatToParts(ms)
	// V8's format (not formatToParts) shows the narrow no-break spaces of CLDR 42+ date data
	// as ordinary spaces, for web compatibility.
	return strings.ReplaceAll(Join(parts), "\u202f", " "), err
}

// FormatToParts formats the time value ms into parts.
func (df *DateTimeFormat) FormatToParts(ms float64) ([]Part, error) {
	if ms != ms || math.Abs(ms) > maxTime {
		return nil, rangeErrorf("Invalid time value")
	}
	ms = math.Trunc(ms)
	t := time.UnixMilli(int64(ms)).In(df.zone)
	return df.formatTime(t), nil
}

func pad(n, width int) string {
	s := strconv.Itoa(n)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return s
}

func (df *DateTimeFormat) formatTime(t time.Time) []Part {
	cal := &df.loc.data.Cal
	var parts []Part
	lit := func(s string) {
		if s == "" {
			return
		}
		s = strings.ReplaceAll(s, decimalSep, df.loc.data.Num.Decimal)
		if n := len(parts); n > 0 && parts[n-1].Type == "literal" {
			parts[n-1].Value += s
			return
		}
		parts = append(parts, Part{Type: "literal", Value: s})
	}
	year := t.Year()
	era := 1
	if year <= 0 {
		era, year = 0, 1-year
	}
	width := func(n int) int { // abbreviated, narrow, wide
		switch {
		case n == 4:
			return 2
		case n == 5:
			return 1
		}
		return 0
	}
	p := df.pattern
	for i := 0; i < len(p); {
		c := p[i]
		if c == '\'' {
			j := i + 1
			var b strings.Builder
			for j < len(p) {
				if p[j] == '\'' {
					if j+1 < len(p) && p[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(p[j])
				j++
			}
			if j == i+1 && j < len(p) {
				b.WriteByte('\'')
			}
			lit(b.String())
			i = j + 1
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			j := i
			for j < len(p) && p[j] != '\'' && !(p[j] >= 'a' && p[j] <= 'z' || p[j] >= 'A' && p[j] <= 'Z') {
				j++
			}
			lit(p[i:j])
			i = j
			continue
		}
		j := i
		for j < len(p) && p[j] == c {
			j++
		}
		n := j - i
		i = j
		switch c {
		case 'G':
			parts = append(parts, Part{Type: "era", Value: cal.Eras[width(n)][era]})
		case 'y':
			v := pad(year, n)
			if n == 2 {
				v = pad(year%100, 2)
			}
			parts = append(parts, Part{Type: "year", Value: v})
		case 'M', 'L':
			ctx := 0
			if c == 'L' {
				ctx = 1
			}
			m := int(t.Month())
			v := pad(m, n)
			if n >= 3 {
				v = cal.Months[ctx][width(n)][m-1]
			}
			parts = append(parts, Part{Type: "month", Value: v})
		case 'd':
			parts = append(parts, Part{Type: "day", Value: pad(t.Day(), n)})
		case 'E', 'c':
			ctx := 0
			if c == 'c' {
				ctx = 1
			}
			parts = append(parts, Part{Type: "weekday", Value: cal.Days[ctx][width(n)][int(t.Weekday())]})
		case 'a', 'b':
			pm := 0
			if t.Hour() >= 12 {
				pm = 1
			}
			parts = append(parts, Part{Type: "dayPeriod", Value: cal.DayPeriods[width(n)][pm]})
		case 'h':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			parts = append(parts, Part{Type: "hour", Value: pad(h, n)})
		case 'H':
			parts = append(parts, Part{Type: "hour", Value: pad(t.Hour(), n)})
		case 'K':
			parts = append(parts, Part{Type: "hour", Value: pad(t.Hour()%12, n)})
		case 'k':
			h := t.Hour()
			if h == 0 {
				h = 24
			}
			parts = append(parts, Part{Type: "hour", Value: pad(h, n)})
		case 'm':
			parts = append(parts, Part{Type: "minute", Value: pad(t.Minute(), n)})
		case 's':
			parts = append(parts, Part{Type: "second", Value: pad(t.Second(), n)})
		case 'S':
			v := pad(t.Nanosecond()/1e6, 3)
			parts = append(parts, Part{Type: "fractionalSecond", Value: v[:min(n, 3)]})
		case 'z', 'O':
			parts = append(parts, Part{Type: "timeZoneName", Value: df.zoneLabel(t, c, n)})
		default:
			lit(strings.Repeat(string(c), n))
		}
	}
	return parts
}

// zoneLabel is the time zone's name: z (short specific name, else short localized GMT), O
// (short localized GMT) or OOOO (long localized GMT).
func (df *DateTimeFormat) zoneLabel(t time.Time, c byte, n int) string {
	cal := &df.loc.data.Cal
	_, off := t.Zone()
	if c == 'z' {
		i := 0
		if t.IsDST() {
			i = 1
		}
		if n == 4 {
			i += 2
		}
		name := df.zoneName
		if name == "UTC" {
			name = "Etc/UTC"
		}
		if names, ok := cal.ZoneSpecific[name]; ok && names[i] != "" {
			return names[i]
		}
		if meta, ok := zoneMeta[name]; ok {
			if names, ok := cal.ZoneNames[meta]; ok && names[i] != "" {
				return names[i]
			}
		}
		if n == 4 {
			n, c = 4, 'O'
		}
	}
	if off == 0 && c == 'z' {
		return cal.GMTZero
	}
	pos, neg, _ := strings.Cut(cal.HourFormat, ";")
	f := pos
	if off < 0 {
		f, off = neg, -off
	}
	h, m := off/3600, off/60%60
	var s string
	if c == 'O' && n == 4 {
		s = strings.NewReplacer("HH", pad(h, 2), "mm", pad(m, 2)).Replace(f)
	} else {
		// The short form: hours without a leading zero, minutes only when not zero.
		hi := strings.Index(f, "H")
		sign := f[:hi]
		s = sign + strconv.Itoa(h)
		if m != 0 {
			s += ":" + pad(m, 2)
		}
	}
	return strings.Replace(cal.GMTFormat, "{0}", s, 1)
}
