// expect: timeout: compute budget exhausted (300ms busy)
// config: compute=300ms wall=3s
function* g() { for (let i = 0; ; i++) yield i }
for (const _ of g()) {}
