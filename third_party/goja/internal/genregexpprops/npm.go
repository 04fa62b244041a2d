package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// fromNPM reads the tables from npm packages in the node_modules directory dir:
//   - @unicode/unicode-<version> (node-unicode-data: the code point ranges of each value of
//     General_Category, Script and Script_Extensions and of each binary property, one
//     ranges.mjs file per value, e.g. Script/Latin/ranges.mjs);
//   - unicode-property-value-aliases-ecmascript (the names ECMA-262 allows for each value of
//     General_Category, Script and Script_Extensions, mapped to the value's long name);
//   - unicode-property-aliases-ecmascript (the same for property names).
//
// These are the packages regexpu-core builds on, made from the UCD files of one version.
func fromNPM(dir string) generated {
	matches, _ := filepath.Glob(filepath.Join(dir, "@unicode", "unicode-*"))
	if len(matches) != 1 {
		log.Fatalf("%s: want exactly one @unicode/unicode-<version> package, found %q", dir, matches)
	}
	data := matches[0]
	version := strings.TrimPrefix(filepath.Base(data), "unicode-")

	valueAliases := readValueAliases(filepath.Join(dir, "unicode-property-value-aliases-ecmascript", "index.js"))
	tables := map[string][]uint32{}

	gcNames := valueAliases["General_Category"]
	if len(gcNames) == 0 {
		log.Fatal("unicode-property-value-aliases-ecmascript: no General_Category values")
	}
	for _, long := range uniqueValues(gcNames) {
		tables["gc="+long] = readRangesMJS(filepath.Join(data, "General_Category", long, "ranges.mjs"))
	}

	scNames := valueAliases["Script"]
	if len(scNames) == 0 || !mapsEqual(scNames, valueAliases["Script_Extensions"]) {
		log.Fatal("unicode-property-value-aliases-ecmascript: Script and Script_Extensions values differ or are missing")
	}
	for alias, long := range scNames {
		if long == "Katakana_Or_Hiragana" {
			delete(scNames, alias) // no code point has it; ECMA-262's table of Script values leaves it out
		}
	}
	for _, long := range uniqueValues(scNames) {
		tables["sc="+long] = readRangesMJS(filepath.Join(data, "Script", long, "ranges.mjs"))
		tables["scx="+long] = readRangesMJS(filepath.Join(data, "Script_Extensions", long, "ranges.mjs"))
	}
	// Every Script the data has must be nameable: a value missing from the aliases package
	// would silently be refused.
	dirs, err := os.ReadDir(filepath.Join(data, "Script"))
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range dirs {
		if _, ok := tables["sc="+d.Name()]; d.IsDir() && !ok {
			log.Fatalf("Script=%s has code points but no alias entry", d.Name())
		}
	}

	binNames := map[string]string{}
	names := []string{"Any", "ASCII", "Assigned"}
	for name := range binaryProperties {
		names = append(names, name)
	}
	for _, name := range names {
		tables[name] = readRangesMJS(filepath.Join(data, "Binary_Property", name, "ranges.mjs"))
		binNames[name] = name
	}
	for alias, long := range readPropertyAliases(filepath.Join(dir, "unicode-property-aliases-ecmascript", "index.mjs")) {
		if _, ok := binNames[long]; ok {
			binNames[alias] = long
		}
	}
	return generated{version: version, source: "the Unicode Character Database " + version + " as npm's @unicode/unicode-" + version + " encodes it", gcNames: gcNames, scNames: scNames, binNames: binNames, tables: tables}
}

func uniqueValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

var (
	mapOpenRE  = regexp.MustCompile(`^\s*\['(\w+)', new Map\(\[$`)
	mapEntryRE = regexp.MustCompile(`^\s*\['([\w.]+)', '([\w.]+)'\],?$`)
)

// readValueAliases reads unicode-property-value-aliases-ecmascript's index.js, a Map from
// property name to a Map from value alias to long value name, one entry a line, and adds each
// long name as its own alias.
func readValueAliases(file string) map[string]map[string]string {
	src, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	out := map[string]map[string]string{}
	var cur map[string]string
	for _, line := range strings.Split(string(src), "\n") {
		if m := mapOpenRE.FindStringSubmatch(line); m != nil {
			cur = map[string]string{}
			out[m[1]] = cur
		} else if m := mapEntryRE.FindStringSubmatch(line); m != nil {
			if cur == nil {
				log.Fatalf("%s: entry outside a property: %q", file, line)
			}
			cur[m[1]] = m[2]
		}
	}
	for _, m := range out {
		for _, long := range m {
			m[long] = long // the package lists only the other names
		}
	}
	return out
}

// readPropertyAliases reads unicode-property-aliases-ecmascript's index.mjs, a Map from
// property alias to long property name, one entry a line.
func readPropertyAliases(file string) map[string]string {
	src, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(src), "\n") {
		if m := mapEntryRE.FindStringSubmatch(line); m != nil {
			out[m[1]] = m[2]
		}
	}
	if len(out) == 0 {
		log.Fatalf("%s: no aliases", file)
	}
	return out
}

var rangesMJSRE = regexp.MustCompile(`decodeRanges\('([A-Za-z0-9_-]*)'\)`)

// readRangesMJS reads a ranges.mjs file of @unicode/unicode-<version>: `decodeRanges('…')` of
// the ranges' lengths and gaps as variable-length base64 numbers (decode-ranges.mjs of the
// package). It returns inclusive first/last pairs.
func readRangesMJS(file string) []uint32 {
	src, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	m := rangesMJSRE.FindSubmatch(src)
	if m == nil {
		log.Fatalf("%s: no decodeRanges('…') call", file)
	}
	deltas, err := decodeDeltas(string(m[1]))
	if err != nil {
		log.Fatalf("%s: %v", file, err)
	}
	return deltasToRanges(deltas)
}

const base64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// decodeDeltas is decode-ranges.mjs's decodeDeltas: each number is one to four base64 digits,
// the first digit's top bits saying how many (0xx: 5 bits in one digit; 10x: 10 bits in two;
// 110: 15 bits in three; 111: 21 bits in four).
func decodeDeltas(s string) ([]int, error) {
	digit := func(i int) (int, error) {
		if i >= len(s) {
			return 0, fmt.Errorf("truncated at %d", i)
		}
		d := strings.IndexByte(base64Alphabet, s[i])
		if d < 0 {
			return 0, fmt.Errorf("bad digit %q", s[i])
		}
		return d, nil
	}
	var out []int
	for i := 0; i < len(s); {
		x, err := digit(i)
		if err != nil {
			return nil, err
		}
		i++
		more := 0
		switch x & 56 {
		case 32, 40:
			x, more = x&15, 1
		case 48:
			x, more = x&7, 2
		case 56:
			x, more = x&7, 3
		}
		for ; more > 0; more-- {
			d, err := digit(i)
			if err != nil {
				return nil, err
			}
			i++
			x = x<<6 | d
		}
		out = append(out, x)
	}
	return out, nil
}

// deltasToRanges is decode-ranges.mjs's decodeRanges: pairs of (gap after the previous range,
// length - 1).
func deltasToRanges(deltas []int) []uint32 {
	var out []uint32
	end := -1 // one past the last code point of the previous range
	for i := 1; i < len(deltas); i += 2 {
		begin := end + 1 + deltas[i-1]
		end = begin + 1 + deltas[i]
		out = append(out, uint32(begin), uint32(end-1))
	}
	return out
}
