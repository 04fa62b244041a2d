// Replacing the injected class does not change what the host's rejections are.
// expect: value: [true,"ToolCallError","fail"]
const Original = ToolCallError;
ToolCallError = class Fake extends Error {};
try { await tools.fail({}) } catch (e) { return [e instanceof Original, e.name, e.toolName] }
