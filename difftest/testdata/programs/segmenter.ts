const texts = ["café", "👨‍👩‍👧‍👦 family", "🇫🇷🇩🇪", "é (e + combining acute)".replace("é", "e\u0301")];
const seg = new Intl.Segmenter("en", { granularity: "grapheme" });
const words = new Intl.Segmenter("en", { granularity: "word" });
return texts.map((t) => ({
  text: t,
  codeUnits: t.length,
  codePoints: [...t].length,
  graphemes: [...seg.segment(t)].length,
  words: [...words.segment(t)].filter((s) => s.isWordLike).map((s) => s.segment),
}));
