#!/usr/bin/env python3
"""The web board (`chimera serve`) driven by a real headless Chromium through WebDriver
(selenium with Debian's chromium and chromium-driver).

Each scenario clicks the board as a person would and asserts the men the page shows after
each step; a screenshot of each is saved in OUT_DIR. It also measures the time from a click
to the engine's reply at 100 ms of search and prints it.

    python3 tests/browser/test_board.py target/release/chimera [OUT_DIR]

Exits non-zero on the first failed check.
"""
import os
import re
import statistics
import subprocess
import tempfile
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/chimera"
OUT = sys.argv[2] if len(sys.argv) > 2 else "target/browser-test"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")


# a user variant where a pawn's owner picks its promotion piece (promotionChooser = owner)
OWNER_INI = os.path.join(tempfile.gettempdir(), f"chimera-browser-owner-{os.getpid()}.ini")
OWNER_FEN = "7k/5K1P/6P1/8/8/8/p7/8 b - - 0 1 2 -/-"


def start_server():
    with open(OWNER_INI, "w") as f:
        f.write("[007-owner:007]\npromotionChooser = owner\n")
    proc = subprocess.Popen([BINARY, "serve", "--port", "0", "--hash", "4",
                             "--variants", OWNER_INI],
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.search(r"(http://\S+)", line)
    if not m:
        proc.kill()
        sys.exit(f"the server did not say its address: {line!r}")
    return proc, m.group(1)


def browser():
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
              "--no-first-run", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        o.add_argument(a)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)


class Board:
    def __init__(self, driver, url):
        self.d = driver
        self.url = url

    def open(self, variant):
        self.d.get("about:blank")  # a new hash alone would not reload the page
        self.d.get(f"{self.url}#variant={variant}")
        self.wait(lambda: self.js("return page.state && page.state.variant") == variant,
                  f"a {variant} game opens")
        self.wait(lambda: self.d.find_elements(By.CSS_SELECTOR, "#board g.man"), "men drawn")

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def wait(self, cond, what, timeout=20):
        try:
            WebDriverWait(self.d, timeout, poll_frequency=0.05).until(lambda _: cond())
        except Exception:
            self.shot("failure")
            seen = self.js("return [page.clicks, page.state && page.state.history, "
                           "document.getElementById('message').textContent]")
            raise AssertionError(f"timed out waiting until {what} (page: {seen})")

    def men(self):
        """{square: 'ownerLETTER'} as drawn on the page."""
        return self.js("""
            const out = {};
            for (const g of document.querySelectorAll('#board g.man'))
                out[g.dataset.square] = g.dataset.man;
            return out;""")

    def plies(self):
        return len(self.d.find_elements(By.CSS_SELECTOR, "#history .ply"))

    def click_square(self, sq):
        self.d.find_element(By.CSS_SELECTOR, f'#board rect[data-square="{sq}"]').click()

    def click_held(self, owner_letter):
        self.d.find_element(By.CSS_SELECTOR, f'.held[data-held="{owner_letter}"]').click()

    def play_by_clicks(self, clicks, owner=None):
        """Clicks squares (or '@X' held men of `owner`) and waits for the move to land."""
        before = self.plies()
        for c in clicks:
            if c.startswith("@"):
                self.click_held(f"{owner}{c[1:]}")
            else:
                self.click_square(c)
        self.wait(lambda: self.plies() >= before + 1, f"{clicks} is played")

    def analyse_game(self, ms, what):
        """Clicks "Analyse game" at `ms` a position and waits until it is done."""
        self.d.find_element(By.ID, "review-time").clear()
        self.d.find_element(By.ID, "review-time").send_keys(str(ms))
        self.d.find_element(By.ID, "review-start").click()
        self.wait(lambda: self.js("return page.review && page.review.status") == "done", what, 60)

    def status(self):
        el = self.d.find_element(By.ID, "status")
        return int(el.get_attribute("data-chooser")), int(el.get_attribute("data-to-move")), el.text

    def shot(self, name):
        os.makedirs(OUT, exist_ok=True)
        path = os.path.join(OUT, f"{name}.png")
        self.d.save_screenshot(path)
        return path


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print(f"ok: {what}")


def chess(b):
    b.open("chess")
    start = b.men()
    check(len(start) == 32 and start["e1"] == "0K" and start["d8"] == "1Q", "chess: 32 men")
    b.play_by_clicks(["e2", "e4"])
    m = b.men()
    check(m.get("e4") == "0P" and "e2" not in m, "chess: e2-e4 by two clicks")
    # a typed illegal move is refused with the rules' reason, the board unchanged
    b.d.find_element(By.ID, "move-text").send_keys("e7e4")
    b.d.find_element(By.ID, "move-send").click()
    b.wait(lambda: "e7e4" in b.d.find_element(By.ID, "message").text, "the refusal shows")
    check(b.men() == m and b.plies() == 1, "chess: an illegal move changes nothing")
    # the engine plays Black at 100 ms; the time from each click to its reply is measured
    b.d.find_element(By.ID, "movetime").clear()
    b.d.find_element(By.ID, "movetime").send_keys("100")
    b.d.find_element(By.CSS_SELECTOR, 'input[data-seat="1"]').click()
    b.wait(lambda: b.plies() == 2 and not b.js("return page.engineBusy"), "the engine replies")
    times = []
    # sound developing moves where legal (the first legal move in ASCII order shuffles a rook
    # and lets the engine mate quickly), else the first plain move
    preferred = ["g1f3", "b1c3", "f1e2", "d2d3", "c1e3", "h2h3", "a2a3", "g2g3", "b2b3"]
    for _ in range(6):
        b.wait(lambda: b.js("return page.state.legal.length") > 0, "the moves are offered")
        legal = b.js("return page.state.legal")
        move = next((mv for mv in preferred if mv in legal),
                    next(mv for mv in legal if "," not in mv and len(mv) == 4))
        before = b.plies()
        b.play_by_clicks([move[:2], move[2:4]])
        b.wait(lambda: b.plies() == before + 2 and not b.js("return page.engineBusy"),
               "the engine's reply", 30)
        times.append(int(b.d.find_element(By.ID, "reply-time").get_attribute("data-ms")))
    # a measurement, not a timed assertion (a forced reply comes at once)
    check(len(times) == 6 and all(t > 0 for t in times), f"chess: each reply timed ({times})")
    print(f"measured: click to engine reply at 100 ms search: median {statistics.median(times)} ms,"
          f" min {min(times)}, max {max(times)} over {len(times)} moves")
    # take back: to the last ply a person decides (White), two plies
    n = b.plies()
    b.d.find_element(By.CSS_SELECTOR, 'input[data-seat="1"]').click()
    b.d.find_element(By.ID, "undo").click()
    b.wait(lambda: b.plies() == n - 1, "a take-back")
    # navigation: the first ply shown, no move offered while looking at the past
    now = b.men()
    b.d.find_element(By.ID, "nav-first").click()
    b.wait(lambda: len(b.men()) == 32 and b.men().get("e2") == "0P", "the start is shown")
    check(b.js("return matching([]).length") == 0, "chess: no move offered in the past")
    b.d.find_element(By.ID, "nav-last").click()
    b.wait(lambda: b.men() == now, "the current position is shown again")
    b.shot("chess")


def pgn(b):
    """The move list by move number in SAN; the game saved as PGN and opened from pasted PGN;
    a bad PGN refused with the move that failed, the board untouched."""
    b.open("chess")
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]:
        b.play_by_clicks([mv[:2], mv[2:]])
    rows = b.js("return [...document.querySelectorAll('#history li')].map(li => li.innerText)")
    check(len(rows) == 3 and rows[0].split() == ["1.", "e4", "e5"] and rows[2].split() == ["3.", "Bb5"],
          f"pgn: numbered SAN rows ({rows})")
    b.d.find_element(By.ID, "pgn-save").click()
    b.wait(lambda: "1. e4 e5 2. Nf3 Nc6 3. Bb5" in b.d.find_element(By.ID, "pgn-text").get_attribute("value"),
           "the PGN is shown")
    text = b.d.find_element(By.ID, "pgn-text").get_attribute("value")
    check('[Variant "chess"]' in text and '[Result "*"]' in text, "pgn: tags")
    import io
    import chess.pgn
    game = chess.pgn.read_game(io.StringIO(text))
    sans = []
    board = game.board()
    for mv in game.mainline_moves():
        sans.append(board.san(mv))
        board.push(mv)
    check(sans == ["e4", "e5", "Nf3", "Nc6", "Bb5"], f"pgn: python-chess reads the saved game ({sans})")
    # open a pasted game: the board shows its position
    box = b.d.find_element(By.ID, "pgn-text")
    box.clear()
    box.send_keys('[Event "x"]\n\n1. d4 d5 2. c4 e6 *')
    before = b.js("return page.gameId")
    b.d.find_element(By.ID, "pgn-load").click()
    b.wait(lambda: b.js("return page.gameId") != before and b.plies() == 4, "the pasted game opens")
    m = b.men()
    check(m.get("c4") == "0P" and m.get("e6") == "1P", "pgn: the pasted game's position")
    # a bad PGN: refused, the game stays
    shown = b.js("return page.gameId")
    box.clear()
    box.send_keys("1. e4 e5 2. Nf9 *")
    b.d.find_element(By.ID, "pgn-load").click()
    b.wait(lambda: "Nf9" in b.d.find_element(By.ID, "message").text, "the refusal shows")
    check(b.js("return page.gameId") == shown and b.plies() == 4, "pgn: a bad PGN changes nothing")
    b.shot("pgn")


def result(b):
    b.open("chess")
    for mv in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        before = b.plies()
        box = b.d.find_element(By.ID, "move-text")
        box.clear()
        box.send_keys(mv)
        b.d.find_element(By.ID, "move-send").click()
        b.wait(lambda: b.plies() == before + 1, f"typed {mv} is played")
    text = b.d.find_element(By.ID, "status").text
    check("0-1" in text and "checkmate" in text, f"result: the mate is announced ({text})")
    check(b.js("return page.state.legal.length") == 0, "result: no move after the mate")


def analysis(b):
    b.open("chess")
    b.d.find_element(By.ID, "analyse").click()
    b.wait(lambda: len(b.d.find_elements(By.CSS_SELECTOR, "#analysis tbody tr")) >= 4,
           "four depths of analysis stream in")
    lines = b.js("""return [...document.querySelectorAll('#analysis tbody tr')]
                      .map(r => [...r.cells].map(c => c.textContent));""")
    check(all(len(l) == 6 and l[5] for l in lines), f"analysis: each line has a PV ({lines[0]})")
    wdl = [int(x) for x in lines[0][3].split("/")]
    check(len(wdl) == 3 and 99 <= sum(wdl) <= 101, f"analysis: win/draw/loss in per cent ({lines[0][3]})")
    depths = [int(l[0]) for l in lines]
    check(depths == sorted(depths, reverse=True), "analysis: deepest line first")
    b.wait(lambda: b.d.find_elements(By.CSS_SELECTOR, "#board polyline.arrow.live"),
           "the analysis's best move is drawn as an arrow")
    b.shot("analysis")
    # three lines (MultiPV): three arrows, three different first moves
    b.d.find_element(By.ID, "lines").clear()
    b.d.find_element(By.ID, "lines").send_keys("3")
    b.d.find_element(By.ID, "analyse").click()
    b.wait(lambda: len(b.d.find_elements(By.CSS_SELECTOR, "#board polyline.arrow.live")) == 3,
           "three lines drawn as three arrows")
    firsts = b.js("return [...document.querySelectorAll('#board polyline.arrow.live')].map(a => a.dataset.move)")
    check(len(set(firsts)) == 3, f"analysis: three different moves ({firsts})")
    b.shot("analysis-lines")
    b.d.find_element(By.ID, "stop").click()
    b.wait(lambda: b.js("return page.state.analysing") is False, "the analysis stops")


def review(b):
    """"Analyse game": a pasted game analysed in the background while the board stays usable;
    the graph (a point a position, the blunder coloured), the move list's marks, the better
    move as an arrow where the blunder was played, a click on the graph jumping to its move,
    and the annotated PGN exported."""
    b.open("chess")
    box = b.d.find_element(By.ID, "pgn-text")
    box.clear()
    box.send_keys('[Event "x"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0')
    b.d.find_element(By.ID, "pgn-load").click()
    b.wait(lambda: b.plies() == 7, "the pasted game opens")
    b.d.find_element(By.ID, "review-time").clear()
    b.d.find_element(By.ID, "review-time").send_keys("60")
    b.d.find_element(By.ID, "review-start").click()
    # the board stays usable meanwhile: navigation works
    b.d.find_element(By.ID, "nav-first").click()
    b.wait(lambda: b.js("return page.state.ply") == 0, "navigation during the analysis")
    b.wait(lambda: b.js("return page.review && page.review.status") == "done",
           "the game is analysed", 60)
    dots = b.d.find_elements(By.CSS_SELECTOR, "#graph circle")
    check(len(dots) == 8, f"review: a point a position in the graph ({len(dots)})")
    check(len(b.d.find_elements(By.CSS_SELECTOR, "#graph circle.blunder")) >= 1,
          "review: the blunder is coloured in the graph")
    marked = b.js("return [...document.querySelectorAll('#history .ply.blunder')].map(e => e.textContent)")
    check("Nf6??" in marked, f"review: the move list marks 3... Nf6?? ({marked})")
    summary = b.d.find_element(By.ID, "review-summary").text
    check("White" in summary and "Black" in summary and "accuracy" in summary,
          f"review: accuracy per player ({summary})")
    # a click on the point after 3... Nf6 jumps there; one back, the better move is an arrow
    b.d.find_element(By.CSS_SELECTOR, '#graph circle[data-ply="6"]').click()
    b.wait(lambda: b.js("return page.state.ply") == 6, "the graph's click jumps to ply 6")
    b.d.find_element(By.ID, "nav-back").click()
    b.wait(lambda: b.d.find_elements(By.CSS_SELECTOR, "#board polyline.arrow.best"),
           "the better move is drawn")
    best = b.d.find_element(By.CSS_SELECTOR, "#board polyline.arrow.best").get_attribute("data-move")
    check(best and best != "g8f6", f"review: the arrow shows another move than Nf6 ({best})")
    check("blunder" in b.d.find_element(By.ID, "review-note").text,
          "review: the note says what was better")
    b.shot("review")
    href = b.d.find_element(By.ID, "review-pgn").get_attribute("href")
    text = b.js("return fetch(arguments[0]).then(r => r.text())", href)
    check("[%eval" in text and "$4" in text and "BlackBlunders" in text,
          "review: the annotated PGN is exported")


def review_three(b):
    """Foreign Policy's game analysis: a curve for each player."""
    b.open("foreignpolicy")
    for mv in ["b1a3", "b8a6", "h3f1"]:
        box = b.d.find_element(By.ID, "move-text")
        box.clear()
        box.send_keys(mv)
        before = b.plies()
        b.d.find_element(By.ID, "move-send").click()
        b.wait(lambda: b.plies() == before + 1, f"typed {mv} is played")
    b.analyse_game(40, "the game is analysed")
    curves = b.js("return [...document.querySelectorAll('#graph polyline.curve')].map(c => c.dataset.player)")
    check(curves == ["South", "North", "Peacekeeper"], f"review: three curves ({curves})")
    b.shot("review-foreignpolicy")


def detente(b):
    b.open("007detente")
    check(b.status()[:2] == (0, 0), "007detente: ply 1, White decides a White move")
    b.play_by_clicks(["e2", "e4"])
    chooser, mover, text = b.status()
    check((chooser, mover) == (0, 1) and "ply 2" in text,
          f"007detente: ply 2, White decides a Black move ({text})")
    b.play_by_clicks(["a7", "a6"])
    check(b.status()[:2] == (0, 0), "007detente: ply 3, White decides a White move")
    b.play_by_clicks(["d2", "d4"])
    m = b.men()
    check(m.get("e4") == "0P" and m.get("a6") == "1P" and m.get("d4") == "0P",
          "007detente: the three plies of White's turn are on the board")
    check(b.status()[0] == 1, "007detente: Black's turn follows")
    b.shot("007detente")
    # the game analysis: a point a ply, each coloured by who chose it (White chose a6)
    b.analyse_game(40, "the 007detente game is analysed")
    kinds = b.js("return [...document.querySelectorAll('#graph circle')].map(c => c.getAttribute('class'))")
    check(len(kinds) == 4 and all(k in ("by-0", "inaccuracy", "mistake", "blunder") for k in kinds[1:]),
          f"007detente: every ply of White's turn is White's choice in the graph ({kinds})")


def owner_promotion(b):
    # White chooses ply 2, which moves Black's a2 pawn to a1; Black, the pawn's owner, picks
    for owner_is_engine in (False, True):
        b.open("chess")
        b.js("newGame(arguments[0], arguments[1])", "007-owner", OWNER_FEN)
        b.wait(lambda: b.js("return page.state.variant") == "007-owner", "the 007-owner game opens")
        if owner_is_engine:
            b.js("document.getElementById('depth').value = '3'")
            b.d.find_element(By.CSS_SELECTOR, 'input[data-seat="1"]').click()
        b.click_square("a2")
        b.click_square("a1")
        if not owner_is_engine:
            b.wait(lambda: b.d.find_elements(By.ID, "owner-choice"), "the owner is asked")
            label = b.d.find_element(By.ID, "owner-choice").text
            check("Black" in label and "owner" in label, f"owner: the page asks Black ({label})")
            b.shot("owner-promotion")
            b.d.find_element(By.CSS_SELECTOR, '#candidates button[data-move="a2a1r"]').click()
        b.wait(lambda: b.plies() >= 1, "the promotion is played")
        want = "1Q" if owner_is_engine else "1R"
        b.wait(lambda: b.men().get("a1") == want, f"a {want} stands on a1")
        who = "Black's engine picks a queen" if owner_is_engine else "Black picks a rook"
        check(b.men().get("a1") == want, f"owner: {who}, not White")


def eviction(b):
    b.open("eviction")
    # the queen steps onto e2 and the pawn she evicts goes on to e4: three clicks
    b.click_square("d1")
    b.click_square("e2")
    targets = b.js("return nextTargets()")
    check("e4" in targets and "a6" in targets, f"eviction: the evicted pawn's squares shown ({len(targets)})")
    before = b.plies()
    b.click_square("e4")
    b.wait(lambda: b.plies() == before + 1, "the Eviction move is played")
    m = b.men()
    check("d1" not in m and m.get("e2") == "0Q" and m.get("e4") == "0P",
          "eviction: d1e2,e2e4 moved the queen and the pawn")
    check(b.js("return page.state.history[0]") == "d1e2,e2e4", "eviction: in our notation")
    b.shot("eviction")


def emissary(b):
    b.open("emissary")
    fen = b.d.find_element(By.ID, "fen")
    fen.clear()
    fen.send_keys("4k3/8/8/8/8/8/3P1P2/3QK3[N] w - - 0 1")
    b.d.find_element(By.ID, "fen-load").click()
    b.wait(lambda: len(b.d.find_elements(By.CSS_SELECTOR, '.held[data-held="0N"]')) == 1,
           "the held knight is shown")
    b.play_by_clicks(["d1", "a4", "@N", "d1"], owner=0)
    m = b.men()
    check(m.get("a4") == "0Q" and m.get("d1") == "0N", "emissary: the queen moved, the knight dropped")
    check(not b.d.find_elements(By.CSS_SELECTOR, ".held"), "emissary: nothing held any more")
    check(b.js("return page.state.history[0]") == "d1a4,N@d1", "emissary: in our notation")
    b.shot("emissary")


def espionage(b):
    b.open("espionage")
    check(b.js("return [page.state.files, page.state.ranks]") == [7, 7], "espionage: 7x7 board")
    kinds = b.js("return page.state.men.map(m => m.kind)")
    check(len(set(kinds)) >= 6, f"espionage: its men ({sorted(set(kinds))})")
    move = b.js("return page.state.legal.find(m => m.length === 4)")
    b.play_by_clicks([move[:2], move[2:4]])
    b.shot("espionage")


def foreign_policy(b):
    b.open("foreignpolicy")
    check(b.js("return page.state.players") == ["South", "North", "Peacekeeper"],
          "foreignpolicy: three players")
    seen = [b.status()[0]]
    for _ in range(3):
        move = b.js("return page.state.legal.find(m => /^[a-h][1-8][a-h][1-8]$/.test(m))")
        b.play_by_clicks([move[:2], move[2:4]])
        seen.append(b.status()[0])
    check(seen == [0, 1, 2, 0], f"foreignpolicy: a round S, N, P ({seen})")
    owners = set(b.js("return page.state.men.map(m => m.owner)"))
    check(owners == {0, 1, 2}, "foreignpolicy: men of three colours")
    b.shot("foreignpolicy")


def watch(b):
    """A running `chimera match -serve` shows its games; the board follows the moves."""
    match = subprocess.Popen(
        [BINARY, "match", "-engine", f"cmd={BINARY}", "name=A", "-engine", f"cmd={BINARY}",
         "name=B", "-variant", "espionage", "-each", "st=0.15", "timemargin=2000", "-games", "1",
         "-maxmoves", "40", "-serve", "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = None
        for line in match.stdout:
            m = re.search(r"Watch the games at (\S+)", line)
            if m:
                url = m.group(1)
                break
        check(url is not None, "watch: the match prints the board's address")
        b.d.get("about:blank")
        b.d.get(url)
        b.wait(lambda: b.js("return page.state && page.state.number") == 1, "match game 1 shows")
        first = b.js("return page.state.plies")
        b.wait(lambda: b.js("return page.state.plies") >= first + 3, "the board follows the game")
        check(b.js("return page.state.players") == ["A", "B"], "watch: the engines' names")
        check(b.js("return [page.state.files, page.state.ranks]") == [7, 7], "watch: 7x7 board")
        check(b.js("return page.state.legal.length") == 0, "watch: nothing to play on a match board")
        b.shot("watch")
    finally:
        match.kill()
        match.wait()


def main():
    server, url = start_server()
    driver = browser()
    try:
        b = Board(driver, url)
        for scenario in [chess, pgn, result, analysis, review, review_three, detente, owner_promotion, eviction, emissary,
                         espionage, foreign_policy, watch]:
            scenario(b)
        # the match's board went away with the match: its closed stream and its list, polled
        # once more, are not page errors
        errors = [e for e in driver.get_log("browser")
                  if "/api/watch" not in e["message"]]
        errors = [e for e in errors
                  if e["level"] == "SEVERE" and "favicon" not in e["message"]
                  and "status of 400" not in e["message"]]
        check(not errors, f"no script errors in the page ({errors})")
        print(f"browser tests passed; screenshots in {OUT}")
    finally:
        driver.quit()
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
