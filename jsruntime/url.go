package jsruntime

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
	"golang.org/x/net/idna"
)

// This file is the WHATWG URL Standard's basic URL parser and serializer
// (https://url.spec.whatwg.org/), behind the URL class of the polyfills. Go's net/url follows
// RFC 3986, which differs from what browsers and Node do (special schemes, backslashes, IPv4
// numbers, percent-encode sets, IDNA), so it is not used.

// maxURLLength bounds the input of one parse: the parser is linear, but a run parses as often
// as it likes, and each parse copies its input a few times.
const maxURLLength = 1 << 21

// urlRecord is a parsed URL. host is nil for a URL without a host; port is -1 for none.
type urlRecord struct {
	scheme, username, password string
	host                       *string
	port                       int
	path                       []string
	opaque                     bool // the path is an opaque path (path[0])
	query, fragment            *string
}

var specialPorts = map[string]int{"ftp": 21, "file": -1, "http": 80, "https": 443, "ws": 80, "wss": 443}

func (u *urlRecord) special() bool { _, ok := specialPorts[u.scheme]; return ok }

func isSpecialScheme(s string) bool { _, ok := specialPorts[s]; return ok }

func strp(s string) *string { return &s }

// Percent-encode sets (https://url.spec.whatwg.org/#percent-encoded-bytes).
func inC0Control(c rune) bool { return c < 0x20 || c > 0x7e }
func inFragmentSet(c rune) bool {
	return inC0Control(c) || c == ' ' || c == '"' || c == '<' || c == '>' || c == '`'
}
func inQuerySet(c rune) bool {
	return inC0Control(c) || c == ' ' || c == '"' || c == '#' || c == '<' || c == '>'
}
func inSpecialQuerySet(c rune) bool { return inQuerySet(c) || c == '\'' }

// inPathSet and inUserinfoSet are the sets Node 22's URL parser (Ada) uses: '^' is in the
// userinfo set, not in the path set (a later edition of the standard added it to both).
func inPathSet(c rune) bool {
	return inQuerySet(c) || c == '?' || c == '`' || c == '{' || c == '}'
}
func inUserinfoSet(c rune) bool {
	return inPathSet(c) || c == '/' || c == ':' || c == ';' || c == '=' || c == '@' || (c >= '[' && c <= '^') || c == '|'
}
func inComponentSet(c rune) bool {
	return inUserinfoSet(c) || (c >= '$' && c <= '&') || c == '+' || c == ','
}
func inFormSet(c rune) bool {
	return inComponentSet(c) || c == '!' || (c >= '\'' && c <= ')') || c == '~'
}

const upperHex = "0123456789ABCDEF"

// percentEncode appends c to b, UTF-8 percent-encoded when inSet(c).
func percentEncode(b *strings.Builder, c rune, inSet func(rune) bool) {
	if !inSet(c) {
		b.WriteRune(c)
		return
	}
	var buf [4]byte
	n := utf8.EncodeRune(buf[:], c)
	for _, x := range buf[:n] {
		b.WriteByte('%')
		b.WriteByte(upperHex[x>>4])
		b.WriteByte(upperHex[x&15])
	}
}

func percentEncodeString(s string, inSet func(rune) bool) string {
	var b strings.Builder
	for _, c := range s {
		percentEncode(&b, c, inSet)
	}
	return b.String()
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// percentDecode decodes %XX sequences of s to bytes; other bytes are kept.
func percentDecode(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			h, ok1 := unhex(s[i+1])
			l, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				out = append(out, h<<4|l)
				i += 2
				continue
			}
		}
		out = append(out, s[i])
	}
	return out
}

// URL parser states.
type urlState int

const (
	stNone urlState = iota
	stSchemeStart
	stScheme
	stNoScheme
	stSpecialRelativeOrAuthority
	stPathOrAuthority
	stRelative
	stRelativeSlash
	stSpecialAuthoritySlashes
	stSpecialAuthorityIgnoreSlashes
	stAuthority
	stHost
	stHostname
	stPort
	stFile
	stFileSlash
	stFileHost
	stPathStart
	stPath
	stOpaquePath
	stQuery
	stFragment
)

func isASCIIAlpha(c rune) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isASCIIDigit(c rune) bool { return c >= '0' && c <= '9' }
func isASCIIHex(c rune) bool {
	return isASCIIDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// windowsDriveLetter reports whether s is a Windows drive letter ("c:" or "c|"); normalized
// accepts only ':'.
func windowsDriveLetter(s []rune, normalized bool) bool {
	return len(s) == 2 && isASCIIAlpha(s[0]) && (s[1] == ':' || (!normalized && s[1] == '|'))
}

// startsWithDriveLetter is "starts with a Windows drive letter" for the code points from i.
func startsWithDriveLetter(in []rune, i int) bool {
	if len(in)-i < 2 || !windowsDriveLetter(in[i:i+2], false) {
		return false
	}
	if len(in)-i == 2 {
		return true
	}
	switch in[i+2] {
	case '/', '\\', '?', '#':
		return true
	}
	return false
}

func singleDot(s string) bool {
	return s == "." || strings.EqualFold(s, "%2e")
}

func doubleDot(s string) bool {
	switch strings.ToLower(s) {
	case "..", ".%2e", "%2e.", "%2e%2e":
		return true
	}
	return false
}

func (u *urlRecord) shortenPath() {
	if u.scheme == "file" && len(u.path) == 1 && windowsDriveLetter([]rune(u.path[0]), true) {
		return
	}
	if len(u.path) > 0 {
		u.path = u.path[:len(u.path)-1]
	}
}

func (u *urlRecord) includesCredentials() bool { return u.username != "" || u.password != "" }

// parseURL is the basic URL parser. With url and override set it modifies url (a setter) and
// reports false on failure; otherwise it returns a new record, or nil for failure.
func parseURL(input string, base *urlRecord, url *urlRecord, override urlState) (*urlRecord, bool) {
	if url == nil {
		url = &urlRecord{port: -1}
		input = strings.TrimFunc(input, func(c rune) bool { return c <= 0x20 })
	}
	input = strings.Map(func(c rune) rune {
		if c == '\t' || c == '\n' || c == '\r' {
			return -1
		}
		return c
	}, input)
	in := []rune(input)
	state := override
	if state == stNone {
		state = stSchemeStart
	}
	var buf strings.Builder
	atSign, insideBrackets, passwordToken := false, false, false
	const eof = rune(-1)
	for p := 0; ; p++ {
		c := eof
		if p < len(in) {
			c = in[p]
		}
		remaining := func(i int) rune {
			if p+i < len(in) {
				return in[p+i]
			}
			return eof
		}
		switch state {
		case stSchemeStart:
			if isASCIIAlpha(c) {
				buf.WriteRune(c | 0x20)
				state = stScheme
			} else if override == stNone {
				state = stNoScheme
				p--
			} else {
				return nil, false
			}
		case stScheme:
			if isASCIIAlpha(c) || isASCIIDigit(c) || c == '+' || c == '-' || c == '.' {
				if c < 0x80 && isASCIIAlpha(c) {
					c |= 0x20
				}
				buf.WriteRune(c)
			} else if c == ':' {
				scheme := buf.String()
				if override != stNone {
					if isSpecialScheme(url.scheme) != isSpecialScheme(scheme) {
						return url, true
					}
					if (url.includesCredentials() || url.port != -1) && scheme == "file" {
						return url, true
					}
					if url.scheme == "file" && url.host != nil && *url.host == "" {
						return url, true
					}
				}
				url.scheme = scheme
				if override != stNone {
					if dp, ok := specialPorts[url.scheme]; ok && url.port == dp {
						url.port = -1
					}
					return url, true
				}
				buf.Reset()
				switch {
				case url.scheme == "file":
					state = stFile
				case url.special() && base != nil && base.scheme == url.scheme:
					state = stSpecialRelativeOrAuthority
				case url.special():
					state = stSpecialAuthoritySlashes
				case remaining(1) == '/':
					state = stPathOrAuthority
					p++
				default:
					url.opaque = true
					url.path = []string{""}
					state = stOpaquePath
				}
			} else if override == stNone {
				buf.Reset()
				state = stNoScheme
				p = -1
			} else {
				return nil, false
			}
		case stNoScheme:
			if base == nil || (base.opaque && c != '#') {
				return nil, false
			}
			if base.opaque && c == '#' {
				url.scheme = base.scheme
				url.path = append([]string(nil), base.path...)
				url.opaque = true
				url.query = base.query
				url.fragment = strp("")
				state = stFragment
			} else if base.scheme != "file" {
				state = stRelative
				p--
			} else {
				state = stFile
				p--
			}
		case stSpecialRelativeOrAuthority:
			if c == '/' && remaining(1) == '/' {
				state = stSpecialAuthorityIgnoreSlashes
				p++
			} else {
				state = stRelative
				p--
			}
		case stPathOrAuthority:
			if c == '/' {
				state = stAuthority
			} else {
				state = stPath
				p--
			}
		case stRelative:
			url.scheme = base.scheme
			switch {
			case c == '/':
				state = stRelativeSlash
			case url.special() && c == '\\':
				state = stRelativeSlash
			default:
				url.username, url.password, url.host, url.port = base.username, base.password, base.host, base.port
				url.path = append([]string(nil), base.path...)
				url.query = base.query
				if c == '?' {
					url.query = strp("")
					state = stQuery
				} else if c == '#' {
					url.fragment = strp("")
					state = stFragment
				} else if c != eof {
					url.query = nil
					url.shortenPath()
					state = stPath
					p--
				}
			}
		case stRelativeSlash:
			if url.special() && (c == '/' || c == '\\') {
				state = stSpecialAuthorityIgnoreSlashes
			} else if c == '/' {
				state = stAuthority
			} else {
				url.username, url.password, url.host, url.port = base.username, base.password, base.host, base.port
				state = stPath
				p--
			}
		case stSpecialAuthoritySlashes:
			if c == '/' && remaining(1) == '/' {
				state = stSpecialAuthorityIgnoreSlashes
				p++
			} else {
				state = stSpecialAuthorityIgnoreSlashes
				p--
			}
		case stSpecialAuthorityIgnoreSlashes:
			if c != '/' && c != '\\' {
				state = stAuthority
				p--
			}
		case stAuthority:
			if c == '@' {
				s := buf.String()
				if atSign {
					s = "%40" + s
				}
				atSign = true
				var user, pass strings.Builder
				user.WriteString(url.username)
				pass.WriteString(url.password)
				for _, cp := range s {
					if cp == ':' && !passwordToken {
						passwordToken = true
						continue
					}
					if passwordToken {
						percentEncode(&pass, cp, inUserinfoSet)
					} else {
						percentEncode(&user, cp, inUserinfoSet)
					}
				}
				url.username, url.password = user.String(), pass.String()
				buf.Reset()
			} else if c == eof || c == '/' || c == '?' || c == '#' || (url.special() && c == '\\') {
				if atSign && buf.Len() == 0 {
					return nil, false
				}
				p -= utf8.RuneCountInString(buf.String()) + 1
				buf.Reset()
				state = stHost
			} else {
				buf.WriteRune(c)
			}
		case stHost, stHostname:
			if override != stNone && url.scheme == "file" {
				p--
				state = stFileHost
			} else if c == ':' && !insideBrackets {
				if buf.Len() == 0 {
					return nil, false
				}
				if override == stHostname {
					return nil, false
				}
				host, ok := parseHost(buf.String(), !url.special())
				if !ok {
					return nil, false
				}
				url.host = &host
				buf.Reset()
				state = stPort
			} else if c == eof || c == '/' || c == '?' || c == '#' || (url.special() && c == '\\') {
				p--
				if url.special() && buf.Len() == 0 {
					return nil, false
				} else if override != stNone && buf.Len() == 0 && (url.includesCredentials() || url.port != -1) {
					return nil, false
				}
				host, ok := parseHost(buf.String(), !url.special())
				if !ok {
					return nil, false
				}
				url.host = &host
				buf.Reset()
				state = stPathStart
				if override != stNone {
					return url, true
				}
			} else {
				if c == '[' {
					insideBrackets = true
				}
				if c == ']' {
					insideBrackets = false
				}
				buf.WriteRune(c)
			}
		case stPort:
			if isASCIIDigit(c) {
				buf.WriteRune(c)
			} else if c == eof || c == '/' || c == '?' || c == '#' || (url.special() && c == '\\') || override != stNone {
				if buf.Len() != 0 {
					digits := strings.TrimLeft(buf.String(), "0")
					if len(digits) > 5 {
						return nil, false
					}
					port := 0
					if digits != "" {
						port, _ = strconv.Atoi(digits)
					}
					if port > 65535 {
						return nil, false
					}
					if dp, ok := specialPorts[url.scheme]; ok && dp == port {
						url.port = -1
					} else {
						url.port = port
					}
					buf.Reset()
					if override != stNone {
						return url, true
					}
				}
				if override != stNone {
					return nil, false
				}
				state = stPathStart
				p--
			} else {
				return nil, false
			}
		case stFile:
			url.scheme = "file"
			url.host = strp("")
			if c == '/' || c == '\\' {
				state = stFileSlash
			} else if base != nil && base.scheme == "file" {
				url.host = base.host
				url.path = append([]string(nil), base.path...)
				url.query = base.query
				if c == '?' {
					url.query = strp("")
					state = stQuery
				} else if c == '#' {
					url.fragment = strp("")
					state = stFragment
				} else if c != eof {
					url.query = nil
					if !startsWithDriveLetter(in, p) {
						url.shortenPath()
					} else {
						url.path = nil
					}
					state = stPath
					p--
				}
			} else {
				state = stPath
				p--
			}
		case stFileSlash:
			if c == '/' || c == '\\' {
				state = stFileHost
			} else {
				if base != nil && base.scheme == "file" {
					url.host = base.host
					if !startsWithDriveLetter(in, p) && len(base.path) > 0 && windowsDriveLetter([]rune(base.path[0]), true) {
						url.path = append(url.path, base.path[0])
					}
				}
				state = stPath
				p--
			}
		case stFileHost:
			if c == eof || c == '/' || c == '\\' || c == '?' || c == '#' {
				p--
				if override == stNone && windowsDriveLetter([]rune(buf.String()), false) {
					state = stPath
				} else if buf.Len() == 0 {
					url.host = strp("")
					if override != stNone {
						return url, true
					}
					state = stPathStart
				} else {
					host, ok := parseHost(buf.String(), false)
					if !ok {
						return nil, false
					}
					if host == "localhost" {
						host = ""
					}
					url.host = &host
					if override != stNone {
						return url, true
					}
					buf.Reset()
					state = stPathStart
				}
			} else {
				buf.WriteRune(c)
			}
		case stPathStart:
			if url.special() {
				state = stPath
				if c != '/' && c != '\\' {
					p--
				}
			} else if override == stNone && c == '?' {
				url.query = strp("")
				state = stQuery
			} else if override == stNone && c == '#' {
				url.fragment = strp("")
				state = stFragment
			} else if c != eof {
				state = stPath
				if c != '/' {
					p--
				}
			} else if override != stNone && url.host == nil {
				url.path = append(url.path, "")
			}
		case stPath:
			if c == eof || c == '/' || (url.special() && c == '\\') || (override == stNone && (c == '?' || c == '#')) {
				seg := buf.String()
				slash := c == '/' || (url.special() && c == '\\')
				switch {
				case doubleDot(seg):
					url.shortenPath()
					if !slash {
						url.path = append(url.path, "")
					}
				case singleDot(seg) && !slash:
					url.path = append(url.path, "")
				case !singleDot(seg):
					if url.scheme == "file" && len(url.path) == 0 && windowsDriveLetter([]rune(seg), false) {
						seg = string([]rune(seg)[:1]) + ":"
					}
					url.path = append(url.path, seg)
				}
				buf.Reset()
				if c == '?' {
					url.query = strp("")
					state = stQuery
				}
				if c == '#' {
					url.fragment = strp("")
					state = stFragment
				}
			} else {
				percentEncode(&buf, c, inPathSet)
			}
		case stOpaquePath:
			if c == '?' {
				url.path[0] += buf.String()
				buf.Reset()
				url.query = strp("")
				state = stQuery
			} else if c == '#' {
				url.path[0] += buf.String()
				buf.Reset()
				url.fragment = strp("")
				state = stFragment
			} else if c != eof {
				percentEncode(&buf, c, inC0Control)
			} else {
				url.path[0] += buf.String()
				buf.Reset()
			}
		case stQuery:
			if (override == stNone && c == '#') || c == eof {
				set := inQuerySet
				if url.special() {
					set = inSpecialQuerySet
				}
				q := ""
				if url.query != nil {
					q = *url.query
				}
				url.query = strp(q + percentEncodeString(buf.String(), set))
				buf.Reset()
				if c == '#' {
					url.fragment = strp("")
					state = stFragment
				}
			} else if c != eof {
				buf.WriteRune(c)
			}
		case stFragment:
			if c != eof {
				percentEncode(&buf, c, inFragmentSet)
			} else {
				f := ""
				if url.fragment != nil {
					f = *url.fragment
				}
				url.fragment = strp(f + buf.String())
				buf.Reset()
			}
		}
		if p >= len(in) {
			break
		}
	}
	return url, true
}

// forbiddenHost reports the forbidden host code points; domains also forbid C0 controls, '%'
// and DEL.
func forbiddenHost(c rune) bool {
	switch c {
	case 0, '\t', '\n', '\r', ' ', '#', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
		return true
	}
	return false
}

var urlIDNA = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.CheckJoiners(true), idna.CheckHyphens(false),
	idna.StrictDomainName(false), idna.VerifyDNSLength(false), idna.Transitional(false))

// parseHost is the host parser: an IPv6 address in brackets, an opaque host for non-special
// URLs, else a domain (IDNA-mapped, lowercased) or an IPv4 address.
func parseHost(input string, opaque bool) (string, bool) {
	if strings.HasPrefix(input, "[") {
		if !strings.HasSuffix(input, "]") {
			return "", false
		}
		addr, ok := parseIPv6([]rune(input[1 : len(input)-1]))
		if !ok {
			return "", false
		}
		return "[" + serializeIPv6(addr) + "]", true
	}
	if opaque {
		for _, c := range input {
			if forbiddenHost(c) {
				return "", false
			}
		}
		return percentEncodeString(input, inC0Control), true
	}
	domain := string(percentDecode(input))
	if !utf8.ValidString(domain) {
		domain = strings.ToValidUTF8(domain, "\uFFFD")
	}
	ascii, ok := domainToASCII(domain)
	if !ok || ascii == "" {
		return "", false
	}
	for _, c := range ascii {
		if forbiddenHost(c) || c < 0x20 || c == '%' || c == 0x7f {
			return "", false
		}
	}
	if endsInNumber(ascii) {
		v, ok := parseIPv4(ascii)
		if !ok {
			return "", false
		}
		return strconv.Itoa(int(v>>24)) + "." + strconv.Itoa(int(v>>16&255)) + "." + strconv.Itoa(int(v>>8&255)) + "." + strconv.Itoa(int(v&255)), true
	}
	return ascii, true
}

// domainToASCII is UTS #46 ToASCII with the URL Standard's options; ASCII input without
// punycode labels is only lowercased.
func domainToASCII(domain string) (string, bool) {
	ascii := true
	for i := 0; i < len(domain); i++ {
		if domain[i] >= 0x80 {
			ascii = false
			break
		}
	}
	lower := strings.ToLower(domain)
	if ascii && !strings.HasPrefix(lower, "xn--") && !strings.Contains(lower, ".xn--") {
		return lower, true
	}
	out, err := urlIDNA.ToASCII(domain)
	if err != nil {
		return "", false
	}
	return out, true
}

func endsInNumber(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	if len(last) >= 2 && (last[:2] == "0x" || last[:2] == "0X") {
		return strings.Trim(last[2:], "0123456789abcdefABCDEF") == ""
	}
	return false
}

// parseIPv4Number parses one part: decimal, 0x hexadecimal or 0 octal.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	if len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X") {
		s, base = s[2:], 16
	} else if len(s) >= 2 && s[0] == '0' {
		s, base = s[1:], 8
	}
	if s == "" {
		return 0, true
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		// A valid but huge number is still a number (failure comes from the range check).
		for _, c := range s {
			if !(base == 16 && isASCIIHex(c) || base == 10 && isASCIIDigit(c) || base == 8 && c >= '0' && c <= '7') {
				return 0, false
			}
		}
		return 1 << 40, true
	}
	return v, true
}

func parseIPv4(s string) (uint32, bool) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return 0, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return 0, false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return 0, false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return 0, false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return uint32(v), true
}

func parseIPv6(in []rune) ([8]uint16, bool) {
	var addr [8]uint16
	piece, compress := 0, -1
	p := 0
	at := func(i int) rune {
		if i < len(in) {
			return in[i]
		}
		return -1
	}
	if at(p) == ':' {
		if at(p+1) != ':' {
			return addr, false
		}
		p += 2
		piece++
		compress = piece
	}
	for at(p) != -1 {
		if piece == 8 {
			return addr, false
		}
		if at(p) == ':' {
			if compress != -1 {
				return addr, false
			}
			p++
			piece++
			compress = piece
			continue
		}
		value, length := 0, 0
		for length < 4 && isASCIIHex(at(p)) {
			h, _ := unhex(byte(at(p)))
			value = value*16 + int(h)
			p++
			length++
		}
		if at(p) == '.' {
			if length == 0 {
				return addr, false
			}
			p -= length
			if piece > 6 {
				return addr, false
			}
			numbersSeen := 0
			for at(p) != -1 {
				ipv4Piece := -1
				if numbersSeen > 0 {
					if at(p) == '.' && numbersSeen < 4 {
						p++
					} else {
						return addr, false
					}
				}
				if !isASCIIDigit(at(p)) {
					return addr, false
				}
				for isASCIIDigit(at(p)) {
					n := int(at(p) - '0')
					if ipv4Piece == -1 {
						ipv4Piece = n
					} else if ipv4Piece == 0 {
						return addr, false
					} else {
						ipv4Piece = ipv4Piece*10 + n
					}
					if ipv4Piece > 255 {
						return addr, false
					}
					p++
				}
				addr[piece] = addr[piece]*0x100 + uint16(ipv4Piece)
				numbersSeen++
				if numbersSeen == 2 || numbersSeen == 4 {
					piece++
				}
			}
			if numbersSeen != 4 {
				return addr, false
			}
			break
		} else if at(p) == ':' {
			p++
			if at(p) == -1 {
				return addr, false
			}
		} else if at(p) != -1 {
			return addr, false
		}
		addr[piece] = uint16(value)
		piece++
	}
	if compress != -1 {
		swaps := piece - compress
		piece = 7
		for piece != 0 && swaps > 0 {
			addr[piece], addr[compress+swaps-1] = addr[compress+swaps-1], addr[piece]
			piece--
			swaps--
		}
	} else if piece != 8 {
		return addr, false
	}
	return addr, true
}

func serializeIPv6(addr [8]uint16) string {
	// The first longest run of two or more zero pieces is compressed.
	best, bestLen := -1, 1
	for i := 0; i < 8; {
		if addr[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && addr[j] == 0 {
			j++
		}
		if j-i > bestLen {
			best, bestLen = i, j-i
		}
		i = j
	}
	var b strings.Builder
	ignore0 := false
	for i := 0; i < 8; i++ {
		if ignore0 && addr[i] == 0 {
			continue
		}
		ignore0 = false
		if i == best {
			if i == 0 {
				b.WriteString("::")
			} else {
				b.WriteString(":")
			}
			ignore0 = true
			continue
		}
		b.WriteString(strconv.FormatUint(uint64(addr[i]), 16))
		if i != 7 {
			b.WriteByte(':')
		}
	}
	return b.String()
}

// Serializations of a record's parts, as the URL class's getters return them.

func (u *urlRecord) pathname() string {
	if u.opaque {
		return u.path[0]
	}
	var b strings.Builder
	for _, s := range u.path {
		b.WriteByte('/')
		b.WriteString(s)
	}
	return b.String()
}

func (u *urlRecord) href(excludeFragment bool) string {
	var b strings.Builder
	b.WriteString(u.scheme)
	b.WriteByte(':')
	if u.host != nil {
		b.WriteString("//")
		if u.includesCredentials() {
			b.WriteString(u.username)
			if u.password != "" {
				b.WriteByte(':')
				b.WriteString(u.password)
			}
			b.WriteByte('@')
		}
		b.WriteString(*u.host)
		if u.port != -1 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(u.port))
		}
	}
	if u.host == nil && !u.opaque && len(u.path) > 1 && u.path[0] == "" {
		b.WriteString("/.")
	}
	b.WriteString(u.pathname())
	if u.query != nil {
		b.WriteByte('?')
		b.WriteString(*u.query)
	}
	if !excludeFragment && u.fragment != nil {
		b.WriteByte('#')
		b.WriteString(*u.fragment)
	}
	return b.String()
}

func (u *urlRecord) origin() string {
	switch u.scheme {
	case "blob":
		if inner, ok := parseURL(u.pathname(), nil, nil, stNone); ok && inner != nil && (inner.scheme == "http" || inner.scheme == "https") {
			return inner.origin()
		}
		return "null"
	case "ftp", "http", "https", "ws", "wss":
		s := u.scheme + "://" + *u.host
		if u.port != -1 {
			s += ":" + strconv.Itoa(u.port)
		}
		return s
	}
	return "null"
}

func (u *urlRecord) hostString() string {
	if u.host == nil {
		return ""
	}
	if u.port == -1 {
		return *u.host
	}
	return *u.host + ":" + strconv.Itoa(u.port)
}

func (u *urlRecord) portString() string {
	if u.port == -1 {
		return ""
	}
	return strconv.Itoa(u.port)
}

func (u *urlRecord) search() string {
	if u.query == nil || *u.query == "" {
		return ""
	}
	return "?" + *u.query
}

func (u *urlRecord) hash() string {
	if u.fragment == nil || *u.fragment == "" {
		return ""
	}
	return "#" + *u.fragment
}

// components returns the record's parts for the URL class: href, origin, protocol, username,
// password, host, hostname, port, pathname, search, hash.
func (u *urlRecord) components() []string {
	hostname := ""
	if u.host != nil {
		hostname = *u.host
	}
	return []string{u.href(false), u.origin(), u.scheme + ":", u.username, u.password, u.hostString(), hostname,
		u.portString(), u.pathname(), u.search(), u.hash()}
}

// urlParse(input, base) parses input against base (a string or undefined) and returns the
// components of the result, or null when either does not parse.
func (rl *realm) urlParse(call goja.FunctionCall) goja.Value {
	input := call.Argument(0).String()
	if len(input) > maxURLLength {
		panic(rl.vm.NewTypeError("Invalid URL: longer than " + strconv.Itoa(maxURLLength) + " bytes"))
	}
	var base *urlRecord
	if b := call.Argument(1); !goja.IsUndefined(b) {
		bs := b.String()
		if len(bs) > maxURLLength {
			panic(rl.vm.NewTypeError("Invalid URL: longer than " + strconv.Itoa(maxURLLength) + " bytes"))
		}
		base, _ = parseURL(bs, nil, nil, stNone)
		if base == nil {
			return goja.Null()
		}
	}
	u, _ := parseURL(input, base, nil, stNone)
	if u == nil {
		return goja.Null()
	}
	return rl.vm.ToValue(u.components())
}

// urlSet(href, setter, value) applies a URL setter (protocol, username, password, host,
// hostname, port, pathname, search, hash) to the URL href and returns the new components, or
// null when the setter leaves the URL unchanged.
func (rl *realm) urlSet(call goja.FunctionCall) goja.Value {
	u, _ := parseURL(call.Argument(0).String(), nil, nil, stNone)
	if u == nil {
		return goja.Null()
	}
	value := call.Argument(2).String()
	if len(value) > maxURLLength {
		panic(rl.vm.NewTypeError("Invalid URL: longer than " + strconv.Itoa(maxURLLength) + " bytes"))
	}
	copyOf := func() *urlRecord {
		c := *u
		c.path = append([]string(nil), u.path...)
		return &c
	}
	var ok bool
	var out *urlRecord
	switch call.Argument(1).String() {
	case "protocol":
		out, ok = parseURL(value+":", nil, copyOf(), stSchemeStart)
	case "username", "password":
		if u.host == nil || *u.host == "" || u.scheme == "file" {
			return goja.Null()
		}
		out, ok = copyOf(), true
		if call.Argument(1).String() == "username" {
			out.username = percentEncodeString(value, inUserinfoSet)
		} else {
			out.password = percentEncodeString(value, inUserinfoSet)
		}
	case "host", "hostname":
		if u.opaque {
			return goja.Null()
		}
		st := stHost
		if call.Argument(1).String() == "hostname" {
			st = stHostname
		}
		out, ok = parseURL(value, nil, copyOf(), st)
	case "port":
		if u.host == nil || *u.host == "" || u.scheme == "file" {
			return goja.Null()
		}
		if value == "" {
			out, ok = copyOf(), true
			out.port = -1
		} else {
			out, ok = parseURL(value, nil, copyOf(), stPort)
		}
	case "pathname":
		if u.opaque {
			return goja.Null()
		}
		c := copyOf()
		c.path = nil
		out, ok = parseURL(value, nil, c, stPathStart)
	case "search":
		c := copyOf()
		if value == "" {
			c.query = nil
			out, ok = c, true
			break
		}
		c.query = strp("")
		out, ok = parseURL(strings.TrimPrefix(value, "?"), nil, c, stQuery)
	case "hash":
		c := copyOf()
		if value == "" {
			c.fragment = nil
			out, ok = c, true
			break
		}
		c.fragment = strp("")
		out, ok = parseURL(strings.TrimPrefix(value, "#"), nil, c, stFragment)
	}
	if !ok || out == nil {
		return goja.Null()
	}
	if out.opaque && out.fragment == nil && out.query == nil {
		// Removing the query and fragment of an opaque path strips its trailing spaces.
		out.path[0] = strings.TrimRight(out.path[0], " ")
	}
	return rl.vm.ToValue(out.components())
}

// formEncode serializes a string as application/x-www-form-urlencoded: spaces as '+', other
// bytes outside the set percent-encoded (lone surrogates become U+FFFD first).
func (rl *realm) formEncode(call goja.FunctionCall) goja.Value {
	var b strings.Builder
	for _, c := range call.Argument(0).String() {
		if c == ' ' {
			b.WriteByte('+')
			continue
		}
		percentEncode(&b, c, inFormSet)
	}
	return rl.vm.ToValue(b.String())
}

// formDecode decodes one name or value of application/x-www-form-urlencoded: '+' as a space,
// then percent-decoding, then UTF-8 with U+FFFD for invalid bytes.
func (rl *realm) formDecode(call goja.FunctionCall) goja.Value {
	s := strings.ReplaceAll(call.Argument(0).String(), "+", " ")
	return rl.vm.ToValue(strings.ToValidUTF8(string(percentDecode(s)), "\uFFFD"))
}

// registerURL(urlProto, paramsProto, list) records the URL polyfill's prototypes and a function
// returning a URLSearchParams' names and values, so that the console renders them as Node does.
func (rl *realm) registerURL(call goja.FunctionCall) goja.Value {
	rl.urlProto, _ = call.Argument(0).(*goja.Object)
	rl.paramsProto, _ = call.Argument(1).(*goja.Object)
	rl.paramsList, _ = goja.AssertFunction(call.Argument(2))
	return goja.Undefined()
}
