package intl

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"golang.org/x/text/language"
)

// RangeError is an error ECMA-402 reports as a RangeError: an invalid or unsupported locale,
// option value or input.
type RangeError struct{ Msg string }

func (e *RangeError) Error() string { return e.Msg }

// TypeError is an error ECMA-402 reports as a TypeError.
type TypeError struct{ Msg string }

func (e *TypeError) Error() string { return e.Msg }

func rangeErrorf(format string, args ...any) error {
	return &RangeError{Msg: fmt.Sprintf(format, args...)}
}

// DefaultLocale is the locale used when a program names none. It is fixed, not taken from the
// host, so that a program formats the same everywhere.
const DefaultLocale = "en-US"

// byLanguage maps a language subtag, or language-region, to its data. A language alone
// resolves to the region CLDR's data for that language describes ("pt" is Brazilian
// Portuguese, "zh" is Simplified Chinese as used in China).
func lookupData(tag language.Tag) (*localeData, bool) {
	base, script, region := tag.Raw()
	lang := base.String()
	s, r := script.String(), region.String()
	if lang == "zh" && s != "Zzzz" && s != "Hans" {
		return nil, false
	}
	if lang != "zh" && s != "Zzzz" {
		return nil, false
	}
	for i := range locales {
		l := &locales[i]
		lb, lr, _ := strings.Cut(l.Tag, "-")
		if lb != lang {
			continue
		}
		if r == "ZZ" {
			// Language alone: the first entry for it (en-US before en-GB).
			return l, true
		}
		if r == lr {
			return l, true
		}
	}
	return nil, false
}

// Locale is a resolved locale: the tag a program asked for (canonicalized) and its data.
type Locale struct {
	// Tag is what resolvedOptions().locale reports.
	Tag  string
	data *localeData
}

// SupportedTags returns the tags of the supported locales.
func SupportedTags() []string {
	out := make([]string, len(locales))
	for i, l := range locales {
		out[i] = l.Tag
	}
	return out
}

// canonical parses a BCP 47 tag and returns its canonical form, refusing tags with
// extensions or private use (their meaning, such as -u-nu- numbering systems, is not
// implemented).
func canonical(s string) (language.Tag, string, error) {
	tag, err := parseTag(s)
	if err != nil {
		return language.Tag{}, "", err
	}
	str := tag.String()
	if strings.Contains(str, "-u-") || strings.Contains(str, "-x-") || strings.Contains(str, "-t-") {
		return language.Tag{}, "", rangeErrorf("Intl: the locale %s has extensions (-u-, -t-, -x-), which this runtime does not support", s)
	}
	return tag, str, nil
}

// ResolveLocale implements ECMA-402's locale negotiation for the supported locales: requested
// are the program's locales (already a list); the first supported one wins, none means the
// default. A tag that is not well formed is a RangeError, as in V8; a list of well-formed tags
// none of which is supported is a RangeError naming them (V8 would fall back to its default
// locale and format in it; this runtime refuses rather than format in a locale not asked for).
func ResolveLocale(requested []string) (Locale, error) {
	tags := make([]language.Tag, len(requested))
	strs := make([]string, len(requested))
	for i, r := range requested {
		t, s, err := canonical(r)
		if err != nil {
			return Locale{}, err
		}
		tags[i], strs[i] = t, s
	}
	for i, t := range tags {
		if d, ok := lookupData(t); ok {
			return Locale{Tag: strs[i], data: d}, nil
		}
	}
	if len(requested) == 0 {
		d, _ := lookupData(language.MustParse(DefaultLocale))
		return Locale{Tag: DefaultLocale, data: d}, nil
	}
	return Locale{}, rangeErrorf("Intl: locale %s is not supported (supported: %s, or their language alone)",
		strings.Join(strs, ", "), strings.Join(SupportedTags(), ", "))
}

// SupportedLocalesOf returns the requested locales (canonicalized) that are supported, in order.
func SupportedLocalesOf(requested []string) ([]string, error) {
	var out []string
	for _, r := range requested {
		t, s, err := canonical(r)
		if err != nil {
			return nil, err
		}
		if _, ok := lookupData(t); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// CanonicalizeLocaleList canonicalizes tags, dropping duplicates (Intl.getCanonicalLocales).
func CanonicalizeLocaleList(requested []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, r := range requested {
		tag, err := parseTag(r)
		if err != nil {
			return nil, err
		}
		if s := tag.String(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// parseTag parses a well-formed BCP 47 tag: unknown but well-formed subtags ("xx") are
// accepted, as ECMA-402 does.
func parseTag(s string) (language.Tag, error) {
	tag, err := language.Parse(s)
	var verr interface{ Subtag() string }
	if s == "" || (err != nil && !errors.As(err, &verr)) {
		return language.Tag{}, rangeErrorf("Incorrect locale information provided")
	}
	return tag, nil
}

// Options reads a program's options object the way ECMA-402's GetOption does: each method
// reads the property once, converts it, and reports whether it was undefined.
type Options interface {
	// String returns ToString(options[name]).
	String(name string) (string, bool, error)
	// Number returns ToNumber(options[name]).
	Number(name string) (float64, bool, error)
	// Bool returns ToBoolean(options[name]).
	Bool(name string) (bool, bool, error)
	// BoolOrString returns options[name] as a bool when it is a boolean, otherwise its
	// ToString (isBool false).
	BoolOrString(name string) (b bool, s string, isBool, ok bool, err error)
}

// NoOptions is an options object with nothing set.
type NoOptions struct{}

func (NoOptions) String(string) (string, bool, error)  { return "", false, nil }
func (NoOptions) Number(string) (float64, bool, error) { return 0, false, nil }
func (NoOptions) Bool(string) (bool, bool, error)      { return false, false, nil }
func (NoOptions) BoolOrString(string) (bool, string, bool, bool, error) {
	return false, "", false, false, nil
}

// getString is GetOption for a string with allowed values (nil: any) and a fallback.
func getString(o Options, ctor, name string, allowed []string, fallback string) (string, error) {
	s, ok, err := o.String(name)
	if err != nil || !ok {
		return fallback, err
	}
	if allowed != nil {
		for _, a := range allowed {
			if a == s {
				return s, nil
			}
		}
		return "", rangeErrorf("Value %s out of range for %s options property %s", s, ctor, name)
	}
	return s, nil
}

// getNumber is GetNumberOption: undefined gives fallback (ok false), otherwise an integer in
// [lo, hi].
func getNumber(o Options, name string, lo, hi int) (int, bool, error) {
	f, ok, err := o.Number(name)
	if err != nil || !ok {
		return 0, false, err
	}
	if f != f || f < float64(lo) || f > float64(hi) {
		return 0, false, rangeErrorf("%s value is out of range.", name)
	}
	return int(math.Floor(f)), true, nil
}
