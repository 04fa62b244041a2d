"""A manifest tool: reads {"text": ...} as JSON on stdin, prints counts as JSON on stdout."""
import collections
import json
import re
import sys

args = json.load(sys.stdin)
text = args["text"]
words = re.findall(r"[A-Za-z][A-Za-z'-]+", text)
top = [w for w, _ in collections.Counter(w.lower() for w in words).most_common(5)]
json.dump({"lines": text.count("\n") + (0 if text.endswith("\n") or not text else 1),
           "words": len(words), "chars": len(text), "top": top}, sys.stdout)
