#!/usr/bin/env python3
"""The web board's server (`chimera serve`) under load (issue 46, point 5).

Opens 64 games at once (`--games`; the server allows one more, which a check fills and
refuses past), one client thread a game cycling through every variant the server lists,
each alternating engine replies (by time) with moves of its own, some games analysing in
between (the event stream read, then stopped); meanwhile a burst of bad requests (malformed and oversized bodies, unknown games
and routes, illegal moves and FENs, bad PGNs, a game over the limit) goes to the same
server. At the end every game's history on the server must be exactly the moves its client
saw played: nothing lost, nothing extra.

    python3 tools/serve_load.py target/release/chimera [--games 64] [--rounds 6] [--bad 600]

Prints reply times per kind of request (median, 95th percentile, max), the status codes the
bad requests got, the server's resident memory (before, peak, after) and the check of every
game. Exits non-zero on a fault: a 5xx other than 503, a connection error, a lost or extra
move, a request that never answered, or the server ending.
"""
import argparse
import http.client
import json
import random
import re
import statistics
import subprocess
import sys
import threading
import time

TIMEOUT = 60  # seconds a request may take before it counts as a hang


def start_server(binary, hash_mb, games):
    proc = subprocess.Popen([binary, "serve", "--port", "0", "--hash", str(hash_mb),
                             "--max-games", str(games + 1)],
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.search(r"http://([^:/\s]+):(\d+)", line)
    if not m:
        proc.kill()
        sys.exit(f"the server did not say its address: {line!r}")
    return proc, m.group(1), int(m.group(2))


class Client:
    """One HTTP/1.1 connection, timing each request by its kind."""

    def __init__(self, host, port, times, lock):
        self.host, self.port = host, port
        self.conn = http.client.HTTPConnection(host, port, timeout=TIMEOUT)
        self.times, self.lock = times, lock

    def request(self, kind, method, path, body=None, raw=None):
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        start = time.monotonic()
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=data,
                                  headers={"Content-Type": "application/json"})
                resp = self.conn.getresponse()
                text = resp.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # the server may close a connection after refusing a body; reconnect once
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
                if attempt == 1:
                    raise
        ms = (time.monotonic() - start) * 1000
        with self.lock:
            self.times.setdefault(kind, []).append(ms)
        try:
            payload = json.loads(text) if text else None
        except ValueError:
            payload = text
        return resp.status, payload


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def read_events(host, port, game, seconds):
    """Reads the game's event stream for a while; the number of search reports seen."""
    conn = http.client.HTTPConnection(host, port, timeout=TIMEOUT)
    conn.request("GET", f"/api/games/{game}/events")
    resp = conn.getresponse()
    seen, end = 0, time.monotonic() + seconds
    conn.sock.settimeout(0.5)
    while time.monotonic() < end:
        try:
            line = resp.fp.readline()
        except OSError:
            continue
        if not line:
            break
        if line.startswith(b"data:") and b'"depth"' in line:
            seen += 1
    conn.close()
    return seen


def play_game(args, host, port, variant, index, times, lock, faults, record):
    c = Client(host, port, times, lock)
    rng = random.Random(index)
    status, state = c.request("new game", "POST", "/api/games", {"variant": variant})
    if status != 201:
        faults.append(f"game {index} ({variant}): new game answered {status} {state}")
        return
    gid = state["id"] if "id" in state else state.get("game")
    history = list(state["history"])
    infos = 0
    for rnd in range(args.rounds):
        if state.get("result"):
            break
        status, state = c.request("engine move (100 ms)", "POST", f"/api/games/{gid}/engine",
                                  {"movetime_ms": 100})
        if status != 200:
            faults.append(f"game {index} ({variant}): engine move answered {status} {state}")
            return
        history = list(state["history"])
        if state.get("result") or not state["legal"]:
            break
        if index % 4 == 0 and rnd % 2 == 0:
            status, _ = c.request("analysis start", "POST", f"/api/games/{gid}/analysis")
            if status != 200:
                faults.append(f"game {index}: analysis answered {status}")
                return
            infos += read_events(host, port, gid, 0.5)
            status, state = c.request("analysis stop", "POST", f"/api/games/{gid}/stop")
            if status != 200:
                faults.append(f"game {index}: stop answered {status} {state}")
                return
            status, state = c.request("state", "GET", f"/api/games/{gid}")
        move = rng.choice(state["legal"])
        status, state = c.request("own move", "POST", f"/api/games/{gid}/move", {"move": move})
        if status != 200:
            faults.append(f"game {index} ({variant}): move {move} answered {status} {state}")
            return
        history = list(state["history"])
    with lock:
        record[gid] = (variant, history, infos)


BAD = [
    ("malformed JSON", "POST", "/api/games", None, "{not json"),
    ("unknown field", "POST", "/api/games", {"variant": "chess", "colour": "white"}, None),
    ("unknown variant", "POST", "/api/games", {"variant": "nosuchgame"}, None),
    ("bad FEN", "POST", "/api/games", {"variant": "chess", "fen": "8/8/8 w - - 0 1"}, None),
    ("bad PGN", "POST", "/api/games", {"pgn": "1. e4 e5 2. Nf9 *"}, None),
    ("oversized body", "POST", "/api/games", None, "{\"fen\": \"" + "x" * 70000 + "\"}"),
    ("unknown game", "GET", "/api/games/999999", None, None),
    ("unknown route", "GET", "/api/nowhere", None, None),
    ("wrong method", "PUT", "/api/games", None, "{}"),
    ("binary body", "POST", "/api/games", None, "\x00\xff\xfe{"),
    ("negative depth", "POST", "/api/games/1/engine", {"depth": -3}, None),
    ("huge movetime", "POST", "/api/games/1/engine", {"movetime_ms": 10 ** 30}, None),
]


def bad_burst(args, host, port, live, times, lock, faults, codes):
    c = Client(host, port, times, lock)
    rng = random.Random(99)
    for i in range(args.bad):
        if i % 3 == 0 and live:
            gid = rng.choice(live)
            kind, method, path, body, raw = ("illegal move on a live game", "POST",
                                             f"/api/games/{gid}/move", {"move": "z9z9"}, None)
        elif i % 3 == 1 and live:
            gid = rng.choice(live)
            kind, method, path, body, raw = ("bad FEN on a live game", "POST",
                                             f"/api/games/{gid}/position",
                                             {"fen": "rnbqkbnr/pppp w KQ"}, None)
        else:
            kind, method, path, body, raw = BAD[(i // 3) % len(BAD)]
        try:
            status, payload = c.request("bad request", method, path, body, raw)
        except Exception as e:  # a connection error is a fault
            faults.append(f"bad request {kind}: {e}")
            continue
        with lock:
            codes.setdefault(kind, {}).setdefault(status, 0)
            codes[kind][status] += 1
        if status >= 500 and status != 503:
            faults.append(f"bad request {kind} answered {status} {payload}")
        if status < 400:
            faults.append(f"bad request {kind} was accepted: {status}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--games", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--bad", type=int, default=600)
    ap.add_argument("--hash", type=int, default=16)
    args = ap.parse_args()
    proc, host, port = start_server(args.binary, args.hash, args.games)
    times, lock, faults, record, codes = {}, threading.Lock(), [], {}, {}
    try:
        probe = Client(host, port, times, lock)
        _, v = probe.request("variants", "GET", "/api/variants")
        variants = [x if isinstance(x, str) else x["name"] for x in v["variants"]]
        rss_before = rss_kb(proc.pid)
        peak = [rss_before or 0]
        stop = threading.Event()

        def watch_memory():
            while not stop.is_set():
                r = rss_kb(proc.pid)
                if r:
                    peak[0] = max(peak[0], r)
                time.sleep(0.1)

        watcher = threading.Thread(target=watch_memory)
        watcher.start()
        started = time.monotonic()
        players = [threading.Thread(target=play_game,
                                    args=(args, host, port, variants[i % len(variants)], i,
                                          times, lock, faults, record))
                   for i in range(args.games)]
        for t in players:
            t.start()
        time.sleep(1.0)  # the games are open: the burst hits them in play
        _, listing = probe.request("list games", "GET", "/api/games")
        live = [g["id"] for g in listing["games"]]
        # the one free place: taken, then the next game is refused, then it is free again
        # for the burst's bad new games (each must be refused for what is wrong with it)
        status, extra = probe.request("new game", "POST", "/api/games", {"variant": "chess"})
        status, over = probe.request("game over the limit", "POST", "/api/games",
                                     {"variant": "chess"})
        over_limit = status
        if status != 503:
            faults.append(f"a game over the limit answered {status} {over}")
        if isinstance(extra, dict) and "id" in extra:
            probe.request("close", "DELETE", f"/api/games/{extra['id']}")
        burst = threading.Thread(target=bad_burst,
                                 args=(args, host, port, live, times, lock, faults, codes))
        burst.start()
        for t in players + [burst]:
            t.join(TIMEOUT * (args.rounds + 2))
            if t.is_alive():
                faults.append("a client thread never finished: a request hung")
        elapsed = time.monotonic() - started
        stop.set()
        watcher.join()
        checked = 0
        for gid, (variant, history, _) in sorted(record.items()):
            status, state = probe.request("state", "GET", f"/api/games/{gid}")
            if status != 200 or state["history"] != history:
                faults.append(f"game {gid} ({variant}): the server has "
                              f"{state.get('history') if status == 200 else status}, "
                              f"the client saw {history}")
            checked += 1
        for gid in record:
            probe.request("close", "DELETE", f"/api/games/{gid}")
        time.sleep(0.5)
        rss_after = rss_kb(proc.pid)
        if proc.poll() is not None:
            faults.append(f"the server ended (exit {proc.returncode})")
    finally:
        proc.kill()
    print(f"{args.games} games at once over {len(variants)} variants, {args.rounds} rounds "
          f"each, {args.bad} bad requests, {elapsed:.1f} s")
    print("| request | count | median ms | 95th ms | max ms |")
    print("|---|---|---|---|---|")
    for kind, ts in sorted(times.items()):
        ts = sorted(ts)
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        print(f"| {kind} | {len(ts)} | {statistics.median(ts):.1f} | {p95:.1f} | {ts[-1]:.1f} |")
    print("bad requests by kind and status:")
    for kind, by in sorted(codes.items()):
        print(f"  {kind}: " + ", ".join(f"{s} x{n}" for s, n in sorted(by.items())))
    print(f"a game over the limit: {over_limit}")
    infos = sum(x[2] for x in record.values())
    print(f"analysis info events read: {infos}")
    mb = lambda kb: f"{kb / 1024:.0f} MB" if kb else "?"
    print(f"resident memory: {mb(rss_before)} before, {mb(peak[0])} peak, "
          f"{mb(rss_after)} after closing the games")
    print(f"games checked move by move: {checked} of {args.games}")
    if faults:
        print(f"{len(faults)} faults:")
        for f in faults[:40]:
            print("  " + f)
        sys.exit(1)
    print("no fault")


if __name__ == "__main__":
    main()
