#!/usr/bin/env python3
"""The shape of a REST answer, for golden files: every key, and for each value its JSON type
("<string>", "<number>", "<bool>", "<null>"), so timestamps, ids and ports never matter. The
values of a few keys that are stable once the test's job has finished (states, queue, user,
types) are kept. An array is the list of its elements' distinct shapes, in first-seen order.

  rest_shape.py shape ANSWER.json > SHAPE.json     # print the shape
  rest_shape.py check ANSWER.json GOLDEN.json      # exit 1 and print the differences
"""
import json
import sys

# Keys whose values are compared, not only their types.
KEPT = {"state", "haState", "finalStatus", "appAttemptState", "applicationType", "user",
        "queue", "queueName", "type", "healthStatus", "rmStateStoreName"}


def shape(value, key=None):
    if isinstance(value, dict):
        return {k: shape(v, k) for k, v in sorted(value.items())}
    if isinstance(value, list):
        out = []
        for item in value:
            s = shape(item, key)
            if s not in out:
                out.append(s)
        return out
    if key in KEPT and isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "<bool>"
    if isinstance(value, (int, float)):
        return "<number>"
    if isinstance(value, str):
        return "<string>"
    if value is None:
        return "<null>"
    raise ValueError(f"{key}: unexpected JSON value {value!r}")


def differences(got, want, path="$"):
    if isinstance(want, dict) and isinstance(got, dict):
        out = []
        for k in sorted(set(want) - set(got)):
            out.append(f"{path}.{k}: missing")
        for k in sorted(set(got) - set(want)):
            out.append(f"{path}.{k}: not in the golden file")
        for k in sorted(set(want) & set(got)):
            out += differences(got[k], want[k], f"{path}.{k}")
        return out
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return [f"{path}: {len(got)} element shapes, the golden file has {len(want)}"]
        out = []
        for i, (g, w) in enumerate(zip(got, want)):
            out += differences(g, w, f"{path}[{i}]")
        return out
    if got != want:
        return [f"{path}: {json.dumps(got)}, the golden file has {json.dumps(want)}"]
    return []


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("shape", "check"):
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        got = shape(json.load(f))
    if sys.argv[1] == "shape":
        print(json.dumps(got, indent=1, sort_keys=True))
        return
    with open(sys.argv[3]) as f:
        want = json.load(f)
    diffs = differences(got, want)
    for d in diffs:
        print(d)
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
