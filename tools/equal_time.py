#!/usr/bin/env python3
"""Depth and nodes at equal time, engine against engine (issue 48, point 5).

Point 5 asks where the points go between 3+0.03 and 10+0.1: the time used per move against
fairy-stockfish's (tools/time_profile.py), depth and nodes at equal time (this tool), and the
phase where games are lost. Each UCI engine searches each of the first N positions of a
file for the same `go movetime MS`, one engine at a time (so they never share the cores),
in a fresh game (`ucinewgame`) each time; the last depth, seldepth, nodes and nps each
engine reports are kept. Prints one line per position as it is done, then per engine the
mean and median depth, mean seldepth, nodes and nps, and, for the second and later
engines, the first engine's nodes as a ratio of theirs (per position and geometric mean)
and the mean depth difference.

    tools/equal_time.py --engine chimera=target/release/chimera \\
        --engine fsf=/usr/games/fairy-stockfish --positions tools/smp_positions.txt \\
        --count 20 --movetime 1000 [--threads 1] [--hash 64] [--variant V] \\
        [--option fsf.VariantPath=tests/fairy-stockfish/variants.ini]

Positions are FEN or EPD lines (an EPD's four fields get ` 0 1`); blank and `#` lines are
skipped. The engines are driven over their standard input, not by python-chess, so any
variant an engine knows can be searched (`--variant` sets `UCI_Variant`). Nodes are the last
count an engine reports: an engine that prints no final `info` when the time runs out
reports fewer nodes than it searched, so compare nps as well. An engine that cannot start,
dies, or does not answer within the movetime plus a grace period (`--timeout`) stops the
tool with a message and exit status 1.
"""

import argparse
import collections
import math
import queue
import shlex
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

import chess

INFO_INTS = ("depth", "seldepth", "nodes", "nps", "time")


class EngineError(Exception):
    """An engine that cannot start, dies or hangs."""


class PositionError(Exception):
    """A positions file that cannot be used."""


class UsageError(Exception):
    """Arguments that argparse cannot check."""


@dataclass
class Search:
    """What an engine last reported for one position."""
    depth: int = None
    seldepth: int = None
    nodes: int = None
    nps: int = None
    time_ms: int = None  # the time of the last report, in the engine's words


# ---------------------------------------------------------------------------------------
# Positions


def fen_of(line):
    """A FEN from a FEN or EPD line: six fields (seven with a check count such as `3+3`)
    are kept; otherwise the first four get ` 0 1` (EPD operations are dropped)."""
    fields = line.split()
    if len(fields) < 4:
        return None
    n = 4
    if len(fields) > 4 and "+" in fields[4] and fields[4].replace("+", "").isdigit():
        n = 5  # a three-check counter
    if len(fields) >= n + 2 and fields[n].isdigit() and fields[n + 1].isdigit():
        return " ".join(fields[:n + 2])
    return " ".join(fields[:n]) + " 0 1"


def read_positions(path, count, variant=None):
    """The FENs of the first `count` positions of `path`; chess positions are checked by
    python-chess."""
    fens = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fen = fen_of(line)
            if fen is None:
                raise PositionError(f"{path}:{number}: not a FEN or EPD line: {line!r}")
            if variant in (None, "chess"):
                try:
                    chess.Board(fen)
                except ValueError as e:
                    raise PositionError(f"{path}:{number}: not a chess position: {e}")
            fens.append(fen)
            if len(fens) == count:
                break
    return fens


# ---------------------------------------------------------------------------------------
# UCI


def parse_info(line):
    """The integer fields of an `info` line, with `score` True when it has an exact score
    (no lowerbound/upperbound)."""
    words = line.split()
    out = {}
    for i, w in enumerate(words[1:], 1):
        if w in ("pv", "string"):
            break
        if w in INFO_INTS and i + 1 < len(words) and words[i + 1].lstrip("-").isdigit():
            out.setdefault(w, int(words[i + 1]))
        elif w == "score":
            out["score"] = not ({"lowerbound", "upperbound"} & set(words[i:i + 4]))
    return out


def search_of(lines):
    """The Search of a `go`'s output: depth and seldepth of the last exact score (of any
    report with a depth when there is none), nodes, nps and time of the last report that
    gives them (nps worked out from nodes and time when not given)."""
    result = Search()
    infos = [parse_info(x) for x in lines if x.startswith("info ")]
    with_depth = [i for i in infos if "depth" in i]
    exact = [i for i in with_depth if i.get("score")] or with_depth
    if exact:
        result.depth = exact[-1]["depth"]
        result.seldepth = exact[-1].get("seldepth")
    with_nodes = [i for i in infos if "nodes" in i]
    if with_nodes:
        last = with_nodes[-1]
        result.nodes, result.time_ms = last["nodes"], last.get("time")
        result.nps = last.get("nps")
        if result.nps is None and result.time_ms:
            result.nps = result.nodes * 1000 // result.time_ms
    return result


class UciEngine:
    """A UCI engine process, read by a thread so that every wait has a timeout."""

    def __init__(self, name, command, grace):
        self.name, self.command, self.grace = name, command, grace
        self.options = {}  # lower-case name -> the `option` line
        self.lines = queue.Queue()
        self.stderr = collections.deque(maxlen=10)
        try:
            self.proc = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, bufsize=1)
        except (OSError, ValueError) as e:
            raise EngineError(f"engine {name}: cannot start '{command}': {e}")
        self.readers = [
            threading.Thread(target=self._read, args=(self.proc.stdout, self.lines.put)),
            threading.Thread(target=self._read, args=(self.proc.stderr, self.stderr.append)),
        ]
        for t in self.readers:
            t.daemon = True
            t.start()

    @staticmethod
    def _read(stream, put):
        for line in stream:
            put(line.rstrip("\n"))
        put(None)

    def send(self, text):
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died(f"'{text}'")

    def _died(self, what):
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self.readers[1].join(timeout=1)
        lines = [x for x in self.stderr if x]
        said = "; its stderr: " + " / ".join(lines) if lines else ""
        return EngineError(f"engine {self.name} died (exit status {code}) at {what}{said}")

    def wait_for(self, word, seconds, what):
        """The lines up to the first starting with `word` (included)."""
        deadline = time.monotonic() + seconds
        got = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise EngineError(f"engine {self.name}: no '{word}' within {seconds:g} s "
                                  f"after {what}; stopped it")
            if line is None:
                raise self._died(what)
            got.append(line)
            if line.split()[:1] == [word]:
                return got

    def handshake(self):
        self.send("uci")
        for line in self.wait_for("uciok", self.grace, "'uci'"):
            if line.startswith("option name "):
                name = line[len("option name "):].split(" type ")[0]
                self.options[name.lower()] = line

    def configure(self, options, variant=None):
        """Sets `options` ((name, value) pairs, in order), then UCI_Variant; waits for
        readyok and shows the engine's `info string` lines."""
        for key, value in options:
            if key.lower() not in self.options:
                print(f"warning: engine {self.name} offers no option {key}", file=sys.stderr)
            self.send(f"setoption name {key} value {value}")
        if variant:
            offer = self.options.get("uci_variant")
            if offer is None:
                raise EngineError(f"engine {self.name} has no UCI_Variant option: it "
                                  f"cannot search {variant}")
            if " var " in offer and f" var {variant} " not in offer + " ":
                print(f"warning: engine {self.name} does not list variant {variant} "
                      f"(fine if a VariantPath option defines it)", file=sys.stderr)
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        for line in self.wait_for("readyok", self.grace, "the options"):
            if line.startswith("info string"):
                print(f"engine {self.name}: {line}", file=sys.stderr)

    def search(self, fen, movetime):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok", self.grace, "'ucinewgame'")
        self.send(f"position fen {fen}")
        self.send(f"go movetime {movetime}")
        lines = self.wait_for("bestmove", movetime / 1000 + self.grace,
                              f"'go movetime {movetime}' in {fen}")
        return search_of(lines)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=2)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.kill()


# ---------------------------------------------------------------------------------------
# Statistics and printing


def mean(values):
    values = [v for v in values if v is not None]
    return statistics.mean(values) if values else None


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(value, spec):
    return "-" if value is None else f"{value:{spec}}"


def node_ratio(a, b):
    return a.nodes / b.nodes if a.nodes and b.nodes else None


def depth_diff(a, b):
    return a.depth - b.depth if a.depth is not None and b.depth is not None else None


def geomean(values):
    values = [v for v in values if v]
    return math.exp(statistics.mean(math.log(v) for v in values)) if values else None


def columns(names):
    """The (label, width) of each column of the per-position lines."""
    cols = [("#", 4)]
    for n in names:
        cols += [(f"{n} d/sd", 7), (f"{n} nodes", 11)]
    for n in names[1:]:
        cols += [(f"nodes {names[0]}/{n}", 7), (f"depth {names[0]}-{n}", 4)]
    return [(label, max(width, len(label))) for label, width in cols]


def position_cells(index, row):
    """One position: each engine's depth/seldepth and nodes, then the first engine's nodes
    as a ratio of each other's and its depth minus theirs."""
    cells = [str(index)]
    for s in row:
        cells += [f"{fmt(s.depth, 'd')}/{fmt(s.seldepth, 'd')}", fmt(s.nodes, "d")]
    for s in row[1:]:
        cells += [fmt(node_ratio(row[0], s), ".3f"), fmt(depth_diff(row[0], s), "+d")]
    return cells


def aligned(cells, cols):
    return "  ".join(c.rjust(w) for c, (_, w) in zip(cells, cols))


def table(headers, rows):
    """Plain text columns: the first left-aligned, the others right-aligned."""
    widths = [max(len(x) for x in col) for col in zip(headers, *rows)]
    return "\n".join(
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                  for i, (c, w) in enumerate(zip(cells, widths)))
        for cells in [headers] + rows)


def summary(names, results):
    """Per engine: positions, mean and median depth, mean seldepth, nodes, nps and time of
    the last report; then the first engine against each other."""
    rows = []
    for name in names:
        rs = results[name]
        rows.append([name, str(len(rs)), fmt(mean(r.depth for r in rs), ".2f"),
                     fmt(median([r.depth for r in rs]), ".1f"),
                     fmt(mean(r.seldepth for r in rs), ".2f"),
                     fmt(mean(r.nodes for r in rs), ".0f"), fmt(mean(r.nps for r in rs), ".0f"),
                     fmt(mean(r.time_ms for r in rs), ".0f")])
    out = [table(["engine", "positions", "mean depth", "median depth", "mean seldepth",
                  "mean nodes", "mean nps", "last info ms"], rows)]
    first = results[names[0]]
    for name in names[1:]:
        ratios = [r for r in map(node_ratio, first, results[name]) if r]
        diffs = list(map(depth_diff, first, results[name]))
        out.append(f"{names[0]} against {name}: nodes ratio geometric mean "
                   f"{fmt(geomean(ratios), '.3f')} (range {fmt(min(ratios, default=None), '.3f')}"
                   f" to {fmt(max(ratios, default=None), '.3f')}), mean depth difference "
                   f"{fmt(mean(diffs), '+.2f')}")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------
# Command line


def pairs(specs, what):
    """NAME=VALUE strings as (name, value) pairs."""
    out = []
    for s in specs:
        name, eq, value = s.partition("=")
        if not eq or not name:
            raise UsageError(f"{what} '{s}' is not NAME=VALUE")
        out.append((name, value))
    return out


def engine_options(specs, names):
    """--option ENGINE.KEY=VALUE as {engine: [(key, value)]}; the engine name is the
    longest given name that prefixes the spec (so names may contain dots)."""
    out = {n: [] for n in names}
    for spec, value in pairs(specs, "--option"):
        owner = max((n for n in names if spec.startswith(n + ".")), key=len, default=None)
        if owner is None:
            raise UsageError(f"--option '{spec}={value}' names no engine "
                             f"(engines: {', '.join(names)})")
        out[owner].append((spec[len(owner) + 1:], value))
    return out


def arguments(argv):
    ap = argparse.ArgumentParser(
        description="Depth, seldepth, nodes and nps of UCI engines at equal movetime over "
                    "the same positions (issue 48, point 5).")
    ap.add_argument("--engine", action="append", required=True, metavar="NAME=CMD",
                    help="an engine: its name and command line (repeat for each engine; "
                         "the first is compared with the others)")
    ap.add_argument("--positions", required=True, metavar="FILE",
                    help="FEN or EPD lines; blank and '#' lines are skipped")
    ap.add_argument("--count", type=int, default=20, metavar="N",
                    help="the first N positions (default 20)")
    ap.add_argument("--movetime", type=int, default=1000, metavar="MS",
                    help="milliseconds a search (default 1000)")
    ap.add_argument("--threads", type=int, default=1, metavar="T",
                    help="Threads of every engine (default 1)")
    ap.add_argument("--hash", type=int, default=64, metavar="MB",
                    help="Hash of every engine (default 64)")
    ap.add_argument("--variant", metavar="V", help="UCI_Variant of every engine")
    ap.add_argument("--option", action="append", default=[], metavar="NAME.KEY=VALUE",
                    help="a UCI option of the engine NAME, set after Threads and Hash "
                         "(repeatable)")
    ap.add_argument("--timeout", type=float, default=10.0, metavar="S",
                    help="seconds an engine may take beyond the movetime, and to answer "
                         "'uci' or 'isready' (default 10)")
    return ap.parse_args(argv)


def start_engines(engines, options, args):
    """The engines started and configured; all of them closed if one fails."""
    started = []
    try:
        for name, command in engines:
            started.append(UciEngine(name, command, args.timeout))
            started[-1].handshake()
            started[-1].configure([("Threads", args.threads), ("Hash", args.hash)]
                                  + options[name], args.variant)
    except EngineError:
        for e in started:
            e.close()
        raise
    return started


def run(engines, fens, movetime, out=None):
    """Each engine searches each position; {name: [Search]}."""
    out = out or sys.stdout
    names = [e.name for e in engines]
    results = {n: [] for n in names}
    cols = columns(names)
    print(aligned([label for label, _ in cols], cols), file=out, flush=True)
    for index, fen in enumerate(fens, 1):
        row = [e.search(fen, movetime) for e in engines]
        for e, s in zip(engines, row):
            results[e.name].append(s)
        print(aligned(position_cells(index, row), cols), file=out, flush=True)
    return results


def main(argv=None):
    args = arguments(argv)
    try:
        engines = pairs(args.engine, "--engine")
        names = [n for n, _ in engines]
        if len(set(names)) != len(names):
            raise UsageError("engine names must differ")
        options = engine_options(args.option, names)
        fens = read_positions(args.positions, args.count, args.variant)
    except (OSError, PositionError, UsageError) as e:
        print(e, file=sys.stderr)
        return 2
    if not fens:
        print(f"{args.positions}: no positions", file=sys.stderr)
        return 2
    try:
        started = start_engines(engines, options, args)
    except EngineError as e:
        print(e, file=sys.stderr)
        return 1
    try:
        results = run(started, fens, args.movetime)
    except EngineError as e:
        print(e, file=sys.stderr)
        return 1
    finally:
        for e in started:
            e.close()
    print()
    print(summary(names, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
