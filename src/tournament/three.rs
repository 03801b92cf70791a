//! A three-seat match or tournament for Foreign Policy: the schedule of trios and seatings,
//! worker threads, the per-engine score table and the PGN-like record of each game
//! (docs/match.md, "Three seats").
//!
//! The engines meet in trios: all of them (`-tournament round-robin`, the default) or those
//! with the first engine (`gauntlet`); three engines are one trio. Each round every trio
//! plays `-games` games. A trio's game `j` (counted over the rounds, from 0) seats its
//! engines by permutation `j mod 6` of [`SEATINGS`], so every six games each has played each
//! seat twice, and takes opening `j` (or `j / 6` with `-repeat`, so an opening is played once
//! in each of the six seatings; every trio gets the same openings). Game `i` of the event
//! fixes its trio and `j`, as in the two-seat runner, so workers can take games in any order.

use super::client::Client;
use super::config::MatchConfig;
use super::observer::{reporter, GameObserver, ObservedGame};
use super::openings::{shuffle, Format, OpeningsSpec};
use super::referee3::{self, FpRecord, FpSetup};
use super::runner::Ending;
use super::schedule::Kind;
use super::timecontrol::Clock;
use super::workers::{cut_torn_game, open_pgn, run_workers, say, Pool};
use crate::engine::pgn::{today, wrap};
use crate::foreignpolicy::outcome::points;
use crate::foreignpolicy::{FpPosition, Player, Results, START_FEN};
use crate::variant::GameValue;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The engine (by its `-engine` index) in the South, North and Peacekeeper seats, for each of
/// the six seatings.
pub const SEATINGS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// One engine's results over the match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// Games played.
    pub games: u32,
    /// FP-12 points.
    pub points: f64,
    /// Games won, drawn (shared) and lost.
    pub wdl: [u32; 3],
    /// Points per seat (South, North, Peacekeeper).
    pub seat_points: [f64; 3],
    /// Games per seat.
    pub seat_games: [u32; 3],
}

impl Standing {
    /// Adds the result of a game in which this engine was `player`.
    pub fn add(&mut self, player: Player, value: GameValue, pts: f64) {
        let s = player.index();
        self.games += 1;
        self.points += pts;
        self.seat_points[s] += pts;
        self.seat_games[s] += 1;
        let k = match value {
            GameValue::Win => 0,
            GameValue::Draw => 1,
            GameValue::Loss => 2,
        };
        self.wdl[k] += 1;
    }
}

/// A point value as the PGN result writes it: `1`, `0`, `1/2`, `1/3`.
pub fn point_text(p: f64) -> String {
    for (v, t) in [(0.0, "0"), (1.0, "1"), (0.5, "1/2"), (1.0 / 3.0, "1/3")] {
        if (p - v).abs() < 1e-9 {
            return t.to_string();
        }
    }
    format!("{p:.3}")
}

/// The result of a game as points of South, North and Peacekeeper: `1-0-0`, `1/2-0-1/2`.
pub fn result_text(r: &Results) -> String {
    points(r).map(point_text).join("-")
}

/// The score table: one line per engine, points per game and per seat.
pub fn table(names: &[String], st: &[Standing]) -> Vec<String> {
    let total: u32 = st.iter().map(|s| s.games).sum::<u32>() / 3;
    let mut out = vec![
        format!("Standings after {total} games (FP-12 points: win 1, loss 0, drawers share 1; no Elo for three players)"),
        format!(
            "  {:<20} {:>5} {:>7} {:>5} {:>5} {:>5} {:>7} {:>13} {:>13} {:>13}",
            "Engine", "Games", "Points", "Win", "Draw", "Loss", "Pts/g", "South", "North", "Peacekeeper"
        ),
    ];
    for (n, s) in names.iter().zip(st) {
        let per = |p: f64, g: u32| {
            if g == 0 {
                0.0
            } else {
                p / g as f64
            }
        };
        let seat = |i: usize| format!("{:.2}/{}", s.seat_points[i], s.seat_games[i]);
        out.push(format!(
            "  {:<20} {:>5} {:>7.2} {:>5} {:>5} {:>5} {:>7.3} {:>13} {:>13} {:>13}",
            n,
            s.games,
            s.points,
            s.wdl[0],
            s.wdl[1],
            s.wdl[2],
            per(s.points, s.games),
            seat(0),
            seat(1),
            seat(2)
        ));
    }
    out
}

/// Reads FP-FEN openings: one a line (`#` lines and blank lines skipped); anything after a `;`
/// or after the six FP-FEN fields is ignored, and four fields get the counters `0 1`. The
/// start position is kept as `None`, as in the two-engine openings.
pub fn load_openings(spec: &OpeningsSpec) -> Result<Vec<Option<String>>, String> {
    if spec.format == Format::Pgn {
        return Err("three-seat openings are FP-FEN lines, not PGN".into());
    }
    let text = std::fs::read_to_string(&spec.file)
        .map_err(|e| format!("cannot read openings '{}': {e}", spec.file))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = read_fp_fen(line)
            .ok_or_else(|| format!("'{}' line {}: not an FP-FEN: {line}", spec.file, n + 1))?;
        let fen = pos.to_fen();
        out.push((fen != START_FEN).then_some(fen));
    }
    let skip = spec.start.saturating_sub(1);
    if skip >= out.len() {
        return Err(format!(
            "'{}' has {} openings, fewer than start={}",
            spec.file,
            out.len(),
            spec.start
        ));
    }
    out.drain(..skip);
    if spec.random {
        shuffle(&mut out, spec.seed);
    }
    Ok(out)
}

/// An FP-FEN from a line: six fields, or four (EPD style) with the counters added.
fn read_fp_fen(line: &str) -> Option<FpPosition> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let six = w.get(..6).map(|f| f.join(" "));
    let four = w.get(..4).map(|f| format!("{} 0 1", f.join(" ")));
    [six, four]
        .into_iter()
        .flatten()
        .find_map(|f| FpPosition::from_fen(&f).ok())
}

/// The trios of an event of `n` engines: every three of them, or (gauntlet) those with the
/// first.
pub fn trios(kind: Kind, n: usize) -> Vec<[usize; 3]> {
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                if kind != Kind::Gauntlet || a == 0 {
                    out.push([a, b, c]);
                }
            }
        }
    }
    out
}

/// Everything fixed for the whole match.
struct Plan<'a> {
    cfg: &'a MatchConfig,
    openings: Vec<Option<String>>,
    trios: Vec<[usize; 3]>,
    total: usize,
    interrupt: &'a AtomicBool,
    observer: Option<&'a dyn GameObserver>,
}

impl Plan<'_> {
    /// Game `i`'s trio and its game number `j` within the trio.
    fn trio_game(&self, i: usize) -> ([usize; 3], usize) {
        let games = self.cfg.games as usize;
        let (g, rest) = (i % games, i / games);
        let (t, round) = (rest % self.trios.len(), rest / self.trios.len());
        (self.trios[t], round * games + g)
    }

    fn seats(&self, i: usize) -> [usize; 3] {
        let (trio, j) = self.trio_game(i);
        SEATINGS[j % 6].map(|k| trio[k])
    }

    fn opening(&self, i: usize) -> Option<&str> {
        let j = self.trio_game(i).1;
        let k = if self.cfg.repeat { j / 6 } else { j };
        self.openings[k % self.openings.len()].as_deref()
    }

    fn names(&self) -> Vec<String> {
        self.cfg.engines.iter().map(|e| e.name.clone()).collect()
    }
}

/// What the workers share.
struct Shared {
    next: usize,
    /// Games an earlier run finished (by index), skipped.
    done: std::collections::HashSet<usize>,
    standings: Vec<Standing>,
    finished: usize,
    pgn: Option<std::fs::File>,
    stop: bool,
    error: Option<String>,
}

/// The PGN-like text of a game, ending with a blank line.
fn render(
    plan: &Plan,
    number: usize,
    seats: [usize; 3],
    fen: Option<&str>,
    rec: &FpRecord,
) -> String {
    let cfg = plan.cfg;
    let result = result_text(&rec.results);
    let mut tags = vec![
        ("Event", cfg.event.clone()),
        ("Site", cfg.site.clone()),
        ("Date", today()),
        ("Round", number.to_string()),
    ];
    for p in Player::ALL {
        tags.push((p.name(), cfg.engines[seats[p.index()]].name.clone()));
    }
    tags.push(("Result", result.clone()));
    tags.push(("Variant", crate::foreignpolicy::NAME.to_string()));
    if let Some(f) = fen {
        tags.push(("FEN", f.to_string()));
    }
    tags.push(("PlyCount", rec.plies.len().to_string()));
    tags.push(("Termination", rec.termination.tag().to_string()));
    let mut out = String::new();
    for (k, v) in &tags {
        out.push_str(&format!(
            "[{k} \"{}\"]\n",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    let mut round = None;
    for (i, ply) in rec.plies.iter().enumerate() {
        if round != Some(ply.round) {
            // a game set up after South's turn starts with "N..."
            let late = i == 0 && ply.player != Player::South;
            tokens.push(format!("{}.{}", ply.round, if late { ".." } else { "" }));
            round = Some(ply.round);
        }
        tokens.push(ply.text.clone());
        if let Some(c) = &ply.comment {
            tokens.push(format!("{{{c}}}"));
        }
    }
    tokens.push(format!("{{{}}}", rec.reason.replace('}', ")")));
    tokens.push(result);
    out.push_str(&wrap(&tokens));
    out.push_str("\n\n");
    out
}

/// The clients of the engines in `seats`, ordered South, North, Peacekeeper. On failure the
/// error is recorded and the match stops.
fn seat_clients(
    plan: &Plan,
    shared: &Mutex<Shared>,
    pool: &mut Pool,
    seats: [usize; 3],
) -> Option<Vec<Client>> {
    let variant = crate::foreignpolicy::NAME;
    match pool.seat(plan.cfg, variant, &seats, plan.interrupt) {
        Ok(ready) => Some(ready),
        Err(err) => {
            if let Ok(mut s) = shared.lock() {
                if !plan.interrupt.load(Ordering::Relaxed) {
                    s.error.get_or_insert(err);
                }
                s.stop = true;
            }
            None
        }
    }
}

/// The next game index to play, if any.
fn next_game(plan: &Plan, shared: &Mutex<Shared>) -> Option<usize> {
    if plan.interrupt.load(Ordering::Relaxed) {
        return None;
    }
    let mut s = shared.lock().ok()?;
    while s.next < plan.total && s.done.contains(&s.next) {
        s.next += 1;
    }
    if s.stop || s.next >= plan.total {
        return None;
    }
    s.next += 1;
    Some(s.next - 1)
}

/// A game's results from its `Result` tag (`1-0-0`, `1/2-0-1/2`, `1/3-1/3-1/3`).
fn results_of(text: &str) -> Option<Results> {
    let values: Vec<GameValue> = text
        .split('-')
        .map(|p| match p {
            "1" => Some(GameValue::Win),
            "0" => Some(GameValue::Loss),
            "1/2" | "1/3" => Some(GameValue::Draw),
            _ => None,
        })
        .collect::<Option<_>>()?;
    values.try_into().ok()
}

/// Reads the PGN file of a stopped event for `-resume`: counts its finished games into the
/// standings (checking that game `n` seats the engines this event seats in it) and returns
/// their indices; cuts a torn last game off the file.
fn resume_from(
    plan: &Plan,
    path: &str,
    standings: &mut [Standing],
) -> Result<std::collections::HashSet<usize>, String> {
    let mut done = std::collections::HashSet::new();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(done),
        Err(e) => return Err(format!("cannot read '{path}' to resume: {e}")),
    };
    let mut keep = 0;
    let starts: Vec<usize> = text.match_indices("[Event ").map(|(i, _)| i).collect();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(text.len());
        let game = &text[start..end];
        let tag = |name: &str| {
            let open = format!("[{name} \"");
            let at = game.find(&open)? + open.len();
            game[at..].split('"').next()
        };
        // a whole game ends with its result after the movetext
        let Some(result) = tag("Result") else { break };
        let Some(results) = results_of(result) else {
            break;
        };
        if game.split_whitespace().last() != Some(result) {
            break;
        }
        keep = end;
        let n: usize = tag("Round")
            .and_then(|r| r.parse().ok())
            .filter(|&n| n >= 1 && n <= plan.total)
            .ok_or_else(|| format!("'{path}': a game without a Round number of this event"))?;
        let seats = plan.seats(n - 1);
        for p in Player::ALL {
            let want = &plan.cfg.engines[seats[p.index()]].name;
            if tag(p.name()) != Some(want.as_str()) {
                return Err(format!(
                    "'{path}': game {n} does not seat {want} as {} as this event does; use another file (or the event's own command line)",
                    p.name()
                ));
            }
        }
        if !done.insert(n - 1) {
            continue;
        }
        let pts = points(&results);
        for p in Player::ALL {
            let i = p.index();
            standings[seats[i]].add(p, results[i], pts[i]);
        }
    }
    cut_torn_game(path, &text, keep)?;
    Ok(done)
}

/// Plays game `index` with the clients in `ready` (by seat); `None` if interrupted.
fn play_one(
    plan: &Plan,
    index: usize,
    seats: [usize; 3],
    ready: &mut [Client],
) -> Option<FpRecord> {
    let cfg = plan.cfg;
    let fen = plan.opening(index);
    // validated when the openings were loaded
    let start = fen
        .map_or_else(|| Ok(FpPosition::startpos()), FpPosition::from_fen)
        .ok()?;
    let observed = observed(plan, index, seats);
    let report = plan.observer.map(|o| reporter(o, &observed));
    if let Some(o) = plan.observer {
        o.update(&observed);
    }
    let setup = FpSetup {
        start,
        fen,
        max_rounds: cfg.adjudication.max_moves,
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
    referee3::play(&setup, ready, &mut clocks, &margins, plan.interrupt)
}

/// Game `index` as the observer sees it before its first ply.
fn observed(plan: &Plan, index: usize, seats: [usize; 3]) -> ObservedGame {
    ObservedGame {
        number: index + 1,
        variant: crate::foreignpolicy::NAME.to_string(),
        players: seats
            .iter()
            .map(|&e| plan.cfg.engines[e].name.clone())
            .collect(),
        start_fen: plan.opening(index).map(str::to_string),
        moves: Vec::new(),
        result: None,
    }
}

/// Records a finished game: the PGN, the standings and the progress lines.
fn record(plan: &Plan, shared: &Mutex<Shared>, index: usize, seats: [usize; 3], rec: &FpRecord) {
    let cfg = plan.cfg;
    if let Some(o) = plan.observer {
        o.update(&ObservedGame {
            moves: rec.plies.iter().map(|p| p.text.clone()).collect(),
            result: Some(format!("{} {{{}}}", result_text(&rec.results), rec.reason)),
            ..observed(plan, index, seats)
        });
    }
    let text = render(plan, index + 1, seats, plan.opening(index), rec);
    let Ok(mut s) = shared.lock() else { return };
    if let Some(f) = s.pgn.as_mut() {
        if let Err(e) = f.write_all(text.as_bytes()).and_then(|()| f.flush()) {
            s.error
                .get_or_insert(format!("cannot write the PGN file: {e}"));
            s.stop = true;
        }
    }
    let pts = points(&rec.results);
    for p in Player::ALL {
        let i = p.index();
        s.standings[seats[i]].add(p, rec.results[i], pts[i]);
    }
    s.finished += 1;
    let who: Vec<String> = Player::ALL
        .iter()
        .map(|p| {
            format!(
                "{} {}",
                p.letter().to_ascii_uppercase(),
                cfg.engines[seats[p.index()]].name
            )
        })
        .collect();
    say(&format!(
        "Finished game {} ({}): {} {{{}}}",
        index + 1,
        who.join(", "),
        result_text(&rec.results),
        rec.reason
    ));
    let points: Vec<String> = plan
        .names()
        .iter()
        .zip(&s.standings)
        .map(|(n, st)| format!("{n} {:.2}", st.points))
        .collect();
    say(&format!(
        "Points after {} games: {}",
        s.finished,
        points.join(", ")
    ));
    let interval = cfg.rating_interval as usize;
    if interval > 0 && s.finished.is_multiple_of(interval) {
        table(&plan.names(), &s.standings)
            .iter()
            .for_each(|l| say(l));
    }
}

/// One worker: takes games until there are none left.
fn worker(plan: &Plan, shared: &Mutex<Shared>) {
    let mut pool = Pool::new(plan.cfg.engines.len());
    while let Some(index) = next_game(plan, shared) {
        let seats = plan.seats(index);
        let Some(mut ready) = seat_clients(plan, shared, &mut pool, seats) else {
            return;
        };
        let names: Vec<&str> = seats
            .iter()
            .map(|&e| plan.cfg.engines[e].name.as_str())
            .collect();
        say(&format!(
            "Started game {} of {} (S {}, N {}, P {})",
            index + 1,
            plan.total,
            names[0],
            names[1],
            names[2]
        ));
        let Some(rec) = play_one(plan, index, seats, &mut ready) else {
            // interrupted: the game is abandoned and not written
            ready.into_iter().for_each(Client::quit);
            break;
        };
        let result = result_text(&rec.results);
        for (i, mut c) in ready.into_iter().enumerate() {
            if rec.failed.map(Player::index) == Some(i) || c.restart_each_game() {
                c.quit();
            } else {
                c.game_over(&result, &rec.reason);
                pool.keep(seats[i], c);
            }
        }
        record(plan, shared, index, seats, &rec);
    }
    pool.end();
}

/// Plays a three-seat match (`cfg.engines` has three engines, the variant is foreignpolicy).
pub fn run(
    cfg: &MatchConfig,
    interrupt: &AtomicBool,
    observer: Option<&dyn GameObserver>,
) -> Result<Ending, String> {
    crate::geometry::attacks::init();
    let openings = match &cfg.openings {
        Some(spec) => load_openings(spec)?,
        None => vec![None],
    };
    // Start each engine once: a wrong command or an engine without foreignpolicy is an
    // error now, not a forfeit in every game.
    for e in &cfg.engines {
        let c = Client::start(e, crate::foreignpolicy::NAME, cfg.debug, interrupt)?;
        let ok = c.can_set_position() || openings.iter().all(Option::is_none);
        c.quit();
        if !ok {
            return Err(format!("engine '{}' cannot set up a position (XBoard without setboard), and the openings are positions", e.name));
        }
    }
    let trios = trios(cfg.tournament, cfg.engines.len());
    let total = trios.len() * (cfg.games as usize) * (cfg.rounds as usize);
    let plan = Plan {
        cfg,
        openings,
        trios,
        total,
        interrupt,
        observer,
    };
    let mut standings = vec![Standing::default(); cfg.engines.len()];
    let mut done = std::collections::HashSet::new();
    let pgn = match &cfg.pgnout {
        Some(path) => {
            if cfg.resume {
                done = resume_from(&plan, path, &mut standings)?;
            }
            Some(open_pgn(path)?)
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
    let shared = Mutex::new(Shared {
        next: 0,
        standings,
        finished: done.len(),
        done,
        pgn,
        stop: false,
        error: None,
    });
    let failed = run_workers(cfg.concurrency.min(total.max(1)), &|| {
        worker(&plan, &shared)
    });
    let s = shared
        .into_inner()
        .map_err(|_| "a match worker panicked".to_string())?;
    if interrupt.load(Ordering::Relaxed) {
        say("Interrupted: the PGN holds every finished game");
    }
    let interval = cfg.rating_interval as usize;
    if interval == 0 || !s.finished.is_multiple_of(interval) {
        // (otherwise the last game just printed it)
        table(&plan.names(), &s.standings)
            .iter()
            .for_each(|l| say(l));
    }
    say("Finished match");
    if let Some(e) = s.error.or(failed) {
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
    use GameValue::*;

    #[test]
    fn seatings_are_the_six_permutations() {
        let mut all: Vec<[usize; 3]> = SEATINGS.to_vec();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 6);
        for p in 0..3 {
            for e in 0..3 {
                assert_eq!(SEATINGS.iter().filter(|s| s[p] == e).count(), 2);
            }
        }
    }

    #[test]
    fn trios_of_a_round_robin_and_a_gauntlet() {
        assert_eq!(trios(Kind::RoundRobin, 3), [[0, 1, 2]]);
        let all = trios(Kind::RoundRobin, 5);
        assert_eq!(all.len(), 10);
        let seeded = trios(Kind::Gauntlet, 5);
        assert_eq!(seeded.len(), 6);
        assert!(seeded.iter().all(|t| t[0] == 0));
    }

    #[test]
    fn results_as_points() {
        assert_eq!(result_text(&[Win, Loss, Loss]), "1-0-0");
        assert_eq!(result_text(&[Draw, Loss, Draw]), "1/2-0-1/2");
        assert_eq!(result_text(&[Draw, Draw, Draw]), "1/3-1/3-1/3");
        let mut s = Standing::default();
        s.add(Player::North, Draw, 0.5);
        s.add(Player::South, Win, 1.0);
        assert_eq!((s.games, s.wdl, s.seat_games), (2, [1, 1, 0], [1, 1, 0]));
        assert!(table(&["a".into()], &[s])[2].contains("1.50"));
    }

    #[test]
    fn fp_fen_openings_lines() {
        let four = "nK,7/8/8/8/8/8/8/sR,6,pK s snp -";
        assert!(read_fp_fen(four).is_some());
        assert!(read_fp_fen(&format!("{four} 0 1 ; id \"x\"")).is_some());
        assert!(read_fp_fen("rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1").is_none());
    }
}
