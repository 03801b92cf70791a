//! UCI. Messages without moves (`id`, `option`, `uciok`, `readyok`) are serialised with
//! vampirc-uci; positions and move lists are parsed with the variant's own rules, because
//! vampirc-uci knows only orthodox squares and truncates a move list at the first move it
//! cannot parse. A move list is accepted whole or rejected whole.

use super::{Event, Finished, Output};
use crate::engine::{
    parse_move, Engine, MultiPlayerSearch, ReportedScore, Reporter, ScoreBound, SearchInfo,
    SearchLimits, CHESS960, EVAL_FILE_DEFAULT, MAX_HASH_MB, MAX_MULTIPV, MAX_THREADS, TUNABLES,
};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use vampirc_uci::{Serializable, UciMessage, UciOptionConfig};

struct UciReporter {
    out: Output,
    show_wdl: bool,
}

/// Formats an `info` line.
pub fn info_line(i: &SearchInfo, show_wdl: bool) -> String {
    let score = match i.score {
        ReportedScore::Cp(cp) => format!("cp {cp}"),
        ReportedScore::Mate(m) => format!("mate {m}"),
    };
    let bound = match i.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let wdl = if show_wdl {
        format!(" wdl {} {} {}", i.wdl.0, i.wdl.1, i.wdl.2)
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        i.nodes,
        i.nps,
        i.hashfull,
        i.time_ms,
        i.pv.join(" ")
    )
}

impl Reporter for UciReporter {
    fn info(&self, i: &SearchInfo) {
        self.out.line(&info_line(i, self.show_wdl));
    }
    fn currmove(&self, mv: &str, number: usize, depth: u32) {
        self.out.line(&format!(
            "info depth {depth} currmove {mv} currmovenumber {number}"
        ));
    }
}

fn options(engine: &Engine) -> Vec<UciOptionConfig> {
    let spin = |name: &str, default: i64, min: i64, max: i64| UciOptionConfig::Spin {
        name: name.into(),
        default: Some(default),
        min: Some(min),
        max: Some(max),
    };
    let check = |name: &str, default: bool| UciOptionConfig::Check {
        name: name.into(),
        default: Some(default),
    };
    let mut list = vec![
        spin("Hash", engine.options.hash_mb as i64, 1, MAX_HASH_MB as i64),
        spin(
            "Threads",
            engine.options.threads as i64,
            1,
            MAX_THREADS as i64,
        ),
        spin(
            "MultiPV",
            engine.options.multipv as i64,
            1,
            MAX_MULTIPV as i64,
        ),
        UciOptionConfig::Button {
            name: "Clear Hash".into(),
        },
        check("Ponder", false),
        spin(
            "Move Overhead",
            engine.options.move_overhead as i64,
            0,
            5000,
        ),
        UciOptionConfig::Combo {
            name: "MultiPlayerSearch".into(),
            default: Some(engine.options.multi_player.name().into()),
            var: MultiPlayerSearch::NAMES
                .iter()
                .map(|s| s.to_string())
                .collect(),
        },
        UciOptionConfig::Combo {
            name: "UCI_Variant".into(),
            default: Some(engine.rules().name.clone()),
            var: engine.variant_names(),
        },
        UciOptionConfig::String {
            name: "VariantPath".into(),
            default: Some("<empty>".into()),
        },
        UciOptionConfig::String {
            name: "EvalFile".into(),
            default: Some(EVAL_FILE_DEFAULT.into()),
        },
        check("UCI_AnalyseMode", false),
        check("UCI_Chess960", false),
        check("UCI_ShowWDL", false),
    ];
    if super::tunables_offered() {
        let now = engine.options.params.values();
        for (t, v) in TUNABLES.iter().zip(now) {
            list.push(spin(t.name, v as i64, t.min as i64, t.max as i64));
        }
    }
    list
}

/// The `info string variant ...` line GUIs use to set up the board (Fairy-Stockfish's format).
pub fn variant_line(engine: &Engine) -> String {
    if let Some(p) = engine.three() {
        // three players: no GUI draws this board; the line still says what is played
        return format!(
            "info string variant {} players 3 files 8 ranks 8 pocket 0 startpos {}",
            engine.variant_name(),
            p.to_fen()
        );
    }
    let r = engine.rules();
    format!(
        "info string variant {} files {} ranks {} pocket {} template fairy startpos {}",
        r.name,
        r.shape.files,
        r.shape.ranks,
        r.holdings_size(),
        r.gui_start_fen()
    )
}

struct Session {
    engine: Engine,
    position_set: bool,
    infinite: bool,
    /// Searches started whose `bestmove` is not written yet.
    pending_searches: u32,
    /// `UCI_Chess960`: chess is played as Chess960 (the variant `fischerandom`).
    chess960: bool,
    out: Output,
    tx: Sender<Event>,
}

/// The variant `UCI_Variant = name` means under `UCI_Chess960 = chess960`.
fn variant_with_960(name: &str, chess960: bool) -> &str {
    match (name, chess960) {
        ("chess", true) => CHESS960,
        (CHESS960, false) => "chess",
        _ => name,
    }
}

impl Session {
    fn error(&self, msg: &str) {
        self.out.line(&format!("info string error: {msg}"));
    }

    fn setoption(&mut self, rest: &str) {
        // setoption name <id with spaces> [value <x with spaces>]
        let Some(after_name) = rest.trim().strip_prefix("name") else {
            return self.error("setoption needs 'name <option>'");
        };
        let (name, value) = match after_name.find(" value") {
            Some(i) => (after_name[..i].trim(), Some(after_name[i + 6..].trim())),
            None => (after_name.trim(), None),
        };
        let lower = name.to_ascii_lowercase();
        let num = |v: Option<&str>| -> Result<usize, String> {
            v.ok_or_else(|| format!("option '{name}' needs a value"))?
                .parse::<usize>()
                .map_err(|_| format!("option '{name}' needs a whole number"))
        };
        let flag = |v: Option<&str>| -> Result<bool, String> {
            match v.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => Ok(true),
                Some("false") => Ok(false),
                _ => Err(format!("option '{name}' takes true or false")),
            }
        };
        let result: Result<(), String> = match lower.as_str() {
            "hash" => num(value).and_then(|n| self.engine.set_hash(n).map_err(|e| e.to_string())),
            "threads" => {
                num(value).and_then(|n| self.engine.set_threads(n).map_err(|e| e.to_string()))
            }
            "multipv" => {
                num(value).and_then(|n| self.engine.set_multipv(n).map_err(|e| e.to_string()))
            }
            "clear hash" => {
                self.engine.clear_hash();
                Ok(())
            }
            "ponder" | "uci_analysemode" => flag(value).map(|_| ()),
            "uci_showwdl" => flag(value).map(|b| self.engine.options.show_wdl = b),
            "move overhead" => num(value).and_then(|n| {
                if n <= 5000 {
                    self.engine.options.move_overhead = n as u64;
                    Ok(())
                } else {
                    Err("Move Overhead must be 0..5000".into())
                }
            }),
            "multiplayersearch" => match value {
                Some(v) => {
                    MultiPlayerSearch::parse(v).map(|m| self.engine.options.multi_player = m)
                }
                None => Err("MultiPlayerSearch needs a value".into()),
            },
            "uci_chess960" => flag(value).and_then(|on| {
                self.chess960 = on;
                let now = self.engine.rules().name.clone();
                let wanted = variant_with_960(&now, on);
                if wanted == now {
                    return Ok(());
                }
                self.engine
                    .set_variant(wanted)
                    .map_err(|e| e.to_string())
                    .map(|_| self.out.line(&variant_line(&self.engine)))
            }),
            "uci_variant" => match value {
                Some(v) => self
                    .engine
                    .set_variant(variant_with_960(v, self.chess960))
                    .map_err(|e| e.to_string())
                    .map(|_| {
                        self.out.line(&variant_line(&self.engine));
                        if let Some(note) = self.engine.eval_file_note() {
                            self.out.line(&format!("info string {note}"));
                        }
                    }),
                None => Err("UCI_Variant needs a value".into()),
            },
            "evalfile" => self
                .engine
                .set_eval_file(value.unwrap_or(""))
                .map_err(|e| format!("EvalFile {e}; evaluation unchanged"))
                .map(|d| self.out.line(&format!("info string {d}"))),
            "variantpath" => match value {
                Some("<empty>") | Some("") | None => Ok(()),
                Some(path) => self
                    .engine
                    .load_variants(path)
                    .map_err(|e| e.to_string())
                    .map(|names| {
                        self.out.line(&format!(
                            "info string loaded {} variant(s) from {path}: {}",
                            names.len(),
                            names.join(" ")
                        ));
                    }),
            },
            _ => self
                .engine
                .set_search_param(name, value.unwrap_or(""))
                .map_err(|e| e.to_string()),
        };
        if let Err(e) = result {
            self.error(&e);
        }
    }

    fn position(&mut self, rest: &str) {
        let tokens: Vec<&str> = rest.split_whitespace().collect();
        let moves_at = tokens.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&tokens[..i], &tokens[i + 1..]),
            None => (&tokens[..], &[][..]),
        };
        let fen = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => None,
            Some(&"fen") if setup.len() >= 3 => Some(setup[1..].join(" ")),
            _ => return self.error("expected 'position startpos|fen <FEN> [moves ...]'"),
        };
        match self.engine.set_position(fen.as_deref(), moves) {
            Ok(()) => self.position_set = true,
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn go(&mut self, rest: &str) {
        let tokens: Vec<&str> = rest.split_whitespace().collect();
        let mut limits = SearchLimits::default();
        let mut i = 0;
        const KEYWORDS: [&str; 13] = [
            "depth",
            "nodes",
            "movetime",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "infinite",
            "mate",
            "searchmoves",
            "ponder",
            "perft",
        ];
        while i < tokens.len() {
            let key = tokens[i];
            let val = tokens.get(i + 1).copied();
            let num = |v: Option<&str>| -> Result<u64, String> {
                v.and_then(|s| s.parse::<i64>().ok())
                    .map(|n| n.max(0) as u64)
                    .ok_or_else(|| format!("'go {key}' needs a number"))
            };
            let r: Result<usize, String> = match key {
                "depth" => num(val).map(|n| {
                    limits.depth = Some(n.clamp(1, 120) as u32);
                    2
                }),
                "nodes" => num(val).map(|n| {
                    limits.nodes = Some(n.max(1));
                    2
                }),
                "movetime" => num(val).map(|n| {
                    limits.movetime = Some(n);
                    2
                }),
                "wtime" => num(val).map(|n| {
                    limits.time[0] = Some(n);
                    2
                }),
                "btime" => num(val).map(|n| {
                    limits.time[1] = Some(n);
                    2
                }),
                "winc" => num(val).map(|n| {
                    limits.inc[0] = n;
                    2
                }),
                "binc" => num(val).map(|n| {
                    limits.inc[1] = n;
                    2
                }),
                "movestogo" => num(val).map(|n| {
                    limits.movestogo = Some(n.clamp(1, 1000) as u32);
                    2
                }),
                "mate" => num(val).map(|n| {
                    limits.mate = Some(n.clamp(1, 60) as u32);
                    limits.depth = Some((2 * n as u32).clamp(1, 120));
                    2
                }),
                "infinite" => {
                    limits.infinite = true;
                    Ok(1)
                }
                "ponder" => {
                    limits.ponder = true;
                    Ok(1)
                }
                "perft" => {
                    return match num(val) {
                        Ok(d) => self.perft(d.min(20) as u32),
                        Err(e) => self.error(&e),
                    };
                }
                "searchmoves" => {
                    let mut j = i + 1;
                    let mut pos = self.engine.position().clone();
                    let mut err = None;
                    while j < tokens.len() && !KEYWORDS.contains(&tokens[j]) {
                        let parsed = match self.engine.three() {
                            Some(p) => p.parse_move(tokens[j]).map_err(|e| e.to_string()),
                            None => parse_move(&mut pos, tokens[j]).map_err(|e| e.to_string()),
                        };
                        match parsed {
                            Ok(m) => limits.searchmoves.push(m),
                            Err(e) => {
                                err = Some(e.to_string());
                                break;
                            }
                        }
                        j += 1;
                    }
                    match err {
                        Some(e) => Err(format!("searchmoves: {e}")),
                        None => Ok(j - i),
                    }
                }
                other => Err(format!("unknown 'go' parameter '{other}'")),
            };
            match r {
                Ok(n) => i += n,
                Err(e) => return self.error(&e),
            }
        }
        if !self.position_set {
            self.out
                .line("info string no position was set: searching the start position");
        }
        if let Some(turn) = self.engine.turn_description() {
            // 007 family: `go` answers one ply for the chooser of the next ply
            self.out.line(&format!("info string {turn}"));
        }
        let reporter = Arc::new(UciReporter {
            out: self.out.clone(),
            show_wdl: self.engine.options.show_wdl,
        });
        let tx = self.tx.clone();
        let done = Box::new(move |done: Finished| {
            let _ = tx.send(Event::SearchDone(Box::new(done)));
        });
        self.infinite = limits.infinite || limits.ponder;
        match self.engine.go(limits, reporter, done) {
            Ok(()) => self.pending_searches += 1,
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn perft(&mut self, depth: u32) {
        let d = self.engine.divide(depth.max(1));
        let total: u64 = d.iter().map(|x| x.1).sum();
        for (m, n) in &d {
            self.out.line(&format!("{m}: {n}"));
        }
        self.out.line("");
        self.out.line(&format!(
            "Nodes searched: {}",
            if depth == 0 { 1 } else { total }
        ));
        self.out.line("");
    }

    fn engine_has_pending(&self) -> bool {
        self.pending_searches > 0
    }

    fn bestmove(&mut self, f: &Finished) {
        self.pending_searches = self.pending_searches.saturating_sub(1);
        for note in &f.notes {
            self.out.line(&format!("info string {note}"));
        }
        let line = match (&f.best, &f.ponder) {
            (None, _) => "bestmove (none)".to_string(),
            (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
            (Some(b), None) => format!("bestmove {b}"),
        };
        self.out.line(&line);
    }

    /// Handles one line; returns false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let busy = self.engine.is_searching();
        match cmd {
            "" => {}
            "uci" => self.identify(),
            "isready" => self.out.line(&UciMessage::ReadyOk.serialize()),
            "quit" => {
                self.engine.stop();
                self.engine.wait();
                return false;
            }
            "stop" => {
                self.infinite = false;
                self.engine.stop()
            }
            "ponderhit" => self.engine.ponderhit(),
            "help" => {
                for l in HELP.lines() {
                    self.out.line(l);
                }
            }
            _ if busy => self.error(&format!("'{cmd}' ignored while searching; send stop first")),
            "ucinewgame" => self.engine.new_game(),
            "setoption" => self.setoption(rest),
            "position" => self.position(rest),
            "go" => self.go(rest),
            "d" => {
                for l in self.engine.board_text().lines() {
                    self.out.line(l);
                }
            }
            _ => self.error(&format!(
                "unknown command '{cmd}' ('help' lists the commands)"
            )),
        }
        true
    }

    fn identify(&self) {
        let id = UciMessage::Id {
            name: Some(format!("Chimera {}", env!("CARGO_PKG_VERSION"))),
            author: None,
        };
        self.out.line(&id.serialize());
        self.out.line(
            &UciMessage::Id {
                name: None,
                author: Some("the Chimera developers".into()),
            }
            .serialize(),
        );
        for o in options(&self.engine) {
            self.out.line(&UciMessage::Option(o).serialize());
        }
        self.out.line(&UciMessage::UciOk.serialize());
    }
}

/// What `help` prints: the commands a person can type.
const HELP: &str = "\
UCI commands (the engine speaks UCI unless the first command is 'xboard'):
  uci                         name the engine and list its options
  isready                     answers readyok
  setoption name N value V    set an option (UCI_Variant, Hash, Threads, MultiPV, EvalFile, ...)
  ucinewgame                  forget the game (histories, table)
  position startpos|fen FEN [moves M1 M2 ...]
                              set the position (in the variant chosen with UCI_Variant)
  go [depth D] [nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS] [infinite]
                              search; 'go perft D' counts the move tree
  stop                        end the search and print its best move
  d                           draw the board with its FEN and key
  help                        this list
  quit                        leave
From the shell: 'chimera --help' lists the subcommands (perft, bench, match, serve, ...).";

/// Runs a UCI session (the `uci` command has been read).
pub fn session(rx: Receiver<Event>, tx: Sender<Event>, out: Output) {
    session_with_first(rx, tx, out, "uci")
}

/// Runs a UCI session whose first command, `first`, has been read.
pub fn session_with_first(rx: Receiver<Event>, tx: Sender<Event>, out: Output, first: &str) {
    let mut s = Session {
        engine: Engine::new(),
        position_set: false,
        infinite: false,
        pending_searches: 0,
        chess960: false,
        out,
        tx,
    };
    if !s.handle(first) {
        return;
    }
    while let Ok(ev) = rx.recv() {
        match ev {
            Event::Line(l) => {
                if !s.handle(&l) {
                    break;
                }
            }
            Event::Eof => {
                // finish a bounded search so piped scripts get their bestmove
                if s.engine.is_searching() || s.engine_has_pending() {
                    if s.infinite {
                        s.engine.stop();
                    }
                    while let Ok(ev) = rx.recv() {
                        if let Event::SearchDone(f) = ev {
                            s.engine.finish(f.search);
                            s.bestmove(&f);
                            if !s.engine_has_pending() {
                                break;
                            }
                        }
                    }
                }
                break;
            }
            Event::SearchDone(f) => {
                // by its number: a report read after the next `go` started must not wait for it
                s.engine.finish(f.search);
                s.bestmove(&f);
            }
        }
    }
}
