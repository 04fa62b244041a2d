// Physical-quantity report with scientific and engineering notation, as a model writes for
// large and tiny magnitudes.
const { matches } = await tools.glob({ pattern: "**/*" });
const sizes = await Promise.all(matches.slice(0, 30).map(async (path) => (await tools.stat({ path })).size));
const total = sizes.reduce((a, b) => a + b, 0);
const sci = new Intl.NumberFormat("en-US", { notation: "scientific", maximumFractionDigits: 2 });
const eng = new Intl.NumberFormat("de-DE", { notation: "engineering" });
const fr = new Intl.NumberFormat("fr-FR", { notation: "scientific", style: "unit", unit: "byte", unitDisplay: "long" });
const rows = [total, total / 1e9, 6.02214076e23, 1.602e-19, 0.5, -42, 0];
return rows.map((v) => `${sci.format(v)} | ${eng.format(v)} | ${fr.format(v)} | ${JSON.stringify(sci.formatToParts(v).map((p) => p.type))}`).join("\n");
