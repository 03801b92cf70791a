//! XBoard / WinBoard (CECP v2). The engine plays the side XBoard tells it to, in force mode it
//! only records moves, and in analyze mode it searches until told otherwise. Variants XBoard
//! does not know get `setup` and `piece` lines so the GUI can draw and move them.

use super::{Event, Finished, Output};
use crate::engine::{
    Color, Engine, MultiPlayerSearch, Outcome, ReportedScore, Reporter, ScoreBound, SearchInfo,
    SearchLimits, Silent, CHESS960, TUNABLES,
};
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;

struct XbReporter {
    out: Output,
}

impl Reporter for XbReporter {
    fn info(&self, i: &SearchInfo) {
        if i.bound != ScoreBound::Exact || i.multipv != 1 {
            return;
        }
        let score = match i.score {
            ReportedScore::Cp(cp) => cp,
            ReportedScore::Mate(m) if m > 0 => 100_000 + m,
            ReportedScore::Mate(m) => -100_000 + m,
        };
        self.out.line(&format!(
            "{} {} {} {} {}",
            i.depth,
            score,
            i.time_ms / 10,
            i.nodes,
            i.pv.join(" ")
        ));
    }
}

struct Clock {
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
    st_ms: Option<u64>,
    depth: Option<u32>,
    ours_cs: Option<u64>,
}

struct Session {
    engine: Engine,
    out: Output,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    pending: VecDeque<Event>,
    force: bool,
    engine_side: Color,
    post: bool,
    analyzing: bool,
    searching: bool,
    clock: Clock,
    /// Variants whose XBoard limits the user was told of (once each per session).
    told_limits: Vec<String>,
    /// `hard`: think on the opponent's time.
    ponder: bool,
    /// While pondering, the opponent's move guessed: it is played on the engine's board and
    /// taken back if the opponent plays another.
    ponder_guess: Option<String>,
}

/// Commands that leave a ponder search running: they touch neither the board nor the search.
const KEEP_PONDERING: [&str; 20] = [
    "", "xboard", "accepted", "rejected", "random", "computer", "name", "rating", "ics", "bk",
    "draw", "ping", ".", "post", "nopost", "time", "otim", "hard", "hint", "?",
];

fn xboard_name(name: &str) -> &str {
    if name == "chess" {
        "normal"
    } else {
        name
    }
}

impl Session {
    fn error(&self, reason: &str, cmd: &str) {
        self.out.line(&format!("Error ({reason}): {cmd}"));
    }

    fn features(&self) {
        let all = self.engine.variant_names();
        let names: Vec<&str> = all.iter().map(|n| xboard_name(n)).collect();
        self.out.line("feature done=0");
        self.out.line(&format!(
            "feature setboard=1 usermove=1 ping=1 sigint=0 colors=0 analyze=1 playother=1 time=1 draw=0 reuse=1 san=0 memory=1 smp=1 myname=\"Chimera {}\" variants=\"{}\"",
            env!("CARGO_PKG_VERSION"),
            names.join(",")
        ));
        self.out.line("feature option=\"Clear Hash -button\"");
        self.out.line(&format!(
            "feature option=\"MultiPV -spin {} 1 256\"",
            self.engine.options.multipv
        ));
        self.out.line("feature option=\"VariantPath -file \"");
        self.out.line(&format!(
            "feature option=\"EvalFile -file {}\"",
            self.engine.options.eval_file
        ));
        self.out
            .line("feature option=\"MultiPlayerSearch -combo *paranoid /// maxn\"");
        if super::tunables_offered() {
            let now = self.engine.options.params.values();
            for (t, v) in TUNABLES.iter().zip(now) {
                self.out.line(&format!(
                    "feature option=\"{} -spin {v} {} {}\"",
                    t.name, t.min, t.max
                ));
            }
        }
        self.out.line("feature done=1");
    }

    /// Stops a running search and waits for it; its move is not played.
    fn halt(&mut self) {
        if !self.searching {
            return;
        }
        self.engine.stop();
        while let Ok(ev) = self.rx.recv() {
            match ev {
                Event::SearchDone(_) => break,
                other => self.pending.push_back(other),
            }
        }
        self.engine.wait();
        self.searching = false;
    }

    fn limits(&self) -> SearchLimits {
        let mut l = SearchLimits {
            depth: self.clock.depth,
            ..Default::default()
        };
        if self.analyzing {
            l.infinite = true;
            return l;
        }
        if let Some(st) = self.clock.st_ms {
            l.movetime = Some(st);
            return l;
        }
        // Foreign Policy's player to move reads its time as White's (two clocks in CECP)
        let (us, moves_made) = match self.engine.three() {
            Some(p) => (Color::White, p.round() - 1),
            None => (
                self.engine.position().chooser(),
                self.engine.position().fullmove_number() - 1,
            ),
        };
        let ours = self.clock.ours_cs.map_or(self.clock.base_ms, |cs| cs * 10);
        l.time[us.index()] = Some(ours);
        l.inc[us.index()] = self.clock.inc_ms;
        if self.clock.mps > 0 {
            let played = moves_made % self.clock.mps;
            l.movestogo = Some(self.clock.mps - played);
        }
        l
    }

    fn start_search(&mut self) {
        self.start_search_with(false);
    }

    fn start_search_with(&mut self, ponder: bool) {
        let mut limits = self.limits();
        limits.ponder = ponder;
        if let Some(turn) = self.engine.turn_description() {
            // 007 family: say whose decision the ply is (a comment line for the GUI's log)
            self.out.line(&format!("# {turn}"));
        }
        let reporter: Arc<dyn Reporter> = if self.post || self.analyzing {
            Arc::new(XbReporter {
                out: self.out.clone(),
            })
        } else {
            Arc::new(Silent)
        };
        let tx = self.tx.clone();
        let done = Box::new(move |done: Finished| {
            let _ = tx.send(Event::SearchDone(Box::new(done)));
        });
        match self.engine.go(limits, reporter, done) {
            Ok(()) => self.searching = true,
            Err(e) => self.error(&e.to_string(), "go"),
        }
    }

    fn claim_result(&mut self) -> bool {
        if self.engine.three().is_some() {
            // CECP's results name two colours: a three-player end is reported as a comment
            return match self.engine.three_result() {
                Some(text) => {
                    self.out.line(&format!("# {text}"));
                    true
                }
                None => false,
            };
        }
        match self.engine.verdict() {
            Some(v) if !self.engine.gui_can_judge() && v.outcome != Outcome::Draw => {
                // XBoard would check a win claim by rules it does not know (the spy, 007
                // turns, compound moves) and could forfeit the winner: the side that is
                // lost resigns instead, and the winner only says why in a comment
                let lost = v.outcome != Outcome::Win(self.engine_side);
                if lost && !self.force {
                    self.out.line("resign");
                }
                self.out
                    .line(&format!("# {} by {}", v.outcome.pgn(), v.reason));
                true
            }
            Some(v) => {
                let who = match v.outcome {
                    Outcome::Win(Color::White) => "White wins",
                    Outcome::Win(Color::Black) => "Black wins",
                    Outcome::Draw => "Draw",
                };
                self.out
                    .line(&format!("{} {{{} by {}}}", v.outcome.pgn(), who, v.reason));
                true
            }
            None => false,
        }
    }

    fn maybe_think(&mut self) {
        // Foreign Policy: `go` moves once for the player to move (C.5), nothing else does
        let our_turn = !self.force
            && (self.engine.three().is_some()
                || self.engine.position().chooser() == self.engine_side);
        if self.analyzing || (our_turn && !self.claim_result()) {
            self.start_search();
        }
    }

    fn finished(&mut self, f: &Finished) {
        self.engine.finish(f.search);
        self.searching = false;
        if self.analyzing {
            return;
        }
        let Some(best) = &f.best else {
            self.claim_result();
            return;
        };
        if self.engine.key() != f.key {
            return;
        }
        for note in &f.notes {
            self.out.line(&format!("# {note}"));
        }
        if self.engine.three().is_some() {
            match self.engine.play_three(best) {
                Ok(()) => {
                    self.out.line(&format!("move {best}"));
                    self.force = true;
                    self.claim_result();
                }
                Err(e) => self.error(&e.to_string(), best),
            }
            return;
        }
        match self.engine.play(best) {
            Ok(m) => {
                self.out
                    .line(&format!("move {}", self.engine.xboard_move_text(m, best)));
                if self.claim_result() || self.force {
                    return;
                }
                // under a turn schedule (007) the engine may choose the next ply too
                if self.engine.position().chooser() == self.engine_side {
                    self.start_search();
                } else if let Some(guess) = &f.ponder {
                    self.start_ponder(guess);
                }
            }
            Err(e) => self.error(&e.to_string(), best),
        }
    }

    /// With `hard`, plays the opponent's expected move on the engine's board and searches the
    /// position after it until the opponent moves (`usermove`: the guess goes on on the clock,
    /// another move takes the guess back).
    fn start_ponder(&mut self, guess: &str) {
        if !self.ponder || self.engine.play(guess).is_err() {
            return;
        }
        // only where the next decision is ours again (a 007 turn may give it to the other side)
        if self.engine.position().chooser() != self.engine_side || self.engine.verdict().is_some() {
            self.engine.undo();
            return;
        }
        self.out.line(&format!("# ponder {guess}"));
        self.ponder_guess = Some(guess.to_string());
        self.start_search_with(true);
        if !self.searching {
            self.ponder_guess = None;
            self.engine.undo();
        }
    }

    /// Ends a ponder search without a move and takes the guess back.
    fn cancel_ponder(&mut self) {
        if self.ponder_guess.take().is_some() {
            self.halt();
            self.engine.undo();
        }
    }

    /// Tells the user, once a variant, where XBoard cannot referee a game between two engines
    /// (it would end in a forfeit or a time loss); a popup, since XBoard hides `#` lines.
    /// Where XBoard can referee the game only with its legality testing off, it says so in an
    /// error popup with the setting to change.
    fn tell_limits(&mut self, name: &str) {
        if self.told_limits.iter().any(|n| n == name) {
            return;
        }
        // `\\` at the start asks XBoard to expand the `\n` escapes of the popup's text
        if let Some(why) = self.engine.gui_cannot_referee() {
            self.out.line(&format!(
                "telluser \\\\Chimera: XBoard cannot referee {name} between two engines\\n({why}).\\n\
                 Play it with chimera match, watch it with chimera serve (docs/protocols.md)."
            ));
        } else if let Some(why) = self.engine.gui_legality_refuses() {
            self.out.line(&format!(
                "tellusererror \\\\Chimera: XBoard's legality testing refuses a legal move of {name}\\n\
                 ({why}), and the engine that plays it forfeits.\\n\
                 Turn it off: Options > General > Test Legality, or xboard -testLegality false."
            ));
        } else {
            return;
        }
        self.told_limits.push(name.to_string());
    }

    fn setup_lines(&self) {
        if self.engine.three().is_some() {
            self.out.line(
                "# foreignpolicy: three players, which XBoard cannot show; play in force mode \
                 with setboard <FP-FEN>, usermove and go (one move for the player to move)",
            );
            return;
        }
        let rules = self.engine.rules();
        // XBoard knows these itself (and shuffles Chess960's start, which a setup would fix)
        if rules.name == "chess" || rules.name == CHESS960 {
            return;
        }
        // XBoard's piece order: P N B R Q, 16 fairy slots, K
        let mut slots = ['.'; 22];
        let mut fairy = 5;
        let mut pieces = Vec::new();
        for t in rules.piece_types() {
            let def = rules.piece(t).expect("type in use");
            let standard = ["fmWfcF", "N", "B", "R", "Q", "K"];
            // a piece keeps the slot its letter has in chess; others take fairy slots
            let slot = match "pnbrqk".find(def.letter) {
                Some(5) => 21,
                Some(i) => i,
                None => {
                    fairy += 1;
                    fairy - 1
                }
            };
            if t.index() >= 6 || def.betza != standard[t.index()] {
                pieces.push((def.letter.to_ascii_uppercase(), def.betza.clone()));
            }
            if slot < slots.len() {
                slots[slot] = def.letter.to_ascii_uppercase();
            }
        }
        let white: String = slots.iter().collect();
        let black: String = slots.iter().map(|c| c.to_ascii_lowercase()).collect();
        // XBoard draws holdings beside the board when the size after '+' is not zero
        let holdings = rules.holdings_size();
        self.out.line(&format!(
            "setup ({white}{black}) {}x{}+{holdings}_fairy {}",
            rules.shape.files,
            rules.shape.ranks,
            rules.gui_start_fen()
        ));
        for (letter, betza) in pieces {
            self.out.line(&format!("piece {letter}& {betza}"));
        }
    }

    fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let guessed = self.ponder_guess.as_deref() == Some(cmd);
        if !KEEP_PONDERING.contains(&cmd) && cmd != "usermove" && !guessed {
            self.cancel_ponder();
        }
        match cmd {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "bk" | "draw" => {}
            "hard" => self.ponder = true,
            "easy" => self.ponder = false,
            "protover" => self.features(),
            "quit" => {
                self.halt();
                return false;
            }
            "ping" => self.out.line(&format!("pong {rest}")),
            // "move now" while pondering: it is not our move
            "?" if self.ponder_guess.is_none() => self.engine.stop(),
            "?" => {}
            "." => {}
            "post" => self.post = true,
            "nopost" => self.post = false,
            "time" => match rest.parse::<u64>() {
                Ok(cs) => self.clock.ours_cs = Some(cs),
                Err(_) => self.error("time needs centiseconds", line),
            },
            "otim" => {
                if rest.parse::<u64>().is_err() {
                    self.error("otim needs centiseconds", line);
                }
            }
            "new" => {
                self.halt();
                let _ = self.engine.set_variant("chess");
                self.engine.new_game();
                self.force = false;
                self.analyzing = false;
                self.engine_side = Color::Black;
                self.clock.depth = None;
                self.clock.st_ms = None;
            }
            "variant" => {
                self.halt();
                let name = if rest == "normal" { "chess" } else { rest };
                match self.engine.set_variant(name) {
                    Ok(()) => {
                        self.setup_lines();
                        self.tell_limits(name);
                        if let Some(note) = self.engine.eval_file_note() {
                            self.out.line(&format!("# {note}"));
                        }
                    }
                    Err(e) => self.error(&e.to_string(), line),
                }
            }
            "force" => {
                self.halt();
                self.force = true;
            }
            "go" => {
                self.halt();
                self.force = false;
                if self.engine.three().is_none() {
                    self.engine_side = self.engine.position().chooser();
                }
                self.maybe_think();
            }
            "playother" if self.engine.three().is_some() => {
                self.error("three players: send go for the player to move", line)
            }
            "d" | "display" => {
                for l in self.engine.board_text().lines() {
                    self.out.line(&format!("# {l}"));
                }
            }
            "playother" => {
                self.halt();
                self.force = false;
                self.engine_side = self.engine.position().chooser().flip();
            }
            "usermove" => self.usermove(rest),
            "level" => self.level(rest, line),
            "st" => match rest.parse::<f64>() {
                Ok(s) if s > 0.0 => self.clock.st_ms = Some((s * 1000.0) as u64),
                _ => self.error("st needs seconds", line),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d > 0 => self.clock.depth = Some(d.min(120)),
                _ => self.error("sd needs a depth", line),
            },
            "setboard" => {
                self.halt();
                if let Err(e) = self.engine.set_position(Some(rest), &[]) {
                    self.out.line("tellusererror Illegal position");
                    self.error(&e.to_string(), line);
                } else if self.analyzing {
                    self.start_search();
                }
            }
            "undo" | "remove" => {
                self.halt();
                let n = if cmd == "undo" { 1 } else { 2 };
                for _ in 0..n {
                    if !self.engine.undo() {
                        self.error("no move to take back", line);
                        break;
                    }
                }
                if self.analyzing {
                    self.start_search();
                }
            }
            "result" => {
                self.halt();
                self.force = true;
            }
            "analyze" => {
                self.halt();
                self.analyzing = true;
                self.start_search();
            }
            "exit" => {
                self.halt();
                self.analyzing = false;
            }
            "hint" => {
                if let Some(guess) = &self.ponder_guess {
                    self.out.line(&format!("Hint: {guess}"));
                } else if !self.searching {
                    let r = self.engine.best_move_at_depth(6);
                    if !r.best.is_none() {
                        self.out
                            .line(&format!("Hint: {}", self.engine.move_text(r.best)));
                    }
                }
            }
            "memory" => match rest.parse::<usize>() {
                Ok(mb) => {
                    self.halt();
                    if let Err(e) = self.engine.set_hash(mb.max(1)) {
                        self.error(&e.to_string(), line);
                    }
                }
                Err(_) => self.error("memory needs megabytes", line),
            },
            "cores" => match rest
                .parse::<usize>()
                .map(|n| self.engine.set_threads(n.max(1)))
            {
                Ok(Ok(())) => {}
                Ok(Err(e)) => self.error(&e.to_string(), line),
                Err(_) => self.error("cores needs a number", line),
            },
            "option" => self.option(rest, line),
            _ => {
                // XBoard without usermove=1 would send bare moves; accept them too
                if guessed || self.engine.is_move(cmd) {
                    self.usermove(cmd);
                } else {
                    self.error("unknown command", line);
                }
            }
        }
        true
    }

    fn usermove(&mut self, mv: &str) {
        if self.ponder_guess.as_deref() == Some(mv) {
            // the guess: the ponder search goes on, now on the clock
            self.ponder_guess = None;
            self.engine.ponderhit();
            return;
        }
        self.cancel_ponder();
        self.halt();
        if self.engine.three().is_some() {
            match self.engine.play_three(mv) {
                Ok(()) => {
                    if !self.claim_result() && !self.force {
                        self.maybe_think();
                    }
                }
                Err(e) => self.out.line(&format!("Illegal move ({e}): {mv}")),
            }
            return;
        }
        match self.engine.play(mv) {
            Ok(_) => {
                if self.analyzing {
                    self.start_search();
                } else if !self.force {
                    self.maybe_think();
                }
            }
            Err(_) => self.out.line(&format!("Illegal move: {mv}")),
        }
    }

    fn level(&mut self, rest: &str, line: &str) {
        let parts: Vec<&str> = rest.split_whitespace().collect();
        let parsed = (|| {
            let [mps, base, inc] = parts.as_slice() else {
                return None;
            };
            let mps = mps.parse::<u32>().ok()?;
            let base_ms = match base.split_once(':') {
                Some((m, s)) => m.parse::<u64>().ok()? * 60_000 + s.parse::<u64>().ok()? * 1000,
                None => (base.parse::<f64>().ok()? * 60_000.0) as u64,
            };
            let inc_ms = (inc.parse::<f64>().ok()? * 1000.0) as u64;
            Some((mps, base_ms, inc_ms))
        })();
        match parsed {
            Some((mps, base, inc)) => {
                self.clock.mps = mps;
                self.clock.base_ms = base;
                self.clock.inc_ms = inc;
                self.clock.st_ms = None;
            }
            None => self.error("level needs MPS BASE INC", line),
        }
    }

    fn option(&mut self, rest: &str, line: &str) {
        let (name, value) = rest.split_once('=').unwrap_or((rest, ""));
        let r = match name.trim() {
            "Clear Hash" => {
                self.halt();
                self.engine.clear_hash();
                Ok(())
            }
            "MultiPV" => value
                .trim()
                .parse::<usize>()
                .map_err(|e| e.to_string())
                .and_then(|n| self.engine.set_multipv(n).map_err(|e| e.to_string())),
            "MultiPlayerSearch" => {
                MultiPlayerSearch::parse(value.trim()).map(|m| self.engine.options.multi_player = m)
            }
            "EvalFile" => {
                self.halt();
                match self.engine.set_eval_file(value) {
                    Ok(d) => {
                        // a comment, not a popup: GUIs send saved options at every start
                        self.out.line(&format!("# {d}"));
                        Ok(())
                    }
                    Err(e) => Err(format!("EvalFile {e}; evaluation unchanged")),
                }
            }
            "VariantPath" => {
                self.halt();
                self.engine
                    .load_variants(value.trim())
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            other => self
                .engine
                .set_search_param(other, value)
                .map_err(|e| e.to_string()),
        };
        if let Err(e) = r {
            self.error(&e, line);
        }
    }
}

fn new_session(rx: Receiver<Event>, tx: Sender<Event>, out: Output) -> Session {
    Session {
        engine: Engine::new(),
        out,
        tx,
        rx,
        pending: VecDeque::new(),
        force: false,
        engine_side: Color::Black,
        post: false,
        analyzing: false,
        searching: false,
        clock: Clock {
            mps: 0,
            base_ms: 60_000,
            inc_ms: 0,
            st_ms: None,
            depth: None,
            ours_cs: None,
        },
        told_limits: Vec::new(),
        ponder: false,
        ponder_guess: None,
    }
}

fn event_loop(mut s: Session) {
    loop {
        let ev = match s.pending.pop_front() {
            Some(e) => e,
            None => match s.rx.recv() {
                Ok(e) => e,
                Err(_) => break,
            },
        };
        match ev {
            Event::Line(l) => {
                if !s.handle(&l) {
                    break;
                }
            }
            Event::Eof => {
                s.halt();
                break;
            }
            Event::SearchDone(f) => s.finished(&f),
        }
    }
}

/// Runs an XBoard session (the `xboard` command has been read).
pub fn session(rx: Receiver<Event>, tx: Sender<Event>, out: Output, _quiet: bool) {
    event_loop(new_session(rx, tx, out));
}

/// Runs an XBoard session whose first line was already `protover N`.
pub fn session_with_first(rx: Receiver<Event>, tx: Sender<Event>, out: Output, first: &str) {
    let mut s = new_session(rx, tx, out);
    s.handle(first);
    event_loop(s);
}
