// A program can construct ToolCallError, but host rejections still carry the right toolName.
// expect: value: [true,"x","y",true,"fail","nope",true]
ToolCallError.prototype.toolName = "forged";
const forged = new ToolCallError("x", "y");
let e;
try { await tools.fail({}) } catch (x) { e = x }
return [forged instanceof ToolCallError, forged.toolName, forged.message, e instanceof ToolCallError, e.toolName, e.message, Object.hasOwn(e, "toolName")];
