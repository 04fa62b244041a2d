// JSON.parse cannot be interrupted: on tens of millions of characters it ran seconds past a 1 s
// budget. Text with more than 2^20 structural tokens or over 32 MiB is refused (either limit
// keeps one call near a third of a second); a catchable RangeError.
// expect: value: [["RangeError","JSON.parse: text has more than 1048576 structural tokens ([ { , :)"],["RangeError","JSON.parse: text of 33554434 bytes exceeds the limit of 33554432"],1000]
// config: compute=3s wall=6s heap=1GiB serial
const attempt = (text) => { try { JSON.parse(text); return "parsed"; } catch (e) { return [e.name, e.message]; } };
return [attempt("[" + "1,".repeat(1 << 20) + "1]"), attempt('"' + "x".repeat(32 << 20) + '"'),
	JSON.parse("[" + "1,".repeat(999) + "1]").length];
