#!/usr/bin/env python3
"""python-chess reads back the PGN that `chimera match` writes for orthodox chess.

Usage: test_match_pgn.py PATH/TO/chimera
Plays a few short games (one from the start, one from a FEN opening, colours alternating),
then checks with python-chess that every game parses without errors, replays to its PlyCount,
and that games ended by the rules end in a position python-chess also calls over with the
same result. Exits non-zero on failure.
"""
import os
import subprocess
import sys
import tempfile

import chess
import chess.pgn

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/chimera"


def main():
    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, "book.epd")
        pgn_path = os.path.join(tmp, "games.pgn")
        with open(book, "w") as f:
            f.write("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")
            # a sharp position with castling rights and en passant around
            f.write("r3k2r/pppq1ppp/2npbn2/4p3/2B1P3/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 4 8\n")
        cmd = [BINARY, "match",
               "-engine", f"cmd={BINARY}", "name=one",
               "-engine", f"cmd={BINARY}", "name=two",
               "-each", "nodes=3000", "-games", "4", "-repeat", "-maxmoves", "120",
               "-openings", f"file={book}", "-pgnout", pgn_path]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            print(run.stdout, run.stderr)
            print("FAIL match exited with", run.returncode)
            return 1
        failures = 0
        count = 0
        with open(pgn_path) as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                count += 1
                h = game.headers
                problems = []
                if game.errors:
                    problems.append(f"parse errors {game.errors}")
                board = game.end().board()
                plies = len(list(game.mainline_moves()))
                if str(plies) != h.get("PlyCount"):
                    problems.append(f"{plies} moves, PlyCount {h.get('PlyCount')}")
                if h.get("Termination") == "normal":
                    outcome = board.outcome(claim_draw=True)
                    if outcome is None:
                        problems.append("ended by the rules, but python-chess sees no end")
                    elif outcome.result() != h["Result"]:
                        problems.append(f"python-chess says {outcome.result()}, PGN {h['Result']}")
                if h.get("Round") in ("3", "4") and "FEN" not in h:
                    problems.append("the FEN opening has no FEN tag")
                status = "FAIL" if problems else "ok  "
                failures += bool(problems)
                print(f"{status} game {h.get('Round')}: {h.get('White')}-{h.get('Black')} {h['Result']} "
                      f"{h.get('Termination')} {plies} plies {'; '.join(problems)}")
        if count != 4:
            print(f"FAIL expected 4 games, read {count}")
            failures += 1
        print(f"{count - failures} passed, {failures} failed")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
