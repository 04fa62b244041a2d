package jsruntime_test

import "testing"

// toLocaleUpperCase/toLocaleLowerCase map by the locale's language as V8 does (Turkish and
// Azerbaijani i, Lithuanian dots, Greek accents), and like toUpperCase/toLowerCase otherwise:
// they ignored the locale ("istanbul".toLocaleUpperCase("tr-TR") gave "ISTANBUL", V8 "İSTANBUL").
// The expected value is Node 22's for the same program.
func TestLocaleCaseMappings(t *testing.T) {
	forEachIsolation(t, []confCase{{name: "as Node 22", cfg: short, program: `const r = [];
for (const [s, l] of [["istanbul", "tr-TR"], ["İSTANBUL", "tr"], ["ISTANBUL", "tr"], ["i", "az"], ["ΣΊΣΥΦΟΣ άλφα", "el"], ["ΣΊΣΥΦΟΣ", "el-GR"], ["istanbul", "en-US"], ["i\u0307", "lt"], ["Ì", "lt"], ["straße", "de"], ["ǆ", "tr"], ["x", undefined], ["x", []], ["x", ["tr", "en"]]]) {
  r.push([s.toLocaleUpperCase(l), s.toLocaleLowerCase(l)]);
}
try { "x".toLocaleUpperCase("not a tag!"); } catch (e) { r.push(e.name + ": " + e.message); }
return JSON.stringify(r);
`,
		want: "\"[[\\\"İSTANBUL\\\",\\\"istanbul\\\"],[\\\"İSTANBUL\\\",\\\"istanbul\\\"],[\\\"ISTANBUL\\\",\\\"ıstanbul\\\"],[\\\"İ\\\",\\\"i\\\"],[\\\"ΣΙΣΥΦΟΣ ΑΛΦΑ\\\",\\\"σίσυφος άλφα\\\"],[\\\"ΣΙΣΥΦΟΣ\\\",\\\"σίσυφος\\\"],[\\\"ISTANBUL\\\",\\\"istanbul\\\"],[\\\"I\\\",\\\"i̇\\\"],[\\\"Ì\\\",\\\"i̇̀\\\"],[\\\"STRASSE\\\",\\\"straße\\\"],[\\\"Ǆ\\\",\\\"ǆ\\\"],[\\\"X\\\",\\\"x\\\"],[\\\"X\\\",\\\"x\\\"],[\\\"X\\\",\\\"x\\\"],\\\"RangeError: Incorrect locale information provided\\\"]\""}})
}
