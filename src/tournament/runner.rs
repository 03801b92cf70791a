//! Running a match or a tournament of two-seat games: worker threads taking games from the
//! schedule (`schedule`) and playing them concurrently, the PGN file, the progress lines, the
//! statistics, the SPRT stop (two engines) and the ratings and crosstable (more).
//!
//! Each game's `Round` tag names it for good (see `schedule`), so `-resume` finds exactly the
//! games a file already holds and feeds their results to the schedule instead of playing
//! them. Each worker keeps the engine processes of its last game, reuses those its next game
//! needs and starts a fresh one after any failure. Finished games are written whole, one at
//! a time under a lock.

use super::client::{Client, Proto};
use super::config::MatchConfig;
use super::observer::{reporter, GameObserver, ObservedGame};
use super::openings::{self, Opening};
use super::rating::Table;
use super::referee::{self, GameRecord, GameSetup};
use super::schedule::{Kind, Next, Schedule, Slot};
use super::stats::{Pentanomial, Sprt, SprtState, Wdl};
use super::timecontrol::Clock;
use super::workers::{cut_torn_game, open_pgn, run_workers, say, Pool};
use crate::engine::pgn::{read_games, render, today, PgnGame};
use crate::geometry::Color;
use crate::position::Position;
use crate::position::Variant;
use crate::rules::builtin_variants;
use crate::rules::outcome::Outcome;
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// A game an earlier run finished, from the PGN file.
#[derive(Clone, Debug)]
struct Finished {
    white: String,
    black: String,
    white_score: f64,
}

/// The game pairs of a two-engine match with `-repeat`, whose games `2j` and `2j + 1` (in
/// the schedule's order) share an opening with colours reversed.
#[derive(Default)]
struct Pairs {
    /// The first engine's score in the one finished game of a pair, by pair number.
    waiting: HashMap<usize, f64>,
    /// The finished pairs.
    counts: Pentanomial,
}

impl Pairs {
    /// Whether `cfg`'s games come in pairs.
    fn of(cfg: &MatchConfig) -> Option<Pairs> {
        let paired = cfg.repeat && cfg.engines.len() == 2 && cfg.tournament != Kind::Knockout;
        paired.then(Pairs::default)
    }

    fn add(&mut self, slot: &Slot, white_score: f64) {
        let first = if slot.seats[0] == 0 {
            white_score
        } else {
            1.0 - white_score
        };
        let pair = (slot.number - 1) / 2;
        match self.waiting.remove(&pair) {
            Some(other) => self.counts.add(other, first),
            None => {
                self.waiting.insert(pair, first);
            }
        }
    }
}

/// What the workers share.
struct Shared {
    /// The games still to hand out.
    schedule: Schedule,
    /// Games an earlier run finished, by `Round` tag, not yet fed to the schedule.
    done: HashMap<String, Finished>,
    /// The results between every pair.
    table: Table,
    /// The game pairs, where the games come in pairs (the SPRT then counts pairs).
    pairs: Option<Pairs>,
    /// Games finished in this run and before.
    finished: usize,
    /// Games being played.
    running: usize,
    /// The PGN file.
    pgn: Option<std::fs::File>,
    /// No more games are started (SPRT decided, or an error).
    stop: bool,
    /// A fatal error (an engine that can no longer be started, a PGN write error).
    error: Option<String>,
    /// The SPRT's decision, fixed when first reached: a game still being played then
    /// is counted in the score but cannot undo the verdict.
    verdict: Option<SprtState>,
}

impl Shared {
    /// The result of the game of `slot`, played now or by an earlier run: into the table
    /// and the schedule (a knockout pairs its next stage from it).
    fn result(&mut self, slot: &Slot, white_score: f64) {
        let [w, b] = slot.seats;
        self.table.add(w, b, white_score);
        if let Some(p) = &mut self.pairs {
            p.add(slot, white_score);
        }
        self.schedule.record(&slot.round, white_score);
    }

    /// The finished game pairs, where the games come in pairs.
    fn pentanomial(&self) -> Option<&Pentanomial> {
        self.pairs.as_ref().map(|p| &p.counts)
    }

    /// Fixes the SPRT's verdict (and stops the event) the first time the test decides.
    fn judge(&mut self, sprt: Option<Sprt>) {
        let Some(t) = sprt else { return };
        if self.verdict.is_none() {
            let state = t.decide(sprt_llr(&t, &self.table.pair(0, 1), self.pentanomial()));
            if state != SprtState::Continue {
                self.verdict = Some(state);
                self.stop = true;
            }
        }
    }
}

/// The SPRT's log-likelihood ratio: over game pairs where the games come in pairs, else over
/// games.
fn sprt_llr(t: &Sprt, w: &Wdl, pairs: Option<&Pentanomial>) -> f64 {
    match pairs {
        Some(p) => t.llr_pairs(p),
        None => t.llr(w),
    }
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
    /// The number of games, where the results cannot change it.
    total: Option<usize>,
    interrupt: &'a AtomicBool,
    observer: Option<&'a dyn GameObserver>,
    /// Signalled when a game finishes (a knockout may have new games then).
    wake: Condvar,
}

impl Plan<'_> {
    fn opening(&self, slot: &Slot) -> &Opening {
        &self.openings[slot.opening % self.openings.len()]
    }

    fn name(&self, engine: usize) -> &str {
        &self.cfg.engines[engine].name
    }

    fn names(&self) -> Vec<String> {
        self.cfg.engines.iter().map(|e| e.name.clone()).collect()
    }

    /// "game 5 of 12" or, where the results decide how many, "game 1.2.3".
    fn game_label(&self, slot: &Slot) -> String {
        match self.total {
            Some(t) => format!("game {} of {t}", slot.round),
            None => format!("game {}", slot.round),
        }
    }
}

/// White's score in a game.
fn white_score(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Draw => 0.5,
        Outcome::Win(Color::White) => 1.0,
        Outcome::Win(_) => 0.0,
    }
}

/// Reads an existing PGN for `-resume`: the finished games by `Round` tag; cuts a torn last
/// game off the file.
fn resume_from(path: &str, cfg: &MatchConfig) -> Result<HashMap<String, Finished>, String> {
    let mut done = HashMap::new();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(done),
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
        for name in [white, black] {
            if !cfg.engines.iter().any(|e| e.name == name) {
                let all: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
                return Err(format!(
                    "'{path}' holds a game of {white} vs {black}, not of this event's engines ({}); use another file",
                    all.join(", ")
                ));
            }
        }
        let round = g
            .tag("Round")
            .filter(|r| !r.is_empty() && *r != "?" && *r != "-")
            .ok_or_else(|| format!("'{path}': a game without a Round number; cannot resume"))?;
        let white_score = match result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => continue,
        };
        done.entry(round.to_string()).or_insert(Finished {
            white: white.to_string(),
            black: black.to_string(),
            white_score,
        });
    }
    cut_torn_game(path, &text, keep)?;
    Ok(done)
}

/// The score line of `a` against `b` and, when asked, its Elo estimate (and, in a match of
/// two engines, the SPRT's state).
fn score_lines(
    cfg: &MatchConfig,
    names: [&str; 2],
    w: &Wdl,
    pairs: Option<&Pentanomial>,
    full: bool,
    verdict: Option<SprtState>,
) -> Vec<String> {
    let mut out = vec![format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        names[0],
        names[1],
        w.wins,
        w.losses,
        w.draws,
        w.score(),
        w.games()
    )];
    if full {
        // the margin from the pairs where the games come in pairs
        let margin = |m: f64| pairs.and_then(Pentanomial::elo_margin).unwrap_or(m);
        let elo = match w.elo() {
            // adding 0.0 turns -0.0 into 0.0
            Some((e, m)) => format!("{:.1} +/- {:.1}", e + 0.0, margin(m)),
            None if w.games() == 0 => "-".into(),
            None if w.score() >= 1.0 => "+inf".into(),
            None => "-inf".into(),
        };
        out.push(format!(
            "Elo difference: {elo}, LOS: {:.1} %, DrawRatio: {:.1} %",
            w.los(),
            w.draw_ratio()
        ));
        if let Some(p) = pairs {
            let [a, b, c, d, e] = p.0;
            out.push(format!("Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}]"));
        }
    }
    if let Some(s) = cfg.sprt {
        let (lo, hi) = s.bounds();
        let llr = sprt_llr(&s, w, pairs);
        let state = match verdict.unwrap_or_else(|| s.decide(llr)) {
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

/// The standings of an event of more than two engines: ratings, crosstable and, in a
/// knockout, the encounters.
fn standings(plan: &Plan, s: &Shared) -> Vec<String> {
    let mut out = vec![format!(
        "Standings of the {} after {} games:",
        plan.cfg.tournament.name(),
        s.table.games()
    )];
    out.extend(s.table.report(&plan.names(), plan.cfg.anchor));
    if let Some(b) = s.schedule.bracket() {
        for e in &b.encounters {
            let [Some(x), Some(y)] = e.players else {
                if let ([Some(x), None], Some(_)) = (e.players, e.winner) {
                    out.push(format!(
                        "Stage {} board {}: {} has a bye (goes on)",
                        e.stage,
                        e.board,
                        plan.name(x)
                    ));
                }
                continue;
            };
            let (p, q) = e.points();
            let verdict = match e.winner {
                Some(w) => format!("{} goes on", plan.name(w)),
                None => "playing".into(),
            };
            out.push(format!(
                "Stage {} board {}: {} {p} - {q} {} ({verdict})",
                e.stage,
                e.board,
                plan.name(x),
                plan.name(y)
            ));
        }
        if let Some(c) = b.champion() {
            out.push(format!("Winner: {}", plan.name(c)));
        }
    }
    out
}

/// PGN tags of a finished game.
fn tags(
    plan: &Plan,
    slot: &Slot,
    rec: &GameRecord,
    fen: Option<&str>,
) -> Vec<(&'static str, String)> {
    let cfg = plan.cfg;
    let (we, be) = (&cfg.engines[slot.seats[0]], &cfg.engines[slot.seats[1]]);
    let mut t = vec![
        ("Event", cfg.event.clone()),
        ("Site", cfg.site.clone()),
        ("Date", today()),
        ("Round", slot.round.clone()),
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

/// Counts a finished game and prints its progress lines; stops the event when the SPRT
/// decides.
fn count(plan: &Plan, s: &mut Shared, slot: &Slot, white_score: f64) {
    let cfg = plan.cfg;
    let [w, b] = slot.seats;
    s.result(slot, white_score);
    s.finished += 1;
    let interval = cfg.rating_interval as usize;
    let full = interval > 0 && s.finished.is_multiple_of(interval);
    let (x, y) = (w.min(b), w.max(b));
    let pair_full = full && cfg.engines.len() == 2;
    for l in score_lines(
        cfg,
        [plan.name(x), plan.name(y)],
        &s.table.pair(x, y),
        s.pentanomial(),
        pair_full,
        s.verdict,
    ) {
        say(&l);
    }
    if full && cfg.engines.len() > 2 {
        standings(plan, s).iter().for_each(|l| say(l));
    }
    s.judge(cfg.sprt);
}

/// Takes the next game to play: games an earlier run finished are counted on the way
/// (checked against the schedule); `None` when there is nothing more to play.
fn take_game(plan: &Plan, shared: &Mutex<Shared>) -> Option<Slot> {
    let mut s = shared.lock().ok()?;
    loop {
        if s.stop || plan.interrupt.load(Ordering::Relaxed) {
            return None;
        }
        match s.schedule.take() {
            Next::Play(slot) => {
                let Some(f) = s.done.remove(&slot.round) else {
                    s.running += 1;
                    return Some(slot);
                };
                let (we, be) = (plan.name(slot.seats[0]), plan.name(slot.seats[1]));
                if (f.white.as_str(), f.black.as_str()) != (we, be) {
                    s.error.get_or_insert(format!(
                        "the PGN file's game {} is {} vs {}, but this event's game {} is {we} vs {be}; use another file (or the event's own command line)",
                        slot.round, f.white, f.black, slot.round
                    ));
                    s.stop = true;
                    plan.wake.notify_all();
                    return None;
                }
                s.result(&slot, f.white_score);
                s.judge(plan.cfg.sprt);
                plan.wake.notify_all();
            }
            Next::Wait if s.running > 0 => {
                // a knockout encounter waits for the result of another
                s = plan
                    .wake
                    .wait_timeout(s, Duration::from_millis(200))
                    .ok()?
                    .0;
            }
            Next::Wait | Next::Done => return None,
        }
    }
}

/// The clients of the engines in `seats`; on failure the error is recorded and the event
/// stops.
fn seat_clients(
    plan: &Plan,
    shared: &Mutex<Shared>,
    pool: &mut Pool,
    seats: [usize; 2],
) -> Option<Vec<Client>> {
    match pool.seat(plan.cfg, &plan.cfg.variant, &seats, plan.interrupt) {
        Ok(ready) => Some(ready),
        Err(err) => {
            if let Ok(mut s) = shared.lock() {
                if !plan.interrupt.load(Ordering::Relaxed) {
                    s.error.get_or_insert(err);
                }
                s.stop = true;
                s.running -= 1;
            }
            plan.wake.notify_all();
            None
        }
    }
}

/// Plays the game of `slot` with the clients in `ready` (by seat); `None` if interrupted.
fn play(plan: &Plan, slot: &Slot, ready: &mut [Client]) -> Option<GameRecord> {
    let cfg = plan.cfg;
    let opening = plan.opening(slot);
    // validated when the openings were loaded
    let start = match &opening.fen {
        Some(f) => Position::from_fen(plan.rules, f).ok()?,
        None => Position::startpos(plan.rules),
    };
    let observed = observed(plan, slot);
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
    let mut clocks: Vec<Clock> = slot
        .seats
        .iter()
        .map(|&e| Clock::new(cfg.engines[e].limits.clock))
        .collect();
    let margins: Vec<u64> = slot
        .seats
        .iter()
        .map(|&e| cfg.engines[e].limits.margin_ms)
        .collect();
    referee::play(
        &setup,
        ready,
        &mut clocks,
        &margins,
        &cfg.variant,
        plan.interrupt,
    )
}

/// The game of `slot` as the observer sees it before its first move.
fn observed(plan: &Plan, slot: &Slot) -> ObservedGame {
    let opening = plan.opening(slot);
    ObservedGame {
        number: slot.number,
        variant: plan.cfg.variant.clone(),
        players: slot
            .seats
            .iter()
            .map(|&e| plan.name(e).to_string())
            .collect(),
        start_fen: opening.fen.clone(),
        moves: opening.moves.clone(),
        result: None,
    }
}

/// Writes a finished game and counts it.
fn record(plan: &Plan, shared: &Mutex<Shared>, slot: &Slot, rec: &GameRecord) {
    if let Some(o) = plan.observer {
        o.update(&ObservedGame {
            moves: spelled(rec),
            result: Some(format!("{} {{{}}}", rec.outcome.pgn(), rec.reason)),
            ..observed(plan, slot)
        });
    }
    let notes: Vec<String> = rec
        .notes
        .iter()
        .map(|n| n.map_or_else(String::new, |n| n.pgn_comment()))
        .collect();
    let text = render(&PgnGame {
        tags: tags(plan, slot, rec, plan.opening(slot).fen.as_deref()),
        start: &rec.start,
        moves: &rec.moves,
        notes: &notes,
        result: rec.outcome.pgn(),
        comment: &rec.reason,
    });
    let Ok(mut s) = shared.lock() else { return };
    s.running -= 1;
    if let Some(f) = s.pgn.as_mut() {
        if let Err(e) = f.write_all(text.as_bytes()).and_then(|()| f.flush()) {
            s.error
                .get_or_insert(format!("cannot write the PGN file: {e}"));
            s.stop = true;
        }
    }
    say(&format!(
        "Finished game {} ({} vs {}): {} {{{}}}",
        slot.round,
        plan.name(slot.seats[0]),
        plan.name(slot.seats[1]),
        rec.outcome.pgn(),
        rec.reason
    ));
    count(plan, &mut s, slot, white_score(rec.outcome));
    plan.wake.notify_all();
}

/// One worker: takes games until there are none left.
fn worker(plan: &Plan, shared: &Mutex<Shared>) {
    let mut pool = Pool::new(plan.cfg.engines.len());
    while let Some(slot) = take_game(plan, shared) {
        let Some(mut ready) = seat_clients(plan, shared, &mut pool, slot.seats) else {
            return;
        };
        say(&format!(
            "Started {} ({} vs {})",
            plan.game_label(&slot),
            plan.name(slot.seats[0]),
            plan.name(slot.seats[1])
        ));
        let Some(rec) = play(plan, &slot, &mut ready) else {
            // interrupted: the game is abandoned and not written
            ready.into_iter().for_each(Client::quit);
            if let Ok(mut s) = shared.lock() {
                s.running -= 1;
            }
            plan.wake.notify_all();
            break;
        };
        for (seat, mut c) in ready.into_iter().enumerate() {
            if rec.failed[seat] || c.restart_each_game() {
                c.quit();
            } else {
                c.game_over(rec.outcome.pgn(), &rec.reason);
                pool.keep(slot.seats[seat], c);
            }
        }
        record(plan, shared, &slot, &rec);
    }
    pool.end();
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

/// Plays the match or tournament. Errors are configuration errors found before the first
/// game, or a fatal error during the event (the games finished before it are saved).
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
    if Position::startpos(rules).owners_pick_promotions() {
        if let Some(e) = cfg.engines.iter().find(|e| e.proto == Proto::Xboard) {
            return Err(format!(
                "engine '{}' speaks XBoard, and in {} a pawn's owner picks its promotion piece on the other player's ply; the referee asks the owner with UCI's go searchmoves, which XBoard has no way to say: use UCI engines",
                e.name, cfg.variant
            ));
        }
    }
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
    let schedule = Schedule::new(
        cfg.tournament,
        cfg.engines.len(),
        cfg.games,
        cfg.rounds,
        cfg.repeat,
    );
    let total = schedule.total();
    let mut done = HashMap::new();
    let pgn = match &cfg.pgnout {
        Some(path) => {
            if cfg.resume {
                done = resume_from(path, cfg)?;
            }
            Some(open_pgn(path)?)
        }
        None if cfg.resume => return Err("-resume needs -pgnout FILE".into()),
        None => None,
    };
    if !done.is_empty() {
        match total {
            Some(t) => say(&format!(
                "Resuming: {} of {t} games already in the PGN file",
                done.len()
            )),
            None => say(&format!(
                "Resuming: {} games already in the PGN file",
                done.len()
            )),
        }
    }
    let plan = Plan {
        cfg,
        rules,
        openings,
        total,
        interrupt,
        observer,
        wake: Condvar::new(),
    };
    let shared = Mutex::new(Shared {
        schedule,
        finished: done.len(),
        done,
        table: Table::new(cfg.engines.len()),
        pairs: Pairs::of(cfg),
        running: 0,
        pgn,
        stop: false,
        error: None,
        verdict: None,
    });
    let workers = cfg.concurrency.min(total.unwrap_or(usize::MAX).max(1));
    let failed = run_workers(workers, &|| worker(&plan, &shared));
    let s = shared
        .into_inner()
        .map_err(|_| "a match worker panicked".to_string())?;
    let error = s.error.clone().or(failed);
    if interrupt.load(Ordering::Relaxed) {
        say("Interrupted: the PGN holds every finished game");
    }
    if cfg.engines.len() == 2 {
        for l in score_lines(
            cfg,
            [plan.name(0), plan.name(1)],
            &s.table.pair(0, 1),
            s.pentanomial(),
            true,
            s.verdict,
        ) {
            say(&l);
        }
    } else {
        let interval = cfg.rating_interval as usize;
        if interval == 0 || !s.finished.is_multiple_of(interval) || s.finished == 0 {
            // (otherwise the last game just printed them)
            standings(&plan, &s).iter().for_each(|l| say(l));
        }
    }
    say(if cfg.engines.len() == 2 {
        "Finished match"
    } else {
        "Finished tournament"
    });
    if let Some(e) = error {
        return Err(e);
    }
    Ok(if interrupt.load(Ordering::Relaxed) {
        Ending::Interrupted
    } else {
        Ending::Complete
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared() -> Shared {
        Shared {
            schedule: Schedule::new(Kind::RoundRobin, 2, 2, 100, false),
            done: HashMap::new(),
            table: Table::new(2),
            pairs: None,
            finished: 0,
            running: 0,
            pgn: None,
            stop: false,
            error: None,
            verdict: None,
        }
    }

    #[test]
    fn games_with_one_opening_are_counted_as_a_pair_for_the_sprt() {
        let parse = |line: &str| {
            let args: Vec<String> = line.split(' ').map(String::from).collect();
            crate::tournament::config::parse(&args).unwrap().unwrap()
        };
        let cfg = parse("-engine cmd=a -engine cmd=b -each tc=1 -games 2 -rounds 500 -repeat -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05");
        let mut s = Shared {
            schedule: Schedule::new(Kind::RoundRobin, 2, 2, 500, true),
            pairs: Pairs::of(&cfg),
            ..shared()
        };
        // White wins every game: each opening is a win and a loss for each engine, which
        // the games alone cannot tell from an even match of decisive games
        let mut games = 0;
        while s.verdict.is_none() {
            let Next::Play(slot) = s.schedule.take() else {
                panic!("the schedule ran out after {games} games");
            };
            s.result(&slot, 1.0);
            s.judge(cfg.sprt);
            games += 1;
        }
        assert_eq!(s.verdict, Some(SprtState::H0));
        assert!(games < 300 && games % 2 == 0, "{games}");
        let pairs = s.pentanomial().copied().unwrap();
        assert_eq!(pairs.0, [0, 0, games / 2, 0, 0]);
        let test = cfg.sprt.unwrap();
        assert_eq!(test.state(&s.table.pair(0, 1)), SprtState::Continue);
        let lines = score_lines(
            &cfg,
            ["a", "b"],
            &s.table.pair(0, 1),
            Some(&pairs),
            true,
            s.verdict,
        );
        assert!(
            lines
                .iter()
                .any(|l| l == &format!("Ptnml(0-2): [0, 0, {}, 0, 0]", games / 2)),
            "{lines:?}"
        );
        assert!(
            lines.last().unwrap().ends_with("H0 was accepted"),
            "{lines:?}"
        );
        // without -repeat the games are not paired
        let single = parse("-engine cmd=a -engine cmd=b -each tc=1 -games 2 -rounds 500");
        assert!(Pairs::of(&single).is_none());
    }

    #[test]
    fn a_game_finishing_after_the_sprt_decided_cannot_undo_the_verdict() {
        let test = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let sprt = Some(test);
        let mut s = shared();
        // engine 0 wins until the test accepts H1
        let mut wins = 0;
        while s.verdict.is_none() {
            s.table.add(0, 1, 1.0);
            s.judge(sprt);
            wins += 1;
            assert!(wins < 1000, "the SPRT never decided");
        }
        assert_eq!(s.verdict, Some(SprtState::H1));
        assert!(s.stop);
        // the game still being played when it decided is lost: the llr drops back
        // below the bound, yet the verdict stands and is what the report prints
        s.table.add(0, 1, 0.0);
        s.judge(sprt);
        let pair = s.table.pair(0, 1);
        assert_eq!(test.state(&pair), SprtState::Continue);
        assert_eq!(s.verdict, Some(SprtState::H1));
        let args: Vec<String> =
            "-engine cmd=a -engine cmd=b -each tc=1 -games 99 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05"
                .split(' ')
                .map(String::from)
                .collect();
        let cfg = crate::tournament::config::parse(&args).unwrap().unwrap();
        assert_eq!(cfg.sprt, sprt);
        let lines = score_lines(&cfg, ["a", "b"], &pair, None, false, s.verdict);
        assert!(
            lines.last().unwrap().ends_with("H1 was accepted"),
            "{lines:?}"
        );
    }
}
