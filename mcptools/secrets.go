package mcptools

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/runcode-dev/runcode/internal/childenv"
	"github.com/runcode-dev/runcode/jsonv"
)

// Redacted is what stands in place of a secret in messages and results.
const Redacted = "[redacted]"

// A value is a secret when it could be a credential: at least minSecretBytes, and either at
// least plainSecretBytes or mixing at least two of letters, digits and other symbols (the
// separators "-", "_", ".", "/", ":" and spaces do not count). Shorter or plainer values
// ("1", "debug", "production", "my-service") would blank out unrelated text everywhere they
// occur, and are not what a token looks like. It is a rough floor on the value's entropy:
// 8 mixed bytes are at least 41 bits, 16 letters 75.
const (
	minSecretBytes   = 8
	plainSecretBytes = 16
)

// minTailBytes is the shortest end of a secret recognised at the start of a stderr tail.
const minTailBytes = 4

// secretLike reports whether v passes the rule above.
func secretLike(v string) bool {
	if len(v) < minSecretBytes {
		return false
	}
	if len(v) >= plainSecretBytes {
		return true
	}
	var letters, digits, symbols bool
	for _, r := range v {
		switch {
		case unicode.IsLetter(r):
			letters = true
		case unicode.IsDigit(r):
			digits = true
		case unicode.IsSpace(r) || strings.ContainsRune("-_./:", r):
		default:
			symbols = true
		}
	}
	return letters && digits || letters && symbols || digits && symbols
}

// escapedForms returns v as JSON encoders write it inside a string, where it differs from v:
// JavaScript's JSON.stringify (only quote, backslash and control characters escaped), with
// encoding/json's HTML escapes (<, >, & and U+2028/U+2029 as \uXXXX), with Python's
// ensure_ascii (every non-ASCII character as \uXXXX), with PHP's escaped slash, in their
// combinations, and JSON.stringify's form quoted once more (JSON text inside a JSON string). A
// server's result is often JSON text it serialised itself; the secret is in it only so.
func escapedForms(v string) []string {
	var forms []string
	add := func(f string) {
		if f != v && !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	for flags := range 8 {
		add(escapeJSON(v, flags&1 != 0, flags&2 != 0, flags&4 != 0))
	}
	add(escapeJSON(escapeJSON(v, false, false, false), false, false, false))
	return forms
}

// escapeJSON returns s as the inside of a JSON string: quote, backslash and control characters
// escaped, and, as chosen, HTML-significant characters, non-ASCII characters and "/".
func escapeJSON(s string, html, ascii, slash bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20,
			html && (r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029'),
			ascii && r > 0x7f:
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&b, `\u%04x`, u)
			}
		case slash && r == '/':
			b.WriteString(`\/`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// secrets are the values of one source that must never be shown: its header values (and the
// credential after an authorization scheme, "Bearer <token>"), its environment values, its
// URL's password and query values, and its Secrets.
type secrets struct {
	values []string // longest first, so that a secret containing another is replaced whole
	r      *strings.Replacer
}

func newSecrets(src Source) *secrets {
	var vals []string
	add := func(v string) {
		v = strings.TrimSpace(v)
		if secretLike(v) {
			vals = append(vals, v)
			vals = append(vals, escapedForms(v)...)
			// As URLs in errors show it ("Post \"https://host/a%20b\": …").
			for _, f := range [...]string{url.PathEscape(v), url.QueryEscape(v)} {
				if f != v && !slices.Contains(vals, f) {
					vals = append(vals, f)
				}
			}
		}
	}
	for _, v := range src.Secrets {
		add(v)
	}
	for _, v := range src.Headers {
		add(v)
		if _, cred, ok := strings.Cut(strings.TrimSpace(v), " "); ok {
			add(cred)
		}
	}
	for _, v := range src.Env {
		add(v)
	}
	// Variables the command inherits by name are passed like env values ("*", the whole
	// environment, is not a choice of secrets).
	if len(src.Command) > 0 {
		for _, kv := range os.Environ() {
			name, v, _ := strings.Cut(kv, "=")
			if slices.ContainsFunc(src.InheritEnv, func(p string) bool { return p != childenv.All && childenv.Matches(p, name) }) {
				add(v)
			}
		}
	}
	// A URL may carry a credential too: its password and its query values.
	if u, err := url.Parse(src.URL); err == nil && src.URL != "" {
		if p, ok := u.User.Password(); ok {
			add(p)
		}
		for _, vs := range u.Query() {
			for _, v := range vs {
				add(v)
			}
		}
	}
	if len(vals) == 0 {
		return &secrets{}
	}
	// Longest first: strings.Replacer tries the old strings in argument order at each position.
	slices.SortStableFunc(vals, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	pairs := make([]string, 0, 2*len(vals))
	for _, v := range vals {
		pairs = append(pairs, v, Redacted)
	}
	return &secrets{values: vals, r: strings.NewReplacer(pairs...)}
}

// text returns s with every secret replaced by Redacted.
func (s *secrets) text(t string) string {
	if s.r == nil {
		return t
	}
	return s.r.Replace(t)
}

// in reports whether t contains a secret.
func (s *secrets) in(t string) bool {
	for _, v := range s.values {
		if strings.Contains(t, v) {
			return true
		}
	}
	return false
}

// cause returns err, or, when its text contains a secret, an error with the redacted text in its
// place (the original would show the secret to anything that unwraps it).
func (s *secrets) cause(err error) error {
	if err == nil || !s.in(err.Error()) {
		return err
	}
	return errors.New(s.text(err.Error()))
}

// value returns v with every secret in its strings (keys included) replaced; v itself when
// there is none. It looks at the strings themselves, not at their JSON text, where a secret
// with a quote or a backslash would be escaped and missed.
func (s *secrets) value(v jsonv.Value) jsonv.Value {
	if s.r == nil {
		return v
	}
	out, _ := s.redactValue(v)
	return out
}

// redactValue returns v redacted and whether anything changed; an unchanged value is not
// copied.
func (s *secrets) redactValue(v jsonv.Value) (jsonv.Value, bool) {
	switch v.Kind() {
	case jsonv.String:
		if t := v.AsString(); s.in(t) {
			return jsonv.StringValue(s.text(t)), true
		}
	case jsonv.Array:
		items := v.Items()
		var out []jsonv.Value
		for i, x := range items {
			y, changed := s.redactValue(x)
			if changed && out == nil {
				out = append(make([]jsonv.Value, 0, len(items)), items[:i]...)
			}
			if out != nil {
				out = append(out, y)
			}
		}
		if out != nil {
			return jsonv.ArrayValue(out...), true
		}
	case jsonv.Object:
		ms := v.Members()
		var out []jsonv.Member
		for i, m := range ms {
			y, changed := s.redactValue(m.Value)
			key := m.Key
			if s.in(key) {
				key, changed = s.text(key), true
			}
			if changed && out == nil {
				out = append(make([]jsonv.Member, 0, len(ms)), ms[:i]...)
			}
			if out != nil {
				out = append(out, jsonv.Member{Key: key, Value: y})
			}
		}
		if out != nil {
			return jsonv.ObjectValue(out...), true
		}
	}
	return v, false
}

// tail returns the kept end of a longer text with its secrets replaced, including a secret cut
// by the truncation whose last 4 or more bytes open the text.
func (s *secrets) tail(t string) string {
	for _, v := range s.values {
		for k := len(v) - 1; k >= minTailBytes; k-- {
			if strings.HasPrefix(t, v[len(v)-k:]) {
				t = Redacted + t[k:]
				break
			}
		}
	}
	return s.text(t)
}

// headerTransport adds fixed headers to every request of an HTTP source to the source's origin
// (newHTTPClient follows no redirect elsewhere; this is the second lock).
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	origin  string // originOf the source's URL
}

// RoundTrip sends a copy of req with the headers set, or req as it is to another origin.
func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if originOf(req.URL) != t.origin {
		return t.base.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	return t.base.RoundTrip(req)
}
