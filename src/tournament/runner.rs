//! Running a match: the schedule of games, worker threads playing them concurrently, the
//! PGN file, the progress lines, the statistics and the SPRT stop.
//!
//! Game `i` (from 0) has its number `i + 1` (the PGN `Round` tag), its opening
//! (`i`, or `i / 2` with `-repeat`) and its colours (the first engine is White in even games),
//! all fixed by `i`, so `-resume` can skip exactly the games a file already holds. Each worker
//! keeps its own engine processes between games and starts a fresh one after any failure.
//! Finished games are written whole, one at a time under a lock.

use super::client::Client;
use super::config::MatchConfig;
use super::observer::{reporter, GameObserver, ObservedGame};
use super::openings::{self, Opening};
use super::referee::{self, GameRecord, GameSetup};
use super::stats::{SprtState, Wdl};
use super::timecontrol::Clock;
use crate::engine::pgn::{read_games, render, today, PgnGame};
use crate::geometry::Color;
use crate::position::Position;
use crate::position::Variant;
use crate::rules::builtin_variants;
use crate::rules::outcome::Outcome;
use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Prints a line to standard output, ignoring a closed pipe.
fn say(s: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{s}");
    let _ = out.flush();
}

/// What the workers share.
struct Shared {
    /// Next game index to consider.
    next: usize,
    /// Game indices already finished (by an earlier run).
    done: HashSet<usize>,
    /// Results from the first engine's side.
    wdl: Wdl,
    /// Games finished in this run and before.
    finished: usize,
    /// The PGN file.
    pgn: Option<std::fs::File>,
    /// No more games are started (SPRT decided, or an error).
    stop: bool,
    /// A fatal error (an engine that can no longer be started, a PGN write error).
    error: Option<String>,
}

/// How a match ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    /// All games were played (or the SPRT decided).
    Complete,
    /// Ctrl-C: the finished games are saved.
    Interrupted,
}

/// Everything fixed for the whole match.
struct Plan<'a> {
    cfg: &'a MatchConfig,
    rules: &'static Variant,
    openings: Vec<Opening>,
    total: usize,
    interrupt: &'a AtomicBool,
    observer: Option<&'a dyn GameObserver>,
}

impl Plan<'_> {
    /// Engine index of each seat (colour) in game `i`.
    fn seats(&self, i: usize) -> [usize; 2] {
        if i.is_multiple_of(2) {
            [0, 1]
        } else {
            [1, 0]
        }
    }

    fn opening(&self, i: usize) -> &Opening {
        let k = if self.cfg.repeat { i / 2 } else { i };
        &self.openings[k % self.openings.len()]
    }
}

/// The result of game `rec` from the first engine's side.
fn tally(wdl: &mut Wdl, outcome: Outcome, first_is_white: bool) {
    match outcome {
        Outcome::Draw => wdl.draws += 1,
        Outcome::Win(c) if (c == Color::White) == first_is_white => wdl.wins += 1,
        Outcome::Win(_) => wdl.losses += 1,
    }
}

/// Reads an existing PGN for `-resume`: the finished game numbers and their results; cuts a
/// torn last game off the file.
fn resume_from(
    path: &str,
    cfg: &MatchConfig,
    done: &mut HashSet<usize>,
    wdl: &mut Wdl,
) -> Result<(), String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot read '{path}' to resume: {e}")),
    };
    let games = read_games(&text);
    let mut keep = 0;
    for g in &games {
        let Some(result) = g.result.as_deref() else {
            break;
        };
        keep = g.end;
        let (Some(white), Some(black)) = (g.tag("White"), g.tag("Black")) else {
            return Err(format!(
                "'{path}': a game without White/Black tags; cannot resume"
            ));
        };
        let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
        let first_is_white = match (white, black) {
            (w, b) if w == names[0] && b == names[1] => true,
            (w, b) if w == names[1] && b == names[0] => false,
            _ => {
                return Err(format!(
                    "'{path}' holds a game of {white} vs {black}, not of this match's engines ({} and {}); use another file",
                    names[0], names[1]
                ))
            }
        };
        let n: usize = g
            .tag("Round")
            .and_then(|r| r.parse().ok())
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("'{path}': a game without a Round number; cannot resume"))?;
        if !done.insert(n - 1) {
            continue;
        }
        let outcome = match result {
            "1-0" => Outcome::Win(Color::White),
            "0-1" => Outcome::Win(Color::Black),
            "1/2-1/2" => Outcome::Draw,
            _ => {
                done.remove(&(n - 1));
                continue;
            }
        };
        tally(wdl, outcome, first_is_white);
    }
    if keep < text.len() && text[keep..].trim().is_empty() {
        return Ok(());
    }
    if keep < text.len() {
        eprintln!("chimera: '{path}': dropping an unfinished game at the end of the file");
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open '{path}': {e}"))?;
        f.set_len(keep as u64)
            .map_err(|e| format!("cannot truncate '{path}': {e}"))?;
    }
    Ok(())
}

/// The score line and, when asked, the Elo estimate.
fn score_lines(cfg: &MatchConfig, w: &Wdl, full: bool) -> Vec<String> {
    let mut out = vec![format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        cfg.engines[0].name,
        cfg.engines[1].name,
        w.wins,
        w.losses,
        w.draws,
        w.score(),
        w.games()
    )];
    if full {
        let elo = match w.elo() {
            // adding 0.0 turns -0.0 into 0.0
            Some((e, m)) => format!("{:.1} +/- {:.1}", e + 0.0, m),
            None if w.games() == 0 => "-".into(),
            None if w.score() >= 1.0 => "+inf".into(),
            None => "-inf".into(),
        };
        out.push(format!(
            "Elo difference: {elo}, LOS: {:.1} %, DrawRatio: {:.1} %",
            w.los(),
            w.draw_ratio()
        ));
    }
    if let Some(s) = cfg.sprt {
        let (lo, hi) = s.bounds();
        let llr = s.llr(w);
        let state = match s.state(w) {
            SprtState::H0 => "H0 was accepted",
            SprtState::H1 => "H1 was accepted",
            SprtState::Continue => "no decision yet",
        };
        out.push(format!(
            "SPRT: llr {llr:.3} ({:.1}%), lbound {lo:.2}, ubound {hi:.2} - {state}",
            100.0 * llr / hi
        ));
    }
    out
}

/// PGN tags of a finished game.
fn tags(
    plan: &Plan,
    number: usize,
    seats: [usize; 2],
    rec: &GameRecord,
    fen: Option<&str>,
) -> Vec<(&'static str, String)> {
    let cfg = plan.cfg;
    let (we, be) = (&cfg.engines[seats[0]], &cfg.engines[seats[1]]);
    let mut t = vec![
        ("Event", cfg.event.clone()),
        ("Site", cfg.site.clone()),
        ("Date", today()),
        ("Round", number.to_string()),
        ("White", we.name.clone()),
        ("Black", be.name.clone()),
        ("Result", rec.outcome.pgn().to_string()),
        ("Variant", plan.rules.name.clone()),
    ];
    if let Some(f) = fen {
        t.push(("FEN", f.to_string()));
        t.push(("SetUp", "1".into()));
    }
    let (wt, bt) = (we.limits.pgn_tag(), be.limits.pgn_tag());
    if wt == bt {
        t.push(("TimeControl", wt));
    } else {
        t.push(("WhiteTimeControl", wt));
        t.push(("BlackTimeControl", bt));
    }
    t.push(("PlyCount", rec.moves.len().to_string()));
    t.push(("Termination", rec.termination.tag().to_string()));
    t
}

/// One worker: takes games until there are none left.
fn worker(plan: &Plan, shared: &Mutex<Shared>) {
    let cfg = plan.cfg;
    let mut clients: Vec<Option<Client>> = vec![None, None];
    loop {
        if plan.interrupt.load(Ordering::Relaxed) {
            break;
        }
        let index = {
            let Ok(mut s) = shared.lock() else { break };
            if s.stop {
                break;
            }
            while s.next < plan.total && s.done.contains(&s.next) {
                s.next += 1;
            }
            if s.next >= plan.total {
                break;
            }
            s.next += 1;
            s.next - 1
        };
        let seats = plan.seats(index);
        // engines for both seats, fresh where needed
        let mut ready = Vec::new();
        for &e in &seats {
            let c = match clients[e].take() {
                Some(c) => Ok(c),
                None => Client::start(&cfg.engines[e], &cfg.variant, cfg.debug, plan.interrupt),
            };
            match c {
                Ok(c) => ready.push(c),
                Err(e) => {
                    if let Ok(mut s) = shared.lock() {
                        if !plan.interrupt.load(Ordering::Relaxed) {
                            s.error.get_or_insert(e);
                        }
                        s.stop = true;
                    }
                    for c in ready {
                        c.quit();
                    }
                    for c in clients.iter_mut().filter_map(Option::take) {
                        c.quit();
                    }
                    return;
                }
            }
        }
        say(&format!(
            "Started game {} of {} ({} vs {})",
            index + 1,
            plan.total,
            cfg.engines[seats[0]].name,
            cfg.engines[seats[1]].name
        ));
        let opening = plan.opening(index);
        let start = match &opening.fen {
            Some(f) => Position::from_fen(plan.rules, f),
            None => Ok(Position::startpos(plan.rules)),
        };
        let Ok(start) = start else {
            // validated when the openings were loaded
            break;
        };
        let observed = ObservedGame {
            number: index + 1,
            variant: cfg.variant.clone(),
            players: seats.iter().map(|&e| cfg.engines[e].name.clone()).collect(),
            start_fen: opening.fen.clone(),
            moves: opening.moves.clone(),
            result: None,
        };
        let report = plan.observer.map(|o| reporter(o, &observed));
        if let Some(o) = plan.observer {
            o.update(&observed);
        }
        let setup = GameSetup {
            start,
            opening: &opening.moves,
            fen: opening.fen.as_deref(),
            adjudication: cfg.adjudication,
            on_move: report.as_ref().map(|r| r as &(dyn Fn(&[String]) + Sync)),
        };
        let mut clocks: Vec<Clock> = seats
            .iter()
            .map(|&e| Clock::new(cfg.engines[e].limits.clock))
            .collect();
        let margins: Vec<u64> = seats
            .iter()
            .map(|&e| cfg.engines[e].limits.margin_ms)
            .collect();
        let record = referee::play(
            &setup,
            &mut ready,
            &mut clocks,
            &margins,
            &cfg.variant,
            plan.interrupt,
        );
        let Some(rec) = record else {
            // interrupted: the game is abandoned and not written
            for c in ready {
                c.quit();
            }
            break;
        };
        for (seat, mut c) in ready.into_iter().enumerate() {
            if rec.failed[seat] || c.restart_each_game() {
                c.quit();
            } else {
                c.game_over(rec.outcome.pgn(), &rec.reason);
                clients[seats[seat]] = Some(c);
            }
        }
        if let Some(o) = plan.observer {
            o.update(&ObservedGame {
                moves: spelled(&rec),
                result: Some(format!("{} {{{}}}", rec.outcome.pgn(), rec.reason)),
                ..observed.clone()
            });
        }
        let text = render(&PgnGame {
            tags: tags(plan, index + 1, seats, &rec, opening.fen.as_deref()),
            start: &rec.start,
            moves: &rec.moves,
            result: rec.outcome.pgn(),
            comment: &rec.reason,
        });
        let Ok(mut s) = shared.lock() else { break };
        if let Some(f) = s.pgn.as_mut() {
            if let Err(e) = f.write_all(text.as_bytes()).and_then(|()| f.flush()) {
                s.error
                    .get_or_insert(format!("cannot write the PGN file: {e}"));
                s.stop = true;
            }
        }
        tally(&mut s.wdl, rec.outcome, seats[0] == 0);
        s.finished += 1;
        say(&format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            index + 1,
            cfg.engines[seats[0]].name,
            cfg.engines[seats[1]].name,
            rec.outcome.pgn(),
            rec.reason
        ));
        let interval = cfg.rating_interval as usize;
        let full = interval > 0 && s.finished.is_multiple_of(interval);
        for l in score_lines(cfg, &s.wdl, full) {
            say(&l);
        }
        if let Some(t) = cfg.sprt {
            if t.state(&s.wdl) != SprtState::Continue {
                s.stop = true;
            }
        }
    }
    for c in clients.into_iter().flatten() {
        c.quit();
    }
}

/// A finished game's moves in canonical spelling.
fn spelled(rec: &GameRecord) -> Vec<String> {
    let mut pos = rec.start.clone();
    rec.moves
        .iter()
        .map(|&m| {
            let text = crate::movegen::move_to_string(&pos, m).to_string();
            pos.make(m);
            text
        })
        .collect()
}

/// Plays the match. Errors are configuration errors found before the first game, or a fatal
/// error during the match (the games finished before it are saved).
pub fn run(
    cfg: &MatchConfig,
    interrupt: &AtomicBool,
    observer: Option<&dyn GameObserver>,
) -> Result<Ending, String> {
    crate::geometry::attacks::init();
    let mut set = builtin_variants();
    if let Some(f) = &cfg.variants_file {
        set.load_file(f).map_err(|e| e.to_string())?;
    }
    let rules = set.get(&cfg.variant).ok_or_else(|| {
        format!(
            "unknown variant '{}' (known: {})",
            cfg.variant,
            set.names().join(", ")
        )
    })?;
    let openings = match &cfg.openings {
        Some(spec) => openings::load(spec, rules)?,
        // Chess960 without a book: every start position, in the order -srand shuffles them to
        None if rules.chess960 => {
            let all =
                openings::OpeningsSpec::chess960((0..960).collect(), true, cfg.srand.unwrap_or(0));
            openings::load(&all, rules)?
        }
        None => vec![Opening::default()],
    };
    // Start each engine once: a wrong command, protocol, option or variant is an error now,
    // not a forfeit in every game.
    for e in &cfg.engines {
        let c = Client::start(e, &cfg.variant, cfg.debug, interrupt)?;
        if !c.can_set_position() && openings.iter().any(|o| o.fen.is_some()) {
            c.quit();
            return Err(format!(
                "engine '{}' cannot set up a position (its XBoard features lack setboard), and the openings are positions; use openings from the start position (a PGN file of moves)",
                e.name
            ));
        }
        c.quit();
    }
    let total = (cfg.games as usize) * (cfg.rounds as usize);
    let mut done = HashSet::new();
    let mut wdl = Wdl::default();
    let pgn = match &cfg.pgnout {
        Some(path) => {
            if cfg.resume {
                resume_from(path, cfg, &mut done, &mut wdl)?;
            }
            Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open the PGN file '{path}': {e}"))?,
            )
        }
        None if cfg.resume => return Err("-resume needs -pgnout FILE".into()),
        None => None,
    };
    if !done.is_empty() {
        say(&format!(
            "Resuming: {} of {total} games already in the PGN file",
            done.len()
        ));
    }
    let plan = Plan {
        cfg,
        rules,
        openings,
        total,
        interrupt,
        observer,
    };
    let shared = Mutex::new(Shared {
        next: 0,
        finished: done.len(),
        done,
        wdl,
        pgn,
        stop: false,
        error: None,
    });
    let workers = cfg.concurrency.min(total.max(1));
    std::thread::scope(|scope| {
        for w in 0..workers {
            let plan = &plan;
            let shared = &shared;
            let spawned = std::thread::Builder::new()
                .name(format!("match worker {w}"))
                .spawn_scoped(scope, move || worker(plan, shared));
            if let Err(e) = spawned {
                if let Ok(mut s) = shared.lock() {
                    s.error
                        .get_or_insert(format!("cannot start a worker thread: {e}"));
                }
            }
        }
    });
    let s = shared
        .into_inner()
        .map_err(|_| "a match worker panicked".to_string())?;
    if interrupt.load(Ordering::Relaxed) {
        say("Interrupted: the PGN holds every finished game");
    }
    for l in score_lines(cfg, &s.wdl, true) {
        say(&l);
    }
    say("Finished match");
    if let Some(e) = s.error {
        return Err(e);
    }
    Ok(if interrupt.load(Ordering::Relaxed) {
        Ending::Interrupted
    } else {
        Ending::Complete
    })
}
