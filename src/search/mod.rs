//! Search: iterative deepening with aspiration windows over a principal-variation alpha-beta
//! search, run by Lazy SMP threads that share one lock-free transposition table.
//!
//! The search reads the game only through the [`game::Game`] trait (moves, make/unmake, key,
//! whose decision the next ply is, game ends, evaluation, whether passing is sound); it never
//! asks which variant it is playing. Orthodox chess is searched through its own
//! implementation of the trait, with no mechanic on its path.

mod busy;
pub mod game;
mod history;
pub mod maxn;
pub mod params;
pub mod paranoid;
mod threads;
mod time;
mod worker;

pub use history::HistoryPool;
pub use params::{SearchParams, Tunable, TUNABLES};
pub use threads::{
    search, search_game, with_quiet_flags, SearchContext, SearchOptions, SearchResult,
};
pub use time::{Settling, TimeManager};

use crate::moves::Move;

/// Largest search depth in plies.
pub const MAX_PLY: usize = 128;
/// Score of a mate at the root.
pub const MATE: i32 = 32000;
/// Scores beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
/// Larger than any score.
pub const INFINITE: i32 = 32500;

/// Limits of one search, as a GUI gives them.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Exact time for this move, in ms.
    pub movetime: Option<u64>,
    /// Clock times and increments in ms, White then Black.
    pub time: [Option<u64>; 2],
    /// Increments in ms.
    pub inc: [u64; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Pondering: don't stop on time until `ponderhit`.
    pub ponder: bool,
}

impl SearchLimits {
    /// A search bounded by its node count alone.
    pub fn of_nodes(nodes: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(nodes),
            ..Default::default()
        }
    }
}

/// A score as reported to a GUI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportedScore {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl ReportedScore {
    /// Converts an internal score.
    pub fn from_internal(score: i32) -> ReportedScore {
        if score >= MATE_BOUND {
            ReportedScore::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            ReportedScore::Mate(-(MATE + score) / 2)
        } else {
            ReportedScore::Cp(score)
        }
    }
}

/// Whether a reported score is exact or a bound from an aspiration failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// Exact.
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of this line (MultiPV).
    pub multipv: u32,
    /// Score.
    pub score: ReportedScore,
    /// Exact or bound.
    pub bound: ScoreBound,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// Permille of the TT in use.
    pub hashfull: usize,
    /// The principal variation in move notation.
    pub pv: Vec<String>,
    /// Win/draw/loss per mille, from the score.
    pub wdl: (u32, u32, u32),
}

/// Receives search progress; implemented by the protocols.
pub trait Reporter: Send + Sync {
    /// A completed (or bounded) iteration line.
    fn info(&self, info: &SearchInfo);
    /// The root move being searched (sent after the first second).
    fn currmove(&self, _mv: &str, _number: usize, _depth: u32) {}
}

/// A reporter that prints nothing.
pub struct Silent;

impl Reporter for Silent {
    fn info(&self, _info: &SearchInfo) {}
}

/// Win/draw/loss in per mille of a reported score under the variant's `model`.
pub fn wdl(score: ReportedScore, model: crate::variant::WdlModel) -> (u32, u32, u32) {
    match score {
        ReportedScore::Mate(m) if m > 0 => (1000, 0, 0),
        ReportedScore::Mate(_) => (0, 0, 1000),
        ReportedScore::Cp(cp) => model.per_mille(cp),
    }
}

/// Runs `f` with a fresh search context (a small table, chess's evaluation tables, flags
/// down): the unit tests of the searches share it.
#[cfg(test)]
pub(crate) fn with_test_context<R>(f: impl FnOnce(&SearchContext) -> R) -> R {
    let tt = crate::tt::TranspositionTable::new(16);
    let chess = crate::rules::builtin_variants()
        .get("chess")
        .expect("chess is built in");
    let eval = crate::eval::EvalParams::new(chess);
    with_quiet_flags(&tt, &eval, &HistoryPool::new(), f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// With the half-move clock at 99, every legal move of White (king steps; the knight is
    /// pinned) reaches the fifty-move draw, although Black, a queen up, could then capture on:
    /// the quiescence search stops at the draw too, so the score is 0 and no line runs past it.
    #[test]
    fn lines_stop_at_the_fifty_move_draw() {
        crate::geometry::attacks::init();
        let chess = crate::rules::builtin_variants()
            .get("chess")
            .expect("chess");
        let pos = Position::from_fen(chess, "4k3/8/8/8/8/8/8/4K1Nq w - - 99 80").expect("FEN");
        for depth in 1..=3 {
            let limits = SearchLimits {
                depth: Some(depth),
                ..Default::default()
            };
            let r = with_test_context(|ctx| {
                search(&pos, &limits, &SearchOptions::default(), ctx, &Silent)
            });
            assert_eq!(r.score, 0, "depth {depth}");
            assert_eq!(r.pv.len(), 1, "depth {depth}: {:?}", r.pv);
        }
    }
}
