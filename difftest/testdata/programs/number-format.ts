const n = 1234567.891;
return [
  n.toLocaleString(),
  n.toLocaleString("en-US", { maximumFractionDigits: 1 }),
  n.toLocaleString("de-DE"),
  n.toLocaleString("fr-FR"),
  n.toLocaleString("en-GB"),
  (0.256).toLocaleString("en-US", { style: "percent" }),
  new Intl.NumberFormat("en-US", { notation: "compact" }).format(n),
  new Intl.NumberFormat("en-US", { notation: "compact", compactDisplay: "long" }).format(n),
  new Intl.NumberFormat("ja-JP", { style: "currency", currency: "JPY" }).format(n),
  new Intl.NumberFormat("en-US", { signDisplay: "always" }).format(5),
  new Intl.NumberFormat("en-US", { minimumFractionDigits: 2 }).format(3),
  (12.5).toLocaleString("es-ES", { style: "currency", currency: "EUR" }),
  (1e21).toLocaleString(),
  (-0).toLocaleString(),
].join("\n");
