#!/usr/bin/env python3
"""Writes a balanced chess opening book (EPD) for engine matches: random openings of PLIES
plies from the start, kept when Stockfish (depth 10) scores them within MARGIN centipawns.

    tools/make_book.py OUT.epd [COUNT=400] [PLIES=8] [SEED=1] [MARGIN=70]
"""
import random
import sys

import chess
import chess.engine

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 400
plies = int(sys.argv[3]) if len(sys.argv) > 3 else 8
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
margin = int(sys.argv[5]) if len(sys.argv) > 5 else 70

engine = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
seen = set()
lines = []
while len(lines) < count:
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    if board.is_game_over() or board.epd() in seen:
        continue
    info = engine.analyse(board, chess.engine.Limit(depth=10))
    score = info["score"].white().score()
    if score is None or abs(score) > margin:
        continue
    seen.add(board.epd())
    lines.append(board.epd())
engine.quit()
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
