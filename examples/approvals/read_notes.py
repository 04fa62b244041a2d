import json, os

text = ""
if os.path.exists("notes.txt"):
    with open("notes.txt", encoding="utf-8") as f:
        text = f.read()
print(json.dumps(text))
