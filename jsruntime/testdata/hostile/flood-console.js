// expect: output-limit: outer output exceeded 10000 bytes
// config: compute=300ms wall=3s output=10000
for (;;) console.log("flood");
