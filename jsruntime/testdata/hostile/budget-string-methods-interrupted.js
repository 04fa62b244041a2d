// The string methods that were one native step on the whole string (and so refused long strings)
// poll the run's interrupt flag in the goja fork: on 16M characters, over and over, they end at
// the budget. (The old caps refused these strings with a RangeError.)
// expect: timeout
// config: compute=500ms wall=1500ms
const s = "É ".repeat(2 ** 23);
for (;;) { s.normalize("NFD"); s.toLowerCase(); s.toUpperCase(); s.replaceAll(" ", "_"); s.trim(); [...s.slice(0, 2 ** 22)]; }
