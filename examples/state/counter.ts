// Keeps a count and a short history between runs:
//
//   runcode run --state .runcode/state examples/state/counter.ts   # run: 1
//   runcode run --state .runcode/state examples/state/counter.ts   # run: 2
//
// Without --state, `state` is not defined and the run says to pass --state DIR.
const runs: number = ((await state.get<number>("runs")) ?? 0) + 1;
const history: string[] = (await state.get<string[]>("history")) ?? [];
history.push(new Date().toISOString());
await state.set("runs", runs);
await state.set("history", history.slice(-5)); // the last five runs only: state is capped (--max-state)
console.log("run:", runs);
return { keys: await state.keys(), recent: history.slice(-3) };
