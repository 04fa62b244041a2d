// JSON.parse cannot be interrupted and reads about 12-20 MB/s: text over 8 MiB is refused, so
// one call cannot hold the run much past its compute budget.
// expect: value: ["RangeError",true]
// config: compute=2s wall=5s
const text = "[" + "1,".repeat(4.5 * 1024 * 1024) + "1]";
try { JSON.parse(text); return "parsed"; } catch (e) { return [e.name, e.message.startsWith("JSON.parse: text of ")]; }
