const pr = new Intl.PluralRules("en-US");
const ord = new Intl.PluralRules("en-US", { type: "ordinal" });
const suffix: Record<string, string> = { one: "st", two: "nd", few: "rd", other: "th" };
const ordinals = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map((n) => `${n}${suffix[ord.select(n)]}`);
const files = (n: number) => `${n} ${pr.select(n) === "one" ? "file" : "files"}`;
const list = new Intl.ListFormat("en", { style: "long", type: "conjunction" });
const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
return {
  ordinals,
  counts: [0, 1, 2].map(files),
  list: list.format(["api", "auth", "billing"]),
  or: new Intl.ListFormat("en", { type: "disjunction" }).format(["red", "green"]),
  de: new Intl.ListFormat("de", { type: "conjunction" }).format(["Äpfel", "Birnen", "Kirschen"]),
  rel: [rtf.format(-1, "day"), rtf.format(2, "week"), rtf.format(-3, "month"), new Intl.RelativeTimeFormat("en").format(-1, "day")],
  ru: ["1", "2", "5", "21"].map((n) => new Intl.PluralRules("ru").select(Number(n))),
};
