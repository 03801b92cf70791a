#!/usr/bin/env python3
"""Writes a balanced chess opening book for engine matches: random openings of PLIES plies
from the start, kept when Stockfish (depth 10) scores them within MARGIN centipawns. OUT.epd
gets the positions; OUT.pgn the same openings as moves, for engines without `setboard`
(fairymax).

    tools/make_book.py OUT [COUNT=400] [PLIES=8] [SEED=1] [MARGIN=70]
"""
import random
import sys

import chess
import chess.engine

out = sys.argv[1].removesuffix(".epd")
count = int(sys.argv[2]) if len(sys.argv) > 2 else 400
plies = int(sys.argv[3]) if len(sys.argv) > 3 else 8
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
margin = int(sys.argv[5]) if len(sys.argv) > 5 else 70

engine = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
seen = set()
lines = []
games = []
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
    games.append(chess.Board().variation_san(board.move_stack))
engine.quit()
with open(out + ".epd", "w") as f:
    f.write("\n".join(lines) + "\n")
with open(out + ".pgn", "w") as f:
    for i, moves in enumerate(games, 1):
        f.write(f'[Event "opening {i}"]\n[Result "*"]\n\n{moves} *\n\n')
