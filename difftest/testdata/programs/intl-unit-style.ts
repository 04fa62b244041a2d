// NumberFormat's unit style: Node formats it, runcode refuses it with a RangeError naming the
// option rather than format it differently (DECISIONS row 77).
return [
  new Intl.NumberFormat("en-US", { style: "unit", unit: "kilobyte" }).format(512),
  new Intl.NumberFormat("en-US", { style: "unit", unit: "millisecond", unitDisplay: "long" }).format(250),
].join("\n");
