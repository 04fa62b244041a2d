// Host-provided objects (a namespace of functions) cannot be returned as the completion: they
// cross as JSON.stringify gives them, functions left out, so nothing of the host comes back.
// expect: value: {}
return tools;
