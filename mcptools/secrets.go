package mcptools

import (
	"cmp"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
)

// Redacted is what stands in place of a secret in messages and results.
const Redacted = "[redacted]"

// minSecretBytes is the shortest value treated as a secret: shorter ones ("1", "on") would
// blank out unrelated text everywhere.
const minSecretBytes = 4

// secrets are the values of one source that must never be shown: its header values (and the
// credential after an authorization scheme, "Bearer <token>"), its environment values, and the
// password and query values of its URL.
type secrets struct {
	values []string // longest first, so that a secret containing another is replaced whole
	r      *strings.Replacer
}

func newSecrets(src Source) *secrets {
	var vals []string
	add := func(v string) {
		v = strings.TrimSpace(v)
		if len(v) >= minSecretBytes {
			vals = append(vals, v)
		}
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
		for k := len(v) - 1; k >= minSecretBytes; k-- {
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
