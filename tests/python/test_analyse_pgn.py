#!/usr/bin/env python3
"""python-chess reads back the annotated PGN that `chimera analyse` writes.

Usage: test_analyse_pgn.py PATH/TO/chimera
Analyses two short chess games (one with a blunder, one from a FEN) and checks with
python-chess that each parses without errors, replays the same moves, carries an evaluation
on every move that does not end the game (with the depth searched), marks the blunder with
a NAG and a variation starting with a legal move, and has the accuracy and mark counts in its
header. Exits non-zero on failure.
"""
import io
import os
import subprocess
import sys
import tempfile

import chess
import chess.pgn

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/chimera"

GAMES = """[Event "one"]
[White "w"]
[Black "b"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "two"]
[SetUp "1"]
[FEN "r3k2r/pppq1ppp/2npbn2/4p3/2B1P3/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 4 8"]
[Result "*"]

8. O-O O-O-O 9. Bxe6 Qxe6 10. Ng5 Qd7 11. Nxf7 *
"""


def check(game, source, failures):
    name = game.headers.get("Event")
    if game.errors:
        failures.append(f"{name}: python-chess errors {game.errors}")
    moves = [n for n in game.mainline()]
    original = [m.san() for m in source.mainline()]
    replayed = [n.san() for n in moves]
    if original != replayed:
        failures.append(f"{name}: moves {replayed} != {original}")
    for node in moves:
        over = node.board().is_game_over()
        if node.eval() is None and not over:
            failures.append(f"{name}: no eval after {node.san()}")
        if node.eval() is not None and node.eval_depth() is None:
            failures.append(f"{name}: no depth after {node.san()}")
    for key in ("WhiteAccuracy", "BlackAccuracy", "WhiteBlunders", "BlackMistakes", "Annotator"):
        if key not in game.headers:
            failures.append(f"{name}: no {key} tag")
    return moves


def main():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.pgn")
        with open(path, "w") as f:
            f.write(GAMES)
        run = subprocess.run([BINARY, "analyse", path, "--depth", "6", "--quiet"],
                             capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            print(run.stdout, run.stderr)
            print("FAIL analyse exited with", run.returncode)
            return 1
    failures = []
    out = io.StringIO(run.stdout)
    sources = io.StringIO(GAMES)
    games = 0
    while True:
        game = chess.pgn.read_game(out)
        source = chess.pgn.read_game(sources)
        if game is None or source is None:
            break
        games += 1
        moves = check(game, source, failures)
        if games == 1:
            blunder = moves[5]  # 3... Nf6
            if 4 not in blunder.nags:
                failures.append(f"3... Nf6 has NAGs {blunder.nags}, not $4")
            if len(blunder.parent.variations) < 2:
                failures.append("no better line after 3... Nf6")
            else:
                alt = blunder.parent.variations[1]
                if alt.move not in blunder.parent.board().legal_moves:
                    failures.append(f"the better line starts with an illegal {alt.move}")
            if game.headers.get("BlackBlunders") != "1":
                failures.append(f"BlackBlunders {game.headers.get('BlackBlunders')}")
    if games != 2:
        failures.append(f"{games} games read back, not 2")
    for f in failures:
        print("FAIL", f)
    print(f"{games} annotated games read back by python-chess, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
