// A call of a member the namespace lacks names the namespace, the member and the closest
// members, not goja's "Object has no member 'ehco'"; probing one stays undefined.
// expect: exception: TypeError: tools.ehco is not a function (did you mean echo?)
const probed = [typeof tools.nope, tools.nope?.({})];
await tools.ehco({ probed });
