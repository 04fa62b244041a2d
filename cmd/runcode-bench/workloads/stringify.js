// Re-serialise an export pretty-printed, without the e-mail addresses.
const { content } = await tools.read_file({ path: "records.json" });
const records = JSON.parse(content);
const out = JSON.stringify(records.map(({ email, ...rest }) => rest), null, 2);
return { chars: out.length, lines: out.split("\n").length };
