// A completion value whose JSON is about 400 MB (a DAG of 2**22 references to one row), under
// a 1 MiB output cap. The conversion counts bytes as it goes and stops at the cap: output-limit
// within milliseconds. Before, the whole value was converted first (about 8 s for 20 MB on the
// reference machine), so this case ended as a timeout.
// expect: output-limit: outer output exceeded 1048576 bytes
// config: compute=3s wall=6s output=1048576
let v = {id: 12345, name: "row name", tags: ["alpha", "beta"], score: 0.125, ok: true, next: null};
for (let i = 0; i < 22; i++) v = [v, v];
return v;
