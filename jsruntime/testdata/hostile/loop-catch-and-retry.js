// The interrupt is not catchable: catch and finally cannot swallow it and loop again.
// expect: timeout: compute budget exhausted (300ms busy)
// config: compute=300ms wall=3s
for (;;) { try { for (;;) {} } catch (e) {} finally { continue } }
