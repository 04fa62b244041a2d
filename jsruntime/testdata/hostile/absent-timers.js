// expect: value: ["undefined","undefined","undefined","undefined","undefined"]
return [typeof setTimeout, typeof setInterval, typeof setImmediate, typeof clearTimeout, typeof clearInterval];
