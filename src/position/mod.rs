//! Positions: board, side to move and state; `make` and `unmake` are the only mutators.
//!
//! Every change to the board goes through [`Position::set_square`]: a move becomes a short list
//! of square edits (what the square holds afterwards), applied in order and recorded with what
//! each square held before, so `unmake` replays them backwards. Compound moves are just longer
//! lists; the Zobrist key is updated by the same function, so it cannot drift.

mod fen;
mod null;
pub mod zobrist;

pub use fen::FenError;

use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveKind};
use crate::piece::{Piece, PieceType, MAX_PIECE_TYPES};
use crate::variant::{Rules, SpecialMoves};
use std::sync::Arc;
use zobrist::ZOBRIST;

/// Castling right bits: White kingside, White queenside, Black kingside, Black queenside.
pub const CASTLE_WK: u8 = 1;
/// White queenside.
pub const CASTLE_WQ: u8 = 2;
/// Black kingside.
pub const CASTLE_BK: u8 = 4;
/// Black queenside.
pub const CASTLE_BQ: u8 = 8;

/// The part of a position that `make` saves and `unmake` restores wholesale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Zobrist key of the whole position.
    pub key: u64,
    /// Castling rights (CASTLE_* bits).
    pub castling: u8,
    /// En-passant target square (64 = none).
    pub ep: u8,
    /// Plies since the last capture or pawn move.
    pub halfmove: u16,
    /// Plies played since the start of the game (the game's ply number minus one).
    pub ply: u32,
    /// Variant state bytes (0 = nothing), hashed slot by slot.
    pub extra: [u8; 4],
}

/// One square edit: the square and what it holds afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The square.
    pub sq: Square,
    /// Its content after the edit.
    pub after: Piece,
}

/// Most square edits one move may make.
pub const MAX_EDITS: usize = 8;

/// A move's edits, built on the stack.
#[derive(Clone, Copy)]
pub struct EditList {
    edits: [Edit; MAX_EDITS],
    len: u8,
}

impl EditList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> EditList {
        EditList {
            edits: [Edit {
                sq: Square::new(0),
                after: Piece::NONE,
            }; MAX_EDITS],
            len: 0,
        }
    }

    /// Appends an edit.
    #[inline(always)]
    pub fn push(&mut self, sq: Square, after: Piece) {
        debug_assert!((self.len as usize) < MAX_EDITS);
        self.edits[self.len as usize] = Edit { sq, after };
        self.len += 1;
    }

    /// The edits.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Edit] {
        &self.edits[..self.len as usize]
    }
}

impl Default for EditList {
    fn default() -> Self {
        EditList::new()
    }
}

#[derive(Clone, Copy)]
struct Undo {
    state: State,
    mv: Move,
    /// The edits with the content each square had *before*.
    before: EditList,
}

/// A position of a two-colour game.
#[derive(Clone)]
pub struct Position {
    rules: Arc<Rules>,
    board: [Piece; 64],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; MAX_PIECE_TYPES],
    stm: Color,
    state: State,
    /// Rook squares of the four castling rights (64 = none).
    castle_rook: [u8; 4],
    /// Rights cleared when a man leaves or lands on a square.
    castle_mask: [u8; 64],
    history: Vec<Undo>,
}

impl Position {
    /// The variant's start position.
    pub fn startpos(rules: Arc<Rules>) -> Position {
        let fen = rules.start_fen.clone();
        // the start FEN was validated when the variant was loaded
        Position::from_fen(rules, &fen).expect("start FEN validated at load")
    }

    /// The rules.
    #[inline(always)]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Shared handle to the rules.
    pub fn rules_arc(&self) -> Arc<Rules> {
        self.rules.clone()
    }

    /// What stands on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// Men of `color`.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Men of type `t`, both colours.
    #[inline(always)]
    pub fn kind(&self, t: PieceType) -> Bitboard {
        self.by_kind[t.index()]
    }

    /// Men of `color` and type `t`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, t: PieceType) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[t.index()]
    }

    /// All men.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The colour whose man moves next.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.stm
    }

    /// The saved state (key, rights, en passant, clocks, variant bytes).
    #[inline(always)]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.state.key
    }

    /// Castling rights bits.
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.state.castling
    }

    /// En-passant target.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        (self.state.ep < 64).then(|| Square::new(self.state.ep))
    }

    /// Rook square of castling right `bit` (CASTLE_* bit index 0..4).
    #[inline(always)]
    pub fn castle_rook(&self, right: usize) -> Option<Square> {
        let s = self.castle_rook[right];
        (s < 64).then(|| Square::new(s))
    }

    /// The royal man of `color`, if there is exactly one.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        let k = self.pieces_of(color, PieceType::KING);
        (k.any() && !k.more_than_one()).then(|| k.lsb())
    }

    /// Plies since a capture or pawn move.
    pub fn halfmove_clock(&self) -> u16 {
        self.state.halfmove
    }

    /// Full-move number as in FEN.
    pub fn fullmove_number(&self) -> u32 {
        self.state.ply / 2 + 1
    }

    /// Number of moves made since this position was set up.
    pub fn moves_played(&self) -> usize {
        self.history.len()
    }

    /// The moves made since set-up, oldest first.
    pub fn played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// Keys of the earlier positions, most recent first, back to the last irreversible move.
    pub fn previous_keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.history
            .iter()
            .rev()
            .take(self.state.halfmove as usize)
            .map(|u| u.state.key)
    }

    /// Puts `after` on `sq`, updating bitboards and key; returns what was there.
    #[inline(always)]
    fn set_square(&mut self, sq: Square, after: Piece) -> Piece {
        let before = self.board[sq.index()];
        let z = &ZOBRIST.piece_square;
        if before.is_some() {
            self.by_color[before.color().index()] ^= sq.bb();
            self.by_kind[before.kind().index()] ^= sq.bb();
            self.state.key ^= z[before.index()][sq.index()];
        }
        if after.is_some() {
            self.by_color[after.color().index()] ^= sq.bb();
            self.by_kind[after.kind().index()] ^= sq.bb();
            self.state.key ^= z[after.index()][sq.index()];
        }
        self.board[sq.index()] = after;
        before
    }

    /// The edits a move makes, in order.
    #[inline]
    pub fn edits_of(&self, m: Move) -> EditList {
        let mut edits = EditList::new();
        let from = m.from();
        let to = m.to();
        match m.kind() {
            MoveKind::Normal => {
                let p = self.board[from.index()];
                let placed = match m.promotion_type() {
                    Some(t) => Piece::new(p.color(), t),
                    None => p,
                };
                edits.push(from, Piece::NONE);
                edits.push(to, placed);
            }
            MoveKind::EnPassant => {
                let p = self.board[from.index()];
                let victim =
                    Square::new((to.rank() - p.color().forward()) as u8 * 8 + to.file() as u8);
                edits.push(from, Piece::NONE);
                edits.push(victim, Piece::NONE);
                edits.push(to, p);
            }
            MoveKind::Castling => {
                let k = self.board[from.index()];
                let r = self.board[m.rook_from().index()];
                edits.push(from, Piece::NONE);
                edits.push(m.rook_from(), Piece::NONE);
                edits.push(to, k);
                edits.push(m.rook_to(), r);
            }
            MoveKind::Special => {
                crate::rules::special_edits(self.rules.special, self, m, &mut edits)
            }
        }
        edits
    }

    /// Plays a move. The move must be legal (or pseudo-legal, for legality tests by make/unmake).
    #[inline]
    pub fn make(&mut self, m: Move) {
        let edits = self.edits_of(m);
        let mut undo = Undo {
            state: self.state,
            mv: m,
            before: EditList::new(),
        };
        let us = self.stm;
        let mut reset_clock = false;
        let mut rights = self.state.castling;
        for e in edits.as_slice() {
            let before = self.set_square(e.sq, e.after);
            undo.before.push(e.sq, before);
            rights &= self.castle_mask[e.sq.index()];
            if (before.is_some() && before.kind() == PieceType::PAWN)
                || (e.after.is_some() && e.after.kind() == PieceType::PAWN)
                || (before.is_some() && before.color() != us && e.after.is_none())
                || (before.is_some() && e.after.is_some() && before.color() != e.after.color())
            {
                reset_clock = true;
            }
        }
        let z = &*ZOBRIST;
        let mut key = self.state.key;
        if rights != self.state.castling {
            key ^= z.castling[self.state.castling as usize] ^ z.castling[rights as usize];
            self.state.castling = rights;
        }
        if self.state.ep < 64 {
            key ^= z.ep_file[(self.state.ep & 7) as usize];
        }
        let ep = self.new_ep_square(m, &edits, &undo.before, us);
        self.state.ep = ep;
        if ep < 64 {
            key ^= z.ep_file[(ep & 7) as usize];
        }
        key ^= z.black_to_move;
        self.state.key = key;
        self.state.halfmove = if reset_clock {
            0
        } else {
            self.state.halfmove.saturating_add(1)
        };
        self.state.ply += 1;
        self.stm = us.flip();
        self.history.push(undo);
    }

    /// En-passant target after a move (64 = none): per the project's ruling, a pawn of the mover
    /// that went straight from its double-step region two ranks forward, unpromoted, over a square
    /// left empty.
    #[inline]
    fn new_ep_square(&self, m: Move, edits: &EditList, before: &EditList, us: Color) -> u8 {
        if !self.rules.en_passant {
            return 64;
        }
        let pawn = Piece::new(us, PieceType::PAWN);
        let fwd = us.forward();
        let candidate = |from: Square, to: Square| -> u8 {
            if to.file() == from.file()
                && to.rank() - from.rank() == 2 * fwd
                && self.rules.double_step_region[us.index()].has(from)
            {
                let mid = Square::new(((from.rank() + fwd) * 8 + from.file()) as u8);
                if self.board[mid.index()].is_none() {
                    return mid.raw();
                }
            }
            64
        };
        match m.kind() {
            MoveKind::Normal
                if self.board[m.to().index()] == pawn && m.promotion_type().is_none() =>
            {
                candidate(m.from(), m.to())
            }
            MoveKind::Special => {
                // one of our pawns left a square and one of ours appeared two ranks ahead of it
                for e in edits.as_slice() {
                    if e.after != pawn {
                        continue;
                    }
                    let Some(from) = e.sq.offset(0, -2 * fwd) else {
                        continue;
                    };
                    let was_pawn = before
                        .as_slice()
                        .iter()
                        .any(|b| b.sq == from && b.after == pawn);
                    if was_pawn && self.board[from.index()] != pawn {
                        let c = candidate(from, e.sq);
                        if c < 64 {
                            return c;
                        }
                    }
                }
                64
            }
            _ => 64,
        }
    }

    /// Takes back the last move. Does nothing if no move was made.
    #[inline]
    pub fn unmake(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        for e in undo.before.as_slice().iter().rev() {
            self.set_square(e.sq, e.after);
        }
        self.state = undo.state;
        self.stm = self.stm.flip();
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// Sets a variant-state byte (a rule module's hook), keeping the key in step.
    pub fn set_extra(&mut self, slot: usize, value: u8) {
        let z = &ZOBRIST.extra;
        self.state.key ^= z[slot][self.state.extra[slot] as usize] ^ z[slot][value as usize];
        self.state.extra[slot] = value;
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let z = &*ZOBRIST;
        let mut key = 0;
        for sq in Square::all() {
            let p = self.board[sq.index()];
            if p.is_some() {
                key ^= z.piece_square[p.index()][sq.index()];
            }
        }
        key ^= z.castling[self.state.castling as usize];
        if self.state.ep < 64 {
            key ^= z.ep_file[(self.state.ep & 7) as usize];
        }
        if self.stm == Color::Black {
            key ^= z.black_to_move;
        }
        for (slot, &v) in self.state.extra.iter().enumerate() {
            key ^= z.extra[slot][v as usize];
        }
        key
    }

    /// Whether the variant uses a rule module for extra moves.
    pub fn special(&self) -> SpecialMoves {
        self.rules.special
    }

    /// Removes the move history (keeps the position); used when a game's earlier moves no longer matter.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shape = self.rules.shape;
        for r in (0..shape.ranks as i8).rev() {
            write!(f, " {} ", r + 1)?;
            for file in 0..shape.files as i8 {
                let sq = Square::from_coords(file, r).expect("on frame");
                let p = self.board[sq.index()];
                let c = if p.is_none() {
                    '.'
                } else if p.color() == Color::White {
                    self.rules.letter(p.kind()).to_ascii_uppercase()
                } else {
                    self.rules.letter(p.kind())
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for file in 0..shape.files {
            write!(f, " {}", (b'a' + file) as char)?;
        }
        writeln!(f)?;
        writeln!(f, "FEN: {}", self.fen())?;
        write!(f, "Key: {:016x}", self.key())
    }
}
