// A completion value whose JSON is about 400 MB (a DAG of 2**22 references to one row), under
// a 64 KiB output cap. The conversion counts bytes as it goes and stops at the cap: output-limit
// in time proportional to the cap. Before, the whole value was converted first, in Go where the
// compute budget cannot interrupt it (about 40 s here), and the run then ended as a timeout.
// expect: output-limit: outer output exceeded 65536 bytes
// config: compute=3s wall=6s output=65536
let v = {id: 12345, name: "row name", tags: ["alpha", "beta"], score: 0.125, ok: true, next: null};
for (let i = 0; i < 22; i++) v = [v, v];
return v;
