// expect: invalid-output: program completion must be lossless JSON
return globalThis;
