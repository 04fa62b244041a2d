// A pending binding call does not pause the compute budget of a busy program.
// expect: timeout: compute budget exhausted (300ms busy)
// config: compute=300ms wall=3s
void tools.never({});
for (;;) {}
