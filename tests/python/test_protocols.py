#!/usr/bin/env python3
"""python-chess drives the chimera binary over UCI and XBoard.

Usage: test_protocols.py PATH/TO/chimera
Prints one line per check and a closing 'N passed, N failed' line; exits non-zero on failure.
"""
import sys
import chess
import chess.engine

import checks  # tests/python/checks.py: the shared runner

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/chimera"


class PalaceBoard(chess.Board):
    """Palace chess: its moves are a subset of orthodox moves, so python-chess can follow it."""
    uci_variant = "palace"
    xboard_variant = "palace"


def uci_play_chess():
    with chess.engine.SimpleEngine.popen_uci([BINARY]) as eng:
        assert eng.id.get("name", "").startswith("Chimera"), eng.id
        board = chess.Board()
        for _ in range(8):
            r = eng.play(board, chess.engine.Limit(time=0.05))
            assert r.move in board.legal_moves, r.move
            board.push(r.move)


def uci_variant_palace():
    with chess.engine.SimpleEngine.popen_uci([BINARY]) as eng:
        assert "palace" in eng.options["UCI_Variant"].var
        board = PalaceBoard()
        for _ in range(10):
            r = eng.play(board, chess.engine.Limit(time=0.05))
            assert r.move in board.legal_moves, r.move
            board.push(r.move)
            if board.is_game_over():
                break
        # the palace king never leaves c1-f2 / c7-f8
        k = board.king(chess.WHITE)
        assert chess.square_file(k) in range(2, 6) and chess.square_rank(k) in (0, 1), board.fen()


def uci_multipv3():
    with chess.engine.SimpleEngine.popen_uci([BINARY]) as eng:
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        infos = eng.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        assert len(infos) == 3, infos
        moves = [i["pv"][0] for i in infos]
        assert len(set(moves)) == 3, moves
        scores = [i["score"].white().score(mate_score=100000) for i in infos]
        assert scores == sorted(scores, reverse=True), scores


def uci_mate_found():
    with chess.engine.SimpleEngine.popen_uci([BINARY]) as eng:
        board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        info = eng.analyse(board, chess.engine.Limit(depth=5))
        assert info["score"].white().mate() == 1, info["score"]
        assert info["pv"][0] == chess.Move.from_uci("d1d8"), info["pv"]


def xboard_play_chess():
    with chess.engine.SimpleEngine.popen_xboard([BINARY]) as eng:
        board = chess.Board()
        for _ in range(6):
            r = eng.play(board, chess.engine.Limit(time=0.05))
            assert r.move in board.legal_moves, r.move
            board.push(r.move)


def xboard_variant_palace():
    with chess.engine.SimpleEngine.popen_xboard([BINARY]) as eng:
        board = PalaceBoard()
        for _ in range(6):
            r = eng.play(board, chess.engine.Limit(time=0.05))
            assert r.move in board.legal_moves, r.move
            board.push(r.move)


def xboard_analyse():
    with chess.engine.SimpleEngine.popen_xboard([BINARY]) as eng:
        board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        info = eng.analyse(board, chess.engine.Limit(depth=4))
        assert info["pv"][0] == chess.Move.from_uci("d1d8"), info


checks.run([
    ("uci: plays legal chess moves under a time limit", uci_play_chess),
    ("uci: UCI_Variant palace, legal play, king stays in its palace", uci_variant_palace),
    ("uci: MultiPV 3 gives three distinct, ordered lines", uci_multipv3),
    ("uci: finds mate in one", uci_mate_found),
    ("xboard: plays legal chess moves", xboard_play_chess),
    ("xboard: variant palace", xboard_variant_palace),
    ("xboard: analyse finds mate in one", xboard_analyse),
])
