//! The referee's side of UCI and XBoard: start-up handshakes, setting up a game, asking for one
//! ply, and reading the answer under a deadline.
//!
//! The client asks for exactly one ply per request and never assumes the players alternate:
//! UCI gets the whole game (`position ... moves ...`) with every `go`, so an engine that
//! chooses several plies in a row is simply asked several times. An XBoard engine is sent the
//! plies it has not seen yet in `force` mode, then `go`. After it answers it is left out of
//! `force` until the other player has moved: an XBoard engine that still chooses the next ply
//! (the 007 forms) goes on playing by itself (docs/variants/007.md), so when it is asked again
//! with nothing new to learn, the client only reads its next `move`. Putting it in `force`
//! right after each answer would race with that next move.

use super::process::{Launch, Process, Read};
use super::timecontrol::{Clock, Limits};
use crate::engine::CHESS960;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCI.
    Uci,
    /// XBoard / CECP (version 2, or 1 if the engine sends no features).
    Xboard,
}

/// One engine as configured on the command line.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Display name (PGN `White`/`Black`).
    pub name: String,
    /// How to start it.
    pub launch: Launch,
    /// Its protocol.
    pub proto: Proto,
    /// Options to set (UCI `setoption`, XBoard `option`), in order.
    pub options: Vec<(String, String)>,
    /// Lines sent right after the handshake (`initstr=`).
    pub init: Vec<String>,
    /// Its time control.
    pub limits: Limits,
    /// How long a handshake, `isready` or a node/depth-limited move may take before the
    /// engine counts as stalled, in ms.
    pub stall_ms: u64,
    /// Start a fresh process for every game, not only after a failure.
    pub restart: bool,
}

/// How an engine failed; each is a lost game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// It played a move that is not legal, or not a move at all.
    IllegalMove,
    /// It rejected a legal move sent to it.
    Rejected,
    /// It exited or closed its pipes.
    Crashed,
    /// It answered, but after its time ran out.
    TimeForfeit,
    /// It did not answer at all, not even when told to stop.
    Stalled,
}

/// A failure with the details for the PGN comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What went wrong.
    pub kind: FaultKind,
    /// In words.
    pub detail: String,
}

impl Fault {
    fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

/// An engine's answer to a request for a ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move (as the engine wrote it), the time it took, and its last reported score in
    /// centipawns from the chooser's point of view.
    Move {
        /// The move text.
        text: String,
        /// Thinking time as the referee measured it.
        used: Duration,
        /// Last score reported with the search.
        score: Option<i32>,
        /// The depth reported with that score.
        depth: Option<u32>,
    },
    /// It resigned (XBoard `resign`).
    Resign,
    /// The referee was interrupted while waiting.
    Interrupted,
}

/// The game as a client needs it to set up or ask for a ply.
pub struct GameView<'a> {
    /// The variant (our name).
    pub variant: &'a str,
    /// Start FEN, if not the variant's start position.
    pub fen: Option<&'a str>,
    /// Every ply so far in canonical notation, from the start position or FEN.
    pub moves: &'a [String],
    /// The same plies as XBoard engines read them (Chess960 castling as `O-O` / `O-O-O`);
    /// `None`: as `moves`.
    pub xboard_moves: Option<&'a [String]>,
    /// Clocks of White and Black.
    pub clocks: [&'a Clock; 2],
    /// Index (0 White, 1 Black) of the clock of the player asked.
    pub own: usize,
    /// The moves the answer must be one of (UCI `go searchmoves`): the promotions of a pawn
    /// move whose piece its owner picks. `None`: any legal ply.
    pub searchmoves: Option<&'a [String]>,
}

/// Features an XBoard engine announced.
/// What `uci` told: the engine's name, its option names, its UCI_Variant values (if any).
type UciOptions = (Option<String>, Vec<String>, Option<Vec<String>>);

#[derive(Clone, Debug, Default)]
struct XbFeatures {
    setboard: bool,
    usermove: bool,
    ping: bool,
    variants: Option<Vec<String>>,
    myname: Option<String>,
}

/// A running engine that the referee talks to.
pub struct Client {
    proc: Process,
    spec: EngineSpec,
    xb: XbFeatures,
    /// UCI: the values of the `UCI_Variant` combo (empty if the engine has none).
    uci_variants: Option<Vec<String>>,
    /// XBoard: plies of the current game the engine has been sent (or played itself).
    known: usize,
    /// XBoard: when it last answered, while it has not been put back in `force` since (it may
    /// be playing the next ply by itself).
    playing_on: Option<Instant>,
    ping_no: u32,
    /// The engine's own name (`id name`, `myname`).
    pub engine_name: Option<String>,
}

/// How long a stopped search may take to produce its move before the engine is stalled.
const STOP_GRACE: Duration = Duration::from_millis(1000);

/// XBoard's name for a variant.
fn xboard_variant(v: &str) -> &str {
    if v == "chess" {
        "normal"
    } else {
        v
    }
}

/// Splits `feature a=1 b="x y"` into pairs.
fn parse_features(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s.trim();
    while let Some((key, after)) = rest.split_once('=') {
        let key = key.trim().to_string();
        let after = after.trim_start();
        let (value, next) = if let Some(q) = after.strip_prefix('"') {
            match q.find('"') {
                Some(end) => (q[..end].to_string(), &q[end + 1..]),
                None => (q.to_string(), ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (after[..end].to_string(), &after[end..]),
                None => (after.to_string(), ""),
            }
        };
        out.push((key, value));
        rest = next.trim_start();
    }
    out
}

/// The score in a UCI `info` line, in centipawns (a mate in n moves as +-(100000 - n)).
fn uci_score(line: &str) -> Option<i32> {
    let mut it = line.split_whitespace();
    while let Some(w) = it.next() {
        if w == "score" {
            let kind = it.next()?;
            let v: i32 = it.next()?.parse().ok()?;
            return match kind {
                "cp" => Some(v),
                "mate" if v > 0 => Some(100_000 - v),
                "mate" => Some(-100_000 - v),
                _ => None,
            };
        }
    }
    None
}

/// The depth in a UCI `info` line.
fn uci_depth(line: &str) -> Option<u32> {
    let mut it = line.split_whitespace();
    it.find(|&w| w == "depth")?;
    it.next()?.parse().ok()
}

/// The score and depth of an XBoard thinking line `depth score time nodes pv...`.
fn xboard_score(line: &str) -> Option<(i32, u32)> {
    let mut it = line.split_whitespace();
    let depth = it.next()?.trim_end_matches(['.', '&']);
    if depth.is_empty() || !depth.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let score: i32 = it.next()?.parse().ok()?;
    it.next()?.parse::<u64>().ok()?;
    Some((score, depth.parse().ok()?))
}

impl Client {
    /// Starts the engine and completes the protocol handshake; `variant` must be one it
    /// knows. Errors here are configuration errors (wrong command, protocol or variant).
    pub fn start(
        spec: &EngineSpec,
        variant: &str,
        debug: bool,
        interrupt: &AtomicBool,
    ) -> Result<Client, String> {
        let proc = Process::spawn(&spec.launch, &spec.name, debug)?;
        let mut c = Client {
            proc,
            spec: spec.clone(),
            xb: XbFeatures::default(),
            uci_variants: None,
            known: 0,
            playing_on: None,
            ping_no: 0,
            engine_name: None,
        };
        let r = match spec.proto {
            Proto::Uci => c.uci_handshake(variant, interrupt),
            Proto::Xboard => c.xboard_handshake(variant, interrupt),
        };
        match r {
            Ok(()) => Ok(c),
            Err(e) => {
                c.proc.shutdown("quit", Duration::from_millis(100));
                Err(format!("engine '{}': {e}", spec.name))
            }
        }
    }

    /// The process id (tests check that engines are reaped).
    pub fn pid(&self) -> u32 {
        self.proc.id()
    }

    fn stall(&self) -> Duration {
        Duration::from_millis(self.spec.stall_ms)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.proc
            .send(line)
            .map_err(|e| Fault::new(FaultKind::Crashed, format!("it is gone: {e}")))
    }

    /// Reads until a line satisfies `done`; other lines go to `seen`.
    fn wait_for(
        &mut self,
        what: &str,
        limit: Duration,
        interrupt: &AtomicBool,
        mut done: impl FnMut(&str) -> bool,
        mut seen: impl FnMut(&str),
    ) -> Result<bool, Fault> {
        let deadline = Instant::now() + limit;
        loop {
            match self.proc.read(deadline, interrupt) {
                Read::Line(l, _) => {
                    if done(&l) {
                        return Ok(true);
                    }
                    seen(&l);
                }
                Read::Timeout => {
                    return Err(Fault::new(
                        FaultKind::Stalled,
                        format!("no {what} within {:.1} s", limit.as_secs_f64()),
                    ))
                }
                Read::Closed => {
                    return Err(Fault::new(
                        FaultKind::Crashed,
                        format!("it exited while the referee waited for {what}"),
                    ))
                }
                Read::Interrupted => return Ok(false),
            }
        }
    }

    /// Sends `uci` and reads the engine's name, option names and UCI_Variant values.
    fn uci_options(&mut self, interrupt: &AtomicBool) -> Result<UciOptions, String> {
        self.send("uci").map_err(|f| f.detail)?;
        let mut names = Vec::new();
        let mut variants = None;
        let mut id = None;
        self.wait_for(
            "'uciok' (is it a UCI engine?)",
            self.stall(),
            interrupt,
            |l| l.trim() == "uciok",
            |l| {
                if let Some(n) = l.strip_prefix("id name ") {
                    id = Some(n.trim().to_string());
                }
                if let Some(rest) = l.strip_prefix("option name ") {
                    let name = rest.split(" type ").next().unwrap_or("").trim().to_string();
                    if name.eq_ignore_ascii_case("UCI_Variant") {
                        let vars: Vec<String> = rest
                            .split(" var ")
                            .skip(1)
                            .map(|v| v.trim().to_string())
                            .collect();
                        variants = Some(vars);
                    }
                    names.push(name);
                }
            },
        )
        .map_err(|f| f.detail)?;
        Ok((id, names, variants))
    }

    fn uci_handshake(&mut self, variant: &str, interrupt: &AtomicBool) -> Result<(), String> {
        let (id, names, variants) = self.uci_options(interrupt)?;
        self.engine_name = id;
        self.uci_variants = variants;
        for (k, v) in self.spec.options.clone() {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(&k)) {
                return Err(format!(
                    "it has no option '{k}' (its options: {})",
                    names.join(", ")
                ));
            }
            self.send(&format!("setoption name {k} value {v}"))
                .map_err(|f| f.detail)?;
        }
        // Chess960 is chess with UCI_Chess960 on, where the engine offers it (Stockfish has no
        // UCI_Variant at all); castling then goes king-takes-rook both ways, as we spell it
        if variant == CHESS960 && names.iter().any(|n| n.eq_ignore_ascii_case("UCI_Chess960")) {
            self.send("setoption name UCI_Chess960 value true")
                .map_err(|f| f.detail)?;
            return self.finish_handshake(interrupt);
        }
        let known = |vars: &Option<Vec<String>>| vars.iter().flatten().any(|v| v == variant);
        if variant != "chess" && !known(&self.uci_variants) && !self.spec.options.is_empty() {
            // an option (Fairy-Stockfish's VariantPath) may have added variants: ask again
            self.uci_variants = self.uci_options(interrupt)?.2;
        }
        if variant != "chess" {
            match &self.uci_variants {
                Some(vars) if vars.iter().any(|v| v == variant) => {}
                Some(vars) => {
                    return Err(format!(
                        "it does not play '{variant}' (its UCI_Variant values: {})",
                        vars.join(", ")
                    ))
                }
                None => {
                    return Err(format!(
                        "it has no UCI_Variant option, so it cannot play '{variant}'"
                    ))
                }
            }
            self.send(&format!("setoption name UCI_Variant value {variant}"))
                .map_err(|f| f.detail)?;
        }
        self.finish_handshake(interrupt)
    }

    /// The engine's `init` lines, then a sync.
    fn finish_handshake(&mut self, interrupt: &AtomicBool) -> Result<(), String> {
        for l in self.spec.init.clone() {
            self.send(&l).map_err(|f| f.detail)?;
        }
        self.sync(interrupt).map_err(|f| f.detail)
    }

    fn xboard_handshake(&mut self, variant: &str, interrupt: &AtomicBool) -> Result<(), String> {
        self.send("xboard").map_err(|f| f.detail)?;
        self.send("protover 2").map_err(|f| f.detail)?;
        // An engine without features (protocol 1) stays silent: give it two seconds. One that
        // sent `done=0` has asked for time to finish: wait for `done=1` up to the stall limit.
        let mut features = XbFeatures::default();
        let mut replies = Vec::new();
        let mut done_zero = false;
        let mut deadline = Instant::now() + Duration::from_millis(2000).min(self.stall());
        loop {
            match self.proc.read(deadline, interrupt) {
                Read::Line(l, _) => {
                    let Some(rest) = l.trim().strip_prefix("feature ") else {
                        continue;
                    };
                    let mut finished = false;
                    for (k, v) in parse_features(rest) {
                        let on = v == "1";
                        match k.as_str() {
                            "setboard" => features.setboard = on,
                            "usermove" => features.usermove = on,
                            "ping" => features.ping = on,
                            "myname" => features.myname = Some(v.clone()),
                            "variants" => {
                                features.variants =
                                    Some(v.split(',').map(|s| s.trim().to_string()).collect())
                            }
                            "done" if on => finished = true,
                            "done" => {
                                done_zero = true;
                                deadline = Instant::now() + self.stall();
                            }
                            _ => {}
                        }
                        // SAN moves would need a SAN parser for every variant: refuse them
                        let verdict = if k == "san" && on {
                            "rejected"
                        } else {
                            "accepted"
                        };
                        replies.push(format!("{verdict} {k}"));
                    }
                    if finished {
                        break;
                    }
                }
                Read::Timeout if done_zero => {
                    return Err("it sent 'feature done=0' but never 'done=1'".into())
                }
                Read::Timeout => break,
                Read::Closed => return Err("it exited during the XBoard handshake".into()),
                Read::Interrupted => return Err("interrupted".into()),
            }
        }
        for r in replies {
            self.send(&r).map_err(|f| f.detail)?;
        }
        self.engine_name = features.myname.clone();
        let xv = xboard_variant(variant);
        if variant != "chess" {
            match &features.variants {
                Some(v) if v.iter().any(|n| n == xv) => {}
                Some(v) => {
                    return Err(format!(
                        "it does not play '{variant}' (its variants: {})",
                        v.join(",")
                    ))
                }
                None => {
                    return Err(format!(
                        "it announces no variants, so it cannot play '{variant}'"
                    ))
                }
            }
        }
        self.xb = features;
        for (k, v) in self.spec.options.clone() {
            self.send(&format!("option {k}={v}"))
                .map_err(|f| f.detail)?;
        }
        for l in self.spec.init.clone() {
            self.send(&l).map_err(|f| f.detail)?;
        }
        self.sync(interrupt).map_err(|f| f.detail)
    }

    /// Whether the engine can start from a FEN (XBoard engines need `setboard`).
    pub fn can_set_position(&self) -> bool {
        self.spec.proto == Proto::Uci || self.xb.setboard
    }

    /// Waits until the engine has processed everything sent (`isready`, `ping`); an engine
    /// without `ping` is given no such check.
    fn sync(&mut self, interrupt: &AtomicBool) -> Result<(), Fault> {
        match self.spec.proto {
            Proto::Uci => {
                self.send("isready")?;
                self.wait_for(
                    "'readyok'",
                    self.stall(),
                    interrupt,
                    |l| l.trim() == "readyok",
                    |_| {},
                )?;
            }
            Proto::Xboard if self.xb.ping => {
                self.ping_no += 1;
                let want = format!("pong {}", self.ping_no);
                self.send(&format!("ping {}", self.ping_no))?;
                self.wait_for(
                    "'pong'",
                    self.stall(),
                    interrupt,
                    |l| l.trim() == want,
                    |_| {},
                )?;
            }
            Proto::Xboard => {}
        }
        Ok(())
    }

    /// Prepares a new game (the position before any ply is asked for).
    pub fn new_game(&mut self, game: &GameView, interrupt: &AtomicBool) -> Result<(), Fault> {
        self.known = 0;
        self.playing_on = None;
        match self.spec.proto {
            Proto::Uci => self.send("ucinewgame")?,
            Proto::Xboard => {
                self.send("new")?;
                if game.variant != "chess" {
                    self.send(&format!("variant {}", xboard_variant(game.variant)))?;
                }
                self.send("force")?;
                if let Some(fen) = game.fen {
                    self.send(&format!("setboard {fen}"))?;
                }
                let l = self.spec.limits.clone();
                if let Some(c) = l.clock {
                    let secs = c.base_ms / 1000;
                    let base = if c.base_ms.is_multiple_of(1000) {
                        format!("{}:{:02}", secs / 60, secs % 60)
                    } else {
                        // fractional minutes: CECP allows a plain number of minutes
                        format!("{}", c.base_ms as f64 / 60_000.0)
                    };
                    self.send(&format!(
                        "level {} {base} {}",
                        c.moves,
                        c.inc_ms as f64 / 1000.0
                    ))?;
                }
                if let Some(st) = l.movetime_ms {
                    self.send(&format!("st {}", st as f64 / 1000.0))?;
                }
                if let Some(d) = l.depth {
                    self.send(&format!("sd {d}"))?;
                }
                self.send("post")?;
            }
        }
        self.sync(interrupt)
    }

    /// Asks for one ply of the game in `game` from the engine of the player choosing it.
    pub fn request(&mut self, game: &GameView, interrupt: &AtomicBool) -> Result<Answer, Fault> {
        let l = self.spec.limits.clone();
        let (own, other) = (game.clocks[game.own], game.clocks[1 - game.own]);
        let sent_at;
        match self.spec.proto {
            Proto::Uci => {
                let mut pos = match game.fen {
                    Some(f) => format!("position fen {f}"),
                    None => "position startpos".to_string(),
                };
                if !game.moves.is_empty() {
                    pos.push_str(" moves ");
                    pos.push_str(&game.moves.join(" "));
                }
                self.send(&pos)?;
                let mut go = String::from("go");
                if own.is_running() {
                    let [w, b] = game.clocks;
                    go.push_str(&format!(
                        " wtime {} btime {} winc {} binc {}",
                        w.left_ms(),
                        b.left_ms(),
                        w.inc_ms(),
                        b.inc_ms()
                    ));
                    if let Some(m) = own.moves_to_go() {
                        go.push_str(&format!(" movestogo {m}"));
                    }
                }
                if let Some(st) = l.movetime_ms {
                    go.push_str(&format!(" movetime {st}"));
                }
                if let Some(n) = l.nodes {
                    go.push_str(&format!(" nodes {n}"));
                }
                if let Some(d) = l.depth {
                    go.push_str(&format!(" depth {d}"));
                }
                if !l.is_bounded() {
                    go.push_str(" infinite");
                }
                if let Some(only) = game.searchmoves {
                    go.push_str(" searchmoves ");
                    go.push_str(&only.join(" "));
                }
                self.send(&go)?;
                sent_at = Instant::now();
            }
            Proto::Xboard if self.known == game.moves.len() && self.playing_on.is_some() => {
                // asked again right after its own ply: it is already choosing this one
                sent_at = self.playing_on.unwrap_or_else(Instant::now);
            }
            Proto::Xboard => {
                if self.playing_on.take().is_some() {
                    self.send("force")?;
                }
                let moves = game.xboard_moves.unwrap_or(game.moves);
                for m in &moves[self.known.min(moves.len())..] {
                    if self.xb.usermove {
                        self.send(&format!("usermove {m}"))?;
                    } else {
                        self.send(m)?;
                    }
                }
                self.known = game.moves.len();
                if own.is_running() {
                    self.send(&format!("time {}", own.left_ms() / 10))?;
                    self.send(&format!("otim {}", other.left_ms() / 10))?;
                }
                self.send("go")?;
                sent_at = Instant::now();
            }
        }
        // how long before the answer is late
        let allowed = if own.is_running() {
            let t = own.left_ms();
            Some(match l.movetime_ms {
                Some(st) => t.min(st),
                None => t,
            })
        } else {
            l.movetime_ms
        };
        let timed = allowed.is_some();
        let deadline = sent_at
            + match allowed {
                Some(ms) => Duration::from_millis(ms + l.margin_ms),
                None => self.stall(),
            };
        let mut score = None;
        let mut depth = None;
        let mut late = false;
        let mut stop_deadline = deadline;
        loop {
            let limit = if late { stop_deadline } else { deadline };
            match self.proc.read(limit, interrupt) {
                Read::Line(line, at) => {
                    let t = line.trim();
                    let used = at.saturating_duration_since(sent_at);
                    match self.spec.proto {
                        Proto::Uci => {
                            if t.starts_with("info") && !t.starts_with("info string") {
                                if let Some(s) = uci_score(t) {
                                    score = Some(s);
                                    depth = uci_depth(t);
                                }
                            } else if let Some(rest) = t.strip_prefix("bestmove") {
                                let text = rest.split_whitespace().next().unwrap_or("").to_string();
                                return self.answered(late, timed, text, used, (score, depth));
                            }
                        }
                        Proto::Xboard => {
                            if let Some(rest) = t.strip_prefix("move ") {
                                let text = rest.trim().to_string();
                                self.known += 1;
                                self.playing_on = Some(at);
                                return self.answered(late, timed, text, used, (score, depth));
                            } else if t == "resign" || t.ends_with("{resign}") {
                                return Ok(Answer::Resign);
                            } else if let Some(m) = t.strip_prefix("Illegal move") {
                                return Err(Fault::new(
                                    FaultKind::Rejected,
                                    format!(
                                        "it rejected a legal move ({})",
                                        m.trim_start_matches([':', ' '])
                                    ),
                                ));
                            } else if let Some((s, d)) = xboard_score(t) {
                                score = Some(s);
                                depth = Some(d);
                            }
                        }
                    }
                }
                Read::Timeout if !late => {
                    // out of time (or past the stall limit): tell it to stop, then see whether
                    // it answers at all
                    late = true;
                    stop_deadline = Instant::now() + STOP_GRACE.min(self.stall());
                    let stop = match self.spec.proto {
                        Proto::Uci => "stop",
                        Proto::Xboard => "?",
                    };
                    self.send(stop)?;
                }
                Read::Timeout => {
                    return Err(Fault::new(
                        FaultKind::Stalled,
                        format!(
                            "no move after {:.1} s, nor after being told to stop",
                            sent_at.elapsed().as_secs_f64()
                        ),
                    ))
                }
                Read::Closed => {
                    return Err(Fault::new(
                        FaultKind::Crashed,
                        "it exited while thinking".to_string(),
                    ))
                }
                Read::Interrupted => return Ok(Answer::Interrupted),
            }
        }
    }

    fn answered(
        &mut self,
        late: bool,
        timed: bool,
        text: String,
        used: Duration,
        (score, depth): (Option<i32>, Option<u32>),
    ) -> Result<Answer, Fault> {
        if late && timed {
            return Err(Fault::new(
                FaultKind::TimeForfeit,
                format!("it answered {text} after {:.3} s", used.as_secs_f64()),
            ));
        }
        if late {
            return Err(Fault::new(
                FaultKind::Stalled,
                format!(
                    "it ignored its node or depth limit for {:.1} s",
                    used.as_secs_f64()
                ),
            ));
        }
        Ok(Answer::Move {
            text,
            used,
            score,
            depth,
        })
    }

    /// Tells an XBoard engine the result (UCI has no such message).
    pub fn game_over(&mut self, result: &str, reason: &str) {
        if self.spec.proto == Proto::Xboard {
            self.playing_on = None;
            let _ = self.send("force");
            let _ = self.send(&format!("result {result} {{{reason}}}"));
        }
    }

    /// Whether this engine wants a fresh process for every game.
    pub fn restart_each_game(&self) -> bool {
        self.spec.restart
    }

    /// Ends the engine: `quit`, a short wait, then a kill; the process is always reaped.
    pub fn quit(self) {
        self.proc.shutdown("quit", Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_lines_and_scores() {
        let f = parse_features(r#"setboard=0 myname="Fairy-Max 5.0b" ping=1 done=0"#);
        assert_eq!(f[0], ("setboard".into(), "0".into()));
        assert_eq!(f[1], ("myname".into(), "Fairy-Max 5.0b".into()));
        assert_eq!(f[3], ("done".into(), "0".into()));
        assert_eq!(
            uci_score("info depth 5 score cp -31 nodes 10 pv e2e4"),
            Some(-31)
        );
        assert_eq!(uci_score("info depth 5 score mate 3 pv e2e4"), Some(99_997));
        assert_eq!(uci_score("info depth 5 score mate -2"), Some(-99_998));
        assert_eq!(uci_score("info string hello"), None);
        assert_eq!(xboard_score(" 7 -45 120 33012 e2e4 e7e5"), Some((-45, 7)));
        assert_eq!(uci_depth("info depth 12 seldepth 20 score cp 31"), Some(12));
        assert_eq!(uci_depth("info score cp 31"), None);
        assert_eq!(xboard_score("move e2e4"), None);
    }
}
