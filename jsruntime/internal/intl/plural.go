package intl

import (
	"strconv"
	"strings"
)

// operands are UTS #35's plural operands of a formatted number.
type operands struct {
	n          float64
	i, v, w, f int64
	t          int64
	e          int64
}

// operandsOf computes the operands of a number formatted with integer digits ip and fraction
// digits fp (as displayed, trailing zeros included).
func operandsOf(ip, fp string) operands {
	var o operands
	ip = strings.TrimLeft(ip, "0")
	// ICU (and so V8) keeps the low 18 digits of the integer part: 10^21 is "i = 0" there, so
	// it is here.
	if len(ip) > 18 {
		ip = ip[len(ip)-18:]
	}
	if ip != "" {
		o.i, _ = strconv.ParseInt(ip, 10, 64)
	}
	o.v = int64(len(fp))
	ft := strings.TrimRight(fp, "0")
	o.w = int64(len(ft))
	if len(fp) > 15 {
		fp = fp[:15]
	}
	if len(ft) > 15 {
		ft = ft[:15]
	}
	o.f, _ = strconv.ParseInt("0"+fp, 10, 64)
	o.t, _ = strconv.ParseInt("0"+ft, 10, 64)
	n := ip
	if n == "" {
		n = "0"
	}
	if fp != "" {
		n += "." + fp
	}
	o.n, _ = strconv.ParseFloat(n, 64)
	return o
}

// pluralCategories is the order categories are tried in; "other" is the fallback.
var pluralCategories = []string{"zero", "one", "two", "few", "many"}

// icuCategoryOrder is the order ICU tries categories in: its rule tables are sorted by key.
// Rules overlap only through the e operand (fr's "many: ... or e != 0..5" against "one: i =
// 0,1"), so the order shows only in scientific notation.
var icuCategoryOrder = []string{"few", "many", "one", "two", "zero"}

// pluralCategory evaluates rules (category to CLDR rule text) for o.
func pluralCategory(rules map[string]string, o operands) string {
	return pluralCategoryIn(pluralCategories, rules, o)
}

func pluralCategoryIn(order []string, rules map[string]string, o operands) string {
	for _, c := range order {
		if r, ok := rules[c]; ok && r != "" && evalRule(r, o) {
			return c
		}
	}
	return "other"
}

// evalRule evaluates a CLDR plural condition: or-separated and-conditions of relations
// "expr (= | !=) ranges" where expr is an operand optionally "% m".
func evalRule(rule string, o operands) bool {
	for _, and := range strings.Split(rule, " or ") {
		ok := true
		for _, rel := range strings.Split(and, " and ") {
			if !evalRelation(strings.TrimSpace(rel), o) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func evalRelation(rel string, o operands) bool {
	neg := false
	lhs, rhs, found := strings.Cut(rel, "!=")
	if found {
		neg = true
	} else {
		lhs, rhs, _ = strings.Cut(rel, "=")
	}
	lhs, rhs = strings.TrimSpace(lhs), strings.TrimSpace(rhs)
	op, mod, hasMod := strings.Cut(lhs, "%")
	op = strings.TrimSpace(op)
	var val float64
	isInt := true
	switch op {
	case "n":
		val = o.n
		isInt = o.n == float64(int64(o.n))
	case "i":
		val = float64(o.i)
	case "v":
		val = float64(o.v)
	case "w":
		val = float64(o.w)
	case "f":
		val = float64(o.f)
	case "t":
		val = float64(o.t)
	case "e", "c":
		val = float64(o.e)
	}
	if hasMod {
		m, _ := strconv.ParseFloat(strings.TrimSpace(mod), 64)
		if op == "n" {
			// n % m keeps n's fraction: 13.5 % 10 is 3.5.
			whole := float64(int64(val))
			val = float64(int64(whole)%int64(m)) + (val - whole)
		} else {
			val = float64(int64(val) % int64(m))
		}
	}
	in := false
	for _, r := range strings.Split(rhs, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(r), "..")
		l, _ := strconv.ParseFloat(lo, 64)
		h := l
		if isRange {
			h, _ = strconv.ParseFloat(hi, 64)
		}
		if isInt && val >= l && val <= h && val == float64(int64(val)) {
			in = true
			break
		}
	}
	return in != neg
}
