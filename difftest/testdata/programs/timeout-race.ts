const timeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms}ms`)), ms))]);
const slow = new Promise<string>((resolve) => setTimeout(() => resolve("slow"), 200));
const results: string[] = [];
try {
  results.push(await timeout(slow, 30));
} catch (e) {
  results.push((e as Error).message);
}
const fast = await timeout(tools.list_dir({ path: "data" }), 5000);
results.push(fast.entries.map((e) => e.name).join(","));
let ticks = 0;
await new Promise<void>((resolve) => {
  const id = setInterval(() => {
    ticks++;
    if (ticks === 3) { clearInterval(id); resolve(); }
  }, 5);
});
const t = setTimeout(() => results.push("never"), 10);
clearTimeout(t);
await new Promise((r) => setTimeout(r, 30));
results.push(`ticks=${ticks}`);
return results;
