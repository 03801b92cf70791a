// Chimera's web board. The server owns the rules: this page draws what /api says, turns
// clicks into one of the legal moves it listed, and sends that move back to be checked.
"use strict";

const SQUARE = 50; // SVG units per square

const page = {
  state: null, // the shown game's state (GET /api/games/ID or /api/watch/N)
  gameId: null, // the open game, or null while watching a match game
  watching: null, // the match game number shown
  clicks: [], // tokens clicked so far: squares, or "@X" for a held man
  flipped: false,
  engineSeats: new Set(), // players the engine plays
  viewPly: null, // ply shown when looking at the past (null: the current position)
  events: null, // the open EventSource
  engineBusy: false,
  humanMovedAt: null, // performance.now() of the last move made on the board
  ownerChoice: null, // promotionChooser = owner: the promotions the pawn's owner picks among
  analysis: new Map(), // depth -> last line
  lines: new Map(), // MultiPV index -> last line of the live analysis
  review: null, // the last "Analyse game" of the open game (GET /api/games/ID/review)
};

// colours of the players' curves in the graph (White's expected score alone in two-player
// games; each of Foreign Policy's three)
const CURVES = ["#333", "#a33", "#36a"];

const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  const data = r.status === 204 ? {} : await r.json();
  if (!r.ok) throw new Error(data.error || `${r.status} ${r.statusText}`);
  return data;
}

function say(text) {
  $("message").textContent = text || "";
}

// --- moves as click sequences ---------------------------------------------------------

/// The clicks that play `move`: each leg's squares in order (a square equal to the one
/// before is clicked once), a drop as its held man then its square. A pass has none.
function tokens(move) {
  const out = [];
  for (const leg of move.split(",")) {
    const drop = leg.match(/^([A-Za-z])@([a-z][0-9]+)$/);
    if (drop) {
      out.push("@" + drop[1].toUpperCase(), drop[2]);
      continue;
    }
    for (const sq of leg.match(/[a-z][0-9]+/g) || []) {
      if (out[out.length - 1] !== sq) out.push(sq);
    }
  }
  return out;
}

function startsWith(list, prefix) {
  return prefix.every((t, i) => list[i] === t);
}

/// Legal moves whose clicks begin with `clicks`.
function matching(clicks) {
  if (!isCurrent()) return [];
  return page.state.legal.filter((m) => {
    const t = tokens(m);
    return t.length >= clicks.length && startsWith(t, clicks);
  });
}

function isCurrent() {
  return page.gameId !== null && page.state && page.viewPly === null;
}

function click(token) {
  if (!isCurrent() || page.engineBusy) return;
  say("");
  let next = page.clicks.concat([token]);
  let found = matching(next);
  if (found.length === 0) {
    const again = page.clicks[page.clicks.length - 1] === token;
    next = again ? [] : [token];
    found = next.length ? matching(next) : [];
    if (found.length === 0) next = [];
  }
  page.clicks = next;
  const complete = found.filter((m) => tokens(m).length === next.length);
  if (complete.length === 1 && found.length === 1) {
    page.clicks = [];
    play(complete[0]);
    return;
  }
  draw();
}

// --- talking to the server ------------------------------------------------------------

async function play(move) {
  try {
    page.humanMovedAt = performance.now();
    show(await api("POST", `/api/games/${page.gameId}/move`, { move }));
    maybeEngineMove();
  } catch (e) {
    say(e.message);
    draw();
  }
}

function engineLimits() {
  const depth = parseInt($("depth").value, 10);
  if (depth > 0) return { depth };
  return { movetime_ms: Math.max(1, parseInt($("movetime").value, 10) || 1000) };
}

/// promotionChooser = owner: the chooser has picked a pawn move whose piece the pawn's owner
/// picks among `choices`; the engine answers if it plays the owner, else the owner clicks.
function askOwner(choices) {
  const owner = page.state.to_move;
  if (page.engineSeats.has(owner)) {
    page.ownerChoice = null;
    engineMove(choices);
  } else {
    page.ownerChoice = choices;
    draw();
  }
}

async function engineMove(searchmoves) {
  if (page.engineBusy || !isCurrent()) return;
  page.engineBusy = true;
  draw();
  try {
    // the engine's own pick of a pawn move whose piece the owner picks comes back unplayed;
    // asked as the owner (searchmoves), its pick is played
    const body = Object.assign(engineLimits(), searchmoves ? { searchmoves } : { hold_owner_pick: true });
    const state = await api("POST", `/api/games/${page.gameId}/engine`, body);
    if (state.engine && state.engine.unplayed) {
      // the engine chose the pawn move; its owner picks the piece
      page.engineBusy = false;
      show(state);
      const held = state.engine.unplayed;
      askOwner(state.owner_picks.filter((m) => m.slice(0, -1) === held.slice(0, -1)));
      return;
    }
    if (page.humanMovedAt !== null) {
      const ms = Math.round(performance.now() - page.humanMovedAt);
      $("reply-time").textContent = `engine replied ${ms} ms after your move`;
      $("reply-time").dataset.ms = ms;
      page.humanMovedAt = null;
    }
    page.engineBusy = false;
    show(state);
  } catch (e) {
    page.engineBusy = false;
    say(e.message);
    draw();
    return;
  }
  maybeEngineMove();
}

/// The engine moves whenever the player deciding the next ply is one it plays.
function maybeEngineMove() {
  const s = page.state;
  const waiting = page.ownerChoice !== null; // for the pawn's owner to pick a piece
  if (isCurrent() && !s.result && s.legal.length && page.engineSeats.has(s.chooser) && !waiting) {
    engineMove();
  }
}

async function newGame(variant, fen) {
  try {
    const state = await api("POST", "/api/games", { variant, fen });
    openGame(state);
  } catch (e) {
    say(e.message);
  }
}

// Saves the game as a .pgn file (the server writes it: SAN in chess, the result and why).
async function savePgn() {
  if (!page.gameId) return;
  try {
    const r = await fetch(`/api/games/${page.gameId}/pgn`);
    const text = await r.text();
    if (!r.ok) throw new Error(JSON.parse(text).error || r.statusText);
    $("pgn-text").value = text;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
    a.download = `chimera-${page.state.variant}-${page.gameId}.pgn`;
    a.click();
    URL.revokeObjectURL(a.href);
  } catch (e) {
    say(e.message);
  }
}

// Opens the pasted PGN as a new game; a bad one is refused with the move that failed and
// the game on the board stays as it is.
async function loadPgn() {
  const pgn = $("pgn-text").value.trim();
  if (!pgn) return;
  try {
    openGame(await api("POST", "/api/games", { pgn }));
  } catch (e) {
    say(e.message);
  }
}

function openGame(state) {
  page.gameId = state.id;
  page.watching = null;
  page.clicks = [];
  page.viewPly = null;
  page.analysis.clear();
  page.lines.clear();
  page.review = null;
  page.engineSeats = new Set([...page.engineSeats].filter((p) => p < state.players.length));
  location.hash = `game=${state.id}`;
  $("variant").value = state.variant;
  listen(`/api/games/${state.id}/events`, onGameEvent);
  show(state);
  maybeEngineMove();
  loadReview();
}

async function refresh() {
  try {
    if (page.gameId !== null) {
      const q = page.viewPly === null ? "" : `?ply=${page.viewPly}`;
      show(await api("GET", `/api/games/${page.gameId}${q}`));
    } else if (page.watching !== null) {
      // a match prints the board's address before its first game starts
      const { games } = await api("GET", "/api/watch");
      if (!games.some((g) => g.number === page.watching)) {
        say(`waiting for match game ${page.watching} to start`);
        return;
      }
      say("");
      const q = page.viewPly === null ? "" : `?ply=${page.viewPly}`;
      show(await api("GET", `/api/watch/${page.watching}${q}`));
    }
  } catch (e) {
    say(e.message);
  }
}

function listen(url, handler) {
  if (page.events) page.events.close();
  page.events = new EventSource(url);
  page.events.onmessage = (ev) => handler(JSON.parse(ev.data));
}

function onGameEvent(ev) {
  if (ev.kind === "info") {
    page.analysis.set(ev.depth * 1000 + (ev.multipv || 1), ev);
    page.lines.set(ev.multipv || 1, ev);
    drawAnalysis();
    if (page.state) drawBoard(page.state);
  } else if (ev.kind === "review") {
    drawReviewStatus(ev);
    if (ev.status !== "running") loadReview();
  } else if (ev.kind === "position") {
    page.analysis.clear();
    page.lines.clear();
    if (page.engineBusy) return;
    if (page.state && ev.plies !== page.state.plies) refresh();
  }
}

function show(state) {
  const old = page.state;
  if (!old || old.id !== state.id || old.plies !== state.plies) page.ownerChoice = null;
  page.state = state;
  page.clicks = page.clicks.filter(() => isCurrent());
  draw();
}

// --- drawing --------------------------------------------------------------------------

function squareXY(sq) {
  const s = page.state;
  const file = sq.charCodeAt(0) - 97;
  const rank = parseInt(sq.slice(1), 10) - 1;
  const col = page.flipped ? s.files - 1 - file : file;
  const row = page.flipped ? rank : s.ranks - 1 - rank;
  return [col * SQUARE, row * SQUARE];
}

function squareName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}

function rect(svg, x, y, cls, sq) {
  const r = document.createElementNS(SVG_NS, "rect");
  r.setAttribute("x", x);
  r.setAttribute("y", y);
  r.setAttribute("width", SQUARE);
  r.setAttribute("height", SQUARE);
  r.setAttribute("class", cls);
  if (sq) r.dataset.square = sq;
  svg.appendChild(r);
  return r;
}

function draw() {
  const s = page.state;
  if (!s) return;
  drawBoard(s);
  drawHoldings(s);
  drawCandidates();
  drawStatus(s);
  drawPlayers(s);
  drawHistory(s);
  $("fen").value = s.fen;
  $("variant").value = s.variant;
  for (const el of document.querySelectorAll(".play-only")) {
    el.style.display = page.gameId === null ? "none" : "";
  }
  $("game-label").textContent =
    page.gameId !== null ? `game ${page.gameId}: ${s.variant}` : `match game ${s.number}: ${s.variant}`;
  drawAnalysis();
  drawGraph(s);
  drawReviewSummary(reviewed(s));
  drawReviewNote(s, reviewed(s));
}

function drawBoard(s) {
  const svg = $("board");
  svg.setAttribute("viewBox", `0 0 ${s.files * SQUARE} ${s.ranks * SQUARE}`);
  svg.innerHTML = "";
  const holes = new Set(s.holes);
  for (let rank = 0; rank < s.ranks; rank++) {
    for (let file = 0; file < s.files; file++) {
      const sq = squareName(file, rank);
      const [x, y] = squareXY(sq);
      const cls = holes.has(sq) ? "hole" : (file + rank) % 2 ? "light" : "dark";
      rect(svg, x, y, cls, sq).addEventListener("click", () => click(sq));
    }
  }
  const last = s.ply > 0 ? s.history[s.ply - 1] : null;
  if (last) for (const sq of tokens(last)) if (!sq.startsWith("@")) overlay(svg, sq, "last");
  for (const t of page.clicks) if (!t.startsWith("@")) overlay(svg, t, "chosen");
  for (const t of nextTargets()) if (!t.startsWith("@")) overlay(svg, t, "target", true);
  for (const m of s.men) {
    const [x, y] = squareXY(m.square);
    const g = drawMan(m, x + 2.5, y + 2.5, SQUARE - 5);
    g.dataset.square = m.square;
    g.dataset.man = `${m.owner}${m.letter}`;
    svg.appendChild(g);
  }
  drawCoordinates(svg, s);
  drawArrows(svg, s);
}

// --- arrows -----------------------------------------------------------------------------

/// An arrow through the squares of `move` (each leg; a drop points at its square).
function arrow(svg, move, cls) {
  const squares = tokens(move).filter((t) => !t.startsWith("@"));
  if (squares.length === 0) return;
  const points = squares.map((sq) => squareXY(sq).map((v) => v + SQUARE / 2));
  if (points.length === 1) points.unshift([points[0][0], points[0][1] + SQUARE / 3]);
  const line = document.createElementNS(SVG_NS, "polyline");
  line.setAttribute("points", points.map((p) => p.join(",")).join(" "));
  line.setAttribute("class", `arrow ${cls}`);
  line.setAttribute("marker-end", `url(#head-${cls.split(" ")[0]})`);
  line.dataset.move = move;
  svg.appendChild(line);
}

function arrowHeads(svg) {
  const defs = document.createElementNS(SVG_NS, "defs");
  for (const [name, colour] of [["best", "#1f8f3f"], ["live", "#2060c0"]]) {
    const m = document.createElementNS(SVG_NS, "marker");
    m.setAttribute("id", `head-${name}`);
    m.setAttribute("viewBox", "0 0 10 10");
    m.setAttribute("refX", "5");
    m.setAttribute("refY", "5");
    m.setAttribute("markerWidth", "3");
    m.setAttribute("markerHeight", "3");
    m.setAttribute("orient", "auto");
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", "M 0 0 L 10 5 L 0 10 z");
    path.setAttribute("fill", colour);
    m.appendChild(path);
    defs.appendChild(m);
  }
  svg.appendChild(defs);
}

/// The live analysis's lines (MultiPV) at the current position, and at a position of the
/// reviewed game where the move played was marked, the better move.
function drawArrows(svg, s) {
  arrowHeads(svg);
  if (isCurrent() && s.analysing) {
    for (const [k, l] of page.lines) if (l.pv.length) arrow(svg, l.pv[0], k === 1 ? "live" : "live other");
  }
  const a = reviewed(s);
  if (a && s.ply < a.moves.length && a.moves[s.ply].mark && a.positions[s.ply].best) {
    arrow(svg, a.positions[s.ply].best, "best");
  }
}

// --- game analysis ----------------------------------------------------------------------

/// The review's analysis if it is of this game's moves (the game may have gone on since).
function reviewed(s) {
  const r = page.review;
  if (!r || !r.analysis || page.gameId === null) return null;
  return r.plies <= s.history.length ? r.analysis : null;
}

async function startReview() {
  if (page.gameId === null) return;
  try {
    const movetime = parseInt($("review-time").value, 10) || 300;
    page.review = await api("POST", `/api/games/${page.gameId}/review`, { movetime });
    drawReviewStatus(page.review);
    draw();
  } catch (e) {
    say(e.message);
  }
}

async function cancelReview() {
  if (page.gameId === null) return;
  try {
    page.review = await api("DELETE", `/api/games/${page.gameId}/review`);
  } catch (e) {
    say(e.message);
  }
}

async function loadReview() {
  if (page.gameId === null) return;
  const id = page.gameId;
  try {
    const r = await api("GET", `/api/games/${id}/review`);
    if (id !== page.gameId) return;
    page.review = r;
    drawReviewStatus(r);
  } catch (e) {
    page.review = null;
    drawReviewStatus(null);
    say(e.message);
  }
  draw();
}

function drawReviewStatus(r) {
  const status = $("review-status");
  if (!r || r.status === "none") {
    status.textContent = "";
  } else if (r.status === "running") {
    const pct = r.total ? Math.round((100 * r.done) / r.total) : 0;
    status.textContent = `Analysing: position ${r.done} of ${r.total} (${pct} %)`;
  } else if (r.status === "done") {
    status.textContent = `Analysed ${r.plies} moves at ${r.movetime} ms a position`;
  } else {
    status.textContent = `Analysis ${r.status}${r.error ? ": " + r.error : ""}`;
  }
  const link = $("review-pgn");
  link.hidden = !(r && r.status === "done");
  if (page.gameId !== null) link.href = `/api/games/${page.gameId}/review/pgn`;
}

/// Per player: accuracy and marks.
function drawReviewSummary(a) {
  const table = $("review-summary");
  table.innerHTML = "";
  if (!a) return;
  for (const p of a.summaries) {
    const tr = document.createElement("tr");
    const acc = p.accuracy === null ? "-" : `${p.accuracy.toFixed(1)} %`;
    for (const [text, cls] of [[p.player, ""], [`accuracy ${acc}`, ""], [`${p.inaccuracies} ?!`, "inaccuracy"], [`${p.mistakes} ?`, "mistake"], [`${p.blunders} ??`, "blunder"]]) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
}

/// What was better at the shown position, if the move played there was marked.
function drawReviewNote(s, a) {
  const note = $("review-note");
  note.textContent = "";
  if (!a || s.ply >= a.moves.length) return;
  const m = a.moves[s.ply];
  const pos = a.positions[s.ply];
  if (!m.mark || !pos.line) return;
  const before = pos.expected[m.mover];
  note.textContent = `${m.text}${m.symbol} ${m.mark}: expected ${before.toFixed(2)} -> ${Math.max(0, before - m.loss).toFixed(2)}; better ${pos.line.join(" ")}`;
}

/// The evaluation graph: each position's expected score (White's, or each Foreign Policy
/// player's), marked moves as coloured dots; a click jumps to that position.
function drawGraph(s) {
  const svg = $("graph");
  svg.innerHTML = "";
  const a = reviewed(s);
  svg.style.display = a ? "" : "none";
  if (!a) return;
  const W = 500, H = 100;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const n = Math.max(1, a.positions.length - 1);
  const x = (i) => (i * W) / n;
  const y = (e) => (1 - e) * H;
  const curves = a.players.length === 2 ? [0] : a.players.map((_, i) => i);
  if (curves.length === 1) {
    const area = document.createElementNS(SVG_NS, "polygon");
    const pts = a.positions.map((p, i) => `${x(i)},${y(p.expected[0])}`);
    area.setAttribute("points", [`0,${H}`, ...pts, `${x(n)},${H}`].join(" "));
    area.setAttribute("class", "area");
    svg.appendChild(area);
  }
  const mid = document.createElementNS(SVG_NS, "line");
  const level = y(1 / a.players.length);
  for (const [k, v] of [["x1", 0], ["y1", level], ["x2", W], ["y2", level]]) mid.setAttribute(k, v);
  mid.setAttribute("class", "mid");
  svg.appendChild(mid);
  for (const c of curves) {
    const line = document.createElementNS(SVG_NS, "polyline");
    line.setAttribute("points", a.positions.map((p, i) => `${x(i)},${y(p.expected[c])}`).join(" "));
    line.setAttribute("class", "curve");
    line.setAttribute("stroke", CURVES[c]);
    line.dataset.player = a.players[c];
    svg.appendChild(line);
  }
  const now = document.createElementNS(SVG_NS, "line");
  for (const [k, v] of [["x1", x(s.ply)], ["y1", 0], ["x2", x(s.ply)], ["y2", H]]) now.setAttribute(k, v);
  now.setAttribute("class", "now");
  svg.appendChild(now);
  a.positions.forEach((p, i) => {
    const mark = i > 0 ? a.moves[i - 1].mark : null;
    const dot = document.createElementNS(SVG_NS, "circle");
    const c = curves.length === 1 ? 0 : a.moves[i - 1] ? a.moves[i - 1].mover : 0;
    dot.setAttribute("cx", x(i));
    dot.setAttribute("cy", y(p.expected[c]));
    dot.setAttribute("r", mark ? 3.5 : 2.5);
    // an unmarked point shows whose choice the move was (in the 007 family not always the
    // colour that moved): a light point for White's, a dark one for Black's
    const chooser = i > 0 ? a.moves[i - 1].mover : null;
    dot.setAttribute("class", mark || (chooser === null ? "plain" : `by-${chooser}`));
    dot.dataset.ply = i;
    const who = i > 0 ? `${a.moves[i - 1].text} by ${a.players[a.moves[i - 1].mover]}` : "start";
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = `${i}: ${who}, ${p.eval_text ?? p.expected.map((e) => e.toFixed(2)).join(" / ")}`;
    dot.appendChild(title);
    dot.addEventListener("click", () => goToPly(i));
    svg.appendChild(dot);
  });
}

function overlay(svg, sq, cls, dot) {
  const [x, y] = squareXY(sq);
  if (dot) {
    const c = document.createElementNS(SVG_NS, "circle");
    c.setAttribute("cx", x + SQUARE / 2);
    c.setAttribute("cy", y + SQUARE / 2);
    c.setAttribute("r", SQUARE / 7);
    c.setAttribute("class", cls);
    c.style.pointerEvents = "none";
    svg.appendChild(c);
  } else {
    rect(svg, x, y, cls).style.pointerEvents = "none";
  }
}

function drawCoordinates(svg, s) {
  for (let file = 0; file < s.files; file++) {
    const [x] = squareXY(squareName(file, 0));
    const t = document.createElementNS(SVG_NS, "text");
    t.setAttribute("x", x + SQUARE - 8);
    t.setAttribute("y", s.ranks * SQUARE - 3);
    t.setAttribute("class", "coord");
    t.textContent = String.fromCharCode(97 + file);
    svg.appendChild(t);
  }
  for (let rank = 0; rank < s.ranks; rank++) {
    const [, y] = squareXY(squareName(0, rank));
    const t = document.createElementNS(SVG_NS, "text");
    t.setAttribute("x", 2);
    t.setAttribute("y", y + 10);
    t.setAttribute("class", "coord");
    t.textContent = rank + 1;
    svg.appendChild(t);
  }
}

/// Where the next click may go: the next token of every matching move.
function nextTargets() {
  if (!page.clicks.length) return [];
  const out = new Set();
  for (const m of matching(page.clicks)) {
    const t = tokens(m);
    if (t.length > page.clicks.length) out.add(t[page.clicks.length]);
  }
  return [...out];
}

function drawHoldings(s) {
  const [top, bottom] = page.flipped ? ["holdings-bottom", "holdings-top"] : ["holdings-top", "holdings-bottom"];
  $(top).innerHTML = "";
  $(bottom).innerHTML = "";
  for (const h of s.held) {
    const box = document.createElement("span");
    box.className = "held";
    box.dataset.held = `${h.owner}${h.letter}`;
    const token = "@" + h.letter;
    if (page.clicks[0] === token && s.chooser === h.owner) box.classList.add("chosen-held");
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "0 0 45 45");
    svg.appendChild(drawMan(h, 0, 0, 45));
    box.appendChild(svg);
    box.appendChild(document.createTextNode(h.count > 1 ? `x${h.count}` : ""));
    box.addEventListener("click", () => {
      if (s.chooser === h.owner) click(token);
    });
    $(h.owner === 0 ? bottom : top).appendChild(box);
  }
}

/// Buttons for the moves the clicks so far could mean (promotions, moves that end where
/// others go on) and for moves with no square to click (a pass).
function drawCandidates() {
  const box = $("candidates");
  box.innerHTML = "";
  if (!isCurrent()) return;
  if (page.ownerChoice) {
    drawOwnerChoice(box, page.ownerChoice);
    return;
  }
  const found = page.clicks.length ? matching(page.clicks) : [];
  const complete = found.filter((m) => tokens(m).length === page.clicks.length);
  const owners = page.state.owner_picks || [];
  if (complete.length && complete.every((m) => owners.includes(m))) {
    // the chooser has picked the pawn move; the piece is its owner's to pick
    page.clicks = [];
    askOwner(complete);
    return;
  }
  const passes = page.state.legal.filter((m) => tokens(m).length === 0);
  for (const m of complete.concat(passes)) {
    const b = document.createElement("button");
    b.textContent = m === "0000" ? "pass (0000)" : m;
    b.dataset.move = m;
    b.addEventListener("click", () => {
      page.clicks = [];
      play(m);
    });
    box.appendChild(b);
  }
}

/// The owner's buttons: one per promotion, under a line saying whose choice it is.
function drawOwnerChoice(box, choices) {
  const s = page.state;
  const label = document.createElement("div");
  label.id = "owner-choice";
  label.textContent = `${s.players[s.to_move]} (the pawn's owner) picks the piece:`;
  box.appendChild(label);
  for (const m of choices) {
    const b = document.createElement("button");
    b.textContent = m;
    b.dataset.move = m;
    b.addEventListener("click", () => {
      page.ownerChoice = null;
      play(m);
    });
    box.appendChild(b);
  }
}

function drawStatus(s) {
  const el = $("status");
  el.textContent = "";
  const over = s.result ? `${s.result.score} ${s.result.reason}` : s.match_result;
  if (over) {
    // text only: a reason or an engine's name is never markup
    const span = document.createElement("span");
    span.className = "result";
    span.textContent = over;
    el.appendChild(span);
  } else {
    const who = s.players[s.chooser];
    const men = s.to_move !== s.chooser ? ` (moves a ${s.players[s.to_move]} man)` : "";
    el.textContent = `${who} to decide${men}` + (s.turn ? ` - ${s.turn}` : "");
  }
  if (page.engineBusy) el.append(" - engine thinking...");
  if (page.viewPly !== null) el.append(` - showing ply ${s.ply} of ${s.plies}`);
  el.dataset.chooser = s.chooser;
  el.dataset.toMove = s.to_move;
}

function drawPlayers(s) {
  const box = $("players");
  box.innerHTML = "";
  s.players.forEach((name, i) => {
    const row = document.createElement("div");
    row.className = "player" + (i === s.chooser && !s.result ? " deciding" : "");
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = OWNER_COLOURS[i].fill;
    row.appendChild(sw);
    row.appendChild(document.createTextNode(name + (s.players.length === 2 ? "" : ` (${i})`)));
    if (page.gameId !== null) {
      const label = document.createElement("label");
      const box2 = document.createElement("input");
      box2.type = "checkbox";
      box2.dataset.seat = i;
      box2.checked = page.engineSeats.has(i);
      box2.addEventListener("change", () => {
        if (box2.checked) page.engineSeats.add(i);
        else page.engineSeats.delete(i);
        maybeEngineMove();
      });
      label.appendChild(box2);
      label.appendChild(document.createTextNode(" engine"));
      row.appendChild(label);
    }
    box.appendChild(row);
  });
}

// The move list as chess players read it: numbered moves, White's and Black's plies side by
// side (SAN in chess, our notation elsewhere); Foreign Policy one line a round of three.
function drawHistory(s) {
  const list = $("history");
  list.innerHTML = "";
  const texts = s.notation || s.history;
  const three = !s.notation;
  const perRow = three ? 3 : 2;
  const first = s.first_move || { number: 1, black: false };
  const offset = three ? 0 : (first.black ? 1 : 0);
  let row = null;
  texts.forEach((m, i) => {
    const slot = (i + offset) % perRow;
    if (row === null || slot === 0) {
      row = document.createElement("li");
      const num = document.createElement("span");
      num.className = "num";
      const n = three ? Math.floor(i / 3) + 1 : first.number + Math.floor((i + offset) / 2);
      num.textContent = three ? `${n}.` : (i === 0 && first.black ? `${n}...` : `${n}.`);
      row.appendChild(num);
      for (let k = 0; k < slot; k++) row.appendChild(document.createElement("span"));
      list.appendChild(row);
    }
    const ply = document.createElement("span");
    ply.className = "ply";
    ply.textContent = m;
    ply.title = s.history[i];
    const judged = reviewed(s);
    const mark = judged && i < judged.moves.length ? judged.moves[i] : null;
    if (mark && mark.mark) {
      ply.classList.add(mark.mark);
      ply.textContent = m + mark.symbol;
      ply.title += ` (${mark.mark}, by ${judged.players[mark.mover]})`;
    }
    if (i + 1 === s.ply) ply.classList.add("shown");
    ply.addEventListener("click", () => goToPly(i + 1));
    row.appendChild(ply);
  });
}

function drawAnalysis() {
  const body = $("analysis").querySelector("tbody");
  body.innerHTML = "";
  const lines = [...page.analysis.values()]
    .sort((a, b) => b.depth - a.depth || (a.multipv || 1) - (b.multipv || 1))
    .slice(0, 12);
  for (const l of lines) {
    const tr = document.createElement("tr");
    const score = "mate" in l.score ? `#${l.score.mate}` : (l.score.cp / 100).toFixed(2);
    const wdl = l.wdl ? l.wdl.map((x) => (x / 10).toFixed(0)).join("/") : "";
    for (const cell of [l.depth, l.multipv || 1, score, wdl, l.nodes, l.pv.join(" ")]) {
      const td = document.createElement("td");
      td.textContent = cell;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

function goToPly(ply) {
  const s = page.state;
  if (!s) return;
  const total = s.plies;
  ply = Math.max(0, Math.min(total, ply));
  page.viewPly = ply === total ? null : ply;
  page.clicks = [];
  refresh();
}

// --- match games --------------------------------------------------------------------------

async function loadWatchList() {
  try {
    const list = await api("GET", "/api/watch");
    const ul = $("watch");
    ul.innerHTML = "";
    $("watch-box").style.display = list.games.length ? "" : "none";
    for (const g of list.games) {
      const li = document.createElement("li");
      li.textContent = `${g.number}. ${g.players.join(" - ")} (${g.variant}, ${g.plies} plies)` +
        (g.result ? ` ${g.result}` : "");
      li.addEventListener("click", () => watchGame(g.number));
      ul.appendChild(li);
    }
  } catch (e) {
    say(e.message);
  }
}

function watchGame(number) {
  page.gameId = null;
  page.watching = number;
  page.viewPly = null;
  page.clicks = [];
  listen("/api/watch/events", (ev) => {
    if (ev.kind !== "watch") return;
    if (ev.number === page.watching && page.viewPly === null) refresh();
    loadWatchList();
  });
  location.hash = `watch=${number}`;
  refresh();
}

// --- wiring ---------------------------------------------------------------------------

async function init() {
  const { variants } = await api("GET", "/api/variants");
  for (const v of variants) {
    const o = document.createElement("option");
    o.value = o.textContent = v;
    $("variant").appendChild(o);
  }
  $("new-game").addEventListener("click", () => newGame($("variant").value));
  $("engine-move").addEventListener("click", engineMove);
  $("undo").addEventListener("click", takeBack);
  $("flip").addEventListener("click", () => {
    page.flipped = !page.flipped;
    draw();
  });
  $("nav-first").addEventListener("click", () => goToPly(0));
  $("nav-back").addEventListener("click", () => goToPly((page.state ? page.state.ply : 0) - 1));
  $("nav-forward").addEventListener("click", () => goToPly((page.state ? page.state.ply : 0) + 1));
  $("nav-last").addEventListener("click", () => goToPly(Infinity));
  $("move-send").addEventListener("click", () => {
    const text = $("move-text").value.trim();
    if (text && isCurrent()) play(text);
  });
  $("fen-copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("fen").value));
  $("fen-load").addEventListener("click", setPosition);
  $("pgn-save").addEventListener("click", savePgn);
  $("pgn-load").addEventListener("click", loadPgn);
  $("analyse").addEventListener("click", () => command("analysis"));
  $("stop").addEventListener("click", () => command("stop"));
  $("review-start").addEventListener("click", startReview);
  $("review-cancel").addEventListener("click", cancelReview);
  loadWatchList();
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("watch")) {
    watchGame(parseInt(hash.get("watch"), 10));
  } else if (hash.has("game")) {
    try {
      openGame(await api("GET", `/api/games/${parseInt(hash.get("game"), 10)}`));
    } catch (e) {
      newGame(hash.get("variant") || "chess");
    }
  } else {
    const v = hash.get("variant") || "chess";
    $("variant").value = v;
    newGame(v);
  }
}

async function takeBack() {
  if (!isCurrent()) return;
  try {
    let state = await api("POST", `/api/games/${page.gameId}/undo`);
    // back to a ply a person decides
    while (state.plies > 0 && page.engineSeats.has(state.chooser)) {
      state = await api("POST", `/api/games/${page.gameId}/undo`);
    }
    page.clicks = [];
    show(state);
  } catch (e) {
    say(e.message);
  }
}

async function setPosition() {
  if (page.gameId === null) return;
  try {
    page.viewPly = null;
    page.clicks = [];
    show(await api("POST", `/api/games/${page.gameId}/position`, { fen: $("fen").value }));
    maybeEngineMove();
  } catch (e) {
    say(e.message);
  }
}

async function command(what) {
  if (page.gameId === null) return;
  try {
    let body;
    if (what === "analysis") {
      page.analysis.clear();
      page.lines.clear();
      body = { lines: Math.max(1, Math.min(8, parseInt($("lines").value, 10) || 1)) };
    }
    show(await api("POST", `/api/games/${page.gameId}/${what}`, body));
  } catch (e) {
    say(e.message);
  }
}

// a page left open in the back-forward cache would keep its stream, and a browser opens at
// most six connections to one server
window.addEventListener("pagehide", () => {
  if (page.events) page.events.close();
  page.events = null;
});
window.addEventListener("pageshow", (ev) => {
  if (ev.persisted) location.reload();
});

init();
