// expect: exception: RangeError: too many pending timers
// Scheduling timers without end stops at MaxTimers live ones, with a catchable RangeError.
for (;;) setTimeout(() => {}, 1e9);
