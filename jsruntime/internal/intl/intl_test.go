package intl

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// mapOptions is an Options over a Go map.
type mapOptions map[string]any

func (m mapOptions) String(n string) (string, bool, error) {
	v, ok := m[n]
	if !ok {
		return "", false, nil
	}
	switch v := v.(type) {
	case string:
		return v, true, nil
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), true, nil
	}
	return "", true, nil
}

func (m mapOptions) Number(n string) (float64, bool, error) {
	v, ok := m[n].(float64)
	return v, ok, nil
}

func (m mapOptions) Bool(n string) (bool, bool, error) {
	v, ok := m[n].(bool)
	return v, ok, nil
}

func (m mapOptions) BoolOrString(n string) (bool, string, bool, bool, error) {
	switch v := m[n].(type) {
	case bool:
		return v, "", true, true, nil
	case string:
		return false, v, false, true, nil
	}
	return false, "", false, false, nil
}

// TestFormatsNeverPanic runs random numbers, digit options and time values through every
// formatter of every locale: errors are fine, panics are not (they would end the host).
func TestFormatsNeverPanic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	specials := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64, 1e21, -1e-7, 999999.5, 0.5}
	optionSets := []mapOptions{
		{}, {"notation": "compact"}, {"notation": "compact", "compactDisplay": "long"}, {"style": "percent"},
		{"style": "currency", "currency": "JPY", "currencyDisplay": "name"}, {"maximumSignificantDigits": 21.0},
		{"minimumFractionDigits": 100.0}, {"maximumFractionDigits": 0.0, "roundingMode": "expand"},
		{"roundingMode": "ceil", "maximumSignificantDigits": 1.0}, {"minimumIntegerDigits": 21.0, "useGrouping": "always"},
		{"style": "unit", "unit": "kilobyte-per-stone", "unitDisplay": "long"}, {"style": "unit", "unit": "percent", "unitDisplay": "narrow"},
		{"notation": "scientific", "maximumSignificantDigits": 1.0, "roundingMode": "ceil"}, {"notation": "engineering", "style": "percent"},
	}
	for _, tag := range SupportedTags() {
		loc, err := ResolveLocale([]string{tag})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range optionSets {
			nf, err := NewNumberFormat(loc, o)
			if err != nil {
				t.Fatalf("%s %v: %v", tag, o, err)
			}
			pr, _ := NewPluralRules(loc, NoOptions{})
			for i := range 300 {
				f := r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
				if i < len(specials) {
					f = specials[i]
				}
				_ = nf.Format(Float(f))
				_ = pr.Select(Float(f))
			}
			_ = nf.Format(BigInt("-123456789012345678901234567890"))
			if n, ok := DecimalString("1e-1000000"); ok {
				_ = nf.Format(n)
			}
		}
		df, err := NewDateTimeFormat(loc, mapOptions{"dateStyle": "full", "timeStyle": "full", "timeZone": "America/New_York"}, "any", "date")
		if err != nil {
			t.Fatal(err)
		}
		for _, ms := range []float64{0, -8.64e15, 8.64e15, -62198755200000, 1e12} {
			if _, err := df.Format(ms); err != nil {
				t.Errorf("%s: %v", tag, err)
			}
		}
		rf, _ := NewRelativeTimeFormat(loc, mapOptions{"numeric": "auto"})
		for _, v := range specials {
			_, _ = rf.FormatToParts(v, "days")
		}
	}
}

// TestSegmentsAreLazy: iterating finds one segment per step, and containing() finds only the
// segments up to its index (the rest of a long string costs nothing until asked for).
func TestSegmentsAreLazy(t *testing.T) {
	sg, err := NewSegmenter(Locale{Tag: "en"}, mapOptions{"granularity": "word"})
	if err != nil {
		t.Fatal(err)
	}
	units := []uint16{'a', 'b', ' ', 0xD800, ' ', 'c', 'd', ' ', 'e'}
	segs, err := sg.Segment(units)
	if err != nil {
		t.Fatal(err)
	}
	if start, end, like, ok := segs.At(0); start != 0 || end != 2 || !like || !ok || len(segs.ends) != 1 {
		t.Errorf("At(0) = %d, %d, %v, %v with %d found, want 0, 2, true, true with 1", start, end, like, ok, len(segs.ends))
	}
	// The lone surrogate is one unit long and not word-like.
	if start, end, like, ok := segs.Containing(3); start != 3 || end != 4 || like || !ok || len(segs.ends) != 3 {
		t.Errorf("Containing(3) = %d, %d, %v, %v with %d found, want 3, 4, false, true with 3", start, end, like, ok, len(segs.ends))
	}
	if start, end, _, ok := segs.Containing(1); start != 0 || end != 2 || !ok {
		t.Errorf("Containing(1) = %d, %d, %v, want 0, 2, true", start, end, ok)
	}
	if _, _, _, ok := segs.Containing(9); ok {
		t.Error("Containing(9) found a segment past the end")
	}
	if _, _, _, ok := segs.At(7); ok {
		t.Error("At(7) found a segment past the end")
	}
}
