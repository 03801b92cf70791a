#!/usr/bin/env python3
"""A scripted XBoard engine: it plays the moves of a fixed line, whichever colour asks.

    scripted_xboard_engine.py CHIMERA VARIANT MOVE1 MOVE2 ...

It answers `variant VARIANT` with the `setup` and `piece` lines Chimera itself sends for that
variant (so XBoard draws the same board), counts the plies from the last `setboard` or `new`,
and when asked to move (`go`, or a `usermove` while it is not in force mode) sends the line's
move for that ply; past the end of the line it resigns. tools/xboard_promotions.sh uses it to
make XBoard see each promotion a variant allows, spelled as Chimera spells it.
"""
import subprocess
import sys


def chimera_setup(chimera, variant):
    """The lines after `variant` that draw the board: Chimera's own."""
    session = f"xboard\nprotover 2\nvariant {variant}\nping 1\nquit\n"
    out = subprocess.run([chimera], input=session, capture_output=True, text=True, timeout=30)
    lines = []
    seen_variant = False
    for line in out.stdout.splitlines():
        if line.startswith("feature done=1"):
            seen_variant = True
            continue
        if seen_variant and line.startswith(("setup ", "piece ")):
            lines.append(line)
    return lines


def main():
    chimera, variant, line = sys.argv[1], sys.argv[2], sys.argv[3:]
    setup = chimera_setup(chimera, variant)
    ply, force = 0, False

    def say(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def play():
        nonlocal ply
        if ply < len(line):
            say(f"move {line[ply]}")
            ply += 1
        else:
            say("resign")

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "protover":
            say(f'feature setboard=1 usermove=1 ping=1 sigint=0 colors=0 variants="normal,{variant}" '
                'myname="Scripted" done=1')
        elif cmd == "variant":
            for s in setup:
                say(s)
        elif cmd in ("new", "setboard"):
            ply, force = 0, cmd == "setboard" and force
        elif cmd == "force":
            force = True
        elif cmd == "go":
            force = False
            play()
        elif cmd == "usermove":
            ply += 1
            if not force:
                play()
        elif cmd == "ping":
            say(f"pong {words[1]}")
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
