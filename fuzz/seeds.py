#!/usr/bin/env python3
"""Lays out the fuzz targets' seed corpora from the project's own inputs.

    fuzz/seeds.py . build-fuzz/corpus      # then build-fuzz/corpus/{scenario,sls,...}/

Every example and test file of a kind goes to OUT/<target>/ (named after its path), sorted by
what its text holds; files over 256 KB are left out (a fuzzer mutates small inputs best).
tests/data/fuzz/<target>/ holds inputs a fuzzer once crashed on; they are copied as they are.
Existing files in OUT (inputs a fuzzer added) are kept.
"""
import pathlib
import shutil
import sys

TARGETS = ["scenario", "sls", "rumen", "synth", "nodes", "conf", "fair"]
FOLDERS = ["examples", "tests/scenarios", "tests/bad-scenarios", "tests/data/traces",
           "tests/data/sim", "tests/data/hadoop-conf"]
MAX_BYTES = 262144


def kind_of(path, text):
    """The first kind whose marker the text holds; None for other files (REST bodies)."""
    if path.suffix == ".xml":
        if "<allocations" in text:
            return "fair"
        if "<configuration" in text:
            return "conf"
    elif path.suffix == ".json":
        if '"spindleScenario"' in text:
            return "scenario"
        if '"workloads"' in text:
            return "synth"
        if '"jobID"' in text or '"mapTasks"' in text:
            return "rumen"
        if any(f'"{k}"' in text for k in ("job.tasks", "job.start.ms", "am.type", "num.nodes")):
            return "sls"
        if '"rack"' in text:
            return "nodes"
    return None


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: seeds.py SOURCE_DIR OUT_DIR")
    src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    for t in TARGETS:
        (out / t).mkdir(parents=True, exist_ok=True)
    count = 0
    for folder in FOLDERS:
        for f in sorted((src / folder).rglob("*")):
            if not f.is_file() or f.suffix not in (".json", ".xml"):
                continue
            if f.stat().st_size > MAX_BYTES:
                continue
            kind = kind_of(f, f.read_text(errors="replace"))
            if kind:
                name = str(f.relative_to(src)).replace("/", "_")
                shutil.copyfile(f, out / kind / name)
                count += 1
    for t in TARGETS:
        regressions = src / "tests/data/fuzz" / t
        if regressions.is_dir():
            for f in sorted(regressions.iterdir()):
                if f.is_file():
                    shutil.copyfile(f, out / t / ("fuzz-regression_" + f.name))
                    count += 1
    for t in TARGETS:
        print(f"seeds: {t} {sum(1 for _ in (out / t).iterdir())}")
    print(f"seeds: {count} file(s) copied to {out}")


if __name__ == "__main__":
    main()
