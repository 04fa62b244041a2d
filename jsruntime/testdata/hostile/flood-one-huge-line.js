// expect: output-limit: outer output exceeded 10000 bytes
// config: compute=300ms wall=3s output=10000
console.log("x".repeat(1e6));
