#!/usr/bin/env python3
"""Where the time goes, and where the games are lost, in match PGNs (issue 48, point 5).

Point 5 asks where the points go between 3+0.03 and 10+0.1: the time each engine uses move
by move against fairy-stockfish's, depth and nodes at equal time (tools/equal_time.py), and
the phase in which games are lost. This tool reads the PGN files that `chimera match` or
cutechess-cli write, where each move carries a comment such as `{+0.25/12 0.456s}` (score in
pawns from the mover's side, `+M5`/`-M3` for mates, the depth, the thinking time) or
`{book}`, and prints for each engine:

  * games, mean time per move and mean depth by move number (1-10, 11-20, 21-30, 31-40,
    41-60, 61+; the full-move number of the engine's own move), each bucket's share of the
    engine's thinking time, the mean time per game and, under a `base+inc` time control,
    the mean fraction of base + inc * moves played that was used;
  * where games were lost: for each loss, the loser's turning point is the first of its
    moves from which its own score stays at or below -1.00 (mated scores count) to the end
    of the game; losses are counted by the bucket of that move, or as "no warning" (or as
    "unread" in the 007 family, whose plies may be chosen and scored by the other colour), and
    those lost on time are counted too.

    tools/time_profile.py PGN [PGN...] [--engine NAME] [--markdown]

The movetext is tokenized here, not by python-chess, so coordinate and variant moves are
read alike. A file or game that cannot be used is named on stderr and skipped; the exit
status is non-zero only when no game could be read.
"""

import argparse
import re
import statistics
import sys
from dataclasses import dataclass, field

BUCKETS = [(1, 10), (11, 20), (21, 30), (31, 40), (41, 60), (61, None)]
LOSING = -1.0
MATE = 1000.0  # the score, in pawns, that stands for a mate

TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
TOKEN = re.compile(r"""
      \{(?P<comment>[^}]*)\}
    | (?P<open_comment>\{)
    | ;(?P<line_comment>[^\n]*)
    | (?P<open>\() | (?P<close>\))
    | \$(?P<nag>\d+)
    | (?P<number>\d+)(?P<dots>\.+)
    | (?P<result>1-0|0-1|1/2-1/2|\*)(?=[\s{}();]|$)
    | (?P<word>[^\s{}();$]+)
    | (?P<space>\s+)
""", re.VERBOSE)
NOTE = re.compile(r"""
    ^\s*(?:(?P<sign>[+-]?)(?P<mate>M)?(?P<score>\d+(?:\.\d+)?)(?:/(?P<depth>\d+))?\s+)?
    (?P<time>\d+(?:\.\d+)?)(?P<unit>ms|s)\b[,;\s]*(?P<extra>.*)$
""", re.VERBOSE | re.DOTALL)
GLYPH = re.compile(r"^[!?]+$")  # a move's annotation written apart from it
TIME_CONTROL = re.compile(r"^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$")
NO_TAGS = "no tag pairs: not a PGN game"


class PgnError(Exception):
    """A game that cannot be read."""


@dataclass
class Move:
    """One move of the main line with what its comments say."""
    text: str
    number: int  # full-move number
    color: str  # "white" or "black"
    remarks: list = field(default_factory=list)  # comment text that is no move data
    score: float = None  # pawns, mover's side; +-MATE for mates
    mate: int = None  # signed: +3 mates in 3, -2 is mated in 2
    depth: int = None
    time: float = None  # seconds
    book: bool = False


@dataclass
class Game:
    """A game's tags, main line and result."""
    index: int  # 1-based, in its file
    tags: dict
    moves: list
    result: str

    @property
    def reason(self):
        """Why the game ended: the last move's last remark, else the Termination tag."""
        if self.moves and self.moves[-1].remarks:
            return self.moves[-1].remarks[-1]
        return self.tags.get("Termination", "")

    def player(self, color):
        return self.tags.get("White" if color == "white" else "Black")

    def moves_of(self, color):
        return [m for m in self.moves if m.color == color]


# ---------------------------------------------------------------------------------------
# Reading


def bucket_label(i):
    lo, hi = BUCKETS[i]
    return f"{lo}-{hi}" if hi else f"{lo}+"


def bucket_of(number):
    """The index in BUCKETS of a full-move number."""
    for i, (lo, hi) in enumerate(BUCKETS):
        if number >= lo and (hi is None or number <= hi):
            return i
    return 0  # numbers below 1 (a malformed FEN) go with the opening


def split_games(text):
    """The (tag lines, movetext) of each game: a tag line after movetext starts a game."""
    games, tags, body, depth = [], [], [], 0
    for line in text.splitlines():
        if depth == 0 and line.startswith("%"):
            continue  # PGN escape line
        if depth == 0 and TAG.match(line.strip()):
            if body and any(b.strip() for b in body):
                games.append((tags, "\n".join(body)))
                tags, body = [], []
            tags.append(line.strip())
            continue
        body.append(line)
        depth = max(0, depth + line.count("{") - line.count("}"))
    if tags or any(b.strip() for b in body):
        games.append((tags, "\n".join(body)))
    return games


def start_of(tags):
    """(full-move number, colour) of the first move, from the FEN tag if any."""
    fields = tags.get("FEN", "").split()
    color = "black" if len(fields) > 1 and fields[1].lower() == "b" else "white"
    number = int(fields[-1]) if len(fields) >= 6 and fields[-1].isdigit() else 1
    return number, color


def tokens(movetext):
    """(kind, value) of each token of the main line; variations and NAGs are dropped."""
    nesting = 0
    for m in TOKEN.finditer(movetext):
        kind = m.lastgroup
        if kind == "dots":
            kind = "number"
        if kind in ("space", "nag", "line_comment"):
            continue
        if kind == "open_comment":
            raise PgnError("a comment is not closed ('{' without '}')")
        if kind == "open":
            nesting += 1
        elif kind == "close":
            nesting = max(0, nesting - 1)
        elif nesting == 0:
            if kind == "number":
                yield kind, (int(m.group("number")), len(m.group("dots")) >= 2)
            else:
                yield kind, m.group(kind)
    if nesting:
        raise PgnError("a variation is not closed ('(' without ')')")


def read_note(move, comment):
    """Fills score, depth and time from a comment like `+0.25/12 0.456s`; the text after
    them is returned (a reason such as cutechess's `White mates`), None if not a note."""
    if comment.strip().lower() == "book":
        move.book = True
        return ""
    m = NOTE.match(comment)
    if not m or move.time is not None:
        return None
    move.time = float(m.group("time")) / (1000.0 if m.group("unit") == "ms" else 1.0)
    if m.group("score") is not None:
        sign = -1 if m.group("sign") == "-" else 1
        if m.group("mate"):
            move.mate = sign * int(float(m.group("score")))
            move.score = sign * MATE
        else:
            move.score = sign * float(m.group("score"))
    if m.group("depth"):
        move.depth = int(m.group("depth"))
    return m.group("extra").strip()


def parse_game(tag_lines, movetext, index):
    """A Game from its tag lines and movetext; PgnError if it cannot be read."""
    tags = {}
    for line in tag_lines:
        key, value = TAG.match(line).groups()
        tags[key] = value.replace('\\"', '"').replace("\\\\", "\\")
    if not tags:
        raise PgnError(NO_TAGS)
    if "White" not in tags or "Black" not in tags:
        raise PgnError("no White and Black tags (not a two-player game)")
    number, color = start_of(tags)
    moves, result = [], tags.get("Result")
    for kind, value in tokens(movetext):
        if kind == "number":
            number, color = value[0], "black" if value[1] else "white"
        elif kind == "word" and not GLYPH.match(value):
            moves.append(Move(value, number, color))
            number, color = (number + 1, "white") if color == "black" else (number, "black")
        elif kind == "comment" and moves:
            remark = read_note(moves[-1], value)
            if remark is None:
                remark = value.strip()
            if remark:
                moves[-1].remarks.append(remark)
        elif kind == "result":
            result = result or value
    return Game(index, tags, moves, result or "*")


def parse_games(text):
    """(games, problems): the usable games of a PGN text, and (game number, message) for
    each game that was skipped."""
    games, problems = [], []
    for index, (tag_lines, movetext) in enumerate(split_games(text), 1):
        try:
            game = parse_game(tag_lines, movetext, index)
        except PgnError as e:
            problems.append((index, str(e)))
            continue
        if not any(m.time is not None for m in game.moves):
            problems.append((index, "no move comments with thinking times"))
            continue
        games.append(game)
    return games, problems


def read_files(paths, err=None):
    """The usable games of all files; what was skipped is said on `err` (stderr)."""
    err = err or sys.stderr
    games = []
    for path in paths:
        try:
            with open(path, encoding="utf-8-sig", errors="replace") as f:
                text = f.read()
        except OSError as e:
            print(f"{path}: cannot be read: {e}", file=err)
            continue
        found, problems = parse_games(text)
        if not found and all(p[1] == NO_TAGS for p in problems):
            print(f"{path}: not a PGN file (no game with tag pairs); skipped", file=err)
            continue
        for index, message in problems:
            print(f"{path} game {index}: {message}; skipped", file=err)
        games.extend(found)
    return games


# ---------------------------------------------------------------------------------------
# Time and depth


@dataclass
class Bucket:
    moves: int = 0  # moves with a thinking time
    time: float = 0.0
    depth_moves: int = 0  # moves with a depth
    depth: int = 0

    def mean_time(self):
        return self.time / self.moves if self.moves else None

    def mean_depth(self):
        return self.depth / self.depth_moves if self.depth_moves else None


@dataclass
class Profile:
    engine: str
    games: int
    buckets: list
    total_time: float
    clock_fractions: list  # used / (base + inc * moves), one per game with such a control

    def share(self, i):
        return self.buckets[i].time / self.total_time if self.total_time else None

    def time_per_game(self):
        return self.total_time / self.games if self.games else None

    def clock_used(self):
        return statistics.mean(self.clock_fractions) if self.clock_fractions else None


def seats(game, engine):
    """The colours `engine` plays in `game` (both in a game against itself)."""
    return [c for c in ("white", "black") if game.player(c) == engine]


def time_control(game, color):
    """(base, inc) in seconds of `color`'s clock, None if it is no `base[+inc]` control."""
    tc = game.tags.get(f"{color.title()}TimeControl") or game.tags.get("TimeControl", "")
    m = TIME_CONTROL.match(tc.strip())
    if not m:
        return None
    return float(m.group(1)), float(m.group(2) or 0)


def add_moves(buckets, timed):
    """Adds moves with a thinking time to their buckets; returns the time they took."""
    for m in timed:
        b = buckets[bucket_of(m.number)]
        b.moves += 1
        b.time += m.time
        if m.depth is not None:
            b.depth_moves += 1
            b.depth += m.depth
    return sum(m.time for m in timed)


def clock_fraction(game, color, timed):
    """The time of `timed` (a side's moves) as a fraction of base + inc * moves."""
    tc = time_control(game, color)
    budget = tc[0] + tc[1] * len(timed) if tc else 0
    return sum(m.time for m in timed) / budget if budget > 0 else None


def profile(games, engine):
    """The time and depth profile of `engine` over `games`; a game counts once for each
    side the engine plays in it."""
    buckets = [Bucket() for _ in BUCKETS]
    played, total, fractions = 0, 0.0, []
    for game in games:
        for color in seats(game, engine):
            timed = [m for m in game.moves_of(color) if m.time is not None]
            played += 1
            total += add_moves(buckets, timed)
            fraction = clock_fraction(game, color, timed)
            if fraction is not None:
                fractions.append(fraction)
    return Profile(engine, played, buckets, total, fractions)


# ---------------------------------------------------------------------------------------
# Losses


def loser_of(game):
    return {"1-0": "black", "0-1": "white"}.get(game.result)


def turning_point(game, loser):
    """The full-move number of the first of `loser`'s moves from which its own score stays
    at or below -1.00 (mated scores included) to the end; None if it never does."""
    scored = [m for m in game.moves_of(loser) if m.score is not None]
    point = None
    for m in reversed(scored):
        if m.score > LOSING:
            break
        point = m.number
    return point


def scores_follow_colours(game):
    """Whether each move's score is its own colour's: not in the 007 family, where a ply may
    be chosen (and scored) by the other colour's engine."""
    return "007" not in game.tags.get("Variant", "")


def lost_on_time(game):
    return game.tags.get("Termination") == "time forfeit" or "on time" in game.reason


@dataclass
class Losses:
    engine: str
    decisive: int = 0
    wins: int = 0
    by_bucket: list = field(default_factory=lambda: [0] * len(BUCKETS))
    no_warning: int = 0
    unread: int = 0  # losses whose scores do not follow the colours (the 007 family)
    on_time: int = 0  # of the losses, those lost on time

    def total(self):
        return sum(self.by_bucket) + self.no_warning + self.unread


def losses(games, engine):
    """Where `engine` lost its decisive games, by the bucket of its turning point."""
    out = Losses(engine)
    for game in games:
        loser = loser_of(game)
        if loser is None:
            continue
        for color in seats(game, engine):
            out.decisive += 1
            if color != loser:
                out.wins += 1
                continue
            out.on_time += lost_on_time(game)
            if not scores_follow_colours(game):
                out.unread += 1
                continue
            point = turning_point(game, loser)
            if point is None:
                out.no_warning += 1
            else:
                out.by_bucket[bucket_of(point)] += 1
    return out


# ---------------------------------------------------------------------------------------
# Printing


def fmt(value, spec):
    return "-" if value is None else f"{value:{spec}}"


def table(headers, rows, markdown):
    """Rows as a Markdown table or as plain text in aligned columns (text left, numbers
    right)."""
    rows = [[str(c) for c in r] for r in rows]
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
    widths = [max(len(x) for x in col) for col in zip(headers, *rows)]
    numeric = [all(re.match(r"^[-+]?[\d.]+ ?%?$|^-$", r[i]) for r in rows) and i > 0
               for i in range(len(headers))]

    def line(cells):
        return "  ".join(c.rjust(w) if n else c.ljust(w)
                         for c, w, n in zip(cells, widths, numeric)).rstrip()

    return "\n".join([line(headers)] + [line(r) for r in rows])


def summary_rows(profiles):
    return [[p.engine, p.games, fmt(p.time_per_game(), ".2f"),
             fmt(p.clock_used(), ".1%"), len(p.clock_fractions)] for p in profiles]


def bucket_rows(profiles):
    rows = []
    for p in profiles:
        for i, b in enumerate(p.buckets):
            rows.append([p.engine, bucket_label(i), b.moves, fmt(b.mean_time(), ".3f"),
                         fmt(b.mean_depth(), ".1f"), fmt(p.share(i), ".1%")])
    return rows


def loss_rows(all_losses):
    return [[x.engine, x.decisive, x.wins, x.total()] + x.by_bucket
            + [x.no_warning, x.unread, x.on_time] for x in all_losses]


def report(games, engines, markdown=False):
    """The text the tool prints for `engines` over `games`."""
    profiles = [profile(games, e) for e in engines]
    heading = (lambda s: f"### {s}") if markdown else (lambda s: s)
    parts = [
        heading(f"Time per game ({len(games)} games)"),
        table(["engine", "games", "s/game", "clock used", "games with base+inc"],
              summary_rows(profiles), markdown),
        heading("Time and depth by move number"),
        table(["engine", "moves", "timed", "s/move", "depth", "share of time"],
              bucket_rows(profiles), markdown),
        heading("Where games were lost (bucket of the loser's turning point: its score "
                "at or below -1.00 from there on)"),
        table(["engine", "decisive", "won", "lost"] + [bucket_label(i) for i in
              range(len(BUCKETS))] + ["no warning", "unread (007)", "on time"],
              loss_rows([losses(games, e) for e in engines]), markdown),
    ]
    return "\n\n".join(parts) + "\n"


def engines_of(games):
    """Engine names, most games first."""
    count = {}
    for g in games:
        for c in ("white", "black"):
            count[g.player(c)] = count.get(g.player(c), 0) + 1
    return sorted(count, key=lambda e: (-count[e], e))


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Time per move, depth by move number and the phase where games are "
                    "lost, from PGNs with cutechess-style move comments (issue 48, point 5).")
    ap.add_argument("pgn", nargs="+", help="PGN files written by `chimera match` or cutechess-cli")
    ap.add_argument("--engine", metavar="NAME", help="only this engine (a White/Black tag)")
    ap.add_argument("--markdown", action="store_true", help="Markdown tables, not plain text")
    args = ap.parse_args(argv)
    games = read_files(args.pgn)
    if not games:
        print("no game could be read", file=sys.stderr)
        return 1
    engines = engines_of(games)
    if args.engine:
        if args.engine not in engines:
            print(f"no game of engine '{args.engine}'; the engines are: {', '.join(engines)}",
                  file=sys.stderr)
            return 1
        engines = [args.engine]
    sys.stdout.write(report(games, engines, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
