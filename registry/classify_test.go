package registry

import (
	"context"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

// The body takes the verdict Classify reached instead of validating the arguments a second
// time (a sentinel verdict shows which one it used).
func TestBodyReusesTheVerdictOfClassify(t *testing.T) {
	reg := New()
	if _, err := reg.Register(Tool{Name: "t", Output: AnyOutput(),
		Parameters:      jsonv.MustParse(`{"type":"object","properties":{"x":{"type":"number","minimum":0}}}`),
		ConcurrencySafe: func(jsonv.Value) bool { return true },
		Execute:         func(context.Context, *Invocation) (jsonv.Value, error) { return jsonv.NullValue(), nil }}); err != nil {
		t.Fatal(err)
	}
	mode, c := reg.Classify(Call{CallID: "1", Name: "t", Arguments: jsonv.MustParse(`{"x":-1}`)})
	if mode != Exclusive || c.checked.violations == nil {
		t.Fatalf("mode = %s, verdict = %+v", mode, c.checked)
	}
	*c.checked.violations = []string{"sentinel"}
	if got := TextOf(reg.Execute(context.Background(), c).Content); got != "Error: invalid arguments: sentinel" {
		t.Fatalf("result = %q", got)
	}
}
