package mcptools

import (
	"errors"
	"net/http"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
)

// Redacted is what stands in place of a secret in messages and results.
const Redacted = "[redacted]"

// minSecretBytes is the shortest value treated as a secret: shorter ones ("1", "on") would
// blank out unrelated text everywhere.
const minSecretBytes = 4

// secrets are the values of one source that must never be shown: its header values (and the
// credential after an authorization scheme, "Bearer <token>"), and its environment values.
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
	if len(vals) == 0 {
		return &secrets{}
	}
	// Longest first: strings.Replacer tries the old strings in argument order at each position.
	for i := 1; i < len(vals); i++ {
		for j := i; j > 0 && len(vals[j]) > len(vals[j-1]); j-- {
			vals[j], vals[j-1] = vals[j-1], vals[j]
		}
	}
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
// there is none.
func (s *secrets) value(v jsonv.Value) jsonv.Value {
	if s.r == nil || !s.in(string(jsonv.AppendJSON(nil, v))) {
		return v
	}
	switch v.Kind() {
	case jsonv.String:
		return jsonv.StringValue(s.text(v.AsString()))
	case jsonv.Array:
		items := v.Items()
		out := make([]jsonv.Value, len(items))
		for i, x := range items {
			out[i] = s.value(x)
		}
		return jsonv.ArrayValue(out...)
	case jsonv.Object:
		ms := v.Members()
		out := make([]jsonv.Member, len(ms))
		for i, m := range ms {
			out[i] = jsonv.Member{Key: s.text(m.Key), Value: s.value(m.Value)}
		}
		return jsonv.ObjectValue(out...)
	}
	return v
}

// headerTransport adds fixed headers to every request of an HTTP source.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

// RoundTrip sends a copy of req with the headers set.
func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	return t.base.RoundTrip(req)
}
