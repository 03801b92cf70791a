//! The accumulators of a line of play, one entry a ply, updated lazily.
//!
//! `push` after each `make` records only which men the move removed and placed (read from
//! the position's last edit list, so every mechanic's moves are covered the same way); the
//! values are computed when an evaluation asks for them, from the nearest entry already
//! computed, so a node that is never evaluated costs no vector work. With no computed entry
//! below (the first evaluation of a search) the top is computed from scratch. Each entry keeps,
//! per perspective, the king context it was computed in (a net with king buckets): an entry
//! computed in another context than the top's cannot be built on, so a king that changed
//! bucket or half on the way makes the top's perspective computed afresh.

use super::{simd, KingContext, LoadedNet};
use crate::geometry::{Color, Square};
use crate::piece::Piece;
use crate::position::{Position, MAX_EDITS};

/// The men one move removed and placed.
#[derive(Clone, Copy)]
struct Delta {
    removed: [(Piece, Square); MAX_EDITS],
    added: [(Piece, Square); MAX_EDITS],
    n_removed: u8,
    n_added: u8,
}

impl Delta {
    const EMPTY: Delta = Delta {
        removed: [(Piece::NONE, Square::new(0)); MAX_EDITS],
        added: [(Piece::NONE, Square::new(0)); MAX_EDITS],
        n_removed: 0,
        n_added: 0,
    };

    /// What the last move (or pass) of `pos` changed: for each square it edited, the content
    /// before the move (the first record of that square) against the content now.
    fn of_last_move(pos: &Position) -> Delta {
        let edits = pos.last_edits();
        let list = edits.as_slice();
        let mut d = Delta::EMPTY;
        for (i, e) in list.iter().enumerate() {
            if list[..i].iter().any(|earlier| earlier.sq == e.sq) {
                continue;
            }
            let (before, after) = (e.after, pos.piece_at(e.sq));
            if before == after {
                continue;
            }
            if before.is_some() {
                d.removed[d.n_removed as usize] = (before, e.sq);
                d.n_removed += 1;
            }
            if after.is_some() {
                d.added[d.n_added as usize] = (after, e.sq);
                d.n_added += 1;
            }
        }
        d
    }
}

/// The accumulators of the positions along the current line.
#[derive(Clone)]
pub struct AccumulatorStack {
    hidden: usize,
    /// Entry `i`'s accumulators: White's perspective, then Black's (`2 * hidden` values).
    values: Vec<i16>,
    /// Entry `i`'s king context key per perspective ([`KingContext::key`]), or
    /// [`NOT_COMPUTED`].
    contexts: Vec<[u8; 2]>,
    deltas: Vec<Delta>,
    top: usize,
    /// The top entry's accumulators with the held men's rows added (`2 * hidden` values), for
    /// nets with held-man inputs: the entries keep the board alone.
    with_held: Vec<i16>,
}

/// An entry's perspective not computed yet.
const NOT_COMPUTED: u8 = u8::MAX;

impl AccumulatorStack {
    /// A stack for nets of `hidden` values, deep enough for `depth` moves past its base.
    pub fn new(hidden: usize, depth: usize) -> AccumulatorStack {
        let entries = depth + 1;
        AccumulatorStack {
            hidden,
            values: vec![0; entries * 2 * hidden],
            contexts: vec![[NOT_COMPUTED; 2]; entries],
            deltas: vec![Delta::EMPTY; entries],
            top: 0,
            with_held: vec![0; 2 * hidden],
        }
    }

    /// The net size this stack was made for.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Starts again at a new base position, computed on the first evaluation.
    pub fn reset(&mut self) {
        self.top = 0;
        self.contexts[0] = [NOT_COMPUTED; 2];
    }

    /// Records the move just made on `pos`.
    #[inline]
    pub fn push(&mut self, pos: &Position) {
        if self.top + 1 == self.contexts.len() {
            // deeper than the search's bound: grow rather than fail (never in a normal search)
            let n = self.contexts.len();
            self.values.resize(2 * n * 2 * self.hidden, 0);
            self.contexts.resize(2 * n, [NOT_COMPUTED; 2]);
            self.deltas.resize(2 * n, Delta::EMPTY);
        }
        self.top += 1;
        self.contexts[self.top] = [NOT_COMPUTED; 2];
        self.deltas[self.top] = Delta::of_last_move(pos);
    }

    /// Forgets the last move (after `unmake`).
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the base");
        self.top = self.top.saturating_sub(1);
    }

    /// The evaluation of `pos` (the position after every pushed move) in centipawns for the
    /// side to move.
    #[inline]
    pub fn evaluate(&mut self, net: &LoadedNet, pos: &Position) -> i32 {
        self.bring_up_to_date(net, pos);
        let h = self.hidden;
        let entry = &self.values[self.top * 2 * h..(self.top + 1) * 2 * h];
        let (white, black) = entry.split_at(h);
        let (us, them) = match pos.side_to_move() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        if net.sees_held {
            let (us_held, them_held) = self.with_held.split_at_mut(h);
            let stm = pos.side_to_move();
            for (copy, from, perspective) in [(us_held, us, stm), (them_held, them, stm.flip())] {
                copy.copy_from_slice(from);
                net.add_held(pos, perspective, copy);
            }
            let (us, them) = self.with_held.split_at(h);
            return net.net.output(us, them, net.bucket(pos), simd::screlu_dot);
        }
        net.net.output(us, them, net.bucket(pos), simd::screlu_dot)
    }

    fn bring_up_to_date(&mut self, net: &LoadedNet, pos: &Position) {
        for (p, perspective) in Color::ALL.into_iter().enumerate() {
            let ctx = net.map.context(pos, perspective);
            if self.contexts[self.top][p] != ctx.key {
                self.update(net, pos, p, perspective, ctx);
            }
        }
    }

    /// Computes the top entry's accumulator of `perspective` (index `p`) in context `ctx`:
    /// from the nearest entry below computed in the same context, else from scratch.
    fn update(
        &mut self,
        net: &LoadedNet,
        pos: &Position,
        p: usize,
        perspective: Color,
        ctx: KingContext,
    ) {
        let h = self.hidden;
        let Some(base) = (0..self.top)
            .rev()
            .find(|&i| self.contexts[i][p] == ctx.key)
        else {
            let at = self.top * 2 * h + p * h;
            net.refresh(pos, perspective, &mut self.values[at..at + h]);
            self.contexts[self.top][p] = ctx.key;
            return;
        };
        for i in base + 1..=self.top {
            let (below, above) = self.values.split_at_mut(i * 2 * h);
            let parent = &below[(i - 1) * 2 * h + p * h..][..h];
            let child = &mut above[p * h..(p + 1) * h];
            apply(net, &self.deltas[i], perspective, ctx, parent, child);
            self.contexts[i][p] = ctx.key;
        }
    }
}

/// `child = parent` changed by `delta`, seen from `perspective`.
#[inline]
fn apply(
    net: &LoadedNet,
    delta: &Delta,
    perspective: Color,
    ctx: KingContext,
    parent: &[i16],
    child: &mut [i16],
) {
    let mut adds: [&[i16]; MAX_EDITS] = [&[]; MAX_EDITS];
    let mut subs: [&[i16]; MAX_EDITS] = [&[]; MAX_EDITS];
    for (slot, &(piece, sq)) in adds.iter_mut().zip(&delta.added[..delta.n_added as usize]) {
        *slot = net.net.row(net.map.feature(perspective, ctx, piece, sq));
    }
    for (slot, &(piece, sq)) in subs
        .iter_mut()
        .zip(&delta.removed[..delta.n_removed as usize])
    {
        *slot = net.net.row(net.map.feature(perspective, ctx, piece, sq));
    }
    simd::update(
        child,
        parent,
        &adds[..delta.n_added as usize],
        &subs[..delta.n_removed as usize],
    );
}
