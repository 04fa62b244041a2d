// Package childenv builds the environment of the programs runcode starts for tools: stdio MCP
// servers and manifest command tools. A child gets a short list of the host's variables (those
// a program needs to run at all), the variables its entry names, and the entry's own values,
// never the host's whole environment: secrets meant for one server (a token a configuration
// expands from ${VAR}) would otherwise reach every other server and command.
package childenv

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
)

// Defaults returns the names of the host's variables every child gets when they are set: those
// the official MCP SDKs pass to a stdio server (TypeScript's getDefaultEnvironment, Python's
// get_default_environment), plus the locale (LANG, LANGUAGE, LC_*), TZ and the temporary
// directory. On Unix: HOME, LOGNAME, PATH, SHELL, TERM, USER, LANG, LANGUAGE, LC_*, TZ, TMPDIR.
func Defaults() []string {
	if runtime.GOOS == "windows" {
		return []string{"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT",
			"PROCESSOR_ARCHITECTURE", "PROGRAMFILES", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP",
			"USERNAME", "USERPROFILE", "LANG", "TZ"}
	}
	return []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LANGUAGE", "LC_*", "TZ", "TMPDIR"}
}

// All is the pattern that inherits the host's whole environment.
const All = "*"

// CheckPattern reports whether p is a pattern Build accepts: a variable name
// ([A-Za-z_][A-Za-z0-9_]*), a prefix of one followed by "*" ("AWS_*"), or All. The error says
// what is wrong with p.
func CheckPattern(p string) error {
	name, prefix := strings.CutSuffix(p, "*")
	switch {
	case p == "":
		return fmt.Errorf("an empty variable name")
	case strings.Contains(name, "*"):
		return fmt.Errorf("%q: a \"*\" may only end a pattern (\"PREFIX_*\")", p)
	case prefix && name == "":
		return nil
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return fmt.Errorf("%q is not a variable name or a \"PREFIX_*\" pattern", p)
		}
	}
	return nil
}

// Matches reports whether the variable name matches pattern p (see CheckPattern). Names
// compare case-insensitively on Windows, as the system compares them.
func Matches(p, name string) bool {
	eq, hasPrefix := strings.EqualFold, func(s, prefix string) bool {
		return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
	}
	if runtime.GOOS != "windows" {
		eq, hasPrefix = func(a, b string) bool { return a == b }, strings.HasPrefix
	}
	if prefix, ok := strings.CutSuffix(p, "*"); ok {
		return hasPrefix(name, prefix)
	}
	return eq(p, name)
}

// Build returns a child's environment as "NAME=value" strings (for exec.Cmd.Env): the
// variables of environ (the host's, os.Environ()) that Defaults or inherit match, then every
// map of set in order, a later value replacing an earlier one of the same name. A default
// variable whose value starts with "()" (a shell function exported by bash) is left out, as the
// MCP SDKs do; a variable inherit names explicitly is passed as it is. The result is never nil,
// so that exec does not fall back to the whole environment.
func Build(environ []string, inherit []string, set ...map[string]string) []string {
	defaults := Defaults()
	out := make([]string, 0, len(defaults)+len(inherit))
	index := map[string]int{} // name (as the system compares it) → position in out
	key := func(name string) string {
		if runtime.GOOS == "windows" {
			return strings.ToUpper(name)
		}
		return name
	}
	put := func(name, value string) {
		kv := name + "=" + value
		if i, ok := index[key(name)]; ok {
			out[i] = kv
			return
		}
		index[key(name)] = len(out)
		out = append(out, kv)
	}
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		match := func(p string) bool { return Matches(p, name) }
		switch {
		case slices.ContainsFunc(inherit, match):
			put(name, value)
		case slices.ContainsFunc(defaults, match) && !strings.HasPrefix(value, "()"):
			put(name, value)
		}
	}
	for _, m := range set {
		// In name order, so that the same entry always gives the same environment.
		names := make([]string, 0, len(m))
		for name := range m {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			put(name, m[name])
		}
	}
	return out
}
