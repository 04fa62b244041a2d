// Retry a flaky operation with exponential backoff, as agents do around unreliable tools.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let calls = 0;
async function flaky(): Promise<string> {
  calls++;
  const { content } = await tools.read_file({ path: "config/settings.json" });
  if (calls < 3) throw new Error(`transient failure #${calls}`);
  return JSON.parse(content).currency;
}
async function withRetry<T>(fn: () => Promise<T>, retries: number, backoff: number[]): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= retries) throw e;
      console.log(`attempt ${attempt + 1} failed: ${(e as Error).message}; retrying in ${backoff[attempt]}ms`);
      await sleep(backoff[attempt]);
    }
  }
}
const started = Date.now();
const currency = await withRetry(flaky, 3, [20, 40, 80]);
const waited = Date.now() - started;
return { currency, calls, waitedAtLeast60ms: waited >= 60 };
