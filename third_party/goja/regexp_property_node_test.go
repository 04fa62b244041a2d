package goja

// runcode: the property escape tables against Node 22's answer (V8, ICU 78: Unicode 17.0).

import (
	"bufio"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

var updateNode = flag.Bool("update-node", false, "rewrite testdata/regexp_property_node.txt from the Node named by RUNCODE_NODE")

const regexpPropertyNodeFile = "testdata/regexp_property_node.txt"

// regexpPropertyNodeExtra are bodies tested besides those the tables make: names V8 refuses
// with the u flag (a property that is not ECMA-262's, a value no code point has, another
// property's value, loose spelling, a property of strings, which needs the v flag).
var regexpPropertyNodeExtra = []string{
	"Katakana_Or_Hiragana", "sc=Hrkt", "Script=Katakana_Or_Hiragana", "scx=Hrkt",
	"Block=Basic_Latin", "InCB", "Other_Alphabetic", "Composition_Exclusion", "Alphabetic=Yes",
	"gc=Alphabetic", "sc=L", "lu", "letter", "Script=latin", "RGI_Emoji", "Basic_Emoji",
}

// regexpPropertyBodies are the bodies of \p{…} that name every property and value the tables
// hold: each General_Category alias alone and after gc=, each Script alias after sc= and scx=,
// the long names after General_Category=, Script= and Script_Extensions=, each binary property
// alias; and regexpPropertyNodeExtra.
func regexpPropertyBodies() []string {
	var out []string
	for alias, long := range regexpGeneralCategoryNames {
		out = append(out, alias, "gc="+alias)
		if alias == long {
			out = append(out, "General_Category="+alias)
		}
	}
	for alias, long := range regexpScriptNames {
		out = append(out, "sc="+alias, "scx="+alias)
		if alias == long {
			out = append(out, "Script="+alias, "Script_Extensions="+alias)
		}
	}
	for alias := range regexpBinaryPropertyNames {
		out = append(out, alias)
	}
	out = append(out, regexpPropertyNodeExtra...)
	slices.Sort(out)
	return slices.Compact(out)
}

// regexpPropertyAnswer is this runtime's line for body, in the format of
// testdata/regexp_property_node.js: "invalid", or the number of ranges, of code points, and the
// first 8 bytes of the SHA-256 of the ranges as text.
func regexpPropertyAnswer(body string) string {
	ranges, reason := lookupProperty(body)
	if reason != "" {
		return "invalid"
	}
	h := sha256.New()
	count := 0
	for i := 0; i < len(ranges); i += 2 {
		fmt.Fprintf(h, "%x-%x\n", ranges[i], ranges[i+1])
		count += int(ranges[i+1]-ranges[i]) + 1
	}
	return fmt.Sprintf("%d\t%d\t%x", len(ranges)/2, count, h.Sum(nil)[:8])
}

// readNodeAnswers reads lines "body<TAB>answer" (lines starting with # are comments).
func readNodeAnswers(t *testing.T, text string) (bodies []string, answers map[string]string) {
	answers = map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		body, answer, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		bodies = append(bodies, body)
		answers[body] = answer
	}
	return bodies, answers
}

// TestRegExpPropertiesMatchNode compares, for every property and value name the tables hold
// (and the names in regexpPropertyNodeExtra), the code points \p{…} matches with Node 22's:
// from testdata/regexp_property_node.txt, or, when RUNCODE_NODE names a node binary, from that
// node, live (testdata/regexp_property_node.js). With -update-node the live answers are written
// to the testdata file:
//
//	RUNCODE_NODE=/path/to/node go test -run TestRegExpPropertiesMatchNode -update-node
func TestRegExpPropertiesMatchNode(t *testing.T) {
	data, err := os.ReadFile(regexpPropertyNodeFile)
	if err != nil && !*updateNode {
		t.Fatal(err)
	}
	stored, answers := readNodeAnswers(t, string(data))

	if node := os.Getenv("RUNCODE_NODE"); node != "" {
		bodies := regexpPropertyBodies()
		for _, b := range stored {
			if !slices.Contains(bodies, b) {
				bodies = append(bodies, b) // a name the tables no longer hold is still checked
			}
		}
		slices.Sort(bodies)
		cmd := exec.Command(node, "testdata/regexp_property_node.js")
		cmd.Stdin = strings.NewReader(strings.Join(bodies, "\n") + "\n")
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", node, err)
		}
		version, err := exec.Command(node, "-p", "process.version + ' (Unicode ' + process.versions.unicode + ', ICU ' + process.versions.icu + ')'").Output()
		if err != nil {
			t.Fatalf("%s: %v", node, err)
		}
		var live string
		stored, answers = readNodeAnswers(t, string(out))
		if *updateNode {
			live = "# Node " + strings.TrimSpace(string(version)) + "'s answer for each \\p{body} with the u flag: \"invalid\", or\n" +
				"# the number of ranges, of code points, and a hash of the ranges (testdata/regexp_property_node.js).\n" +
				"# Regenerate: RUNCODE_NODE=/path/to/node go test -run TestRegExpPropertiesMatchNode -update-node\n" + string(out)
			if err := os.WriteFile(regexpPropertyNodeFile, []byte(live), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	} else if *updateNode {
		t.Fatal("-update-node needs RUNCODE_NODE")
	}

	for _, b := range regexpPropertyBodies() {
		if _, ok := answers[b]; !ok {
			t.Errorf("\\p{%s}: no answer from Node in %s; regenerate it with RUNCODE_NODE set and -update-node", b, regexpPropertyNodeFile)
		}
	}
	mismatches := 0
	for _, b := range stored {
		if got, want := regexpPropertyAnswer(b), answers[b]; got != want {
			mismatches++
			if mismatches <= 40 {
				t.Errorf("\\p{%s}: got %s, Node %s", b, got, want)
			}
		}
	}
	if mismatches > 0 {
		t.Errorf("%d of %d property escapes match other code points than Node's (tables: Unicode %s)", mismatches, len(stored), regexpPropertyUnicodeVersion)
	}
}
