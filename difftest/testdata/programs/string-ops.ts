const s = "Crème Brûlée — Ça coûte 5€, naïve façade!";
return {
  upper: s.toUpperCase(),
  lower: "İSTANBUL ΣΊΣΥΦΟΣ".toLowerCase(),
  nfd: s.normalize("NFD").length,
  nfc: s.normalize("NFC").length,
  at: [s.at(0), s.at(-1)],
  codePoint: "😀".codePointAt(0),
  len: ["😀", "é", "e\u0301", "👍🏽"].map((x) => x.length),
  padded: "7".padStart(3, "0") + "|" + "ab".padEnd(5, "-") + "|",
  words: s.split(/[\s,—!]+/).filter(Boolean),
  replaced: s.replaceAll("e", "E"),
  trimmed: "\u00a0 tabs\t\n".trim(),
  localeUpper: "istanbul".toLocaleUpperCase("tr-TR"),
  compare: ["a", "B", "c", "é", "Z"].sort((a, b) => a.localeCompare(b)),
  escaped: encodeURIComponent("café & crème/?"),
  base64: btoa("hello, world"),
};
