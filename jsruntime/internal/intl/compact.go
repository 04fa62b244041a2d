package intl

import "strings"

// compactScale scales and rounds d for compact notation: the locale's pattern for d's
// magnitude says how many integer digits to show; a rounding that reaches the next magnitude
// picks that magnitude's pattern. It returns the scaled, rounded number and the pattern split
// into parts, with a "0" part where the number goes (nil: no compaction).
func (nf *NumberFormat) compactScale(d decimal) (decimal, []Part) {
	table := nf.loc.data.Num.CompactShort
	if nf.compactDisplay == "long" {
		table = nf.loc.data.Num.CompactLong
	}
	if d.nan || d.inf || d.isZero() {
		nf.round(&d)
		return d, nil
	}
	// The largest magnitude the locale has a pattern for (10^14 for most, 10^18 for ja).
	top := 0
	for k := range table {
		if n, _, _ := strings.Cut(k, "/"); len(n)-1 > top {
			top = len(n) - 1
		}
	}
	mag := d.exp - 1
	for range 2 {
		m := min(mag, top)
		key := "1" + strings.Repeat("0", max(m, 0))
		pat, ok := table[key+"/other"]
		if m < 3 || !ok || strings.Count(pat, "0") == 0 || pat == "0" {
			r := d
			nf.round(&r)
			if r.exp-1 > mag && mag < 3 && r.exp-1 >= 3 {
				mag = r.exp - 1
				continue
			}
			return r, nil
		}
		zeros := strings.Count(pat, "0")
		scale := m - (zeros - 1)
		r := d
		r.scale(-scale)
		nf.round(&r)
		if r.exp-1+scale > mag && mag < top {
			mag = r.exp - 1 + scale
			continue
		}
		ip, fp := r.intFrac()
		o := operandsOf(ip, fp)
		o.e = int64(scale)
		cat := pluralCategory(nf.loc.data.Cardinal, o)
		if p, ok := table[key+"/1"]; ok && ip == "1" && fp == "" {
			pat = p
		} else if p, ok := table[key+"/"+cat]; ok {
			pat = p
		}
		return r, compactParts(pat)
	}
	nf.round(&d)
	return d, nil
}

// compactParts splits a compact pattern ("0 thousand", "0K", "mille") into literal spaces,
// "compact" text and a "0" placeholder for the number.
func compactParts(pat string) []Part {
	pat = strings.ReplaceAll(pat, "'", "")
	var parts []Part
	i := 0
	for i < len(pat) {
		j := i
		switch {
		case pat[i] == '0':
			for j < len(pat) && pat[j] == '0' {
				j++
			}
			parts = append(parts, Part{Type: "0"})
		case isSpaceAt(pat, i):
			for j < len(pat) && isSpaceAt(pat, j) {
				j += spaceLen(pat, j)
			}
			parts = append(parts, Part{Type: "literal", Value: pat[i:j]})
		default:
			for j < len(pat) && pat[j] != '0' && !isSpaceAt(pat, j) {
				j++
			}
			parts = append(parts, Part{Type: "compact", Value: pat[i:j]})
		}
		i = j
	}
	return parts
}

func spaceLen(s string, i int) int {
	for _, sp := range []string{" ", "\u00a0", "\u202f"} {
		if strings.HasPrefix(s[i:], sp) {
			return len(sp)
		}
	}
	return 0
}

func isSpaceAt(s string, i int) bool { return spaceLen(s, i) > 0 }

// compactJoin puts the number's parts where the pattern's "0" is; a pattern without one
// ("mille") replaces the number.
func compactJoin(pattern, number []Part) []Part {
	var out []Part
	for _, p := range pattern {
		if p.Type == "0" {
			out = append(out, number...)
			continue
		}
		out = append(out, p)
	}
	return out
}
