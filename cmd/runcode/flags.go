package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/runcode-dev/runcode/internal/suggest"
)

// This file makes the flag package's errors and usage read as the rest of the CLI does: flags
// spelled --name, defaults in human units (64MiB, 10m), and every bad flag a one-line error
// that says what to write instead (see flagError).

// flagUsageError is a bad flag (exit status 2), with a message that says all there is to say,
// what to write instead included: it is printed alone, on one line, without the pointer to
// --help that follows other usage errors.
type flagUsageError struct{ msg string }

// Error returns the message.
func (e *flagUsageError) Error() string { return e.msg }

// checkedValue wraps a flag's value to remember, when Set fails, a one-line explanation of the
// mistake (the flag package's own message names only the raw error).
type checkedValue struct {
	flag.Value
	name    string
	problem *string
}

// Set sets the value, or records why s is not one.
func (v *checkedValue) Set(s string) error {
	err := v.Value.Set(s)
	if err != nil {
		*v.problem = fmt.Sprintf("invalid %s %q: %s", dashed(v.name), s, explainValue(v.name, v.Value, s, err))
	}
	return err
}

// checkedBool is a checkedValue of a boolean flag, which takes no argument.
type checkedBool struct{ checkedValue }

// IsBoolFlag reports true: the flag package then accepts --name without a value.
func (checkedBool) IsBoolFlag() bool { return true }

// checkFlags wraps every flag of fs in a checkedValue that writes to problem.
func checkFlags(fs *flag.FlagSet, problem *string) {
	fs.VisitAll(func(f *flag.Flag) {
		cv := checkedValue{Value: f.Value, name: f.Name, problem: problem}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			f.Value = &checkedBool{cv}
			return
		}
		f.Value = &cv
	})
}

// dashed is a flag's name as the CLI spells it: --name, or -o for a one-letter name.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// explainValue says what is wrong with s as a value of flag name, and what to write instead.
func explainValue(name string, v flag.Value, s string, err error) string {
	switch kindOf(v) {
	case "DURATION":
		if _, numErr := strconv.ParseFloat(strings.TrimSpace(s), 64); numErr == nil {
			return "add a unit, e.g. " + strings.TrimSpace(s) + "s"
		}
		return "use a duration such as 30s, 500ms or 10m"
	case "SIZE":
		return "sizes are plain bytes or KiB, MiB or GiB, e.g. " + sizeExample(s)
	case "N":
		return "use a whole number, e.g. 10"
	case "":
		return fmt.Sprintf("a switch takes no value (write %s alone, or %s=false)", dashed(name), dashed(name))
	}
	return err.Error()
}

// decimalSize matches a size written with a decimal or shorthand unit (64MB, 2g, 512 k).
var decimalSize = regexp.MustCompile(`^\s*(\d+)\s*([kKmMgG])[bB]?\s*$`)

// sizeExample is s rewritten with the binary unit it probably meant (64MB → 64MiB), or 64MiB.
func sizeExample(s string) string {
	if m := decimalSize.FindStringSubmatch(s); m != nil {
		return m[1] + strings.ToUpper(m[2]) + "iB"
	}
	return "64MiB"
}

// kindOf is the placeholder of a flag's value in usage and errors: DURATION, SIZE, N, or ""
// for a boolean switch; "VALUE" for anything else.
func kindOf(v flag.Value) string {
	if c, ok := v.(*checkedValue); ok {
		v = c.Value
	}
	if c, ok := v.(*checkedBool); ok {
		v = c.Value
	}
	if _, ok := v.(*byteSize); ok {
		return "SIZE"
	}
	if g, ok := v.(flag.Getter); ok {
		switch g.Get().(type) {
		case time.Duration:
			return "DURATION"
		case int, int64, uint, uint64:
			return "N"
		case bool:
			return ""
		}
	}
	return "VALUE"
}

// explainFlagError turns an error of parsing fs into a one-line usage error: an unknown flag
// with the closest flags; a value that does not parse, with what to write instead (problem,
// recorded by the checkedValue that refused it); a missing value with an example. Help stays
// help, and a usage error passes unchanged.
func explainFlagError(err error, fs *flag.FlagSet, problem string) error {
	var ue *usageError
	var fe *flagUsageError
	if errors.Is(err, flag.ErrHelp) || errors.As(err, &ue) || errors.As(err, &fe) {
		return err
	}
	msg := err.Error()
	if problem != "" {
		return &flagUsageError{problem}
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		hint := suggest.Phrase(suggest.Closest(name, names), dashed)
		if hint == "" {
			hint = fmt.Sprintf(` (see "runcode %s --help")`, fs.Name())
		}
		return &flagUsageError{"unknown flag " + dashed(name) + hint}
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		name = strings.TrimLeft(name, "-")
		if f := fs.Lookup(name); f != nil {
			return &flagUsageError{fmt.Sprintf("%s needs a value (%s)", dashed(name), valueExample(f))}
		}
	}
	return &flagUsageError{strings.ReplaceAll(msg, " -", " --")}
}

// valueExample is an example of f's value, e.g. "a duration, e.g. 30s".
func valueExample(f *flag.Flag) string {
	switch kindOf(f.Value) {
	case "DURATION":
		return "a duration, e.g. 30s"
	case "SIZE":
		return "a size, e.g. 64MiB"
	case "N":
		return "a whole number, e.g. 10"
	}
	name, _ := flag.UnquoteUsage(f)
	return strings.ToUpper(name)
}

// printFlags prints fs's flags as --name PLACEHOLDER (-o for a one-letter name), each with its usage and its default in
// human units, in name order.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		placeholder, usage := flag.UnquoteUsage(f)
		switch k := kindOf(f.Value); {
		case k == "":
			placeholder = ""
		case placeholder == "value" || placeholder == "duration" || placeholder == "int" || placeholder == "string":
			placeholder = k
			if o, ok := placeholderOverrides[f.Name]; ok {
				placeholder = o
			}
		}
		line := "  " + dashed(f.Name)
		if placeholder != "" {
			line += " " + placeholder
		}
		fmt.Fprintln(w, line)
		usage = strings.ReplaceAll(usage, "\n", "\n    \t")
		if d := humanDefault(f); d != "" {
			usage += " (default " + d + ")"
		}
		fmt.Fprintln(w, "    \t"+usage)
	})
}

// placeholderOverrides name the values of flags that take one of a few words.
var placeholderOverrides = map[string]string{"isolation": "process|inprocess"}

// humanDefault is f's default as a user writes it (10m, 64MiB, process), or "" when the
// default is the zero value.
func humanDefault(f *flag.Flag) string {
	switch f.DefValue {
	case "", "false", "0", "0s", "[]":
		return ""
	}
	if kindOf(f.Value) == "DURATION" {
		if d, err := time.ParseDuration(f.DefValue); err == nil {
			return humanDuration(d)
		}
	}
	return f.DefValue
}

// humanDuration formats d as the docs write durations: whole hours as 2h, whole minutes
// from 2 minutes on as 10m, whole seconds as 60s, anything else in Go syntax (1m30.5s).
func humanDuration(d time.Duration) string {
	switch {
	case d != 0 && d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d >= 2*time.Minute && d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

// formatSize formats a byte count in the largest binary unit that divides it: 64MiB, 1536KiB,
// 1000.
func formatSize(n int64) string {
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n != 0 && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}
