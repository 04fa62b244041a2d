// Text cleanup with the v flag's set operations, as a model writes it for non-ASCII headings:
// letters that are not ASCII, Greek letters, punctuation but hyphens, and \q{…} for digraphs.
const { matches } = await tools.glob({ pattern: "**/*.md" });
const text = (await Promise.all(matches.slice(0, 5).map(async (path) => (await tools.read_file({ path })).content))).join("\n") +
  "\nÆsop’s “fábulas” — Ελληνικά, naïve café; ch/ll/rr digraphs: chorro, llama, perro.";
const nonAscii = text.match(/[\p{L}--\p{ASCII}]/gv) ?? [];
const greek = text.match(/[\p{L}&&\p{Script=Greek}]+/gv) ?? [];
const punct = text.match(/[\p{P}--[\-_]]/gv) ?? [];
const digraphs = text.match(/[\q{ch|ll|rr}]/gv) ?? [];
const slug = (s: string) => s.toLowerCase().normalize("NFD").replace(/[\p{M}]/gv, "").replace(/[^\p{L}\p{N}]+/gv, "-").replace(/^-|-$/g, "");
const caseless = "Ünïcödé ABC".match(/[\p{Lu}--[A-Z]]/giv);
return JSON.stringify({
  nonAscii: [...new Set(nonAscii)].sort().join(""), greek, punctCount: punct.length, digraphs: digraphs.length,
  slug: slug("Æsop’s “fábulas” — naïve café"), caseless, flags: /[\q{ab}]/giv.flags,
}, null, 1);
