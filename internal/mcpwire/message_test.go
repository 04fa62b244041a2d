package mcpwire

import "testing"

// checkNumberID follows the members without decoding them: ids given twice, inexact ids, and
// ids in escaped names are found as before.
func TestCheckNumberIDFollowsMembers(t *testing.T) {
	for _, c := range []struct{ msg, id, problem string }{
		{`{"id":1,"method":"x"}`, "", ""},
		{`{"id":1.5,"method":"x"}`, "1.5", "id 1.5 cannot"},
		{`{"\u0069d":9007199254740993,"method":"x"}`, "9007199254740993", "id 9007199254740993 cannot"},
		{`{"id":1,"params":{"id":2.5},"id":2}`, "", "the id is given twice"},
		{`{"params":{"id":2.5},"id":-0}`, "-0", "id -0 cannot"},
	} {
		id, problem := checkNumberID([]byte(c.msg))
		if string(id) != c.id || len(problem) < len(c.problem) || problem[:len(c.problem)] != c.problem {
			t.Errorf("%s: got %s %q, want %s %q…", c.msg, id, problem, c.id, c.problem)
		}
	}
}
