// expect: exception: RangeError: too many pending timers
// config: compute=30s wall=40s
// Scheduling timers without end stops at maxTimers live ones, with a catchable RangeError (10,000
// calls take about 0.2s, several seconds under the race detector on a loaded machine).
for (;;) setTimeout(() => {}, 1e9);
