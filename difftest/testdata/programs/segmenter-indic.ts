// Grapheme clusters of Indic conjuncts (Unicode 15.1's rule GB9c): Node joins them, runcode's
// segmenter (Unicode 15.0) refuses the text with a RangeError rather than split it differently
// (DECISIONS row 77).
const seg = new Intl.Segmenter("en", { granularity: "grapheme" });
return [...seg.segment("नमस्ते")].map((s) => s.segment);
