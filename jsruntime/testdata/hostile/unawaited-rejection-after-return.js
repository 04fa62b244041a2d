// A failing call the program never awaits, returning before its rejection is delivered: the
// rejection is still reported (DECISIONS row 8), naming the call and its line.
// expect: value: 1
// logs: ["Unhandled rejection: nope (tools.fail, main.ts:5:11)"]
tools.fail({});
return 1;
