#!/usr/bin/env python3
"""Writes an opening book (one FEN per line) for any variant Chimera plays: random legal
openings of PLIES plies, kept when Chimera's own search (250 ms) scores them within MARGIN
centipawns. The moves come from `chimera divide`, the FEN from the UCI `d` command.

    tools/make_variant_book.py VARIANT OUT COUNT [PLIES=6] [SEED=1] [MARGIN=80] [ENGINE]
"""
import random
import subprocess
import sys

variant, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
plies = int(sys.argv[4]) if len(sys.argv) > 4 else 6
rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
margin = int(sys.argv[6]) if len(sys.argv) > 6 else 80
exe = sys.argv[7] if len(sys.argv) > 7 else "target/release/chimera"


def legal_moves(moves):
    args = [exe, "divide", "--variant", variant] + (["--moves", *moves] if moves else []) + ["1"]
    lines = subprocess.run(args, capture_output=True, text=True).stdout.splitlines()
    return [l.split(":")[0].strip() for l in lines if ":" in l and not l.lower().startswith(("nodes", "time"))]


def fen_and_score(moves):
    cmds = (f"uci\nsetoption name UCI_Variant value {variant}\nposition startpos moves {' '.join(moves)}\n"
            "d\ngo movetime 250\n")
    proc = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write(cmds)
    proc.stdin.flush()
    fen, score = None, None
    for line in proc.stdout:
        if line.startswith("FEN: "):
            fen = line[5:].strip()
        if " score cp " in line:
            score = int(line.split(" score cp ")[1].split()[0])
        if " score mate " in line:
            score = 100000
        if line.startswith("bestmove"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return fen, score


start_fen, _ = fen_and_score([])
book, seen, tries = [], set(), 0
while len(book) < count and tries < count * 30:
    tries += 1
    moves = []
    for _ in range(plies):
        legal = legal_moves(moves)
        if not legal:
            break
        moves.append(rng.choice(legal))
    if len(moves) < plies or tuple(moves) in seen:
        continue
    seen.add(tuple(moves))
    fen, score = fen_and_score(moves)
    # A FEN already in the book (a transposition) or the start position (the engine refused a
    # move) would make the book play the same game twice.
    if fen and fen != start_fen and fen not in book and score is not None and abs(score) <= margin:
        book.append(fen)
with open(out, "w") as f:
    f.write("\n".join(book) + "\n")
print(f"{len(book)} openings from {tries} tries", file=sys.stderr)
