#!/usr/bin/env python3
"""Interim gauntlet until the `match` subcommand exists (issue 4): chimera against another UCI
engine (e.g. Debian's fairy-stockfish), both driven by python-chess.

usage: gauntlet_uci.py CHIMERA OPPONENT GAMES BASE_SECONDS INC_SECONDS [OPENING_OFFSET]
"""
import sys, time, chess, chess.engine

ours, theirs, games, base, inc = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
OFFSET = int(sys.argv[6]) if len(sys.argv) > 6 else 0
OPENINGS = ["e2e4 e7e5", "d2d4 d7d5", "c2c4 e7e5", "e2e4 c7c5", "d2d4 g8f6", "g1f3 d7d5", "e2e4 e7e6", "e2e4 c7c6",
            "d2d4 f7f5", "b1c3 d7d5", "e2e4 d7d6", "c2c4 c7c5", "d2d4 e7e6", "g2g3 d7d5", "e2e4 g7g6", "f2f4 d7d5"]
a = chess.engine.SimpleEngine.popen_uci([ours])
b = chess.engine.SimpleEngine.popen_uci([theirs])
score = 0.0
w = d = l = 0
for g in range(games):
    board = chess.Board()
    for m in OPENINGS[(g // 2 + OFFSET) % len(OPENINGS)].split():
        board.push_uci(m)
    ours_white = g % 2 == 0
    clocks = [base, base]
    forfeit = None
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        side = 0 if board.turn == chess.WHITE else 1
        eng = a if (board.turn == chess.WHITE) == ours_white else b
        t = time.time()
        r = eng.play(board, chess.engine.Limit(white_clock=clocks[0], black_clock=clocks[1], white_inc=inc, black_inc=inc), game=g)
        clocks[side] -= time.time() - t
        if clocks[side] < 0 or r.move not in board.legal_moves:
            forfeit = side
            break
        clocks[side] += inc
        board.push(r.move)
    res = ("0-1" if forfeit == 0 else "1-0") if forfeit is not None else board.result(claim_draw=True)
    res = "1/2-1/2" if res == "*" else res
    if res == "1/2-1/2":
        score += 0.5; d += 1
    elif (res == "1-0") == ours_white:
        score += 1; w += 1
    else:
        l += 1
    print(f"game {g+1}: {res} ours_white={ours_white} plies={board.ply()} forfeit={forfeit} running {score}/{g+1} (+{w} ={d} -{l})", flush=True)
a.quit(); b.quit()
print(f"FINAL {score}/{games} = {100*score/games:.1f}% (+{w} ={d} -{l})")
