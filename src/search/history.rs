//! What the search learns about moves and keeps between the searches of one game: quiet
//! history (man and target square), continuation history (a quiet move after the moves one
//! and two plies before it), capture history (man, target and victim) and countermoves (the
//! quiet move that last refuted a move). A search thread borrows its tables from the
//! engine's [`HistoryPool`] and gives them back when it ends, so the next move's search
//! starts with what this one learnt; `ucinewgame`, a variant change and "Clear Hash" clear
//! them.

use crate::moves::Move;
use crate::piece::PieceType;
use std::sync::Mutex;

/// Keys of a move: the moving man (`Piece::index`, colour and type) and its target square.
pub const MOVE_KEYS: usize = 32 * 64;
/// The key of no move: the plies before the root, a null move, and games whose deciders do
/// not alternate (there "the move before" is not the opponent's reply).
pub const NO_KEY: u16 = u16::MAX;
/// Victim types a capture history distinguishes.
const VICTIMS: usize = 16;
/// Scores stay within about this: each update pulls a score towards it in proportion to how
/// far it still is (the "gravity" that also lets old experience fade).
const LIMIT: i32 = 16384;

/// What a correction history keys the static evaluation's error by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Correction {
    /// The pawns of both sides (`Game::pawn_key`).
    Pawns,
    /// The number of men of each type and colour (`Game::material_key`).
    Material,
}

/// The correction history's entry of `player` in `table` for key `key`.
#[inline(always)]
fn correction_index(table: Correction, player: usize, key: u64) -> usize {
    ((table as usize) * CORRECTION_PLAYERS + player % CORRECTION_PLAYERS) * CORRECTION_ENTRIES
        + (key >> 50) as usize % CORRECTION_ENTRIES
}

/// The key of a move by man `piece_index` to square `to`.
#[inline(always)]
pub fn move_key(piece_index: usize, to: usize) -> u16 {
    (piece_index * 64 + to) as u16
}

/// The bonus of a cutoff at remaining `depth` (a malus is its negative).
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (32 * depth * depth + 64 * depth).min(2048)
}

/// Adds `bonus` to `h` with gravity (see [`LIMIT`]).
#[inline(always)]
fn update(h: &mut i16, bonus: i32) {
    let v = *h as i32;
    *h = (v + bonus - v * bonus.abs() / LIMIT) as i16;
}

/// Entries of the correction history per player.
const CORRECTION_ENTRIES: usize = 16384;
/// Players the correction history keeps apart (Foreign Policy's three included).
const CORRECTION_PLAYERS: usize = 4;
/// Correction tables ([`Correction`]'s cases).
const CORRECTION_TABLES: usize = 2;
/// A correction entry holds centipawns times this.
const CORRECTION_GRAIN: i32 = 256;
/// Weights of a correction update are out of this.
const CORRECTION_WEIGHT_SCALE: i32 = 256;
/// A correction stays within this many centipawns.
const CORRECTION_MAX_CP: i32 = 64;

/// One search thread's tables.
pub struct Histories {
    /// The static evaluation's average error per player and pawn structure, and per player
    /// and material, learnt from the searches' results (centipawns times
    /// [`CORRECTION_GRAIN`]).
    correction: Box<[i32]>,
    quiet: Box<[i16]>,
    capture: Box<[i16]>,
    continuation: Box<[i16]>,
    countermoves: Box<[Move]>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories::new()
    }
}

impl Histories {
    /// Empty tables.
    pub fn new() -> Histories {
        Histories {
            correction: vec![0; CORRECTION_TABLES * CORRECTION_PLAYERS * CORRECTION_ENTRIES]
                .into_boxed_slice(),
            quiet: vec![0; MOVE_KEYS].into_boxed_slice(),
            capture: vec![0; MOVE_KEYS * VICTIMS].into_boxed_slice(),
            continuation: vec![0; MOVE_KEYS * MOVE_KEYS].into_boxed_slice(),
            countermoves: vec![Move::NONE; MOVE_KEYS].into_boxed_slice(),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.correction.fill(0);
        self.quiet.fill(0);
        self.capture.fill(0);
        self.continuation.fill(0);
        self.countermoves.fill(Move::NONE);
    }

    /// The correction (centipawns) to the static evaluation of `player` where `table`'s key
    /// is `key`.
    #[inline]
    pub fn correction(&self, table: Correction, player: usize, key: u64) -> i32 {
        self.correction[correction_index(table, player, key)] / CORRECTION_GRAIN
    }

    /// A search at remaining `depth` found `error` centipawns between the node's score and
    /// its static evaluation: `table`'s entry moves towards it, the more the deeper the
    /// search.
    #[inline]
    pub fn learn_correction(
        &mut self,
        table: Correction,
        player: usize,
        key: u64,
        depth: i32,
        error: i32,
    ) {
        let e = &mut self.correction[correction_index(table, player, key)];
        let weight = (depth + 1).min(16);
        let target = error.clamp(-CORRECTION_MAX_CP, CORRECTION_MAX_CP) * CORRECTION_GRAIN;
        *e = (*e * (CORRECTION_WEIGHT_SCALE - weight) + target * weight) / CORRECTION_WEIGHT_SCALE;
    }

    /// The ordering score of a quiet move with key `key`, after moves with keys `before`
    /// (one and two plies back; [`NO_KEY`] where unknown).
    #[inline]
    pub fn quiet_score(&self, key: u16, before: [u16; 2]) -> i32 {
        let mut s = self.quiet[key as usize] as i32;
        for b in before {
            if b != NO_KEY {
                s += self.continuation[b as usize * MOVE_KEYS + key as usize] as i32;
            }
        }
        s
    }

    /// Adds `bonus` (negative: a malus) to the quiet and continuation histories of a quiet
    /// move with key `key` after moves `before`.
    #[inline]
    pub fn reward_quiet(&mut self, key: u16, before: [u16; 2], bonus: i32) {
        update(&mut self.quiet[key as usize], bonus);
        for b in before {
            if b != NO_KEY {
                update(
                    &mut self.continuation[b as usize * MOVE_KEYS + key as usize],
                    bonus,
                );
            }
        }
    }

    /// The capture history of a capture with key `key` taking a man of type `victim`.
    #[inline]
    pub fn capture_score(&self, key: u16, victim: PieceType) -> i32 {
        self.capture[key as usize * VICTIMS + victim.index() % VICTIMS] as i32
    }

    /// Adds `bonus` (negative: a malus) to a capture's history.
    #[inline]
    pub fn reward_capture(&mut self, key: u16, victim: PieceType, bonus: i32) {
        update(
            &mut self.capture[key as usize * VICTIMS + victim.index() % VICTIMS],
            bonus,
        );
    }

    /// The quiet move that last refuted the move with key `previous`.
    #[inline]
    pub fn countermove(&self, previous: u16) -> Move {
        if previous == NO_KEY {
            Move::NONE
        } else {
            self.countermoves[previous as usize]
        }
    }

    /// Records `m` as the refutation of the move with key `previous`.
    #[inline]
    pub fn set_countermove(&mut self, previous: u16, m: Move) {
        if previous != NO_KEY {
            self.countermoves[previous as usize] = m;
        }
    }
}

/// The engine's tables, one per search thread, kept between searches.
#[derive(Default)]
pub struct HistoryPool {
    slots: Mutex<Vec<Option<Box<Histories>>>>,
}

impl HistoryPool {
    /// A pool with no tables yet (they are made on first use).
    pub fn new() -> HistoryPool {
        HistoryPool::default()
    }

    /// Thread `id`'s tables (new ones if it has none).
    pub fn take(&self, id: usize) -> Box<Histories> {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots
            .get_mut(id)
            .and_then(Option::take)
            .unwrap_or_else(|| Box::new(Histories::new()))
    }

    /// Gives thread `id`'s tables back for the next search.
    pub fn give_back(&self, id: usize, tables: Box<Histories>) {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        if slots.len() <= id {
            slots.resize_with(id + 1, || None);
        }
        slots[id] = Some(tables);
    }

    /// Forgets what every thread learnt (a new game, another variant).
    pub fn clear(&self) {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        for t in slots.iter_mut().flatten() {
            t.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_scores_within_the_limit_and_a_malus_undoes_a_bonus() {
        let mut h = Histories::new();
        let k = move_key(3, 20);
        for _ in 0..1000 {
            h.reward_quiet(k, [NO_KEY; 2], bonus(20));
        }
        let top = h.quiet_score(k, [NO_KEY; 2]);
        assert!(top > LIMIT * 9 / 10 && top <= LIMIT, "{top}");
        for _ in 0..1000 {
            h.reward_quiet(k, [NO_KEY; 2], -bonus(20));
        }
        let bottom = h.quiet_score(k, [NO_KEY; 2]);
        assert!((-LIMIT..-LIMIT * 9 / 10).contains(&bottom), "{bottom}");
    }

    #[test]
    fn continuation_scores_depend_on_the_moves_before() {
        let mut h = Histories::new();
        let (k, a, b) = (move_key(2, 10), move_key(5, 30), move_key(7, 40));
        h.reward_quiet(k, [a, NO_KEY], 500);
        assert_eq!(h.quiet_score(k, [NO_KEY; 2]), 500, "quiet alone");
        assert_eq!(h.quiet_score(k, [a, NO_KEY]), 1000);
        assert_eq!(h.quiet_score(k, [b, NO_KEY]), 500, "another predecessor");
        assert_eq!(
            h.quiet_score(k, [NO_KEY, a]),
            1000,
            "one table for both distances"
        );
    }

    #[test]
    fn the_correction_tables_learn_apart_and_move_further_after_deeper_searches() {
        let mut h = Histories::new();
        let key = 0xABCD_0000_0000_0000;
        h.learn_correction(Correction::Pawns, 0, key, 3, 64);
        let shallow = h.correction(Correction::Pawns, 0, key);
        assert!(shallow > 0, "{shallow}");
        assert_eq!(
            h.correction(Correction::Material, 0, key),
            0,
            "the other table"
        );
        assert_eq!(
            h.correction(Correction::Pawns, 1, key),
            0,
            "the other player"
        );
        let mut deep = Histories::new();
        deep.learn_correction(Correction::Material, 0, key, 12, 64);
        assert!(deep.correction(Correction::Material, 0, key) > shallow);
        for _ in 0..500 {
            deep.learn_correction(Correction::Material, 0, key, 15, 1000);
        }
        let top = deep.correction(Correction::Material, 0, key);
        assert!((60..=CORRECTION_MAX_CP).contains(&top), "bounded: {top}");
    }

    #[test]
    fn the_pool_keeps_tables_per_thread_until_cleared() {
        let pool = HistoryPool::new();
        let k = move_key(1, 1);
        let mut t = pool.take(1);
        t.reward_capture(k, PieceType::QUEEN, 700);
        t.set_countermove(k, Move::NONE);
        pool.give_back(1, t);
        assert_eq!(pool.take(0).capture_score(k, PieceType::QUEEN), 0);
        let t = pool.take(1);
        assert_eq!(t.capture_score(k, PieceType::QUEEN), 700);
        assert_eq!(t.capture_score(k, PieceType::ROOK), 0);
        pool.give_back(1, t);
        pool.clear();
        assert_eq!(pool.take(1).capture_score(k, PieceType::QUEEN), 0);
    }
}
