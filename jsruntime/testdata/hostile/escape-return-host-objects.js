// Host-provided objects (a namespace of functions) cannot be returned as the completion.
// expect: invalid-output: program completion must be lossless JSON
return tools;
