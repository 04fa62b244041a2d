// expect: exception: program awaits a promise that can never settle
// config: compute=300ms wall=3s
await new Promise(() => {});
