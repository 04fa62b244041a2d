// Appends two notes. append_note needs approval ("approval": "required" in tools.json), so each
// call is asked about on a terminal, approved by a flag, or denied; a denied call is a
// ToolCallError whose code is APPROVAL_DENIED, which the program catches and reports.
//
//   runcode run --tools examples/approvals/tools.json examples/approvals/save-notes.ts
//   runcode run --tools examples/approvals/tools.json --approve append_note examples/approvals/save-notes.ts
for (const text of ["buy milk", "call Ada"]) {
  try {
    console.log(await tools.append_note({ text }));
  } catch (e) {
    if (!(e instanceof ToolCallError) || e.code !== "APPROVAL_DENIED") throw e;
    console.log(`${e.code}: ${e.message}`);
  }
}
return await tools.read_notes();
