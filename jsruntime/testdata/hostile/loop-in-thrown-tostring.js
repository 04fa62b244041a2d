// Rendering a thrown non-Error calls its toString: the loop in it is still budgeted.
// expect: timeout: compute budget exhausted (300ms busy)
// config: compute=300ms wall=3s
throw { toString() { for (;;) {} } };
