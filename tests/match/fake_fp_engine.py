#!/usr/bin/env python3
"""A scripted UCI engine for three-seat Foreign Policy matches that misbehaves on purpose.

usage: fake_fp_engine.py MODE      (MODE: illegal, crash)
  illegal  answers every `go` with h1h8, never a legal move in the first rounds
  crash    exits with status 3 when asked to move
It offers UCI_Variant foreignpolicy, so the referee's handshake accepts it.
"""
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"


def say(s):
    sys.stdout.write(s + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        say(f"id name fake-fp-{mode}")
        say("option name UCI_Variant type combo default chess var chess var foreignpolicy")
        say("uciok")
    elif cmd[0] == "isready":
        say("readyok")
    elif cmd[0] == "go":
        if mode == "crash":
            sys.exit(3)
        say("info depth 1 score cp 0")
        say("bestmove h1h8")
    elif cmd[0] == "quit":
        break
