package intl

import (
	"math"
	"strconv"
	"strings"
)

// decimal is an exact decimal number: 0.digits × 10^exp, digits without leading or trailing
// zeros (none at all for zero). Formatting works on it so that rounding is decimal, as in ICU:
// a double is first converted to its shortest round-tripping decimal, as V8 does.
type decimal struct {
	neg      bool
	nan, inf bool
	digits   []byte
	exp      int
}

// decimalFromFloat is the shortest decimal that round-trips to f.
func decimalFromFloat(f float64) decimal {
	d := decimal{neg: math.Signbit(f)}
	switch {
	case f != f:
		return decimal{nan: true}
	case math.IsInf(f, 0):
		d.inf = true
		return d
	case f == 0:
		return d
	}
	s := strconv.FormatFloat(math.Abs(f), 'e', -1, 64)
	mant, e, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(e)
	d.digits = []byte(strings.Replace(mant, ".", "", 1))
	d.exp = exp + 1
	d.trim()
	return d
}

// parseDecimal parses a StringNumericLiteral in decimal notation exactly ("1234.5e3"); ok is
// false for anything else (hex, binary, "Infinity", junk).
func parseDecimal(s string) (decimal, bool) {
	s = strings.TrimSpace(s)
	var d decimal
	if s == "" {
		return d, true
	}
	if s[0] == '-' || s[0] == '+' {
		d.neg = s[0] == '-'
		s = s[1:]
	}
	mant, e, hasExp := strings.Cut(strings.ToLower(s), "e")
	exp := 0
	if hasExp {
		v, err := strconv.Atoi(e)
		if err != nil || e == "" || e[0] == ' ' {
			return d, false
		}
		if v > 1e6 || v < -1e6 {
			return d, false
		}
		exp = v
	}
	ip, fp, _ := strings.Cut(mant, ".")
	if ip == "" && fp == "" {
		return d, false
	}
	for _, c := range ip + fp {
		if c < '0' || c > '9' {
			return d, false
		}
	}
	all := strings.TrimLeft(ip+fp, "0")
	d.exp = len(ip) - (len(ip+fp) - len(all)) + exp
	if len(all) > 1<<16 {
		return d, false
	}
	d.digits = []byte(all)
	d.trim()
	return d, true
}

// decimalFromInteger is an integer given in decimal digits with an optional leading '-'.
func decimalFromInteger(s string) decimal {
	var d decimal
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	}
	s = strings.TrimLeft(s, "0")
	d.digits, d.exp = []byte(s), len(s)
	d.trim()
	return d
}

func (d *decimal) trim() {
	for len(d.digits) > 0 && d.digits[len(d.digits)-1] == '0' {
		d.digits = d.digits[:len(d.digits)-1]
	}
	if len(d.digits) == 0 {
		d.exp = 0
	}
}

func (d decimal) isZero() bool { return !d.nan && !d.inf && len(d.digits) == 0 }

// scale multiplies by 10^n (percent: 2).
func (d *decimal) scale(n int) {
	if len(d.digits) > 0 {
		d.exp += n
	}
}

// roundModes are ECMA-402's rounding modes.
var roundModes = []string{"ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"}

// roundAt keeps the first keep digits of d (keep may be negative or past the end), rounding by
// mode.
func (d *decimal) roundAt(keep int, mode string) {
	if d.nan || d.inf || keep >= len(d.digits) {
		return
	}
	if keep < 0 {
		// Every digit is below the rounding position and the first discarded one is a zero:
		// the result is zero or one unit at that position (10^(exp-keep)).
		up := false
		switch mode {
		case "ceil":
			up = !d.neg
		case "floor":
			up = d.neg
		case "expand":
			up = true
		}
		if up {
			d.digits, d.exp = []byte{'1'}, d.exp-keep+1
		} else {
			d.digits = nil
		}
		d.trim()
		return
	}
	first := d.digits[keep]
	rest := false
	for _, c := range d.digits[keep+1:] {
		if c != '0' {
			rest = true
			break
		}
	}
	nonzero := first != '0' || rest
	half := first == '5' && !rest
	above := first > '5' || (first == '5' && rest)
	lastOdd := keep > 0 && (d.digits[keep-1]-'0')%2 == 1
	var up bool
	switch mode {
	case "ceil":
		up = !d.neg && nonzero
	case "floor":
		up = d.neg && nonzero
	case "expand":
		up = nonzero
	case "trunc":
		up = false
	case "halfCeil":
		up = above || (half && !d.neg)
	case "halfFloor":
		up = above || (half && d.neg)
	case "halfTrunc":
		up = above
	case "halfEven":
		up = above || (half && lastOdd)
	default: // halfExpand
		up = above || half
	}
	// A copy: decimals are copied by value and must not share the digits they round.
	d.digits = append([]byte(nil), d.digits[:keep]...)
	if up {
		i := keep - 1
		for ; i >= 0 && d.digits[i] == '9'; i-- {
			d.digits[i] = '0'
		}
		if i < 0 {
			d.digits = append([]byte{'1'}, d.digits...)
			d.exp++
		} else {
			d.digits[i]++
		}
	}
	d.trim()
}

// intFrac splits d into its integer and fraction digits (integer "" for zero).
func (d decimal) intFrac() (string, string) {
	ds := string(d.digits)
	switch {
	case len(ds) == 0:
		return "", ""
	case d.exp <= 0:
		return "", strings.Repeat("0", -d.exp) + ds
	case d.exp >= len(ds):
		return ds + strings.Repeat("0", d.exp-len(ds)), ""
	default:
		return ds[:d.exp], ds[d.exp:]
	}
}
