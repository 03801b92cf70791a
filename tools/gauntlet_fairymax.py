#!/usr/bin/env python3
"""Interim gauntlet until the `match` subcommand exists (issue 4): chimera over UCI (python-chess)
against Debian's fairymax over XBoard, driven by hand here because fairymax does not declare
`setboard` and python-chess refuses such engines.

usage: gauntlet_fairymax.py CHIMERA GAMES BASE_SECONDS INC_SECONDS [OPENING_OFFSET]
Colours alternate; each pair of games shares one of 16 two-ply openings. A side whose clock
runs out loses; 400 plies without a result is a draw.
"""
import sys, chess, chess.engine, time, subprocess, threading, queue
ours, games, base, inc = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
OFFSET = int(sys.argv[5]) if len(sys.argv) > 5 else 0
OPENINGS = ["e2e4 e7e5", "d2d4 d7d5", "c2c4 e7e5", "e2e4 c7c5", "d2d4 g8f6", "g1f3 d7d5", "e2e4 e7e6", "e2e4 c7c6",
            "d2d4 f7f5", "b1c3 d7d5", "e2e4 d7d6", "c2c4 c7c5", "d2d4 e7e6", "g2g3 d7d5", "e2e4 g7g6", "f2f4 d7d5"]

class Xb:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("xboard"); self.send("protover 2")
        time.sleep(0.3)
    def _read(self):
        for line in self.p.stdout: self.q.put(line.strip())
    def send(self, s): self.p.stdin.write(s + "\n"); self.p.stdin.flush()
    def new_game(self, moves):
        self.send("new"); self.send("random"); self.send(f"level 0 0:{int(base):02d} {inc}"); self.send("force")
        for m in moves: self.send(m)
    def quit(self):
        self.send("quit")

score = 0.0; w = d = l = 0
a = chess.engine.SimpleEngine.popen_uci([ours])
b = Xb(["/usr/games/fairymax"])
for g in range(games):
    board = chess.Board()
    opening = OPENINGS[(g // 2 + OFFSET) % len(OPENINGS)].split()
    for m in opening: board.push_uci(m)
    ours_white = g % 2 == 0
    b.new_game(opening)
    pending_last = True
    clocks = [base, base]
    forfeit = None
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        side = 0 if board.turn == chess.WHITE else 1
        ours_turn = (board.turn == chess.WHITE) == ours_white
        t = time.time()
        if ours_turn:
            r = a.play(board, chess.engine.Limit(white_clock=clocks[0], black_clock=clocks[1], white_inc=inc, black_inc=inc))
            mv = r.move
            b.send(mv.uci())  # keep fairymax's board in step (force mode)
        else:
            b.send(f"time {int(clocks[side]*100)}"); b.send(f"otim {int(clocks[1-side]*100)}")
            b.send("go")
            while True:
                line = b.q.get(timeout=300)
                if line.startswith("move "):
                    mv = chess.Move.from_uci(line.split()[1]); b.send("force"); break
        clocks[side] -= time.time() - t
        if clocks[side] < 0:
            forfeit = side; break
        clocks[side] += inc
        if mv not in board.legal_moves:
            print("illegal move", mv, "by", "ours" if ours_turn else "fairymax"); forfeit = side; break
        board.push(mv)
    if forfeit is not None:
        res = "0-1" if forfeit == 0 else "1-0"
    else:
        res = board.result(claim_draw=True)
        if res == "*": res = "1/2-1/2"
    if res == "1/2-1/2": s = 0.5; d += 1
    elif (res == "1-0") == ours_white: s = 1.0; w += 1
    else: s = 0.0; l += 1
    score += s
    print(f"game {g+1}: {res} ours_white={ours_white} plies={board.ply()} forfeit={forfeit} running {score}/{g+1} (+{w} ={d} -{l})", flush=True)
a.quit(); b.quit()
print(f"FINAL {score}/{games} = {100*score/games:.1f}% (+{w} ={d} -{l})")
