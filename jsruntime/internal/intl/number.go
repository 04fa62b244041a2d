package intl

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Part is one piece of formatted output, as formatToParts reports it.
type Part struct {
	Type, Value string
	// Source is "startRange", "endRange" or "shared" for range formatting; unused here.
	Source string
	// Unit is the unit of a relative time's number parts.
	Unit string
}

// Join concatenates parts' values.
func Join(parts []Part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Value)
	}
	return b.String()
}

// Number is a value to format: a float64, an exact decimal string (BigInt digits or an
// Intl mathematical value string).
type Number struct {
	d decimal
}

// Float is a Number from a JavaScript number.
func Float(f float64) Number { return Number{decimalFromFloat(f)} }

// BigInt is a Number from a BigInt's decimal digits ("-123").
func BigInt(digits string) Number { return Number{decimalFromInteger(digits)} }

// DecimalString is a Number from a string in decimal notation, exactly, as
// Intl.NumberFormat.prototype.format treats strings; ok is false when s is not one.
func DecimalString(s string) (Number, bool) {
	d, ok := parseDecimal(s)
	return Number{d}, ok
}

// NumberFormat is a resolved Intl.NumberFormat.
type NumberFormat struct {
	loc                               Locale
	style                             string
	currency, currencyDisplay         string
	currencySign                      string
	unit, unitDisplay                 string
	notation, compactDisplay          string
	minInt                            int
	minFD, maxFD, minSD, maxSD        int
	sigDigits                         bool
	useGrouping                       string // "always", "auto", "min2" or "false"
	signDisplay                       string
	roundingMode, trailingZeroDisplay string
	// morePrecision: round by fraction or significant digits, whichever keeps more digits
	// (compact notation's default).
	morePrecision bool
}

// NewNumberFormat resolves options for locale as ECMA-402's InitializeNumberFormat does.
func NewNumberFormat(loc Locale, o Options) (*NumberFormat, error) {
	const ctor = "Intl.NumberFormat"
	nf := &NumberFormat{loc: loc}
	var err error
	if _, err = getString(o, ctor, "localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	if nu, ok, err := o.String("numberingSystem"); err != nil {
		return nil, err
	} else if ok && nu != "latn" {
		return nil, rangeErrorf("Intl.NumberFormat: numberingSystem %q is not supported (only latn)", nu)
	}
	if nf.style, err = getString(o, ctor, "style", []string{"decimal", "percent", "currency", "unit"}, "decimal"); err != nil {
		return nil, err
	}
	cur, hasCur, err := o.String("currency")
	if err != nil {
		return nil, err
	}
	if hasCur {
		if !wellFormedCurrency(cur) {
			return nil, rangeErrorf("Invalid currency code : %s", cur)
		}
	}
	if nf.currencyDisplay, err = getString(o, ctor, "currencyDisplay", []string{"code", "symbol", "narrowSymbol", "name"}, "symbol"); err != nil {
		return nil, err
	}
	if nf.currencySign, err = getString(o, ctor, "currencySign", []string{"standard", "accounting"}, "standard"); err != nil {
		return nil, err
	}
	unit, hasUnit, err := o.String("unit")
	if err != nil {
		return nil, err
	}
	if hasUnit && !wellFormedUnit(unit) {
		return nil, rangeErrorf("Invalid unit argument for Intl.NumberFormat() '%s'", unit)
	}
	if nf.unitDisplay, err = getString(o, ctor, "unitDisplay", []string{"short", "narrow", "long"}, "short"); err != nil {
		return nil, err
	}
	switch nf.style {
	case "currency":
		if !hasCur {
			return nil, &TypeError{Msg: "Currency code is required with currency style."}
		}
		nf.currency = strings.ToUpper(cur)
	case "unit":
		if !hasUnit {
			return nil, &TypeError{Msg: "Invalid unit argument for Intl.NumberFormat() ''"}
		}
		nf.unit = unit
	}
	if nf.notation, err = getString(o, ctor, "notation", []string{"standard", "scientific", "engineering", "compact"}, "standard"); err != nil {
		return nil, err
	}
	switch {
	case nf.notation == "compact" && nf.style != "decimal":
		return nil, rangeErrorf("Intl.NumberFormat: notation \"compact\" with style %q is not supported by this runtime (only decimal)", nf.style)
	}
	mnfdDefault, mxfdDefault := 0, 3
	switch nf.style {
	case "currency":
		cd := CurrencyDigits(nf.currency)
		mnfdDefault, mxfdDefault = cd, cd
	case "percent":
		mnfdDefault, mxfdDefault = 0, 0
	}
	if err := nf.setDigitOptions(o, mnfdDefault, mxfdDefault); err != nil {
		return nil, err
	}
	if nf.compactDisplay, err = getString(o, ctor, "compactDisplay", []string{"short", "long"}, "short"); err != nil {
		return nil, err
	}
	b, s, isBool, ok, err := o.BoolOrString("useGrouping")
	if err != nil {
		return nil, err
	}
	nf.useGrouping = "auto"
	if nf.notation == "compact" {
		nf.useGrouping = "min2"
	}
	switch {
	case !ok:
	case isBool && b:
		nf.useGrouping = "always"
	case isBool:
		nf.useGrouping = "false"
	case s == "true" || s == "false":
	case s == "min2" || s == "auto" || s == "always":
		nf.useGrouping = s
	case s == "":
		nf.useGrouping = "false"
	default:
		return nil, rangeErrorf("Value %s out of range for Intl.NumberFormat options property useGrouping", s)
	}
	if nf.signDisplay, err = getString(o, ctor, "signDisplay", []string{"auto", "never", "always", "exceptZero", "negative"}, "auto"); err != nil {
		return nil, err
	}
	return nf, nil
}

// setDigitOptions is SetNumberFormatDigitOptions for standard notation.
func (nf *NumberFormat) setDigitOptions(o Options, mnfdDefault, mxfdDefault int) error {
	const ctor = "Intl.NumberFormat"
	mnid, ok, err := getNumber(o, "minimumIntegerDigits", 1, 21)
	if err != nil {
		return err
	}
	if !ok {
		mnid = 1
	}
	nf.minInt = mnid
	mnfdV, hasMnfd, err := o.Number("minimumFractionDigits")
	if err != nil {
		return err
	}
	mxfdV, hasMxfd, err := o.Number("maximumFractionDigits")
	if err != nil {
		return err
	}
	mnsdV, hasMnsd, err := o.Number("minimumSignificantDigits")
	if err != nil {
		return err
	}
	mxsdV, hasMxsd, err := o.Number("maximumSignificantDigits")
	if err != nil {
		return err
	}
	inc, hasInc, err := getNumber(o, "roundingIncrement", 1, 5000)
	if err != nil {
		return err
	}
	if hasInc && inc != 1 {
		return rangeErrorf("Intl.NumberFormat: roundingIncrement %d is not supported by this runtime (only 1)", inc)
	}
	if nf.roundingMode, err = getString(o, ctor, "roundingMode", roundModes, "halfExpand"); err != nil {
		return err
	}
	prio, err := getString(o, ctor, "roundingPriority", []string{"auto", "morePrecision", "lessPrecision"}, "auto")
	if err != nil {
		return err
	}
	if prio != "auto" {
		return rangeErrorf("Intl.NumberFormat: roundingPriority %q is not supported by this runtime (only auto)", prio)
	}
	if nf.trailingZeroDisplay, err = getString(o, ctor, "trailingZeroDisplay", []string{"auto", "stripIfInteger"}, "auto"); err != nil {
		return err
	}
	hasSd, hasFd := hasMnsd || hasMxsd, hasMnfd || hasMxfd
	if !hasSd && !hasFd && nf.notation == "compact" {
		// Compact notation rounds to whichever of 0 fraction digits and 2 significant digits
		// keeps more precision.
		nf.morePrecision = true
		nf.minFD, nf.maxFD, nf.minSD, nf.maxSD = 0, 0, 1, 2
		return nil
	}
	inRange := func(name string, v float64, lo, hi int) (int, error) {
		if v != v || v < float64(lo) || v > float64(hi) {
			return 0, rangeErrorf("%s value is out of range.", name)
		}
		return int(v), nil
	}
	if hasSd {
		nf.sigDigits = true
		nf.minSD, nf.maxSD = 1, 21
		if hasMnsd {
			if nf.minSD, err = inRange("minimumSignificantDigits", mnsdV, 1, 21); err != nil {
				return err
			}
		}
		if hasMxsd {
			if nf.maxSD, err = inRange("maximumSignificantDigits", mxsdV, nf.minSD, 21); err != nil {
				return err
			}
		}
		return nil
	}
	nf.minFD, nf.maxFD = mnfdDefault, mxfdDefault
	if hasFd {
		var mn, mx int
		if hasMnfd {
			if mn, err = inRange("minimumFractionDigits", mnfdV, 0, 100); err != nil {
				return err
			}
		}
		if hasMxfd {
			if mx, err = inRange("maximumFractionDigits", mxfdV, 0, 100); err != nil {
				return err
			}
		}
		switch {
		case !hasMnfd:
			mn = min(mnfdDefault, mx)
		case !hasMxfd:
			mx = max(mxfdDefault, mn)
		case mn > mx:
			return rangeErrorf("maximumFractionDigits value is out of range.")
		}
		nf.minFD, nf.maxFD = mn, mx
	}
	return nil
}

// wellFormedCurrency: three ASCII letters.
func wellFormedCurrency(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// CurrencyDigits is ISO 4217's minor-unit digits for code (2 when CLDR has no entry).
func CurrencyDigits(code string) int {
	if d, ok := currencyDigits[code]; ok {
		return d
	}
	return 2
}

// Field is one resolvedOptions() entry.
type Field struct {
	Name  string
	Value any // string, int or bool
}

// ResolvedOptions returns resolvedOptions() in V8's property order.
func (nf *NumberFormat) ResolvedOptions() []Field {
	f := []Field{{"locale", nf.loc.Tag}, {"numberingSystem", "latn"}, {"style", nf.style}}
	if nf.style == "currency" {
		f = append(f, Field{"currency", nf.currency}, Field{"currencyDisplay", nf.currencyDisplay}, Field{"currencySign", nf.currencySign})
	}
	if nf.style == "unit" {
		f = append(f, Field{"unit", nf.unit}, Field{"unitDisplay", nf.unitDisplay})
	}
	f = append(f, Field{"minimumIntegerDigits", nf.minInt})
	if nf.morePrecision {
		f = append(f, Field{"minimumFractionDigits", nf.minFD}, Field{"maximumFractionDigits", nf.maxFD},
			Field{"minimumSignificantDigits", nf.minSD}, Field{"maximumSignificantDigits", nf.maxSD})
	} else if nf.sigDigits {
		f = append(f, Field{"minimumSignificantDigits", nf.minSD}, Field{"maximumSignificantDigits", nf.maxSD})
	} else {
		f = append(f, Field{"minimumFractionDigits", nf.minFD}, Field{"maximumFractionDigits", nf.maxFD})
	}
	var g any = nf.useGrouping
	if nf.useGrouping == "false" {
		g = false
	}
	f = append(f, Field{"useGrouping", g}, Field{"notation", nf.notation})
	if nf.notation == "compact" {
		f = append(f, Field{"compactDisplay", nf.compactDisplay})
	}
	prio := "auto"
	if nf.morePrecision {
		prio = "morePrecision"
	}
	f = append(f, Field{"signDisplay", nf.signDisplay}, Field{"roundingIncrement", 1}, Field{"roundingMode", nf.roundingMode},
		Field{"roundingPriority", prio}, Field{"trailingZeroDisplay", nf.trailingZeroDisplay})
	return f
}

// Format formats n.
func (nf *NumberFormat) Format(n Number) string { return Join(nf.FormatToParts(n)) }

// pattern is a parsed CLDR number pattern: affixes (raw, with ¤ % - + and quotes) and
// grouping sizes.
type pattern struct {
	posPrefix, posSuffix string
	negPrefix, negSuffix string
	hasNeg               bool
	grouping             int
	secondary            int
}

func parsePattern(p string) pattern {
	pos, neg, hasNeg := cutUnquoted(p, ';')
	var pt pattern
	pt.posPrefix, pt.posSuffix, pt.grouping, pt.secondary = splitPattern(pos)
	if hasNeg {
		pt.hasNeg = true
		pt.negPrefix, pt.negSuffix, _, _ = splitPattern(neg)
	}
	return pt
}

func cutUnquoted(s string, sep byte) (string, string, bool) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			quoted = !quoted
		case sep:
			if !quoted {
				return s[:i], s[i+1:], true
			}
		}
	}
	return s, "", false
}

// splitPattern splits a subpattern into prefix, number and suffix, and reads the number's
// grouping sizes.
func splitPattern(p string) (prefix, suffix string, primary, secondary int) {
	start, end := -1, -1
	quoted := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\'' {
			quoted = !quoted
			continue
		}
		if !quoted && (c == '#' || c == '0' || c == ',' || c == '.' || (c >= '1' && c <= '9')) {
			if start < 0 {
				start = i
			}
			end = i + 1
		}
	}
	if start < 0 {
		return p, "", 0, 0
	}
	num := p[start:end]
	intPart, _, _ := strings.Cut(num, ".")
	groups := strings.Split(intPart, ",")
	if len(groups) > 1 {
		primary = len(groups[len(groups)-1])
		secondary = primary
		if len(groups) > 2 {
			secondary = len(groups[len(groups)-2])
		}
	}
	return p[:start], p[end:], primary, secondary
}

// FormatToParts formats n into parts.
func (nf *NumberFormat) FormatToParts(n Number) []Part {
	d := n.d
	num := &nf.loc.data.Num
	if nf.style == "percent" {
		d.scale(2)
	}
	var compact, exponent []Part
	exp := 0 // the exponent of scientific and engineering notation
	switch nf.notation {
	case "compact":
		d, compact = nf.compactScale(d)
	case "scientific", "engineering":
		d, exp = nf.scientificScale(d)
		if !d.nan && !d.inf {
			exponent = nf.exponentParts(exp)
		}
	default:
		nf.round(&d)
	}
	// digits formats the (scaled, rounded) number with pattern pt, and its exponent.
	digits := func(pt pattern) []Part { return append(nf.numberParts(d, pt), exponent...) }
	// category is the plural category of the number as displayed.
	category := func() string {
		if d.nan || d.inf {
			return "other"
		}
		ip, fp := d.intFrac()
		fd := nf.fractionLen(d, fp)
		if exp != 0 {
			// As ICU: the operands are the whole value's, with the mantissa's displayed
			// fraction digits less the exponent, and e the exponent.
			whole := d
			whole.scale(exp)
			ip, fp = whole.intFrac()
			fd -= exp
		}
		if fd > len(fp) {
			fp += strings.Repeat("0", fd-len(fp))
		}
		o := operandsOf(ip, fp)
		o.e = int64(exp)
		return pluralCategoryIn(icuCategoryOrder, nf.loc.data.Cardinal, o)
	}
	// Sign.
	negative := d.neg && !d.nan
	zero := d.isZero()
	sign := 0 // -1 minus, +1 plus
	switch nf.signDisplay {
	case "auto":
		if negative {
			sign = -1
		}
	case "always":
		sign = 1
		if negative {
			sign = -1
		}
	case "exceptZero":
		if !zero && !d.nan {
			sign = 1
			if negative {
				sign = -1
			}
		}
	case "negative":
		if negative && !zero {
			sign = -1
		}
	}
	if nf.style == "currency" && nf.currencyDisplay == "name" {
		pt := parsePattern(num.DecimalPattern)
		return nf.currencyName(nf.affixed(pt, sign, digits(pt), ""), category())
	}
	if nf.style == "unit" && nf.unit == "percent" && nf.unitDisplay != "long" {
		// ICU formats the short and narrow percent unit with the locale's percent pattern,
		// unscaled, its sign a "unit" part.
		pt := parsePattern(num.PercentPattern)
		parts := nf.affixed(pt, sign, digits(pt), "")
		for i := range parts {
			if parts[i].Type == "percentSign" {
				parts[i].Type = "unit"
			}
		}
		return parts
	}
	if nf.style == "unit" {
		pt := parsePattern(num.DecimalPattern)
		parts := nf.affixed(pt, sign, digits(pt), "")
		pats := nf.loc.data.unitPatterns(nf.unit, nf.unitDisplay)
		p, ok := pats[category()]
		if !ok {
			p = pats["other"]
		}
		return unitParts(p, parts)
	}
	var pt pattern
	switch nf.style {
	case "percent":
		pt = parsePattern(num.PercentPattern)
	case "currency":
		if nf.currencySign == "accounting" {
			pt = parsePattern(num.AccountingPattern)
		} else {
			pt = parsePattern(num.CurrencyPattern)
		}
	default:
		pt = parsePattern(num.DecimalPattern)
	}
	number := digits(pt)
	if compact != nil {
		number = compactJoin(compact, number)
	}
	return nf.affixed(pt, sign, number, nf.currencySymbol())
}

// scientificScale scales d to its mantissa for scientific notation (one integer digit) or
// engineering notation (an exponent that is a multiple of 3) and rounds it; a rounding that
// reaches the next power (9.9996 → 10) moves to the next exponent, as ICU does. It returns
// the rounded mantissa and the exponent.
func (nf *NumberFormat) scientificScale(d decimal) (decimal, int) {
	if d.nan || d.inf || d.isZero() {
		nf.round(&d)
		return d, 0
	}
	mag := d.exp - 1
	for {
		e := mag
		if nf.notation == "engineering" {
			e = mag - ((mag%3)+3)%3
		}
		r := d
		r.scale(-e)
		nf.round(&r)
		if r.isZero() || r.exp-1+e <= mag {
			return r, e
		}
		mag = r.exp - 1 + e
	}
}

// exponentParts are the exponent's parts ("E", "-", "4").
func (nf *NumberFormat) exponentParts(e int) []Part {
	num := &nf.loc.data.Num
	parts := []Part{{Type: "exponentSeparator", Value: num.Exponential}}
	if e < 0 {
		parts = append(parts, Part{Type: "exponentMinusSign", Value: num.Minus})
		e = -e
	}
	return append(parts, Part{Type: "exponentInteger", Value: strconv.Itoa(e)})
}

// currencyName substitutes the formatted number and the currency's name into the locale's
// unit pattern for plural category cat.
func (nf *NumberFormat) currencyName(number []Part, cat string) []Part {
	num := &nf.loc.data.Num
	names := num.Currencies[nf.currency].Name
	name, ok := names[cat]
	if !ok {
		if name, ok = names["other"]; !ok {
			name = names[""]
		}
	}
	if name == "" {
		name = nf.currency
	}
	pat, ok := num.CurrencyUnitPattern[cat]
	if !ok {
		pat = num.CurrencyUnitPattern["other"]
	}
	var out []Part
	for pat != "" {
		i := strings.IndexByte(pat, '{')
		if i < 0 || i+2 >= len(pat) {
			out = append(out, Part{Type: "literal", Value: pat})
			break
		}
		if i > 0 {
			out = append(out, Part{Type: "literal", Value: pat[:i]})
		}
		switch pat[i+1] {
		case '0':
			out = append(out, number...)
		case '1':
			out = append(out, Part{Type: "currency", Value: name})
		}
		pat = pat[i+3:]
	}
	return out
}

func (nf *NumberFormat) currencySymbol() string {
	if nf.style != "currency" {
		return ""
	}
	c := nf.loc.data.Num.Currencies[nf.currency]
	switch nf.currencyDisplay {
	case "code":
		return nf.currency
	case "narrowSymbol":
		if c.Narrow != "" {
			return c.Narrow
		}
	}
	if c.Symbol != "" {
		return c.Symbol
	}
	return nf.currency
}

// round rounds d as the options say.
func (nf *NumberFormat) round(d *decimal) {
	if d.nan || d.inf {
		return
	}
	if nf.morePrecision {
		d.roundAt(max(nf.maxSD, d.exp+nf.maxFD), nf.roundingMode)
	} else if nf.sigDigits {
		d.roundAt(nf.maxSD, nf.roundingMode)
	} else {
		d.roundAt(d.exp+nf.maxFD, nf.roundingMode)
	}
}

// fractionLen is how many fraction digits d (rounded, with fraction digits fp) displays.
func (nf *NumberFormat) fractionLen(d decimal, fp string) int {
	n := len(fp)
	if nf.morePrecision {
		return n
	}
	if nf.sigDigits {
		need := nf.minSD - d.exp
		if d.isZero() {
			need = nf.minSD - 1
		}
		n = max(n, need)
	} else {
		n = max(n, nf.minFD)
	}
	if nf.trailingZeroDisplay == "stripIfInteger" && fp == "" {
		n = 0
	}
	return n
}

// numberParts formats the absolute value of rounded d: integer with grouping, decimal,
// fraction (or nan, infinity).
func (nf *NumberFormat) numberParts(d decimal, pt pattern) []Part {
	num := &nf.loc.data.Num
	if d.nan {
		return []Part{{Type: "nan", Value: num.NaN}}
	}
	if d.inf {
		return []Part{{Type: "infinity", Value: num.Infinity}}
	}
	ip, fp := d.intFrac()
	if len(ip) < nf.minInt {
		ip = strings.Repeat("0", nf.minInt-len(ip)) + ip
	}
	if fl := nf.fractionLen(d, fp); fl > len(fp) {
		fp += strings.Repeat("0", fl-len(fp))
	}
	var parts []Part
	minGroup := num.MinGrouping
	switch nf.useGrouping {
	case "always":
		minGroup = 1
	case "min2":
		minGroup = 2
	}
	if nf.useGrouping == "false" || pt.grouping == 0 || len(ip) < pt.grouping+minGroup {
		parts = append(parts, Part{Type: "integer", Value: ip})
	} else {
		first := len(ip) - pt.grouping
		var groups []string
		groups = append(groups, ip[first:])
		rest := ip[:first]
		for len(rest) > pt.secondary {
			groups = append(groups, rest[len(rest)-pt.secondary:])
			rest = rest[:len(rest)-pt.secondary]
		}
		groups = append(groups, rest)
		for i := len(groups) - 1; i >= 0; i-- {
			parts = append(parts, Part{Type: "integer", Value: groups[i]})
			if i > 0 {
				parts = append(parts, Part{Type: "group", Value: num.Group})
			}
		}
	}
	if fp != "" {
		parts = append(parts, Part{Type: "decimal", Value: num.Decimal}, Part{Type: "fraction", Value: fp})
	}
	return parts
}

// affixed wraps number parts in the pattern's affixes for sign, with currency spacing.
func (nf *NumberFormat) affixed(pt pattern, sign int, number []Part, currency string) []Part {
	prefix, suffix := pt.posPrefix, pt.posSuffix
	switch sign {
	case -1:
		if pt.hasNeg {
			prefix, suffix = pt.negPrefix, pt.negSuffix
		} else {
			prefix = "-" + prefix
		}
	case 1:
		if pt.hasNeg && strings.Contains(pt.negPrefix+pt.negSuffix, "-") {
			prefix, suffix = strings.ReplaceAll(pt.negPrefix, "-", "+"), strings.ReplaceAll(pt.negSuffix, "-", "+")
		} else {
			prefix = "+" + prefix
		}
	}
	pre := nf.expandAffix(prefix, currency)
	suf := nf.expandAffix(suffix, currency)
	spacing := nf.loc.data.Num.CurrencySpacing
	if len(pre) > 0 && pre[len(pre)-1].Type == "currency" && startsWithDigit(number) {
		r, _ := utf8.DecodeLastRuneInString(pre[len(pre)-1].Value)
		if !unicode.IsSymbol(r) && !unicode.Is(unicode.Z, r) {
			pre = append(pre, Part{Type: "literal", Value: spacing})
		}
	}
	if len(suf) > 0 && suf[0].Type == "currency" && endsWithDigit(number) {
		r, _ := utf8.DecodeRuneInString(suf[0].Value)
		if !unicode.IsSymbol(r) && !unicode.Is(unicode.Z, r) {
			suf = append([]Part{{Type: "literal", Value: spacing}}, suf...)
		}
	}
	out := make([]Part, 0, len(pre)+len(number)+len(suf))
	out = append(out, pre...)
	out = append(out, number...)
	return append(out, suf...)
}

func startsWithDigit(p []Part) bool {
	return len(p) > 0 && p[0].Value != "" && p[0].Value[0] >= '0' && p[0].Value[0] <= '9'
}

func endsWithDigit(p []Part) bool {
	if len(p) == 0 {
		return false
	}
	v := p[len(p)-1].Value
	return v != "" && v[len(v)-1] >= '0' && v[len(v)-1] <= '9'
}

// expandAffix turns a raw affix into parts: ¤ currency, % percentSign, - minusSign, + plusSign,
// quoted and other text literal.
func (nf *NumberFormat) expandAffix(a, currency string) []Part {
	num := &nf.loc.data.Num
	var parts []Part
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, Part{Type: "literal", Value: lit.String()})
			lit.Reset()
		}
	}
	quoted := false
	for _, r := range a {
		if r == '\'' {
			quoted = !quoted
			continue
		}
		if quoted {
			lit.WriteRune(r)
			continue
		}
		switch r {
		case '¤':
			flush()
			parts = append(parts, Part{Type: "currency", Value: currency})
		case '%':
			flush()
			parts = append(parts, Part{Type: "percentSign", Value: num.Percent})
		case '-':
			flush()
			parts = append(parts, Part{Type: "minusSign", Value: num.Minus})
		case '+':
			flush()
			parts = append(parts, Part{Type: "plusSign", Value: num.Plus})
		default:
			lit.WriteRune(r)
		}
	}
	flush()
	return parts
}
