//! Nonlinear Chess (modest-proposals-2.md §12): let the opponent's last move go from
//! (F1, R1) to (F2, R2); a move is *restricted* when its origin or destination lies on rank R1
//! or R2 or on file F1 or F2. A player with at least one legal unrestricted move must play one;
//! otherwise every legal move is allowed (NL-R1). With no known last move (game start, FEN
//! without it) nothing is restricted (NL-R2). Check stays geometric (NL-R3).
//!
//! The last move is position state: its two squares live in `State::extra` slots
//! [`SLOT_FROM`] and [`SLOT_TO`] (square index + 1, 0 = unknown), so the transposition table and
//! repetition see it. A FEN carries it as a seventh field `lm=<from><to>` (`lm=-` or absent:
//! unknown), as the rules file proposes (§1.6).

use crate::geometry::{Bitboard, Square};
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// `State::extra` slot of the last move's origin (square index + 1; 0 = unknown).
pub const SLOT_FROM: usize = 1;
/// `State::extra` slot of the last move's destination.
pub const SLOT_TO: usize = 2;
/// The FEN extension field's prefix.
pub const FEN_PREFIX: &str = "lm=";

/// The last move's squares, if known.
#[inline]
pub fn last_move(pos: &Position) -> Option<(Square, Square)> {
    let e = pos.state().extra;
    (e[SLOT_FROM] != 0 && e[SLOT_TO] != 0)
        .then(|| (Square::new(e[SLOT_FROM] - 1), Square::new(e[SLOT_TO] - 1)))
}

/// Records `m` (just made) as the last move; a pass (`Move::NONE`, the search's null move)
/// leaves no last move, so nothing is restricted after it.
#[inline]
pub fn record(pos: &mut Position, m: Move) {
    let (from, to) = if m.is_none() {
        (0, 0)
    } else {
        (m.from().raw() + 1, m.to().raw() + 1)
    };
    pos.set_extra(SLOT_FROM, from);
    pos.set_extra(SLOT_TO, to);
}

/// The squares a move may neither leave nor reach after the last move `from`-`to`.
#[inline]
pub fn barred_lines(pos: &Position, from: Square, to: Square) -> Bitboard {
    let shape = pos.rules().shape;
    let file = |f: i8| Bitboard(0x0101_0101_0101_0101u64 << f);
    (shape.rank_bb(from.rank()) | shape.rank_bb(to.rank()) | file(from.file()) | file(to.file()))
        & pos.rules().board
}

/// Keeps only the unrestricted moves of `list` (the legal moves), unless there are none.
pub fn filter(pos: &Position, list: &mut MoveList) {
    let Some((from, to)) = last_move(pos) else {
        return;
    };
    let barred = barred_lines(pos, from, to);
    let free = |m: &Move| !barred.has(m.from()) && !barred.has(m.to());
    if list.iter().any(free) {
        super::restrict::retain(list, |m| free(&m));
    }
}

/// The FEN extension field for the position's last move, if it is known.
pub fn fen_field(pos: &Position) -> Option<String> {
    last_move(pos).map(|(f, t)| format!("{FEN_PREFIX}{f}{t}"))
}

/// Reads `lm=<from><to>` or `lm=-`. The named move must be one the side that just moved could
/// have played to reach this placement: `from` empty now, `to` holding its man, and that man
/// (or, on its promotion zone, a pawn) able to go `from`-`to` on this board.
pub fn parse_fen_field(pos: &mut Position, field: &str) -> Result<(), String> {
    let v = field.strip_prefix(FEN_PREFIX).unwrap_or(field);
    if v == "-" {
        pos.set_extra(SLOT_FROM, 0);
        pos.set_extra(SLOT_TO, 0);
        return Ok(());
    }
    let shape = pos.rules().shape;
    let squares = (v.is_ascii() && v.len() == 4)
        .then(|| Some((shape.parse_square(&v[..2])?, shape.parse_square(&v[2..])?)))
        .flatten();
    let Some((from, to)) = squares else {
        return Err(format!(
            "'{field}': expected lm=<from><to> with two squares of the board (e.g. lm=g1f3) or lm=-"
        ));
    };
    let them = pos.side_to_move().flip();
    let man = pos.piece_at(to);
    let impossible = |why: &str| Err(format!("'{field}' names an impossible last move: {why}"));
    if from == to {
        return impossible("it goes nowhere");
    }
    if pos.piece_at(from).is_some() {
        return impossible(&format!("{from} is not empty"));
    }
    if man.is_none() || man.color() != them {
        return impossible(&format!(
            "no {} man (the side that just moved) stands on {to}",
            them.name()
        ));
    }
    if !could_move(pos, man.kind(), from, to) {
        return impossible(&format!(
            "the man on {to} cannot have come from {from} in one move"
        ));
    }
    pos.set_extra(SLOT_FROM, from.raw() + 1);
    pos.set_extra(SLOT_TO, to.raw() + 1);
    Ok(())
}

/// Whether a man of type `t` of the side that just moved, now on `to`, could have come from
/// `from` by one move (a pawn also by its double step, or as a pawn that promoted on `to`).
fn could_move(pos: &Position, t: crate::piece::PieceType, from: Square, to: Square) -> bool {
    use crate::piece::PieceType;
    let rules = pos.rules();
    let them = pos.side_to_move().flip();
    // `to` was empty or held the captured man: both geometries may have reached it
    let occ = pos.occupied() & !to.bb();
    let reaches = |t: PieceType| {
        rules.piece(t).is_some_and(|def| {
            let (quiet, caps) = def.moves.targets(them, from, occ, rules.board);
            (quiet | caps).has(to)
        })
    };
    let pawn_double = || {
        let f = them.forward();
        rules.double_step
            && rules.double_step_region[them.index()].has(from)
            && from.offset(0, 2 * f) == Some(to)
            && from.offset(0, f).is_some_and(|mid| !occ.has(mid))
    };
    let promoted = rules.promotion_region[them.index()].has(to)
        && rules.promotion_types.contains(&t)
        && reaches(PieceType::PAWN);
    reaches(t) || (t == PieceType::PAWN && pawn_double()) || promoted
}
