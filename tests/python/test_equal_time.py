#!/usr/bin/env python3
"""tools/equal_time.py against fake UCI engines that print fixed info lines.

Usage: test_equal_time.py
Needs no engine (an argument, such as the binary the other tests take, is ignored): the
engines are a small Python script written here. Prints one line per check and a closing
'N passed, N failed' line; exits non-zero on failure.
"""
import contextlib
import io
import os
import shlex
import sys
import tempfile
import time

import checks  # tests/python/checks.py: the shared runner

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import equal_time as et  # noqa: E402


# FAKE MODE SCALE LOG: for a position whose full-move number is n, depth 10 + n - SCALE,
# seldepth depth + 5 and SCALE * 1000 * n nodes in the last report; a deeper line that
# fails high and a currmove line come before it. MODE: ok, die (at go), hang (at go),
# plain (offers no UCI_Variant).
FAKE = r'''
import sys
mode, scale, log = sys.argv[1], int(sys.argv[2]), open(sys.argv[3], "a")
fen = None
def say(s):
    print(s, flush=True)
for line in sys.stdin:
    line = line.strip()
    log.write(line + "\n")
    log.flush()
    if line == "uci":
        say("id name Fake")
        say("option name Threads type spin default 1 min 1 max 8")
        say("option name Hash type spin default 16 min 1 max 1024")
        say("option name Move Overhead type spin default 10 min 0 max 100")
        if mode != "plain":
            say("option name UCI_Variant type combo default chess var chess var coercion")
        say("uciok")
    elif line == "isready":
        say("readyok")
    elif line.startswith("position fen "):
        fen = line[len("position fen "):]
    elif line.startswith("go"):
        if mode == "die":
            sys.exit(3)
        if mode == "hang":
            continue
        n = int(fen.split()[-1])
        d, nodes = 10 + n - scale, scale * 1000 * n
        say("info depth 1 seldepth 1 multipv 1 score cp 5 nodes 20 nps 2000 time 1 pv e2e4")
        say(f"info depth {d} seldepth {d + 5} multipv 1 score cp 20 nodes {nodes // 2} "
            f"nps 400000 time 50 pv e2e4 e7e5")
        say("info string a remark with depth 99 nodes 99")
        say(f"info depth {d + 1} currmove e2e4 currmovenumber 1")
        say(f"info depth {d + 1} seldepth {d + 9} score cp 30 upperbound nodes {nodes - 1} "
            f"nps 450000 time 90 pv e2e4")
        say(f"info depth {d} seldepth {d + 5} nodes {nodes} nps 500000 time 100")
        say("bestmove e2e4")
    elif line == "quit":
        break
'''

POSITIONS = """# a comment, then a blank line

rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id "an EPD";
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11
"""


class Setup:
    """A temporary directory with the fake engine and the positions file."""

    def __enter__(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        self.fake = os.path.join(d, "fake_engine.py")
        self.positions = os.path.join(d, "positions.epd")
        with open(self.fake, "w") as f:
            f.write(FAKE)
        with open(self.positions, "w") as f:
            f.write(POSITIONS)
        return self

    def __exit__(self, *exc):
        self.tmp.cleanup()

    def log(self, name):
        return os.path.join(self.tmp.name, f"{name}.log")

    def engine(self, name, mode="ok", scale=1):
        cmd = " ".join(shlex.quote(x) for x in
                       [sys.executable, self.fake, mode, str(scale), self.log(name)])
        return ["--engine", f"{name}={cmd}"]

    def sent(self, name):
        with open(self.log(name)) as f:
            return f.read().splitlines()

    def run(self, *args):
        """(status, stdout, stderr) of the tool's main."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = et.main(["--positions", self.positions, "--movetime", "10", *args])
        return status, out.getvalue(), err.getvalue()


def words_of(text, first):
    for line in text.splitlines():
        if line.split()[:1] == [first]:
            return line.split()
    raise AssertionError(f"no line starting {first!r} in\n{text}")


def fens_from_lines():
    assert et.fen_of("8/8/8/8/8/8/8/K6k w - -") == "8/8/8/8/8/8/8/K6k w - - 0 1"
    assert et.fen_of("8/8/8/8/8/8/8/K6k b - - bm Kb2; id \"x\";") == "8/8/8/8/8/8/8/K6k b - - 0 1"
    assert et.fen_of("8/8/8/8/8/8/8/K6k w - - 3 40") == "8/8/8/8/8/8/8/K6k w - - 3 40"
    assert et.fen_of("8/8/8/8/8/8/8/K6k w - - 3+3 0 1") == "8/8/8/8/8/8/8/K6k w - - 3+3 0 1"
    assert et.fen_of("8/8/8") is None


def positions_file():
    with Setup() as s:
        fens = et.read_positions(s.positions, 2)
        assert fens == ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10"]
        assert len(et.read_positions(s.positions, 100)) == 3
        bad = os.path.join(s.tmp.name, "bad.epd")
        with open(bad, "w") as f:
            f.write("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1\n")
        try:
            et.read_positions(bad, 5)
            raise AssertionError("a bad chess FEN was taken")
        except et.PositionError as e:
            assert f"{bad}:1: not a chess position" in str(e), e
        # a variant's FEN is the engine's business
        assert len(et.read_positions(bad, 5, "coercion")) == 1


def info_lines():
    assert et.parse_info("info depth 12 seldepth 20 score cp 5 nodes 1000 nps 9 time 3 pv a b") == {
        "depth": 12, "seldepth": 20, "score": True, "nodes": 1000, "nps": 9, "time": 3}
    assert et.parse_info("info depth 13 score cp 9 lowerbound nodes 5")["score"] is False
    assert et.parse_info("info string depth 99") == {}
    s = et.search_of(["info depth 5 seldepth 7 score mate 3 nodes 100 time 10 pv a",
                      "info depth 6 currmove a", "info nodes 300 time 20", "bestmove a"])
    assert (s.depth, s.seldepth, s.nodes, s.nps, s.time_ms) == (5, 7, 300, 15000, 20)
    assert et.search_of(["bestmove a"]) == et.Search()


def two_engines():
    with Setup() as s:
        status, out, err = s.run(*s.engine("one"), *s.engine("two", scale=2), "--count", "3",
                                 "--hash", "16", "--option", "one.Move Overhead=30")
        assert status == 0, (out, err)
        # positions with full-move numbers 1, 10 and 11: one at depth 10 + n - 1 with 1000 n
        # nodes, two a ply less deep with twice the nodes
        assert words_of(out, "1") == ["1", "10/15", "1000", "9/14", "2000", "0.500", "+1"]
        assert words_of(out, "2") == ["2", "19/24", "10000", "18/23", "20000", "0.500", "+1"]
        assert words_of(out, "3") == ["3", "20/25", "11000", "19/24", "22000", "0.500", "+1"]
        # mean depth, median depth, mean seldepth, nodes, nps, time of the last report
        assert words_of(out, "one") == ["one", "3", "16.33", "19.0", "21.33", "7333", "500000",
                                        "100"]
        assert words_of(out, "two") == ["two", "3", "15.33", "18.0", "20.33", "14667", "500000",
                                        "100"]
        assert ("one against two: nodes ratio geometric mean 0.500 (range 0.500 to 0.500), "
                "mean depth difference +1.00") in out, out
        one = s.sent("one")
        assert one[0] == "uci" and "quit" == one[-1]
        for line in ["setoption name Threads value 1", "setoption name Hash value 16",
                     "setoption name Move Overhead value 30",
                     "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
                     "go movetime 10"]:
            assert line in one, (line, one)
        assert one.count("ucinewgame") == 3
        assert not any("Move Overhead" in x for x in s.sent("two"))
        assert not any("UCI_Variant" in x for x in one)
        assert err == "", err


def variant_and_options():
    with Setup() as s:
        status, out, err = s.run(*s.engine("a.b"), "--count", "1", "--variant", "coercion",
                                 "--option", "a.b.Style=sharp")
        assert status == 0, (out, err)
        sent = s.sent("a.b")
        assert sent.index("setoption name Style value sharp") < sent.index(
            "setoption name UCI_Variant value coercion"), sent
        assert "engine a.b offers no option Style" in err, err
        status, out, err = s.run(*s.engine("p", mode="plain"), "--variant", "coercion")
        assert status == 1 and "engine p has no UCI_Variant option" in err, err
        status, out, err = s.run(*s.engine("p"), "--option", "q.Hash=1")
        assert status == 2 and "names no engine" in err, err


def failing_engines():
    with Setup() as s:
        status, out, err = s.run("--engine", "gone=/nonexistent/engine --uci")
        assert status == 1 and "engine gone: cannot start '/nonexistent/engine --uci'" in err, err
        status, out, err = s.run(*s.engine("good"), *s.engine("dies", mode="die"))
        assert status == 1 and "engine dies died (exit status 3)" in err, err
        started = time.monotonic()
        status, out, err = s.run(*s.engine("stuck", mode="hang"), "--timeout", "0.5")
        assert status == 1 and "engine stuck: no 'bestmove' within 0.51 s" in err, err
        assert time.monotonic() - started < 5


checks.run([
    ("FEN and EPD lines", fens_from_lines),
    ("positions file: comments, count, bad chess FEN", positions_file),
    ("info lines: last exact depth, last nodes, nps from time", info_lines),
    ("two engines: per-position lines, summary, commands sent", two_engines),
    ("variant and per-engine options; engine without UCI_Variant", variant_and_options),
    ("engine that cannot start, dies, or hangs: message and status 1", failing_engines),
])
