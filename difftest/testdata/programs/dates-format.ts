const d = new Date(Date.UTC(2024, 2, 5, 14, 7, 9));
const out = {
  iso: d.toISOString(),
  json: JSON.stringify({ d }),
  enUS: d.toLocaleDateString("en-US", { timeZone: "UTC" }),
  enUSLong: d.toLocaleDateString("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }),
  deDE: d.toLocaleDateString("de-DE", { timeZone: "UTC" }),
  frFR: d.toLocaleDateString("fr-FR", { dateStyle: "full", timeZone: "UTC" }),
  jaJP: d.toLocaleDateString("ja-JP", { timeZone: "UTC" }),
  time: d.toLocaleTimeString("en-US", { timeZone: "UTC" }),
  timeDE: d.toLocaleTimeString("de-DE", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" }),
  both: d.toLocaleString("en-GB", { timeZone: "Europe/London" }),
  ny: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "America/New_York" }).format(d),
  utcString: d.toUTCString(),
};
return out;
