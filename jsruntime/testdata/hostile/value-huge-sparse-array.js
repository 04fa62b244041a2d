// JSON.stringify writes a sparse array's holes as null, so an array of length 2**32-1 that costs
// nothing to make is 4 GiB as JSON: as an argument it is refused before the walk allocates for it
// (its JSON could not be a JavaScript string), as the completion it is over the output cap at once.
// expect: output-limit
// config: compute=2s wall=5s
let msg;
try { await tools.echo({ a: new Array(2 ** 32 - 1) }); } catch (e) { msg = e.message; }
if (!/^binding arguments cannot be converted to JSON: argument: its JSON is longer than \d+ bytes$/.test(msg)) throw new Error("argument: " + msg);
return new Array(2 ** 32 - 1);
