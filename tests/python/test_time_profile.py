#!/usr/bin/env python3
"""tools/time_profile.py on small synthetic PGNs with known numbers.

Usage: test_time_profile.py
Needs no engine (an argument, such as the binary the other tests take, is ignored). Prints
one line per check and a closing 'N passed, N failed' line; exits non-zero on failure.
"""
import contextlib
import io
import os
import subprocess
import sys
import tempfile

import checks  # tests/python/checks.py: the shared runner

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "time_profile.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import time_profile as tp  # noqa: E402


# alpha (White) loses: below -1.00 at move 4, back above at move 5, then at or below -1.00
# from move 6 (mated scores at 7 and 8) to the end; a variation and a NAG to skip
GAME_1 = """[Event "t"]
[White "alpha"]
[Black "beta"]
[Result "0-1"]
[TimeControl "10+0.1"]
[Termination "normal"]

1. e2e4 {book} e7e5 {book} 2. g1f3 {+0.30/10 0.500s} b8c6 {-0.20/11 0.250s}
3. f1c4 {-0.50/12 1.000s} $1 (3. f1b5 {+0.40/9 9.000s} a7a6) g8f6 {+0.80/12 0.750s}
4. d2d3 {-1.20/13 1.500s} f8c5 {+1.10/14 0.500s} 5. c1g5 {-0.90/13 0.500s}
d7d6 {+1.30/12 0.250s} 6. b1c3 {-1.50/11 0.500s} c5f2 {+M3/20 0.125s}
7. e1f2 {-M2/18 0.250s} f6g4 {+M2/30 0.100s} 8. f2g1 {-M1/42 0.200s}
d8g5 {+M1/41 0.050s, Black mates} 0-1
"""

# from a FEN with Black to move at move 60: alpha's moves are 60 (41-60) and 61 (61+);
# a time in milliseconds, a variant drop move, chimera's separate closing comment
GAME_2 = """[Event "t"]
[White "beta"]
[Black "alpha"]
[Result "1/2-1/2"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 60"]
[SetUp "1"]
[TimeControl "40/60"]
[Variant "coercion"]

60... e8d7 {-0.10/8 2.000s} 61. P@e4 {+0.20/9 1.000s} d7e6 {-0.10/8 2.900s}
62. e1d2 {+0.00/5 450ms} {Draw by agreement} 1/2-1/2
"""

# beta (White) loses on time without its score ever falling to -1.00
GAME_3 = """[Event "t"]
[White "beta"]
[Black "alpha"]
[Result "0-1"]
[TimeControl "10+0.1"]
[Termination "time forfeit"]

1. a2a3 {+0.50/5 0.100s} h7h6 {-0.50/5 0.150s} 2. b2b3 {+0.20/6 0.200s}
{White loses on time} 0-1
"""

NO_COMMENTS = """[Event "t"]
[White "alpha"]
[Black "beta"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""

UNCLOSED = """[Event "t"]
[White "alpha"]
[Black "beta"]
[Result "*"]

1. e4 {+0.10/3 0.1s} e5 {never closed
"""

GOOD = GAME_1 + "\n" + GAME_2 + "\n" + GAME_3


def near(a, b, eps=1e-9):
    assert a is not None and abs(a - b) < eps, (a, b)


def games():
    found, problems = tp.parse_games(GOOD)
    assert problems == [], problems
    return found


def row(text, *first):
    """The words of the line of `text` that starts with the words `first`."""
    for line in text.splitlines():
        words = line.replace("|", " ").split()
        if words[:len(first)] == list(first):
            return words
    raise AssertionError(f"no line starting {first} in\n{text}")


def parses_moves_and_comments():
    g1, g2, g3 = games()
    assert [len(g.moves) for g in (g1, g2, g3)] == [16, 4, 3]
    first = g1.moves[0]
    assert first.book and first.time is None and first.score is None
    assert (g1.moves[4].text, g1.moves[4].number, g1.moves[4].color) == ("f1c4", 3, "white")
    assert g1.moves[4].time == 1.0  # the variation's 9.000s is not the main line's
    mate = g1.moves[11]
    assert (mate.text, mate.mate, mate.score, mate.depth) == ("c5f2", 3, tp.MATE, 20)
    assert g1.moves[12].mate == -2 and g1.moves[12].score == -tp.MATE
    assert g1.reason == "Black mates" and g1.result == "0-1"
    assert [(m.number, m.color) for m in g2.moves] == [
        (60, "black"), (61, "white"), (61, "black"), (62, "white")]
    assert g2.moves[1].text == "P@e4"
    near(g2.moves[3].time, 0.45)
    assert g2.reason == "Draw by agreement"
    assert g3.reason == "White loses on time"


def buckets():
    assert [tp.bucket_of(n) for n in (1, 10, 11, 20, 21, 30, 31, 40, 41, 60, 61, 200)] == [
        0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert [tp.bucket_label(i) for i in range(6)] == [
        "1-10", "11-20", "21-30", "31-40", "41-60", "61+"]


def profile_alpha():
    p = tp.profile(games(), "alpha")
    assert p.games == 3
    near(p.total_time, 9.5)
    near(p.time_per_game(), 9.5 / 3)
    b = p.buckets
    assert [x.moves for x in b] == [8, 0, 0, 0, 1, 1]
    near(b[0].mean_time(), 4.6 / 8)
    near(b[0].mean_depth(), 15.5)
    near(b[4].mean_time(), 2.0)
    near(b[5].mean_depth(), 8.0)
    assert b[1].mean_time() is None
    near(p.share(0), 4.6 / 9.5)
    near(p.share(5), 2.9 / 9.5)
    # game 1: 4.45 s of 10 + 0.1 * 7; game 3: 0.15 of 10 + 0.1; game 2 (40/60) left out
    near(p.clock_used(), (4.45 / 10.7 + 0.15 / 10.1) / 2)


def profile_beta():
    p = tp.profile(games(), "beta")
    assert p.games == 3
    near(p.total_time, 3.775)
    assert [x.moves for x in p.buckets] == [9, 0, 0, 0, 0, 2]
    near(p.buckets[0].mean_depth(), 151 / 9)
    near(p.buckets[5].mean_time(), 0.725)
    near(p.clock_used(), (2.025 / 10.7 + 0.3 / 10.2) / 2)


def turning_points():
    g1, g2, g3 = games()
    assert tp.loser_of(g1) == "white" and tp.loser_of(g2) is None
    assert tp.turning_point(g1, "white") == 6
    assert tp.turning_point(g3, "white") is None
    # the winner's scores never fall: no turning point
    assert tp.turning_point(g1, "black") is None


def losses_by_bucket():
    a = tp.losses(games(), "alpha")
    assert (a.decisive, a.wins, a.total(), a.by_bucket, a.no_warning, a.on_time) == (
        2, 1, 1, [1, 0, 0, 0, 0, 0], 0, 0)
    b = tp.losses(games(), "beta")
    assert (b.decisive, b.wins, b.total(), b.by_bucket, b.no_warning, b.on_time) == (
        2, 1, 1, [0] * 6, 1, 1)


def plain_report():
    text = tp.report(games(), ["alpha", "beta"])
    assert row(text, "alpha", "3") == ["alpha", "3", "3.17", "21.5%", "2"], row(text, "alpha", "3")
    assert row(text, "beta", "3") == ["beta", "3", "1.26", "10.9%", "2"]
    assert row(text, "alpha", "1-10") == ["alpha", "1-10", "8", "0.575", "15.5", "48.4%"]
    assert row(text, "alpha", "11-20") == ["alpha", "11-20", "0", "-", "-", "0.0%"]
    assert row(text, "alpha", "41-60") == ["alpha", "41-60", "1", "2.000", "8.0", "21.1%"]
    assert row(text, "alpha", "61+") == ["alpha", "61+", "1", "2.900", "8.0", "30.5%"]
    assert row(text, "beta", "1-10") == ["beta", "1-10", "9", "0.258", "16.8", "61.6%"]
    assert row(text, "beta", "61+") == ["beta", "61+", "2", "0.725", "7.0", "38.4%"]
    assert row(text, "alpha", "2") == ["alpha", "2", "1", "1", "1", "0", "0", "0", "0", "0",
                                       "0", "0", "0"]
    assert row(text, "beta", "2") == ["beta", "2", "1", "1", "0", "0", "0", "0", "0", "0", "1",
                                      "0", "1"]
    assert "|" not in text


def scores_of_another_colour():
    # in the 007 family a ply may be chosen and scored by the other colour's engine: its
    # losses are counted, but no turning point is read from the scores
    found, _ = tp.parse_games(GOOD.replace('[Event ', '[Variant "007detente"]\n[Event '))
    for engine in ("alpha", "beta"):
        x = tp.losses(found, engine)
        assert sum(x.by_bucket) == 0 and x.no_warning == 0, x
        assert x.unread == x.decisive - x.wins and x.unread > 0, x


def markdown_report():
    text = tp.report(games(), ["alpha"], markdown=True)
    assert "| alpha | 1-10 | 8 | 0.575 | 15.5 | 48.4% |" in text, text
    assert "| engine | games | s/game | clock used | games with base+inc |" in text
    assert "beta" not in text


def skipped_games():
    found, problems = tp.parse_games(GAME_1 + "\n" + NO_COMMENTS + "\n" + UNCLOSED)
    assert len(found) == 1
    assert problems == [(2, "no move comments with thinking times"),
                        (3, "a comment is not closed ('{' without '}')")], problems


def files_and_messages():
    with tempfile.TemporaryDirectory() as tmp:
        good, bad, empty = (os.path.join(tmp, n) for n in ("good.pgn", "bad.pgn", "empty.pgn"))
        with open(good, "w") as f:
            f.write(GOOD + "\n" + NO_COMMENTS)
        with open(bad, "w") as f:
            f.write("this is not a PGN file\nat all\n")
        with open(empty, "w") as f:
            f.write(NO_COMMENTS)
        err = io.StringIO()
        found = tp.read_files([bad, good, os.path.join(tmp, "missing.pgn")], err)
        assert len(found) == 3
        said = err.getvalue()
        assert f"{bad}: not a PGN file" in said, said
        assert f"{good} game 4: no move comments with thinking times; skipped" in said, said
        assert "missing.pgn: cannot be read" in said, said
        # the command line: status 0 while one game is read, 1 when none is
        run = subprocess.run([sys.executable, TOOL, bad, good, "--engine", "beta"],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        assert row(run.stdout, "beta", "61+") == ["beta", "61+", "2", "0.725", "7.0", "38.4%"]
        assert "alpha" not in run.stdout and "not a PGN file" in run.stderr
        run = subprocess.run([sys.executable, TOOL, bad, empty], capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 1 and "no game could be read" in run.stderr, run
        assert f"{empty} game 1: no move comments" in run.stderr, run.stderr
        with contextlib.redirect_stderr(io.StringIO()) as e:
            assert tp.main([good, "--engine", "gamma"]) == 1
        assert "no game of engine 'gamma'" in e.getvalue()


checks.run([
    ("parse: moves, numbers, book, mates, variations, ms, reasons", parses_moves_and_comments),
    ("buckets of move numbers", buckets),
    ("profile: alpha's times, depths, shares, clock used", profile_alpha),
    ("profile: beta's times, depths, clock used", profile_beta),
    ("turning point: stays at or below -1.00 to the end", turning_points),
    ("losses by bucket, no warning, on time", losses_by_bucket),
    ("007 family: losses unread, not misread", scores_of_another_colour),
    ("plain report: exact rows", plain_report),
    ("markdown report", markdown_report),
    ("games without comments and unclosed comments are skipped", skipped_games),
    ("files: messages naming file and game; exit status", files_and_messages),
])
