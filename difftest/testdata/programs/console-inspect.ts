class Task { constructor(public id: number, public title: string, public done = false) {} }
console.log("plain", { a: 1, b: "two", c: [1, 2, 3] });
console.log(new Map([["x", 1], ["y", 2]]));
console.log(new Set(["a", "b"]));
console.log(new Task(1, "write report"));
console.log([1, 2, 3].map((n) => ({ n, sq: n * n })));
console.log({ nested: { deeper: { deepest: { bottom: { floor: 1 } } } } });
console.log(Array.from({ length: 120 }, (_, i) => i));
console.log("multi", 42, true, null, undefined, 3.5);
console.log({ s: "it's", long: "x".repeat(30), list: ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"] });
console.log([undefined, null, NaN, -0, 1e21]);
console.info("info line");
console.warn("warn line");
console.error("error line");
