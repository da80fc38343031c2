"""Holds the configuration's TOML reader to Python's tomllib: every document the reader
accepted must be accepted by tomllib and mean the same (the same tables, keys, kinds and values).

Reads the JSON lines `fuzz configuration --json FILE...` prints (Harness/fuzz): each file and the
document the reader made of it, or null where it refused the file. The one difference allowed:
the reader skips a byte order mark at the start, as editors on Windows write one; tomllib is given
the text without it. An inline table is compared by kind alone: the reader keeps no contents of
one (no configuration key takes one). Exit status 1 when a document differs, naming the file and
how; with a prefix argument, each such file is copied to PREFIX<its name>, a finding.

    toml_differential.py [FINDINGS_PREFIX] < lines
"""

import datetime
import json
import math
import os
import shutil
import sys
import tomllib


def unique_keys(pairs):
    """A JSON object's members, refusing a key given twice (json.loads would keep the last)."""
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError(f"a key twice among {keys}")
    return dict(pairs)


def differs(ours, theirs, where):
    """Why `ours` (the reader's typed value) is not `theirs` (tomllib's), or None."""
    if len(ours) != 1:
        return f"{where}: the reader gave {ours!r}, not one typed value"
    (kind, value), = ours.items()
    if kind == "string":
        return None if isinstance(theirs, str) and theirs == value else f"{where}: {value!r} against {theirs!r}"
    if kind == "integer":
        ok = isinstance(theirs, int) and not isinstance(theirs, bool) and theirs == int(value)
        return None if ok else f"{where}: the integer {value} against {theirs!r}"
    if kind == "float":
        if value == "nan":
            ok = isinstance(theirs, float) and math.isnan(theirs)
        else:
            mine = float(value)
            ok = isinstance(theirs, float) and theirs == mine and math.copysign(1, theirs) == math.copysign(1, mine)
        return None if ok else f"{where}: the float {value} against {theirs!r}"
    if kind == "boolean":
        return None if isinstance(theirs, bool) and theirs == (value == "true") else f"{where}: {value} against {theirs!r}"
    if kind == "date-time":
        # The reader keeps a date or time as written: read alone by tomllib, it must be the same.
        try:
            alone = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError as error:
            return f"{where}: the date or time {value}, which tomllib refuses alone ({error})"
        ok = isinstance(theirs, (datetime.datetime, datetime.date, datetime.time)) and type(alone) is type(theirs) and alone == theirs
        return None if ok else f"{where}: the date or time {value} against {theirs!r}"
    if kind == "inline-table":
        return None if isinstance(theirs, dict) else f"{where}: an inline table against {theirs!r}"
    if kind == "array":
        if not isinstance(theirs, list) or len(theirs) != len(value):
            return f"{where}: a list of {len(value)} against {theirs!r}"
        for index, (mine, other) in enumerate(zip(value, theirs)):
            if problem := differs(mine, other, f"{where}[{index}]"):
                return problem
        return None
    return f"{where}: a value of kind {kind}, which this script does not know"


def table_differs(ours, theirs, where):
    if set(ours) != set(theirs):
        return f"{where}: keys {sorted(ours)} against {sorted(theirs)}"
    for key, value in ours.items():
        if problem := differs(value, theirs[key], f"{where}{key}"):
            return problem
    return None


def compare(path, document):
    text = open(path, "rb").read().decode("utf-8")
    text = text.removeprefix("\ufeff")
    try:
        theirs = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return f"tomllib refuses it: {error}"
    top = {key: value for key, value in theirs.items() if key not in document["tables"]}
    if problem := table_differs(document["top"], top, ""):
        return problem
    for name, entries in document["tables"].items():
        if not isinstance(theirs.get(name), dict):
            return f"[{name}] is {theirs.get(name)!r} to tomllib"
        if problem := table_differs(entries, theirs[name], f"{name}."):
            return problem
    return None


def main():
    findings = sys.argv[1] if len(sys.argv) > 1 else None
    accepted = differing = 0
    for line in sys.stdin:
        entry = json.loads(line, object_pairs_hook=unique_keys)
        if entry["document"] is None:
            continue
        accepted += 1
        if problem := compare(entry["file"], entry["document"]):
            differing += 1
            print(f"{entry['file']}: {problem}")
            if findings:
                os.makedirs(os.path.dirname(findings) or ".", exist_ok=True)
                shutil.copyfile(entry["file"], findings + os.path.basename(entry["file"]))
    print(f"toml_differential: {accepted} documents accepted here, {differing} read otherwise by tomllib")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
