#!/usr/bin/env python3
"""A scripted UCI engine that misbehaves on purpose, for the `match` referee's tests.

usage: fake_engine.py MODE [COUNTER ENGINE...]
       (MODE: illegal, garbage, crash, hang, variantpath, third-illegal)
  illegal  answers every `go` with a move that is never legal in the first plies (h1h8)
  garbage  answers with something that is not a move at all
  crash    exits with status 3 when asked to move
  hang     never answers `go` (and ignores `stop`)
  variantpath  lists missingfile among its UCI_Variant values only once its VariantPath option
           is set (as Fairy-Stockfish does), then answers like `illegal`
  third-illegal  relays everything to the real UCI engine ENGINE... and plays its moves, but
           in the third game it plays (counted by `ucinewgame` in the file COUNTER, over
           all its processes) answers h1h8
If FAKE_PID_FILE is set, the engine appends its process id to that file, so a test can check
that the referee ended and reaped every process it started.
"""
import os
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
pid_file = os.environ.get("FAKE_PID_FILE")
if pid_file:
    with open(pid_file, "a") as f:
        f.write(f"{os.getpid()}\n")


def say(s):
    sys.stdout.write(s + "\n")
    sys.stdout.flush()


def next_game(counter):
    """Counts a game in the file `counter` (shared by every process of the engine), under a
    lock: two processes starting games at once must not both read the same count."""
    import fcntl

    fd = os.open(counter, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        text = os.read(fd, 64).decode().strip()
        n = int(text) if text.isdigit() else 0
        os.lseek(fd, 0, os.SEEK_SET)
        os.ftruncate(fd, 0)
        os.write(fd, str(n + 1).encode())
    finally:
        os.close(fd)
    return n + 1


def relay(counter, engine_cmd):
    """The third-illegal mode: a real engine behind us, and one bad game."""
    import subprocess

    engine = subprocess.Popen(engine_cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def tell(s):
        engine.stdin.write(s + "\n")
        engine.stdin.flush()

    def until(word):
        for out in engine.stdout:
            parts = out.split()
            if parts and parts[0] == "id" and parts[1:2] == ["name"]:
                out = "id name fake-third-illegal\n"
            sys.stdout.write(out)
            sys.stdout.flush()
            if parts and parts[0] == word:
                return

    games = 0
    for line in sys.stdin:
        cmd = line.split()
        if not cmd:
            continue
        if cmd[0] == "ucinewgame":
            games = next_game(counter)
        if cmd[0] == "go" and games == 3:
            say("bestmove h1h8")
            continue
        tell(line.strip())
        if cmd[0] == "uci":
            until("uciok")
        elif cmd[0] == "isready":
            until("readyok")
        elif cmd[0] == "go":
            until("bestmove")
        elif cmd[0] == "quit":
            break
    engine.wait()


if mode == "third-illegal":
    relay(sys.argv[2], sys.argv[3:])
    sys.exit(0)

variant_path = False
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        say(f"id name fake-{mode}")
        say("option name Hash type spin default 16 min 1 max 1024")
        if mode == "variantpath":
            extra = " var missingfile" if variant_path else ""
            say(f"option name UCI_Variant type combo default chess var chess{extra}")
            say("option name VariantPath type string default <empty>")
        say("uciok")
    elif cmd[0] == "isready":
        say("readyok")
    elif cmd[:3] == ["setoption", "name", "VariantPath"]:
        variant_path = True
    elif cmd[0] == "go":
        if mode in ("illegal", "variantpath"):
            say("info depth 1 score cp 0")
            say("bestmove h1h8")
        elif mode == "garbage":
            say("bestmove hello")
        elif mode == "crash":
            sys.exit(3)
        # hang: say nothing
    elif cmd[0] == "quit":
        if mode != "hang":
            break
