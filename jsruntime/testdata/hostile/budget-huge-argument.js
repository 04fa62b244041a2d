// A binding argument whose JSON is about 400 MB (a DAG of 2**22 references to one row). The
// argument's JSON may take up to maxString bytes (a quarter of the heap), but its conversion
// polls the run: the compute budget stops it first. Before, the conversion, in Go where goja's interrupt does not reach, went on for
// about 40 s past the budget.
// expect: timeout: compute budget exhausted
// config: compute=300ms wall=3s
let v = {id: 12345, name: "row name", tags: ["alpha", "beta"], score: 0.125, ok: true, next: null};
for (let i = 0; i < 22; i++) v = [v, v];
return await tools.echo(v);
