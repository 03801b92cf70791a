#!/usr/bin/env python3
"""Time to a fixed depth with Threads=1 and Threads=2 (Lazy SMP speed-up), over bench-like positions.

usage: smp_speedup.py CHIMERA DEPTH
"""
import subprocess, sys, time

BIN, DEPTH = sys.argv[1], int(sys.argv[2])
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 11",
]

def ttd(threads, fen):
    p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s):
        p.stdin.write(s + "\n"); p.stdin.flush()
    send("uci"); send(f"setoption name Threads value {threads}"); send("setoption name Hash value 64")
    send(f"position fen {fen}"); send("isready")
    for line in p.stdout:
        if line.strip() == "readyok":
            break
    t = time.time()
    send(f"go depth {DEPTH}")
    for line in p.stdout:
        if line.startswith("bestmove"):
            break
    elapsed = time.time() - t
    send("quit"); p.wait()
    return elapsed

tot = {1: 0.0, 2: 0.0}
for fen in FENS:
    row = {}
    for th in (1, 2):
        best = min(ttd(th, fen) for _ in range(2))
        row[th] = best; tot[th] += best
    print(f"{row[1]:7.2f} s  {row[2]:7.2f} s  x{row[1]/row[2]:.2f}  {fen}", flush=True)
print(f"TOTAL threads=1 {tot[1]:.2f} s, threads=2 {tot[2]:.2f} s, speed-up x{tot[1]/tot[2]:.2f}")
