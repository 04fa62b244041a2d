// expect: timeout: compute budget exhausted (300ms busy)
// config: compute=300ms wall=3s
for (let i = 0; ; i++) Promise.resolve(i).then(() => {});
