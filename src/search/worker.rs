//! One search thread: principal-variation alpha-beta with quiescence, transposition-table
//! cutoffs, null move (where the traits allow), late-move reductions, killers, history,
//! check extension and mate-distance pruning.

use super::busy::BusyTable;
use super::game::{Game, Player};
use super::history::{self, Correction, Histories, NO_KEY};
use super::params::SearchParams;
use super::{INFINITE, MATE, MATE_BOUND, MAX_PLY};
use crate::eval::EvalParams;
use crate::moves::{Move, MoveList};
use crate::piece::PieceType;
use crate::position::LateJudgement;
use crate::tt::{Bound, TranspositionTable};
use crate::variant::GameValue;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What all threads of one search share.
pub struct Shared<'a> {
    /// The table.
    pub tt: &'a TranspositionTable,
    /// Set to stop every thread.
    pub stop: &'a AtomicBool,
    /// Nodes of all threads (flushed in batches).
    pub nodes: AtomicU64,
    /// Node limit, if any.
    pub node_limit: Option<u64>,
    /// Time after which the main thread stops the search.
    pub deadline: Option<std::time::Instant>,
    /// While set, the deadline does not apply (pondering).
    pub pondering: &'a AtomicBool,
    /// Positions other threads are searching (only with several threads).
    pub busy: Option<&'a BusyTable>,
    /// The tunable constants.
    pub params: SearchParams,
    /// Late-move reductions by depth and move index, from `params`.
    pub reductions: [[u8; 64]; 64],
}

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score of the last iteration that searched it fully (-INFINITE if not).
    pub score: i32,
    /// Score from the iteration before.
    pub previous_score: i32,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Deepest ply reached below it.
    pub seldepth: u32,
    /// Nodes this thread has searched below it in this search (time management weighs the
    /// best move's share).
    pub nodes: u64,
}

/// Move-ordering scores for one node, on the stack without zero-filling 8 KB per node.
struct ScoreBuf {
    buf: [std::mem::MaybeUninit<i32>; MoveList::CAPACITY],
}

impl ScoreBuf {
    #[inline(always)]
    fn new() -> ScoreBuf {
        ScoreBuf {
            buf: [std::mem::MaybeUninit::uninit(); MoveList::CAPACITY],
        }
    }

    /// The first `n` scores, zeroed.
    #[inline(always)]
    fn slice(&mut self, n: usize) -> &mut [i32] {
        for s in &mut self.buf[..n] {
            s.write(0);
        }
        // SAFETY: the first `n` entries were just initialised.
        unsafe { std::slice::from_raw_parts_mut(self.buf.as_mut_ptr() as *mut i32, n) }
    }
}

// Search parameters, named so formulas read as what they mean. Changing one changes the
// `bench` signature and needs an SPRT (docs/match.md).

/// Null move: the least remaining depth it is tried at.
const NULL_MIN_DEPTH: i32 = 3;
/// ProbCut: the least remaining depth it is tried at.
const PROBCUT_MIN_DEPTH: i32 = 5;
/// ProbCut: how much shallower than the node its captures are searched.
const PROBCUT_REDUCTION: i32 = 4;
/// Internal iterative reduction: the least remaining depth at which a node without a table
/// move is searched one ply shallower (its ordering is poor, and a shallower search fills the
/// table for the next visit).
const IIR_MIN_DEPTH: i32 = 4;
/// Capture history counts this fraction in a capture's order (the victim's value leads).
const CAPTURE_HISTORY_DIVISOR: i32 = 16;
/// Move ordering bands, best first: the table move, captures (by victim and attacker),
/// promotions, killers; quiet moves by history below them.
const ORDER_TT_MOVE: i32 = 1 << 30;
/// See [`ORDER_TT_MOVE`].
const ORDER_CAPTURE: i32 = 1 << 28;
/// See [`ORDER_TT_MOVE`].
const ORDER_PROMOTION: i32 = 1 << 27;
/// See [`ORDER_TT_MOVE`].
const ORDER_KILLER: i32 = 1 << 26;
/// See [`ORDER_TT_MOVE`]: captures that lose material by static exchange come after the
/// killers (still above every quiet move's history).
const ORDER_BAD_CAPTURE: i32 = 1 << 25;
/// Above every quiet move's history score and below every capture, promotion and killer:
/// once a move ordered below it is picked, every move still to pick is an ordinary quiet.
const ORDER_QUIETS_BELOW: i32 = 1 << 24;
/// SEE pruning: the deepest remaining depth at which moves losing material by static
/// exchange are skipped at non-PV nodes.
const SEE_PRUNE_MAX_DEPTH: i32 = 6;
/// Nodes a thread counts before adding them to the shared counter and checking limits.
const NODE_BATCH: u64 = 1024;
/// The stop flag is read every this many nodes (a power of two).
const STOP_POLL: u64 = 64;

/// Remaining depth from which the table's move is tested for singularity.
const SINGULAR_MIN_DEPTH: i32 = 6;
/// How much shallower than the node the table's entry may be for a singularity test.
const SINGULAR_TT_DEPTH_SLACK: i32 = 3;

/// Remaining depth from which a node puts off moves that another thread is searching.
const DEFER_MIN_DEPTH: i32 = 3;
/// Most moves one node puts off.
const MAX_DEFERRED: usize = 32;

/// What a singularity test decides for its node.
enum Singularity {
    /// The node's value (several moves beat beta, or the search stopped).
    Cut(i32),
    /// Plies to add to the table's move's depth (-1, 0 or 1).
    Extend(i32),
}

/// Per-thread search state, generic over the game searched.
pub struct Worker<'a, G: Game> {
    /// Thread index (0 = main).
    pub id: usize,
    /// The thread's own copy of the game.
    pub pos: G,
    shared: &'a Shared<'a>,
    /// The tunable constants, copied from `shared` (read at every node: one load away).
    params: SearchParams,
    eval: &'a EvalParams,
    local_nodes: u64,
    /// Nodes this thread has added to the shared counter (with `local_nodes`, all it has
    /// searched).
    flushed: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: u32,
    killers: [[Move; 2]; MAX_PLY + 2],
    /// Whether the side to move is in check in the child about to be searched, when the
    /// parent found out after making the move: taken by the child's first step, so one
    /// computation serves both.
    known_check: Option<bool>,
    /// Quiet, continuation and capture histories and countermoves, kept between searches.
    hist: Box<Histories>,
    /// `moved[ply + 2]`: the key of the move made at `ply` (the two before the root stay
    /// [`NO_KEY`]).
    moved: [u16; MAX_PLY + 3],
    /// Static evaluation of each ply's node for its decider (`-INFINITE`: unknown, in check
    /// or the root), and that decider: for the improving flag.
    evals: [(i32, Player); MAX_PLY + 2],
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// `excluded[ply]`: the move a singularity test leaves out of the node at `ply`.
    excluded: [Move; MAX_PLY + 2],
    /// Root moves, best first.
    pub root_moves: Vec<RootMove>,
    /// The root moves are the promotions of one pawn move whose piece the pawn's owner picks
    /// (007's `promotionChooser = owner`, the referee asking with `searchmoves`): this search
    /// answers for the owner, the promotion worst for the chooser.
    owner_decides: bool,
    /// Set when this thread noticed the stop flag.
    pub stopped: bool,
}

impl<'a, G: Game> Worker<'a, G> {
    /// A worker for `pos` searching `root` moves.
    pub fn new(
        id: usize,
        pos: G,
        root: &[Move],
        shared: &'a Shared<'a>,
        eval: &'a EvalParams,
        hist: Box<Histories>,
    ) -> Worker<'a, G> {
        let mut pos = pos;
        pos.prepare_eval(eval);
        let root_moves = root
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                previous_score: -INFINITE,
                pv: vec![mv],
                seldepth: 0,
                nodes: 0,
            })
            .collect();
        Worker {
            id,
            pos,
            params: shared.params,
            shared,
            eval,
            local_nodes: 0,
            flushed: 0,
            seldepth: 0,
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            hist,
            moved: [NO_KEY; MAX_PLY + 3],
            evals: [(-INFINITE, 0); MAX_PLY + 2],
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            excluded: [Move::NONE; MAX_PLY + 2],
            root_moves,
            owner_decides: false,
            known_check: None,
            stopped: false,
        }
    }

    /// Makes this search answer for the pawn's owner where the root moves are the
    /// promotions of one pawn move whose piece the owner picks (`owner_asked`: the caller
    /// restricted the root to them with `searchmoves`).
    pub fn owner_asked(mut self, owner_asked: bool) -> Self {
        let (pos, root) = (&self.pos, &self.root_moves);
        let pawn_move = |m: Move| (m.from(), m.to());
        self.owner_decides = owner_asked
            && root.first().is_some_and(|f| {
                root.iter()
                    .all(|r| pos.owner_picks(r.mv) && pawn_move(r.mv) == pawn_move(f.mv))
            });
        self
    }

    /// The thread's histories, for the next search.
    pub fn into_histories(self) -> Box<Histories> {
        self.hist
    }

    /// Nodes this thread has searched so far.
    pub fn searched(&self) -> u64 {
        self.flushed + self.local_nodes
    }

    /// Nodes searched by this thread that are not yet added to the shared counter.
    pub fn flush_nodes(&mut self) {
        if self.local_nodes > 0 {
            self.shared
                .nodes
                .fetch_add(self.local_nodes, Ordering::Relaxed);
            self.flushed += self.local_nodes;
            self.local_nodes = 0;
        }
    }

    #[inline]
    fn count_node(&mut self) {
        self.local_nodes += 1;
        if self.local_nodes >= NODE_BATCH {
            let total = self
                .shared
                .nodes
                .fetch_add(self.local_nodes, Ordering::Relaxed)
                + self.local_nodes;
            self.flushed += self.local_nodes;
            self.local_nodes = 0;
            if self.shared.node_limit.is_some_and(|l| total >= l) {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
            if self.id == 0
                && !self.shared.pondering.load(Ordering::Relaxed)
                && self
                    .shared
                    .deadline
                    .is_some_and(|d| std::time::Instant::now() >= d)
            {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.local_nodes & (STOP_POLL - 1) == 0 && self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// Searches the root at `depth` within (alpha, beta) for MultiPV line `pv_idx`.
    /// Updates and re-sorts `root_moves[pv_idx..]`.
    pub fn search_root(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_idx: usize,
        on_move: &mut dyn FnMut(Move, usize),
    ) -> i32 {
        if self.owner_decides {
            return self.owner_root(depth);
        }
        let mut best = -INFINITE;
        self.seldepth = 0;
        let n = self.root_moves.len();
        // root moves another thread is searching are put off to the end, as below the root
        let busy = self.shared.busy.filter(|_| depth >= DEFER_MIN_DEPTH);
        let mut deferred = [0usize; MAX_DEFERRED];
        let mut n_deferred = 0;
        let mut next = pv_idx;
        loop {
            let (i, put_off_before) = if next < n {
                next += 1;
                (next - 1, false)
            } else if next < n + n_deferred {
                next += 1;
                (deferred[next - 1 - n], true)
            } else {
                break;
            };
            let m = self.root_moves[i].mv;
            let chooser = self.pos.decider();
            if self.pos.owner_picks(m) {
                on_move(m, i + 1);
                let score = self.owner_promotion(m, chooser, depth, alpha, beta, 0);
                if self.stopped {
                    break;
                }
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(m);
                best = best.max(score);
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
                continue;
            }
            self.note_move(0, m);
            self.pos.make(m);
            let child = self.pos.key();
            if let Some(busy) = busy {
                if i > pv_idx && !put_off_before && n_deferred < MAX_DEFERRED && busy.is_busy(child)
                {
                    self.pos.unmake();
                    deferred[n_deferred] = i;
                    n_deferred += 1;
                    continue;
                }
                busy.mark(child);
            }
            on_move(m, i + 1);
            let searched_before = self.searched();
            self.count_node();
            let gives_check = self.pos.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            self.known_check = Some(gives_check);
            let score = if i == pv_idx {
                self.child(chooser, new_depth, alpha, beta, 1)
            } else {
                let mut s = self.child(chooser, new_depth, alpha, alpha + 1, 1);
                if s > alpha && s < beta && !self.stopped {
                    self.known_check = Some(gives_check);
                    s = self.child(chooser, new_depth, alpha, beta, 1);
                }
                s
            };
            if let Some(busy) = busy {
                busy.release(child);
            }
            self.pos.unmake();
            self.root_moves[i].nodes += self.searched() - searched_before;
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        // best first among the lines not yet fixed; stable keeps the old order for ties
        self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
        best
    }

    /// The value of the child just made, from the point of view of `chooser`, the chooser of
    /// the node it was made from: negamax flips the sign (and the window) only where the
    /// chooser changes, which is every ply where players alternate.
    #[inline(always)]
    fn child(&mut self, chooser: Player, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.pos.alternates() || self.pos.decider() != chooser {
            -self.search(depth, -beta, -alpha, ply)
        } else {
            self.search(depth, alpha, beta, ply)
        }
    }

    /// [`Worker::child`] for quiescence.
    #[inline(always)]
    fn child_q(&mut self, chooser: Player, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.pos.alternates() || self.pos.decider() != chooser {
            -self.qsearch(-beta, -alpha, ply)
        } else {
            self.qsearch(alpha, beta, ply)
        }
    }

    /// The value to the chooser of the pawn move of promotion `m` when the owner picks the
    /// piece: the least over the promotion pieces (fail-soft within (alpha, beta)).
    fn owner_promotion(
        &mut self,
        m: Move,
        chooser: Player,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let mut worst = INFINITE;
        for k in 0..self.pos.promotion_types().len() {
            let t = self.pos.promotion_types()[k];
            let pm = Move::promotion(m.from(), m.to(), t);
            self.note_move(ply, pm);
            self.pos.make(pm);
            let s = self.child(chooser, depth - 1, alpha, beta, ply + 1);
            self.pos.unmake();
            if self.stopped {
                return 0;
            }
            worst = worst.min(s);
            if worst <= alpha {
                break;
            }
        }
        worst
    }

    /// The root of the owner's decision: each promotion piece searched with a full window, the
    /// scores from the owner's side (the opposite of the chooser's), best first.
    fn owner_root(&mut self, depth: i32) -> i32 {
        let chooser = self.pos.decider();
        for i in 0..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            self.note_move(0, m);
            self.pos.make(m);
            self.count_node();
            let s = self.child(chooser, depth - 1, -INFINITE, INFINITE, 1);
            self.pos.unmake();
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            rm.score = -s;
            rm.seldepth = self.seldepth;
            rm.pv.clear();
            rm.pv.push(m);
        }
        self.root_moves.sort_by_key(|r| std::cmp::Reverse(r.score));
        self.root_moves[0].score
    }

    /// Static evaluation for the decider.
    #[inline(always)]
    fn evaluate(&mut self) -> i32 {
        self.pos.evaluation(self.eval)[self.pos.decider()]
    }

    /// Score (decider's view) when no ply is legal, valued by the game's rules (checkmate,
    /// stalemate, every move barred, a turn that cannot be completed).
    fn no_move_score(&mut self, checked: bool, ply: usize) -> i32 {
        let outcomes = self.pos.no_move_outcome(checked);
        self.terminal_score(outcomes[self.pos.decider()], ply)
    }

    fn terminal_score(&self, value: GameValue, ply: usize) -> i32 {
        match value {
            GameValue::Win => MATE - ply as i32,
            GameValue::Loss => -MATE + ply as i32,
            GameValue::Draw => 0,
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = m;
        let n = self.pv_len[ply + 1].min(MAX_PLY - 1);
        for i in 0..n {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = n + 1;
    }

    fn score_moves(&self, list: &MoveList, tt_move: Move, ply: usize, scores: &mut [i32]) {
        let before = self.moves_before(ply);
        let counter = self.hist.countermove(before[0]);
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m == tt_move {
                ORDER_TT_MOVE
            } else if let Some(victim_type) = self.pos.captured(m) {
                let victim = self.value_of_victim(victim_type);
                let attacker = self.pos.piece_at(m.from());
                let (av, learned) = if attacker.is_some() {
                    let key = history::move_key(attacker.index(), m.to().index());
                    (
                        self.eval.value[attacker.kind().index()],
                        self.hist.capture_score(key, victim_type),
                    )
                } else {
                    (0, 0)
                };
                let band = if self.pos.see_ge(m, 0, self.eval) {
                    ORDER_CAPTURE
                } else {
                    ORDER_BAD_CAPTURE
                };
                band + victim * 16 - av / 16
                    + learned / CAPTURE_HISTORY_DIVISOR
                    + m.promotion_type().map_or(0, |t| self.eval.value[t.index()])
            } else if m.promotion_type().is_some() {
                ORDER_PROMOTION + self.eval.value[m.promotion_type().map_or(0, |t| t.index())]
            } else if m == self.killers[ply][0] {
                ORDER_KILLER + 2
            } else if m == self.killers[ply][1] {
                ORDER_KILLER + 1
            } else if m == counter {
                ORDER_KILLER
            } else {
                self.quiet_history(m, ply)
            };
        }
    }

    /// Value of the man a move captures, if it captures (only where kings are captured can a
    /// move take one: it ends the game).
    #[inline]
    fn victim_value(&self, m: Move) -> Option<i32> {
        self.pos.captured(m).map(|t| self.value_of_victim(t))
    }

    /// Value of a captured man of type `t` (a king ends the game).
    #[inline]
    fn value_of_victim(&self, t: PieceType) -> i32 {
        if t == PieceType::KING {
            MATE_BOUND
        } else {
            self.eval.value[t.index()]
        }
    }

    /// The best score among `scores[from..]` (`-INFINITE` if none).
    #[inline]
    fn best_score(scores: &[i32], from: usize) -> i32 {
        scores[from..].iter().copied().max().unwrap_or(-INFINITE)
    }

    /// The second stage of a staged node: every legal move not among the `searched` first
    /// of `list` (its captures and promotions) appended after them, in generation order.
    fn list_the_rest(&mut self, list: &mut MoveList, searched: usize) {
        let mut all = MoveList::new();
        self.pos.legal_moves(&mut all);
        list.truncate(searched);
        for &m in all.iter() {
            if !list.as_slice()[..searched].contains(&m) {
                list.push(m);
            }
        }
    }

    #[inline]
    fn pick(list: &mut MoveList, scores: &mut [i32], from: usize) -> Move {
        let n = list.len();
        let mut best = from;
        for j in from + 1..n {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        scores.swap(from, best);
        list.as_mut_slice().swap(from, best);
        list[from]
    }

    /// The alpha-beta search below the root.
    pub fn search(&mut self, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        let known_check = self.known_check.take();
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply as u32);
        let is_pv = beta - alpha > 1;
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        if let Some(outcomes) = self.pos.ended() {
            return self.terminal_score(outcomes[self.pos.decider()], ply);
        }
        if self.pos.is_repetition() || self.pos.is_dead() {
            return 0;
        }
        // mate distance pruning (under a schedule this very node may be a won end)
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - self.pos.alternates() as i32);
        if alpha >= beta {
            return alpha;
        }

        let excluded = self.excluded[ply];
        let key = self.pos.key();
        let tt = self.shared.tt.probe(key).filter(|_| excluded.is_none());
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        if let Some(s) = tt.and_then(|e| tt_cutoff(e, is_pv, depth, alpha, beta, ply)) {
            return s;
        }

        let checked = known_check.unwrap_or_else(|| self.pos.in_check());
        let raw_eval = if checked { -INFINITE } else { self.evaluate() };
        let static_eval = if checked {
            raw_eval
        } else {
            self.corrected(raw_eval)
        };
        self.evals[ply] = (static_eval, self.pos.decider());
        let improving = self.improving(ply);

        if !is_pv && !checked && ply > 0 && excluded.is_none() {
            if let Some(s) = self.prune_early(depth, beta, static_eval, improving, ply) {
                return s;
            }
        }
        if tt_move.is_none() && depth >= IIR_MIN_DEPTH && excluded.is_none() {
            depth -= 1;
        }
        let extension = match tt.filter(|_| ply > 0 && depth >= SINGULAR_MIN_DEPTH) {
            Some(e) => match self.singularity(e, depth, beta, ply) {
                Singularity::Cut(s) => return s,
                Singularity::Extend(x) => x,
            },
            None => 0,
        };

        let mut list = MoveList::new();
        // staged: the captures and promotions alone, the rest listed only if none cuts
        let mut staged = !checked && excluded.is_none() && self.pos.stages_quiets();
        if staged {
            self.pos.noisy_moves_only(&mut list);
            if list.is_empty() || !tt_move.is_none() && !list.iter().any(|&m| m == tt_move) {
                // nothing noisy, or a quiet table move to search first: list everything now
                staged = false;
                list.clear();
            }
        }
        // where a filter judges moves one at a time, only the moves played are judged
        let mut late = LateJudgement::NONE;
        if !staged {
            late = self.pos.moves_to_judge(&mut list);
        }
        if list.is_empty() {
            return self.no_move_score(checked, ply);
        }
        if self.pos.move_rule_draw() {
            if !late.is_none() && !list.iter().any(|&m| self.pos.judge(m, late)) {
                return self.no_move_score(checked, ply);
            }
            return 0;
        }
        if !excluded.is_none() && list.len() == 1 {
            return alpha;
        }

        let mut n = list.len();
        let mut buf = ScoreBuf::new();
        let mut scores = buf.slice(n);
        self.score_moves(&list, tt_move, ply, scores);
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut quiets_tried = [Move::NONE; 64];
        let mut n_quiets = 0;
        let mut captures_tried = [Move::NONE; 32];
        let mut n_captures = 0;
        let chooser = self.pos.decider();
        let mut promo_groups = [usize::MAX; 16];
        let mut n_groups = 0;
        // moves put off because another thread is searching their subtree, with their index
        let mut deferred = [(Move::NONE, 0usize); MAX_DEFERRED];
        let mut n_deferred = 0;
        let busy = self.shared.busy.filter(|_| depth >= DEFER_MIN_DEPTH);
        let mut next = 0;
        // moves judged illegal so far (the others' indices count only the rest) and whether
        // any was judged legal
        let mut n_illegal = 0;
        let mut any_legal = late.is_none();
        loop {
            if staged && (next == n || Self::best_score(scores, next) < ORDER_PROMOTION) {
                // no capture or promotion cut: the killers, bad captures and quiets follow,
                // unless futility prunes every quiet move (then only the bad captures do)
                staged = false;
                if is_pv || best <= -MATE_BOUND || !self.params.futile(depth, static_eval, alpha) {
                    self.list_the_rest(&mut list, next);
                    n = list.len();
                    scores = buf.slice(n);
                    self.score_moves(&list, tt_move, ply, scores);
                }
            }
            let (m, i, put_off_before) = if next < n {
                next += 1;
                (
                    Self::pick(&mut list, scores, next - 1),
                    next - 1 - n_illegal,
                    false,
                )
            } else if next < n + n_deferred {
                next += 1;
                let (m, i) = deferred[next - 1 - n];
                (m, i, true)
            } else {
                break;
            };
            if m == excluded {
                continue;
            }
            let capture = self.victim_value(m).is_some();
            let quiet = !capture && m.promotion_type().is_none();
            if !is_pv && !checked && quiet && best > -MATE_BOUND {
                let p = &self.shared.params;
                if p.prunes_quiet(depth, i, improving, static_eval, alpha) {
                    // the quiets still to pick come later at no higher alpha: pruned as well
                    if next <= n && scores[next - 1] < ORDER_QUIETS_BELOW {
                        next = n;
                    }
                    continue;
                }
                if p.prunes_by_history(depth, i, || self.quiet_history(m, ply)) {
                    continue;
                }
            }
            if !is_pv && !checked && best > -MATE_BOUND && self.see_prunes(m, quiet, depth) {
                continue;
            }
            if !late.is_none() && !put_off_before {
                if !self.pos.judge(m, late) {
                    n_illegal += 1;
                    continue;
                }
                any_legal = true;
            }
            let score;
            if self.pos.owner_picks(m) {
                // every piece of this pawn move is valued at once: skip the group's others
                let group = m.from().index() * 64 + m.to().index();
                if promo_groups.contains(&group) {
                    continue;
                }
                if n_groups < promo_groups.len() {
                    promo_groups[n_groups] = group;
                    n_groups += 1;
                }
                score = self.owner_promotion(m, chooser, depth, alpha, beta, ply);
            } else {
                let history = if quiet { self.quiet_history(m, ply) } else { 0 };
                self.note_move(ply, m);
                self.pos.make(m);
                let child = self.pos.key();
                if depth > 1 {
                    // the child probes the table first thing (quiescence does not)
                    self.shared.tt.prefetch(child);
                }
                if let Some(busy) = busy {
                    if i > 0 && !put_off_before && n_deferred < MAX_DEFERRED && busy.is_busy(child)
                    {
                        self.pos.unmake();
                        deferred[n_deferred] = (m, i);
                        n_deferred += 1;
                        continue;
                    }
                    busy.mark(child);
                }
                let gives_check = self.pos.in_check();
                let new_depth = if m == tt_move && extension != 0 {
                    depth - 1 + extension
                } else {
                    depth - 1 + gives_check as i32
                };
                self.known_check = Some(gives_check);
                if i == 0 {
                    score = self.child(chooser, new_depth, alpha, beta, ply + 1);
                } else {
                    let r = if quiet && !checked && !gives_check {
                        let p = &self.params;
                        let lmr = SearchParams::late_move_reduction(
                            &self.shared.reductions,
                            depth,
                            i,
                            is_pv,
                            new_depth,
                        );
                        p.adjust_reduction(lmr, history, improving, new_depth)
                    } else {
                        0
                    };
                    score = self.pvs_child(chooser, new_depth, r, alpha, beta, ply + 1);
                }
                if let Some(busy) = busy {
                    busy.release(child);
                }
                self.pos.unmake();
            }
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        let bonus = history::bonus(depth);
                        if quiet {
                            self.reward_quiet(m, ply, depth, &quiets_tried[..n_quiets]);
                        } else if capture {
                            self.reward_capture(m, bonus);
                        }
                        for &c in &captures_tried[..n_captures] {
                            self.reward_capture(c, -bonus);
                        }
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = m;
                n_quiets += 1;
            } else if capture && n_captures < captures_tried.len() {
                captures_tried[n_captures] = m;
                n_captures += 1;
            }
        }
        if !any_legal {
            // every move was judged illegal (or all but the excluded table move)
            return if excluded.is_none() {
                self.no_move_score(checked, ply)
            } else {
                alpha
            };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if is_pv && !best_move.is_none() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !excluded.is_none() {
            // a search without the table's move proves nothing about this node
            return best;
        }
        if !checked {
            self.learn_correction(best_move, best, bound, static_eval, raw_eval, depth);
        }
        self.shared
            .tt
            .store(key, best_move, score_to_tt(best, ply), depth, bound);
        best
    }

    /// The singularity test of the table's move `e.mv` at a node of `depth` below the root:
    /// a shallow search of every other move against a bound a little under the table's
    /// score. If all fail below it the table's move is singular and searched a ply deeper; if
    /// the bound itself is at least `beta`, several moves beat beta and the node is cut; if
    /// only the table's score is at least `beta`, its move is searched a ply shallower.
    fn singularity(
        &mut self,
        e: crate::tt::TtEntry,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Singularity {
        let tt_score = score_from_tt(e.score, ply);
        let usable = !e.mv.is_none()
            && matches!(e.bound, Bound::Lower | Bound::Exact)
            && e.depth >= depth - SINGULAR_TT_DEPTH_SLACK
            && tt_score.abs() < MATE_BOUND
            && !self.pos.owner_picks(e.mv);
        if !usable {
            return Singularity::Extend(0);
        }
        let singular_beta = tt_score - self.params.singular_margin * depth;
        self.excluded[ply] = e.mv;
        let score = self.search((depth - 1) / 2, singular_beta - 1, singular_beta, ply);
        self.excluded[ply] = Move::NONE;
        if self.stopped {
            return Singularity::Cut(0);
        }
        if score < singular_beta {
            Singularity::Extend(1)
        } else if singular_beta >= beta {
            Singularity::Cut(singular_beta)
        } else if tt_score >= beta {
            Singularity::Extend(-1)
        } else {
            Singularity::Extend(0)
        }
    }

    /// The static evaluation `raw` plus what the correction histories learnt of its error in
    /// this pawn structure and (at `CorrMaterialWeight` per cent) with these men, kept short
    /// of the mate scores.
    #[inline]
    fn corrected(&self, raw: i32) -> i32 {
        let (pawns, material) = self.corrections();
        (raw + pawns + material).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The corrections by pawn structure and by material (weighted; 0 when its weight is).
    #[inline]
    fn corrections(&self) -> (i32, i32) {
        let player = self.pos.decider();
        let pawns = self
            .hist
            .correction(Correction::Pawns, player, self.pos.pawn_key());
        let weight = self.params.corr_material_weight;
        if weight == 0 {
            return (pawns, 0);
        }
        let material = self
            .hist
            .correction(Correction::Material, player, self.pos.material_key());
        (pawns, material * weight / 100)
    }

    /// A search's result teaches the correction histories the static evaluation's error,
    /// where the result is a true score or a bound on the right side of the evaluation, and
    /// the best move is quiet (a capture's gain is not the evaluation's error). The pawn
    /// table learns the whole error, the material table what the pawn table leaves.
    fn learn_correction(
        &mut self,
        best_move: Move,
        best: i32,
        bound: Bound,
        static_eval: i32,
        raw_eval: i32,
        depth: i32,
    ) {
        let quiet = best_move.is_none()
            || (self.victim_value(best_move).is_none() && best_move.promotion_type().is_none());
        let informative = match bound {
            Bound::Lower => best > static_eval,
            Bound::Upper => best < static_eval,
            _ => true,
        };
        if quiet && informative && best.abs() < MATE_BOUND && !self.stopped {
            let (player, key) = (self.pos.decider(), self.pos.pawn_key());
            if self.params.corr_material_weight != 0 {
                // what the pawn table does not explain yet
                let pawns = self.hist.correction(Correction::Pawns, player, key);
                let error = best - raw_eval - pawns;
                let material = self.pos.material_key();
                self.hist
                    .learn_correction(Correction::Material, player, material, depth, error);
            }
            self.hist
                .learn_correction(Correction::Pawns, player, key, depth, best - raw_eval);
        }
    }

    /// Whether the static evaluation at `ply` is better for its decider than at the decider's
    /// previous node within two plies (two plies back where players alternate; under a turn
    /// schedule the decider's own previous ply may be the one just before). An unknown
    /// earlier evaluation (in check, the root) counts as improving, the cautious side for
    /// pruning; a node in check itself is not pruned whatever the flag says.
    #[inline]
    fn improving(&self, ply: usize) -> bool {
        let (eval, decider) = self.evals[ply];
        if eval == -INFINITE {
            return false;
        }
        (1..=2.min(ply))
            .map(|back| self.evals[ply - back])
            .find(|&(_, d)| d == decider)
            .is_none_or(|(before, _)| before == -INFINITE || eval > before)
    }

    /// The key of move `m` here, before it is made: its man and target ([`NO_KEY`] when
    /// no man stands on its origin).
    #[inline]
    fn man_key(&self, m: Move) -> u16 {
        let p = self.pos.piece_at(m.from());
        if p.is_some() {
            history::move_key(p.index(), m.to().index())
        } else {
            NO_KEY
        }
    }

    /// Records `m` as the move made at `ply` (before it is made), for the continuation
    /// history and countermoves of the nodes below. Where deciders do not alternate the move
    /// before is not the opponent's reply, and it is recorded as unknown.
    #[inline]
    fn note_move(&mut self, ply: usize, m: Move) {
        self.moved[ply + 2] = if self.pos.alternates() {
            self.man_key(m)
        } else {
            NO_KEY
        };
    }

    /// The keys of the moves one and two plies before the node at `ply`.
    #[inline]
    fn moves_before(&self, ply: usize) -> [u16; 2] {
        [self.moved[ply + 1], self.moved[ply]]
    }

    /// The history of quiet move `m` at `ply`, before it is made: quiet and continuation.
    #[inline]
    fn quiet_history(&self, m: Move, ply: usize) -> i32 {
        let key = self.man_key(m);
        if key == NO_KEY {
            return 0;
        }
        self.hist.quiet_score(key, self.moves_before(ply))
    }

    /// Adds `bonus` (negative: a malus) to capture `m`'s history.
    #[inline]
    fn reward_capture(&mut self, m: Move, bonus: i32) {
        let key = self.man_key(m);
        if let Some(victim) = self.pos.captured(m).filter(|_| key != NO_KEY) {
            self.hist.reward_capture(key, victim, bonus);
        }
    }

    /// Whether move `m` (`quiet` or not) at a node of `depth` loses so much material by static
    /// exchange that it is not worth searching (only at low depth).
    #[inline]
    fn see_prunes(&self, m: Move, quiet: bool, depth: i32) -> bool {
        if depth > SEE_PRUNE_MAX_DEPTH {
            return false;
        }
        let margin = if quiet {
            self.params.see_quiet_margin
        } else {
            self.params.see_capture_margin
        };
        !self.pos.see_ge(m, -margin * depth, self.eval)
    }

    /// A later move's child, already made: a null-window search reduced by `r` plies, again
    /// at full depth if it beats alpha, and with the full window if it lands inside it.
    #[inline]
    fn pvs_child(
        &mut self,
        chooser: Player,
        new_depth: i32,
        r: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        // each search of the child may take the parent's word on check
        let known_check = self.known_check;
        let mut score = self.child(chooser, new_depth - r, alpha, alpha + 1, ply);
        if score > alpha && r > 0 {
            self.known_check = known_check;
            score = self.child(chooser, new_depth, alpha, alpha + 1, ply);
        }
        if score > alpha && score < beta {
            self.known_check = known_check;
            score = self.child(chooser, new_depth, alpha, beta, ply);
        }
        score
    }

    /// Reverse futility pruning and the null move, at a non-PV node not in check: the score
    /// to return when the node is cut without searching its moves.
    #[inline]
    fn prune_early(
        &mut self,
        depth: i32,
        beta: i32,
        static_eval: i32,
        improving: bool,
        ply: usize,
    ) -> Option<i32> {
        // reverse futility pruning: a smaller margin where the evaluation is improving
        if depth <= self.params.rfp_max_depth
            && static_eval - self.params.rfp_margin * (depth - improving as i32) >= beta
            && static_eval.abs() < MATE_BOUND
        {
            return Some(static_eval);
        }
        // null move
        if self.pos.null_move_sound()
            && depth >= NULL_MIN_DEPTH
            && static_eval >= beta
            && self.pos.null_move_here()
        {
            let p = &self.params;
            let r = p.null_base_reduction + depth / p.null_depth_divisor;
            self.moved[ply + 2] = NO_KEY;
            self.pos.make_null();
            self.shared.tt.prefetch(self.pos.key());
            let s = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1);
            self.pos.unmake_null();
            if self.stopped {
                return Some(0);
            }
            if s >= beta {
                return Some(if s >= MATE_BOUND { beta } else { s });
            }
        }
        let margin = self.params.probcut_margin;
        if margin > 0 && depth >= PROBCUT_MIN_DEPTH && beta.abs() < MATE_BOUND - margin {
            return self.probcut(depth, beta + margin, static_eval, ply);
        }
        None
    }

    /// ProbCut: a capture that wins at least `raised - static_eval` by exchange, and whose
    /// quiescence and then reduced search both reach `raised` (a bound over beta), cuts the
    /// node; its score is returned.
    fn probcut(&mut self, depth: i32, raised: i32, static_eval: i32, ply: usize) -> Option<i32> {
        let mut list = MoveList::new();
        self.pos.noisy_moves(&mut list);
        let chooser = self.pos.decider();
        for i in 0..list.len() {
            let m = list[i];
            if self.pos.owner_picks(m) || !self.pos.see_ge(m, raised - static_eval, self.eval) {
                continue;
            }
            self.note_move(ply, m);
            self.pos.make(m);
            let mut s = self.child_q(chooser, raised - 1, raised, ply + 1);
            if s >= raised {
                s = self.child(
                    chooser,
                    depth - PROBCUT_REDUCTION,
                    raised - 1,
                    raised,
                    ply + 1,
                );
            }
            self.pos.unmake();
            if self.stopped {
                return Some(0);
            }
            if s >= raised {
                return Some(s);
            }
        }
        None
    }

    /// Quiet move `m` refuted the node at `ply`: it becomes a killer and the countermove of
    /// the move before, and gains history while the quiet moves `tried` before it lose as
    /// much.
    fn reward_quiet(&mut self, m: Move, ply: usize, depth: i32, tried: &[Move]) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let before = self.moves_before(ply);
        self.hist.set_countermove(before[0], m);
        let bonus = history::bonus(depth);
        for (q, b) in std::iter::once((m, bonus)).chain(tried.iter().map(|&q| (q, -bonus))) {
            let key = self.man_key(q);
            if key != NO_KEY {
                self.hist.reward_quiet(key, before, b);
            }
        }
    }

    /// Quiescence: captures and promotions until the position is quiet; all evasions in check.
    pub fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let known_check = self.known_check.take();
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply as u32);
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        if let Some(outcomes) = self.pos.ended() {
            return self.terminal_score(outcomes[self.pos.decider()], ply);
        }
        if self.pos.is_dead() {
            return 0;
        }
        let checked = known_check.unwrap_or_else(|| self.pos.in_check());
        let mut best = -INFINITE;
        let stand = if checked {
            -INFINITE
        } else {
            let raw = self.evaluate();
            self.corrected(raw)
        };
        // On an enemy ply the chooser may pick a quiet enemy move: stand pat unless the enemy
        // king is in check and the evasions are forced (A.7.1).
        if !self.pos.alternates() && !checked && self.pos.decider() != self.pos.mover() {
            return stand;
        }
        if !checked {
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        let mut list = MoveList::new();
        // out of check only captures and promotions are searched: generated by stages
        let any = if checked {
            self.pos.legal_moves(&mut list);
            !list.is_empty()
        } else {
            self.pos.noisy_moves(&mut list)
        };
        if !any {
            return self.no_move_score(checked, ply);
        }
        // the move rule's draw, as in the main search (a line must not run past it)
        if self.pos.move_rule_draw() {
            return 0;
        }
        let n = list.len();
        let mut buf = ScoreBuf::new();
        let scores = buf.slice(n);
        self.score_moves(&list, Move::NONE, ply, scores);
        for i in 0..n {
            let m = Self::pick(&mut list, scores, i);
            // the rest lose material by static exchange: none would be searched
            if !checked && scores[i] < ORDER_PROMOTION {
                break;
            }
            let victim = self.victim_value(m);
            if !checked {
                let Some(v) = victim.or(m.promotion_type().map(|_| 0)) else {
                    continue;
                };
                // delta pruning
                if m.promotion_type().is_none() && stand + v + self.params.delta_margin <= alpha {
                    continue;
                }
                // captures that lose material by static exchange
                if !self.pos.see_ge(m, 0, self.eval) {
                    continue;
                }
            }
            let chooser = self.pos.decider();
            self.note_move(ply, m);
            self.pos.make(m);
            let score = self.child_q(chooser, alpha, beta, ply + 1);
            self.pos.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Whether the GUI still has us pondering.
    pub fn pondering(&self) -> bool {
        self.shared.pondering.load(Ordering::Relaxed)
    }

    /// Whether someone asked the search to stop.
    pub fn stop_requested(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// Stops every thread.
    pub fn request_stop(&self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Nodes of all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.local_nodes
    }

    /// TT occupancy in permille.
    pub fn hashfull(&self) -> usize {
        self.shared.tt.hashfull()
    }
}

/// The score a table entry proves at a non-PV node searched to `depth` within
/// (`alpha`, `beta`), if it proves one.
#[inline]
fn tt_cutoff(
    e: crate::tt::TtEntry,
    is_pv: bool,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
) -> Option<i32> {
    if is_pv || e.depth < depth {
        return None;
    }
    let s = score_from_tt(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    };
    cut.then_some(s)
}

/// Mate scores are stored relative to the node, not the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
