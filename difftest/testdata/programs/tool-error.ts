try {
  await tools.read_file({ path: "does/not/exist.txt" });
  return "unexpected success";
} catch (e) {
  if (e instanceof ToolCallError) {
    console.log("tool failed:", e.toolName);
    console.log(e.message);
  }
  const fallback = await tools.read_file({ path: "README.md" });
  return fallback.content.split("\n")[0];
}
