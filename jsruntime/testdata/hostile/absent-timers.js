// expect: value: ["function","function","function","function","function"]
// Timers exist (README, "What programs can use"); flood-timers.js and flood-interval-zero.js
// check their bounds. The name is kept from when they were absent.
return [typeof setTimeout, typeof setInterval, typeof setImmediate, typeof clearTimeout, typeof clearInterval];
