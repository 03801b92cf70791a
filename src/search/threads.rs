//! Lazy SMP: every thread runs its own iterative deepening on its own copy of the position;
//! they cooperate through the shared transposition table and a small table of the positions
//! being searched (`busy.rs`): a thread puts off a move whose subtree another thread is in,
//! so threads at the same depth split the work. Thread 0 reports, manages time
//! and stops the others; the answer comes from the thread with the deepest completed
//! iteration (thread 0 on ties), so one thread is fully deterministic.
//!
//! Plain scoped threads, not rayon: search threads live for a whole search, need large stacks
//! and must all stop on one flag; a work-stealing pool brings nothing here.

use super::busy::BusyTable;
use super::game::{Game, OrthodoxGame, VariantGame};
use super::history::HistoryPool;
use super::params::SearchParams;
use super::worker::{RootMove, Shared, Worker};
use super::{
    wdl, ReportedScore, Reporter, ScoreBound, SearchInfo, SearchLimits, Settling, TimeManager,
    INFINITE, MATE, MATE_BOUND, MAX_PLY,
};
use crate::eval::EvalParams;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Aspiration windows: the least depth they are used from.
const ASPIRATION_MIN_DEPTH: i32 = 4;
/// `currmove` lines are sent once the search has run this long (ms), as GUIs expect.
const CURRMOVE_AFTER_MS: u64 = 1000;

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move (`Move::NONE` when the side to move has no legal move).
    pub best: Move,
    /// Expected reply, if known.
    pub ponder: Option<Move>,
    /// Score of the best move (internal units).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Search configuration beyond the GUI's limits.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Number of threads.
    pub threads: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Milliseconds subtracted from the clock for lag.
    pub move_overhead: u64,
    /// Include WDL estimates.
    pub show_wdl: bool,
    /// The tunable constants (their defaults unless a tuner set them).
    pub params: SearchParams,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead: 10,
            show_wdl: false,
            params: SearchParams::default(),
        }
    }
}

struct ThreadOutcome {
    completed_depth: u32,
    root_moves: Vec<RootMove>,
}

/// What a search borrows from the engine.
pub struct SearchContext<'a> {
    /// The shared transposition table.
    pub tt: &'a TranspositionTable,
    /// Evaluation tables of the variant.
    pub eval: &'a EvalParams,
    /// Set to stop the search.
    pub stop: &'a AtomicBool,
    /// Set while pondering (time limits wait for `ponderhit`).
    pub pondering: &'a AtomicBool,
    /// The search threads' move histories, kept between searches.
    pub histories: &'a HistoryPool,
}

/// Runs `f` with a context over `tt`, `eval` and `histories` whose stop and ponder flags stay
/// down: searches bounded by their own limits alone (data generation, openings, tests).
pub fn with_quiet_flags<R>(
    tt: &TranspositionTable,
    eval: &EvalParams,
    histories: &HistoryPool,
    f: impl FnOnce(&SearchContext) -> R,
) -> R {
    let (stop, pondering) = (AtomicBool::new(false), AtomicBool::new(false));
    f(&SearchContext {
        tt,
        eval,
        stop: &stop,
        pondering: &pondering,
        histories,
    })
}

/// Runs a search to completion (or until `stop` is set) and returns its result.
pub fn search(
    root: &Position,
    limits: &SearchLimits,
    options: &SearchOptions,
    ctx: &SearchContext,
    reporter: &dyn Reporter,
) -> SearchResult {
    // orthodox chess gets a worker of its own, with no mechanic in its node loop
    if OrthodoxGame::fits(root.rules()) {
        let game = OrthodoxGame::new(root.clone());
        search_game(&game, limits, options, ctx, reporter)
    } else {
        let game = VariantGame::new(root.clone());
        search_game(&game, limits, options, ctx, reporter)
    }
}

/// Runs a search of any [`Game`] (every thread searching its own copy of `root`) to
/// completion, or until `stop` is set, and returns its result.
pub fn search_game<G: Game>(
    root: &G,
    limits: &SearchLimits,
    options: &SearchOptions,
    ctx: &SearchContext,
    reporter: &dyn Reporter,
) -> SearchResult {
    let SearchContext {
        tt,
        eval,
        stop,
        pondering,
        histories,
    } = *ctx;
    let mut list = MoveList::new();
    root.clone().legal_moves(&mut list);
    let mut root_list: Vec<Move> = list.iter().copied().collect();
    if !limits.searchmoves.is_empty() {
        root_list.retain(|m| limits.searchmoves.contains(m));
    }
    if root_list.is_empty() {
        return SearchResult {
            best: Move::NONE,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
    }
    tt.new_search();
    // the clock that runs is the chooser's (the 007 family: not always the colour to move)
    let tm = TimeManager::new(limits, root.clock(), options.move_overhead, &options.params);
    let hard = tm.hard_limit().map(|h| std::time::Instant::now() + h);
    // with one thread nobody else is searching: no table, and the search stays deterministic
    let busy = (options.threads > 1).then(BusyTable::new);
    let shared = Shared {
        tt,
        stop,
        nodes: AtomicU64::new(0),
        node_limit: limits.nodes,
        deadline: hard,
        pondering,
        busy: busy.as_ref(),
        params: options.params,
        reductions: options.params.reductions(),
    };
    let max_depth = limits.depth.map_or(MAX_PLY as i32 - 4, |d| {
        (d as i32).clamp(1, MAX_PLY as i32 - 4)
    });
    let multipv = options.multipv.clamp(1, root_list.len());
    let threads = options.threads.max(1);

    let outcomes: Vec<ThreadOutcome> = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for id in 0..threads {
            let shared = &shared;
            let tm = &tm;
            let root_list = &root_list;
            let builder = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(64 << 20);
            let handle = builder.spawn_scoped(scope, move || {
                let hist = histories.take(id);
                let mut w = Worker::new(id, root.clone(), root_list, shared, eval, hist)
                    .owner_asked(!limits.searchmoves.is_empty());
                let outcome = iterate(
                    &mut w,
                    max_depth,
                    if id == 0 { multipv } else { 1 },
                    tm,
                    limits,
                    options,
                    reporter,
                    root,
                );
                histories.give_back(id, w.into_histories());
                outcome
            });
            match handle {
                Ok(h) => handles.push(h),
                Err(e) => {
                    log::warn!("could not start search thread {id}: {e}");
                    if id == 0 {
                        break;
                    }
                }
            }
        }
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });

    let nodes = shared.nodes.load(Ordering::Relaxed);
    // deepest completed iteration wins; thread 0 (first) on ties
    let best = outcomes
        .iter()
        .enumerate()
        .max_by(|(ia, a), (ib, b)| {
            a.completed_depth
                .cmp(&b.completed_depth)
                .then(a.root_moves[0].score.cmp(&b.root_moves[0].score))
                .then(ib.cmp(ia))
        })
        .map(|(_, o)| o);
    // a helper that finished deeper than thread 0 reported: its line is the answer, so say it
    let main_depth = outcomes.first().map_or(0, |o| o.completed_depth);
    if let Some(o) = best.filter(|o| o.completed_depth > main_depth) {
        let line = Line {
            rm: &o.root_moves[0],
            depth: o.completed_depth,
            pv_idx: 0,
            bound: ScoreBound::Exact,
            nodes,
            hashfull: tt.hashfull(),
        };
        report_line(&line, &tm, reporter, root, options);
    }
    match best {
        Some(o) => {
            let rm = &o.root_moves[0];
            SearchResult {
                best: rm.mv,
                ponder: rm.pv.get(1).copied(),
                score: rm.score,
                depth: o.completed_depth,
                nodes,
                pv: rm.pv.clone(),
            }
        }
        None => SearchResult {
            best: root_list[0],
            ponder: None,
            score: 0,
            depth: 0,
            nodes,
            pv: vec![root_list[0]],
        },
    }
}

#[allow(clippy::too_many_arguments)]
fn iterate<G: Game>(
    w: &mut Worker<G>,
    max_depth: i32,
    multipv: usize,
    tm: &TimeManager,
    limits: &SearchLimits,
    options: &SearchOptions,
    reporter: &dyn Reporter,
    root: &G,
) -> ThreadOutcome {
    let main = w.id == 0;
    let mut completed = 0u32;
    let mut snapshot = w.root_moves.clone();
    let mut settling = Settling::default();
    let mut depth = 1;
    while depth <= max_depth {
        // helpers skip some depths so the threads spread over several depths, but all join
        // the last one, where deferring busy moves splits the work between them
        if !main && depth > 2 && depth < max_depth && (depth as usize + w.id).is_multiple_of(2) {
            depth += 1;
            continue;
        }
        for pv_idx in 0..multipv {
            let prev = w.root_moves[pv_idx].previous_score;
            let mut delta = options.params.aspiration_window;
            let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND
            {
                ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
            } else {
                (-INFINITE, INFINITE)
            };
            loop {
                let mut on_move = |m: Move, n: usize| {
                    if main && tm.elapsed_ms() > CURRMOVE_AFTER_MS {
                        reporter.currmove(&root.move_text(m), n, depth as u32);
                    }
                };
                let score = w.search_root(depth, alpha, beta, pv_idx, &mut on_move);
                w.flush_nodes();
                if w.stopped {
                    break;
                }
                if score <= alpha {
                    if main && multipv == 1 {
                        report(
                            w,
                            depth as u32,
                            pv_idx,
                            ScoreBound::Upper,
                            tm,
                            reporter,
                            root,
                            options,
                        );
                    }
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITE);
                } else if score >= beta {
                    if main && multipv == 1 {
                        report(
                            w,
                            depth as u32,
                            pv_idx,
                            ScoreBound::Lower,
                            tm,
                            reporter,
                            root,
                            options,
                        );
                    }
                    beta = (score + delta).min(INFINITE);
                } else {
                    break;
                }
                delta += delta / 2;
            }
            if w.stopped {
                break;
            }
            // a later line may score above an earlier one (each is searched with its own
            // window and pruning), so the lines found so far are kept in score order
            w.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        }
        if w.stopped {
            break;
        }
        if main {
            // lines are reported once all are known, so a client never sees them out of order
            for pv_idx in 0..multipv {
                report(
                    w,
                    depth as u32,
                    pv_idx,
                    ScoreBound::Exact,
                    tm,
                    reporter,
                    root,
                    options,
                );
            }
        }
        completed = depth as u32;
        for rm in w.root_moves.iter_mut() {
            rm.previous_score = rm.score;
        }
        snapshot = w.root_moves.clone();
        // whichever thread first completes the last depth ends the search: its answer is the
        // deepest, and it is chosen below
        if depth == max_depth && !limits.infinite && !w.pondering() {
            w.request_stop();
            break;
        }
        if main {
            let best = w.root_moves[0].score;
            let mate_done = limits
                .mate
                .is_some_and(|m| best >= MATE_BOUND && (MATE - best + 1) / 2 <= m as i32);
            let pondering = w.pondering();
            let share = w.root_moves[0].nodes as f64 / w.searched().max(1) as f64;
            settling.after_iteration(&options.params, w.root_moves[0].mv, best, share);
            if (!pondering && tm.soft_expired_scaled(settling.scale())) || mate_done {
                break;
            }
        }
        depth += 1;
    }
    if main {
        // wait while pondering or in infinite mode: a GUI expects bestmove only after stop
        while (limits.infinite || w.pondering()) && !w.stopped && !w.stop_requested() {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        w.request_stop();
    }
    ThreadOutcome {
        completed_depth: completed,
        root_moves: if completed > 0 {
            snapshot
        } else {
            w.root_moves.clone()
        },
    }
}

#[allow(clippy::too_many_arguments)]
fn report<G: Game>(
    w: &Worker<G>,
    depth: u32,
    pv_idx: usize,
    bound: ScoreBound,
    tm: &TimeManager,
    reporter: &dyn Reporter,
    root: &G,
    options: &SearchOptions,
) {
    let line = Line {
        rm: &w.root_moves[pv_idx],
        depth,
        pv_idx,
        bound,
        nodes: w.total_nodes(),
        hashfull: w.hashfull(),
    };
    report_line(&line, tm, reporter, root, options);
}

/// One line of search output.
struct Line<'a> {
    rm: &'a RootMove,
    depth: u32,
    pv_idx: usize,
    bound: ScoreBound,
    nodes: u64,
    hashfull: usize,
}

fn report_line<G: Game>(
    line: &Line,
    tm: &TimeManager,
    reporter: &dyn Reporter,
    root: &G,
    options: &SearchOptions,
) {
    let Line {
        rm,
        depth,
        pv_idx,
        bound,
        nodes,
        hashfull,
    } = *line;
    let ms = tm.elapsed_ms();
    let mut game = root.clone();
    let mut pv = Vec::new();
    for &m in &rm.pv {
        pv.push(game.move_text(m));
        game.make(m);
    }
    let score = ReportedScore::from_internal(rm.score);
    reporter.info(&SearchInfo {
        depth,
        seldepth: rm.seldepth.max(depth),
        multipv: pv_idx as u32 + 1,
        score,
        bound,
        nodes,
        nps: nodes * 1000 / ms.max(1),
        time_ms: ms,
        hashfull,
        pv,
        wdl: if options.show_wdl {
            wdl(score, root.wdl_model())
        } else {
            (0, 0, 0)
        },
    });
}
