//! Max-n search for Foreign Policy (C.5's alternative to paranoid search, chosen with the
//! `MultiPlayerSearch` option): every node's player picks the child whose utility vector is
//! best for itself, so no player is assumed to sacrifice its own interest to hurt the root
//! player. Max-n allows no alpha-beta cut between players (only "shallow pruning", which the
//! evaluation's unbounded scale does not permit), so it searches the full tree: shallower than
//! paranoid search in the same time, but without paranoia's pessimism.
//!
//! One thread, iterative deepening under the same limits as the main search, a capture-only
//! quiescence (king captures included), no transposition table.

use super::threads::{SearchContext, SearchOptions, SearchResult};
use super::{ReportedScore, Reporter, ScoreBound, SearchInfo, SearchLimits, TimeManager, MAX_PLY};
use crate::foreignpolicy::{move_to_string, FpPosition, PASS};
use crate::geometry::Color;
use crate::moves::{Move, MoveKind, MoveList};
use crate::variant::GameValue;
use std::sync::atomic::Ordering;

/// The utility of a won game, above any evaluation.
const WIN: i32 = 20_000;
/// Plies of captures searched beyond the nominal depth.
const QUIESCENCE_PLIES: u32 = 6;
/// How often (in nodes) the clock and the stop flag are read.
const POLL_NODES: u64 = 1024;

/// A utility vector, indexed by `Player::index`.
type Vector = [i32; 3];

struct MaxN<'a> {
    tm: TimeManager,
    ctx: &'a SearchContext<'a>,
    node_limit: Option<u64>,
    nodes: u64,
    seldepth: u32,
    stopped: bool,
    pv: [[Move; MAX_PLY]; MAX_PLY],
    pv_len: [usize; MAX_PLY],
}

impl MaxN<'_> {
    /// Whether the search must end now (polled).
    fn out_of_time(&mut self) -> bool {
        if self.nodes.is_multiple_of(POLL_NODES)
            && (self.ctx.stop.load(Ordering::Relaxed)
                || self.tm.hard_expired()
                || self.node_limit.is_some_and(|n| self.nodes >= n))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The utilities of a finished game: the winner `WIN` (sooner is better), the drawers 0,
    /// the losers `-WIN`.
    fn terminal(result: &[GameValue; 3], ply: usize) -> Vector {
        result.map(|v| match v {
            GameValue::Win => WIN - ply as i32,
            GameValue::Draw => 0,
            GameValue::Loss => -WIN + ply as i32,
        })
    }

    /// Max-n to `depth` plies, then up to `QUIESCENCE_PLIES` of captures (where the mover may
    /// also stand on the static utilities); the vector of the line chosen.
    fn search(&mut self, pos: &mut FpPosition, depth: i32, ply: usize) -> Vector {
        self.nodes += 1;
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply as u32);
        if let Some(r) = pos.outcome() {
            return Self::terminal(&r, ply);
        }
        let quiet = depth <= 0;
        if ply + 1 >= MAX_PLY || depth <= -(QUIESCENCE_PLIES as i32) || self.out_of_time() {
            return self.ctx.eval.three_utilities(pos);
        }
        let me = pos.side_to_move().index();
        let mut best = quiet.then(|| self.ctx.eval.three_utilities(pos));
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        for &m in list.iter() {
            if quiet && !captures(pos, m) {
                continue;
            }
            pos.make(m);
            let v = self.search(pos, depth - 1, ply + 1);
            pos.unmake();
            if self.stopped {
                break;
            }
            if best.is_none_or(|b| v[me] > b[me]) {
                best = Some(v);
                self.pv[ply][0] = m;
                let n = self.pv_len[ply + 1].min(MAX_PLY - 1);
                for i in 0..n {
                    self.pv[ply][i + 1] = self.pv[ply + 1][i];
                }
                self.pv_len[ply] = n + 1;
            }
        }
        best.unwrap_or_else(|| self.ctx.eval.three_utilities(pos))
    }
}

/// Whether `m` takes a man (e.p. included).
fn captures(pos: &FpPosition, m: Move) -> bool {
    m != PASS && (m.kind() == MoveKind::EnPassant || pos.piece_at(m.to()).is_some())
}

/// Runs a max-n search from `root` for its player to move.
pub fn search_maxn(
    root: &FpPosition,
    limits: &SearchLimits,
    options: &SearchOptions,
    ctx: &SearchContext,
    reporter: &dyn Reporter,
) -> SearchResult {
    let mut pos = root.clone();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let Some(&first) = list.iter().next() else {
        return SearchResult {
            best: Move::NONE,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
    };
    let me = pos.side_to_move().index();
    let mut s = MaxN {
        tm: TimeManager::new(limits, Color::White, options.move_overhead, &options.params),
        ctx,
        node_limit: limits.nodes,
        nodes: 0,
        seldepth: 0,
        stopped: false,
        pv: [[Move::NONE; MAX_PLY]; MAX_PLY],
        pv_len: [0; MAX_PLY],
    };
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - QUIESCENCE_PLIES - 2);
    let mut result = SearchResult {
        best: first,
        ponder: None,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![first],
    };
    for depth in 1..=max_depth.max(1) {
        let v = s.search(&mut pos, depth as i32, 0);
        if s.stopped && depth > 1 {
            break;
        }
        let pv: Vec<Move> = s.pv[0][..s.pv_len[0]].to_vec();
        if let Some(&best) = pv.first() {
            result = SearchResult {
                best,
                ponder: pv.get(1).copied(),
                score: v[me],
                depth,
                nodes: s.nodes,
                pv: pv.clone(),
            };
        }
        report(&s, depth, &result, reporter);
        if s.stopped || (!limits.infinite && s.tm.soft_expired()) {
            break;
        }
    }
    result.nodes = s.nodes;
    result
}

fn report(s: &MaxN, depth: u32, r: &SearchResult, reporter: &dyn Reporter) {
    let ms = s.tm.elapsed_ms();
    reporter.info(&SearchInfo {
        depth,
        seldepth: s.seldepth.max(depth),
        multipv: 1,
        score: ReportedScore::Cp(r.score.clamp(-WIN, WIN)),
        bound: ScoreBound::Exact,
        nodes: s.nodes,
        nps: s.nodes * 1000 / ms.max(1),
        time_ms: ms,
        hashfull: 0,
        pv: r.pv.iter().map(|&m| move_to_string(m)).collect(),
        wdl: (0, 0, 0),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{with_test_context, Silent};

    /// The result of a max-n search of `fen` under `limits`.
    fn run(fen: &str, limits: SearchLimits) -> SearchResult {
        let pos = FpPosition::from_fen(fen).expect("FP-FEN");
        with_test_context(|ctx| search_maxn(&pos, &limits, &SearchOptions::default(), ctx, &Silent))
    }

    /// The best move and score of a max-n search to `depth` in `fen`.
    fn best(fen: &str, depth: u32) -> (String, i32) {
        let r = run(
            fen,
            SearchLimits {
                depth: Some(depth),
                ..Default::default()
            },
        );
        (move_to_string(r.best), r.score)
    }

    #[test]
    fn a_foreign_takes_the_other_foreigns_king_and_wins() {
        // TF-6
        let (m, score) = best("nK,7/8/8/8/8/8/8/sR,6,pK s snp - 0 1", 3);
        assert_eq!(m, "a1a8");
        assert!(score > WIN - 10, "{score}");
    }

    #[test]
    fn each_player_follows_its_own_interest() {
        // South can take the Peacekeeper's king (a duel with North follows, even material)
        // or North's (a win): max-n takes the win
        let (m, _) = best("nK,7/8/8/8/8/8/8/sR,6,pK s snp - 0 1", 2);
        assert_eq!(m, "a1a8");
        // the Peacekeeper removes South with g1xa1 (TF-7)
        let (m, _) = best("nK,7/8/8/8/8/8/8/sK,5,pQ,pK p snp - 0 1", 2);
        assert_eq!(m, "g1a1");
    }

    #[test]
    fn limits_are_kept() {
        // a node limit ends the search with a legal answer
        let start = crate::foreignpolicy::START_FEN;
        let r = run(start, SearchLimits::of_nodes(5000));
        let mut legal = MoveList::new();
        FpPosition::startpos().legal_moves(&mut legal);
        assert!(legal.iter().any(|&m| m == r.best));
        assert!(r.nodes < 5000 + POLL_NODES, "{}", r.nodes);
    }
}
