const files = ["file10.txt", "file2.txt", "File1.txt", "file1.txt", "éclair.md", "eclair.md", "Zebra", "zebra", "äpfel", "Apfel", "Österreich", "Ostern"];
const numeric = [...files].sort(new Intl.Collator("en", { numeric: true }).compare);
const de = [...files].sort(new Intl.Collator("de").compare);
const sv = [...files].sort(new Intl.Collator("sv").compare);
const base = new Intl.Collator("en", { sensitivity: "base" });
const plain = [...files].sort();
const lc = [...files].sort((a, b) => a.localeCompare(b));
return {
  numeric, de, sv, plain, lc,
  sameBase: base.compare("eclair", "Éclair") === 0,
  accent: new Intl.Collator("en", { sensitivity: "accent" }).compare("a", "á"),
};
