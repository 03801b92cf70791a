#!/usr/bin/env python3
"""XBoard in every variant it can carry (issue 46, point 2).

For each variant the engine announces in `feature variants`, asks the engine what it tells
XBoard at `variant NAME` (a `telluser` that XBoard cannot referee the game, or a
`tellusererror` that legality testing must be off), then plays Chimera against itself in
XBoard 4.9 under Xvfb, one XBoard match (`-mg N`) per mode:

  default   XBoard's default settings (legality testing on), where the engine does not ask
            for it off
  nolegal   `-testLegality false`
  polyglot  Chimera in UCI mode behind polyglot (as first engine) against Chimera over
            XBoard, with the settings of `default` (legality off where the engine asks)

and checks every saved game: a result, and no forfeit, illegal move, false claim, time loss,
disconnection or hang. Prints a Markdown table (variant, mode, games, W-L-D for the first
engine, how the games ended, faults) and exits non-zero on any fault.

    tools/xboard_variants.py ENGINE OUT_DIR [--games N] [--tc SECONDS] [--inc SECONDS]
                             [--variants a,b,...] [--modes default,nolegal,polyglot]

Needs Debian's xboard, xvfb and polyglot. Each match starts XBoard with a fresh HOME (XBoard
keeps its settings, legality testing included, in ~/.xboardrc). A finished match leaves
NAME.done beside its PGN, so a run stopped part-way resumes with the next match when started
again with the same OUT_DIR (delete OUT_DIR to play everything again).
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

XBOARD = "/usr/games/xboard"
POLYGLOT = "/usr/games/polyglot"
FAULT = re.compile(
    r"false|illegal|invalid|on time|forfeit|disconnect|crash|exited|timeout|stall",
    re.IGNORECASE,
)


def announced_variants(engine):
    out = subprocess.run(
        [engine], input="xboard\nprotover 2\nquit\n", capture_output=True, text=True, timeout=30
    ).stdout
    found = re.search(r'variants="([^"]*)"', out)
    return found.group(1).split(",") if found else []


def limits(engine, variant):
    """What the engine tells XBoard at `variant`: ('cannot', why), ('legality', why) or None."""
    out = subprocess.run(
        [engine],
        input=f"xboard\nprotover 2\nvariant {variant}\nquit\n",
        capture_output=True,
        text=True,
        timeout=30,
    ).stdout
    for line in out.splitlines():
        if line.startswith("telluser ") and "cannot referee" in line:
            return ("cannot", re.search(r"\\n\((.*?)\)", line).group(1))
        if line.startswith("tellusererror ") and "legality testing" in line:
            return ("legality", re.search(r"\\n\((.*?)\)", line).group(1))
    return None


def games_of(pgn_text):
    """(result, last comment, full moves) of each game of an XBoard PGN file."""
    games = []
    for chunk in re.split(r"(?=^\[Event )", pgn_text, flags=re.MULTILINE):
        if not chunk.strip():
            continue
        result = re.search(r'^\[Result "([^"]*)"', chunk, re.MULTILINE)
        body = "\n".join(l for l in chunk.splitlines() if not l.startswith("["))
        comments = re.findall(r"\{([^}]*)\}", body)
        numbers = re.findall(r"(\d+)\.", re.sub(r"\{[^}]*\}", "", body))
        games.append(
            (
                result.group(1) if result else "none",
                comments[-1].strip() if comments else "",
                int(numbers[-1]) if numbers else 0,
            )
        )
    return games


def play(engine, out, variant, mode, legality_off, args):
    """One XBoard match; returns its games, or None when XBoard hung."""
    name = f"{variant}-{mode}"
    pgn = os.path.join(out, name + ".pgn")
    done = os.path.join(out, name + ".done")
    if os.path.exists(done):
        # played in an earlier run (the whole run resumes match by match)
        hung = open(done).read().strip() == "hung"
        return games_of(open(pgn, errors="replace").read() if os.path.exists(pgn) else ""), hung
    if os.path.exists(pgn):
        os.remove(pgn)
    home = tempfile.mkdtemp(prefix="xbhome")
    first = ["-fcp", engine, "-fn", "Chimera-1"]
    if mode == "polyglot":
        ini = os.path.join(out, "polyglot.ini")
        with open(ini, "w") as f:
            f.write(
                f"[PolyGlot]\nEngineCommand = {engine}\nEngineName = Chimera-UCI\n"
                "Log = false\n[Engine]\nHash = 16\n"
            )
        first = ["-fcp", f"{POLYGLOT} {ini}", "-fn", "Chimera-UCI"]
    cmd = [
        "xvfb-run", "-a", "-s", "-screen 0 1024x768x24",
        XBOARD, "-mg", str(args.games), "-sgf", pgn,
        "-tc", f"0:{args.tc:02d}", "-inc", str(args.inc),
        "-xponder", "-xexit", "-autoCallFlag", "true",
        *first, "-scp", engine, "-sn", "Chimera-2",
    ]
    if variant != "normal":
        cmd += ["-variant", variant]
    if legality_off:
        cmd += ["-testLegality", "false"]
    # a game lasts at most both clocks plus 300 increments, and XBoard's start-up
    limit = args.games * (2 * args.tc + 300 * args.inc + 20) + 60
    env = dict(os.environ, HOME=home)
    with open(os.path.join(out, name + ".log"), "w") as log:
        try:
            subprocess.run(cmd, env=env, stdout=log, stderr=log, timeout=limit)
            hung = False
        except subprocess.TimeoutExpired:
            hung = True
            subprocess.run(["pkill", "-f", f"-sgf {pgn}"], check=False)
    shutil.rmtree(home, ignore_errors=True)
    text = open(pgn, errors="replace").read() if os.path.exists(pgn) else ""
    with open(done, "w") as f:
        f.write("hung\n" if hung else "ok\n")
    return games_of(text), hung


def summarise(games, hung, wanted):
    score = collections.Counter()
    ends = collections.Counter()
    faults = []
    for result, reason, moves in games:
        # XBoard alternates colours in a match: game 1 has the first engine as White
        score[result] += 1
        short = re.sub(r"\s*\(.*", "", reason) or "no reason"
        ends[short] += 1
        if result not in ("1-0", "0-1", "1/2-1/2") or FAULT.search(reason):
            faults.append(f"{result} {reason} ({moves} moves)")
    if len(games) < wanted:
        faults.append(f"{wanted - len(games)} game(s) missing" + (" (XBoard hung)" if hung else ""))
    return score, ends, faults


def first_engine_wld(games):
    """W-L-D of the first engine: it has White in odd games, Black in even ones."""
    w = l = d = 0
    for i, (result, _, _) in enumerate(games):
        white_first = i % 2 == 0
        if result == "1/2-1/2":
            d += 1
        elif (result == "1-0") == white_first and result in ("1-0", "0-1"):
            w += 1
        elif result in ("1-0", "0-1"):
            l += 1
    return f"{w}-{l}-{d}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("engine")
    p.add_argument("out")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--tc", type=int, default=10, help="seconds a game")
    p.add_argument("--inc", type=float, default=0.1)
    p.add_argument("--variants", default="")
    p.add_argument("--modes", default="default,nolegal,polyglot")
    args = p.parse_args()
    engine = os.path.abspath(args.engine)
    os.makedirs(args.out, exist_ok=True)
    out = os.path.abspath(args.out)
    variants = args.variants.split(",") if args.variants else announced_variants(engine)
    modes = args.modes.split(",")
    print("| variant | mode | games | W-L-D (first engine) | how they ended | faults |")
    print("| --- | --- | --- | --- | --- | --- |")
    failures = 0
    for variant in variants:
        said = limits(engine, variant)
        if said and said[0] == "cannot":
            print(f"| {variant} | - | 0 | - | not played: the engine tells XBoard it cannot referee it ({said[1]}) | - |")
            continue
        for mode in modes:
            if mode == "default" and said:
                print(f"| {variant} | default | 0 | - | not played: the engine asks for legality testing off ({said[1]}) | - |")
                continue
            legality_off = mode == "nolegal" or (mode == "polyglot" and said is not None)
            games, hung = play(engine, out, variant, mode, legality_off, args)
            score, ends, faults = summarise(games, hung, args.games)
            failures += len(faults)
            how = "; ".join(f"{n} {e}" for e, n in ends.most_common())
            label = mode + (" (legality off)" if mode == "polyglot" and legality_off else "")
            print(
                f"| {variant} | {label} | {len(games)} | {first_engine_wld(games)} | {how} | "
                f"{'none' if not faults else '; '.join(faults)} |",
                flush=True,
            )
    print(f"faults: {failures}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
