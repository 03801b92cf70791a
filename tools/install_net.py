#!/usr/bin/env python3
"""Build a net from `chimera learn` into the engine, or set a variant's wdlModel.

    tools/install_net.py V WORK_ROOT     copies WORK_ROOT/V/V.nnue to nets/V.nnue (build.rs
                                         embeds every file of nets/) and sets nnueFile = V.nnue
                                         in V's section of variants.ini (replacing its
                                         nnueFile and nnueVariant lines)
    tools/install_net.py --wdl V A B     sets wdlModel = A B in V's section

Then add the net's rows to docs/strength.md and docs/nnue.md, rebuild, and refit
the variant's wdlModel with its net (tools/refit_wdl.sh).
"""
import os
import re
import shutil
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def section_lines(lines, v):
    """Indices of the lines of V's section, and the index where the section ends."""
    inside, found, end = False, [], None
    for i, line in enumerate(lines):
        if line.startswith("["):
            if inside:
                end = i
                break
            inside = re.match(rf"\[{re.escape(v)}(:[^\]]*)?\]$", line.strip()) is not None
        elif inside:
            found.append(i)
    if not found and not inside:
        sys.exit(f"variants.ini has no [{v}] section")
    return found, end if end is not None else len(lines)


def set_key(v, key, value, replaces):
    path = os.path.join(REPO, "variants.ini")
    lines = open(path).read().split("\n")
    found, end = section_lines(lines, v)
    # the first of the replaced keys takes the new line; the others go (a variant that
    # borrowed the chess net by nnueFile and nnueVariant gets its own file and no borrowing)
    matches = [i for i in found if re.match(rf"({'|'.join(replaces)})\s*=", lines[i])]
    if matches:
        lines[matches[0]] = f"{key} = {value}"
        for i in reversed(matches[1:]):
            del lines[i]
    else:
        # after the section's last key, before the comments and blank lines of the next
        k = end
        while k > 0 and (lines[k - 1].strip() == "" or lines[k - 1].startswith("#")):
            k -= 1
        lines.insert(k, f"{key} = {value}")
    open(path, "w").write("\n".join(lines))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--wdl":
        v, a, b = sys.argv[2:5]
        set_key(v, "wdlModel", f"{a} {b}", ["wdlModel"])
        print(f"{v}: wdlModel = {a} {b}")
        return
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    v, root = sys.argv[1:3]
    shutil.copy(os.path.join(root, v, f"{v}.nnue"), os.path.join(REPO, "nets", f"{v}.nnue"))
    set_key(v, "nnueFile", f"{v}.nnue", ["nnueFile", "nnueVariant"])
    print(f"{v}: nets/{v}.nnue built in")


if __name__ == "__main__":
    main()
