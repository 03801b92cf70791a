//! Rule modules: one module per mechanic that data cannot describe. Each owns its move
//! generation, its board edits and its notation; shared code calls them only for
//! `MoveKind::Special` moves, so orthodox moves never pay for them. Restrictions (legality
//! filters: the facing rule, Hippophobic, Garrison, Nonlinear) are dispatched by [`restrict`],
//! called only for variants with `Rules::restricts`.

pub mod bracket;
pub mod detente;
pub mod eviction;
pub mod facing;
pub mod garrison;
pub mod hippophobic;
pub mod nonlinear;
pub mod outcome;
pub mod restrict;
pub mod schedule;
pub mod spy;

use crate::movegen::MoveText;
use crate::moves::{Move, MoveList};
use crate::position::{EditList, Position};
use crate::variant::{SpecialMoves, StateRule};

/// Appends the module's pseudo-legal special moves (legality is tested by make/unmake).
pub fn generate_special(special: SpecialMoves, pos: &Position, list: &mut MoveList) {
    match special {
        SpecialMoves::None => {}
        SpecialMoves::Bracket => bracket::generate(pos, list),
        SpecialMoves::Eviction => eviction::generate(pos, list),
    }
}

/// The square edits of a special move, in order.
pub fn special_edits(special: SpecialMoves, pos: &Position, m: Move, edits: &mut EditList) {
    match special {
        SpecialMoves::None => {}
        SpecialMoves::Bracket => bracket::edits(pos, m, edits),
        SpecialMoves::Eviction => eviction::edits(pos, m, edits),
    }
}

/// Writes the canonical spelling of a special move.
pub fn write_special(special: SpecialMoves, pos: &Position, m: Move, out: &mut MoveText) {
    match special {
        SpecialMoves::None => {}
        SpecialMoves::Bracket => bracket::write(pos, m, out),
        SpecialMoves::Eviction => eviction::write(pos, m, out),
    }
}

/// Whether `s` is a valid (possibly non-canonical) spelling of the legal move `m` (of any kind:
/// a special route may have the same effect as an ordinary move).
pub fn is_spelling(special: SpecialMoves, pos: &Position, m: Move, s: &str) -> bool {
    match special {
        SpecialMoves::None => false,
        SpecialMoves::Bracket => bracket::is_spelling(pos, m, s),
        SpecialMoves::Eviction => eviction::is_spelling(pos, m, s),
    }
}

// ---------------------------------------------------------------------------------------------
// State modules (`StateRule`): variant state in `State::extra`, updated after every ply, with a
// capture filter and a FEN extension field. The position calls `after_move` only when the
// variant has a module, the generator calls `immune` once per node.

/// Updates the module's state after a ply (`m` = `Move::NONE` for a null move); `before` holds
/// each edited square's content before the move. Called by `Position::make` after the edits,
/// with the side to move already flipped.
#[inline]
pub fn after_move(rule: StateRule, pos: &mut Position, m: Move, before: &EditList) {
    match rule {
        StateRule::None => {}
        StateRule::Spy(r) => spy::after_move(pos, r, m, before),
        StateRule::LastMove => nonlinear::record(pos, m),
    }
}

/// Men that no move may capture in this position (the generator removes them from the targets;
/// attacks and checks are unaffected).
#[inline]
pub fn immune(pos: &Position) -> Bitboard {
    match pos.rules().state_rule {
        StateRule::None => Bitboard::EMPTY,
        StateRule::Spy(r) => spy::immune(pos, r),
        StateRule::LastMove => Bitboard::EMPTY,
    }
}

/// Whether the variant's FEN has an extension field after the move number.
#[inline]
pub fn has_fen_field(rule: StateRule) -> bool {
    !matches!(rule, StateRule::None)
}

/// Reads the FEN extension field (the position's board and side to move are already set).
pub fn parse_fen_field(rule: StateRule, pos: &mut Position, field: &str) -> Result<(), String> {
    match rule {
        StateRule::None => Err(format!(
            "this variant has no FEN field after the move number, found '{field}'"
        )),
        StateRule::Spy(r) => spy::parse_fen_field(pos, r, field),
        StateRule::LastMove => nonlinear::parse_fen_field(pos, field),
    }
}

/// Appends the FEN extension field (nothing for variants without one).
pub fn write_fen_field(rule: StateRule, pos: &Position, out: &mut String) {
    match rule {
        StateRule::None => {}
        StateRule::Spy(_) => {
            out.push(' ');
            spy::write_fen_field(pos, out);
        }
        StateRule::LastMove => {
            if let Some(field) = nonlinear::fen_field(pos) {
                out.push(' ');
                out.push_str(&field);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers shared by the rule modules: reading move strings and comparing the effects of routes.

use crate::geometry::{Bitboard, Square};
use crate::piece::{Piece, PieceType};
use crate::position::MAX_EDITS;

/// One leg of a move string: `from to [promo]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Leg {
    pub from: Square,
    pub to: Square,
    pub promo: Option<PieceType>,
}

/// Most legs a rule module's move has.
pub(crate) const MAX_LEGS: usize = 4;

/// Splits `s` into legs (squares on this board, promotion letters of this variant).
/// Returns the legs (unused ones a1a1) and their number, or `None` if `s` is not a plain list
/// of legs.
pub(crate) fn parse_legs(pos: &Position, s: &str) -> Option<([Leg; MAX_LEGS], usize)> {
    let unused = Leg {
        from: Square::new(0),
        to: Square::new(0),
        promo: None,
    };
    let mut out = [unused; MAX_LEGS];
    let shape = pos.rules().shape;
    let mut n = 0;
    for part in s.split(',') {
        if n == MAX_LEGS || !part.is_ascii() || !(4..=5).contains(&part.len()) {
            return None;
        }
        let from = shape.parse_square(&part[0..2])?;
        let to = shape.parse_square(&part[2..4])?;
        let promo = match part.as_bytes().get(4) {
            None => None,
            Some(&c) if c.is_ascii_lowercase() => {
                Some(pos.rules().type_of_letter(c as char)?).filter(|&t| t != PieceType::PAWN)
            }
            Some(_) => return None,
        };
        if part.len() == 5 && promo.is_none() {
            return None;
        }
        out[n] = Leg { from, to, promo };
        n += 1;
    }
    Some((out, n))
}

/// Castling rights that a move loses by editing `sq` (a right goes when its king or rook leaves
/// its square or a man lands there). Mirrors the position's square masks for the rights present.
#[inline]
pub(crate) fn rights_lost_at(pos: &Position, sq: Square) -> u8 {
    let rights = pos.castling_rights();
    if rights == 0 {
        return 0;
    }
    let mut lost = 0;
    for bit in 0..4 {
        if rights >> bit & 1 == 0 {
            continue;
        }
        let color = if bit < 2 {
            crate::geometry::Color::White
        } else {
            crate::geometry::Color::Black
        };
        if pos.castle_rook(bit) == Some(sq) || pos.king_square(color) == Some(sq) {
            lost |= 1 << bit;
        }
    }
    lost
}

/// What a move does, for comparing routes: the squares whose content changes (sorted, with the
/// content afterwards) and the castling rights afterwards. Side to move and variant state are
/// the same for every move of a position; the en-passant square follows from the placement for
/// every pair of routes these modules compare (see each module).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Effect {
    changes: [(u8, Piece); MAX_EDITS],
    len: usize,
    rights: u8,
}

/// The effect of applying `edits` to `pos`.
pub(crate) fn effect_of(pos: &Position, edits: &EditList) -> Effect {
    let mut e = Effect {
        changes: [(0, Piece::NONE); MAX_EDITS],
        len: 0,
        rights: pos.castling_rights(),
    };
    for ed in edits.as_slice() {
        e.rights &= !rights_lost_at(pos, ed.sq);
        match e.changes[..e.len].iter_mut().find(|c| c.0 == ed.sq.raw()) {
            Some(c) => c.1 = ed.after,
            None => {
                e.changes[e.len] = (ed.sq.raw(), ed.after);
                e.len += 1;
            }
        }
    }
    // keep only real changes, in square order
    let mut kept = 0;
    for i in 0..e.len {
        let (sq, after) = e.changes[i];
        if pos.piece_at(Square::new(sq)) != after {
            e.changes[kept] = (sq, after);
            kept += 1;
        }
    }
    for i in kept..e.len {
        e.changes[i] = (0, Piece::NONE);
    }
    e.len = kept;
    e.changes[..kept].sort_unstable_by_key(|c| c.0);
    e
}

/// The effect of a move of `pos`.
pub(crate) fn effect_of_move(pos: &Position, m: Move) -> Effect {
    effect_of(pos, &pos.edits_of(m))
}

/// Squares of the board's first and last ranks (no pawn may stand there in Eviction).
#[inline]
pub(crate) fn back_ranks(pos: &Position) -> Bitboard {
    let rules = pos.rules();
    let last = rules.shape.ranks as u32 - 1;
    (Bitboard(0xFF) | Bitboard(0xFFu64 << (8 * last))) & rules.board
}

/// Whether square `a`'s name sorts before `b`'s in ASCII (file letter first, then rank digit).
#[inline(always)]
pub(crate) fn name_before(a: Square, b: Square) -> bool {
    (a.file(), a.rank()) < (b.file(), b.rank())
}
