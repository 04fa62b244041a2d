// File sizes and rates for a person, with NumberFormat's unit style in several locales and
// widths (kilobyte, megabyte-per-second, millisecond, percent).
const { matches } = await tools.glob({ pattern: "**/*" });
const sizes = await Promise.all(matches.slice(0, 40).map(async (path) => (await tools.stat({ path })).size));
const total = sizes.reduce((a, b) => a + b, 0);
const out: string[] = [];
for (const locale of ["en-US", "de-DE", "fr-FR", "ja-JP", "ru-RU", "pt-BR"]) {
  const kb = new Intl.NumberFormat(locale, { style: "unit", unit: "kilobyte", maximumFractionDigits: 1 });
  const long = new Intl.NumberFormat(locale, { style: "unit", unit: "kilobyte", unitDisplay: "long", maximumFractionDigits: 1 });
  const rate = new Intl.NumberFormat(locale, { style: "unit", unit: "megabyte-per-second", unitDisplay: "long" });
  const ms = new Intl.NumberFormat(locale, { style: "unit", unit: "millisecond", unitDisplay: "narrow" });
  const pct = new Intl.NumberFormat(locale, { style: "unit", unit: "percent", maximumFractionDigits: 1 });
  out.push(`${locale}: ${matches.length} files, ${kb.format(total / 1024)} (${long.format(total / 1024)}), ` +
    `largest ${pct.format((100 * Math.max(...sizes)) / total)} of the sample, read at ${rate.format(2)} in ${ms.format(250)}`);
}
return out.join("\n");
