const uuid = crypto.randomUUID();
const bytes = crypto.getRandomValues(new Uint8Array(16));
const t0 = performance.now();
await new Promise((r) => setTimeout(r, 20));
const t1 = performance.now();
const it = new Map([["a", 1], ["b", 2], ["c", 3]]).entries();
const helpers = typeof (Iterator as any)?.prototype?.map === "function";
return {
  uuidShape: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuid),
  bytes: bytes.length,
  elapsedOk: t1 - t0 >= 15,
  helpers,
  mapped: helpers ? (it as any).map(([k, v]: [string, number]) => k + v).toArray() : null,
  wellFormed: ["ok", "bad\uD800"].map((s) => (s as any).isWellFormed()),
  toWellFormed: ("a\uDC00b" as any).toWellFormed(),
  fromString: Array.from(Uint8Array.from("123", (c) => Number(c) * 2)),
  cloned: structuredClone({ d: [1, { e: 2 }] }),
  typeofs: [typeof setTimeout, typeof URL, typeof TextEncoder, typeof queueMicrotask, typeof atob],
};
