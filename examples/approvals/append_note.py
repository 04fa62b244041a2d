import json, sys

args = json.load(sys.stdin)
with open("notes.txt", "a", encoding="utf-8") as f:
    f.write(args["text"] + "\n")
print(json.dumps("appended: " + args["text"]))
