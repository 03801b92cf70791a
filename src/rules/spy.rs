//! Espionage's spy (shared/rules/007-espionage-foreignpolicy.md Part B, ESP-3..5, R-ESP-1/3/5/6):
//! a man of a spy type (`spyPieceTypes`) moves, attacks and checks as its Betza says, but may be
//! captured only while it is *exposed*: right after a ply in which it captured. Everything else
//! about the spy is data (`customPiece1 = s:Q`).
//!
//! State: the set of exposed spies, as squares, in the position's eight variant bytes
//! (`Position::extra_bits`), so the Zobrist key (TT, repetition) and `unmake` carry it.
//! With `spyExposure = nextPly` (the ruling, R-ESP-1 (a)) the set holds at most the spy that
//! captured on the last ply; with `untilQuietMove` (option (b)) a spy stays in it until it moves
//! without capturing (or is captured), whatever else is played meanwhile.
//!
//! FEN: the extension field after the move number, `-` or the exposed squares joined by commas
//! (`d4`; B.5 of the rules file). Absent means `-`.

use crate::geometry::{Bitboard, Square};
use crate::moves::Move;
use crate::piece::PieceType;
use crate::position::{EditList, Position};
use crate::variant::{SpyExposure, SpyRule};

/// The spies of both colours.
#[inline]
fn spies(pos: &Position, rule: SpyRule) -> Bitboard {
    let mut types = rule.types;
    let mut men = Bitboard::EMPTY;
    while types != 0 {
        let t = PieceType(types.trailing_zeros() as u8);
        types &= types - 1;
        men |= pos.kind(t);
    }
    men
}

/// The exposed spies (capturable now).
#[inline(always)]
pub fn exposed(pos: &Position) -> Bitboard {
    Bitboard(pos.extra_bits())
}

/// Men that may not be captured now: every spy that is not exposed.
#[inline]
pub fn immune(pos: &Position, rule: SpyRule) -> Bitboard {
    spies(pos, rule) & !exposed(pos)
}

/// Updates the exposed set after a ply: `m` was just played (`Move::NONE` for a pass), `before`
/// holds each edited square's content before the move.
#[inline]
pub fn after_move(pos: &mut Position, rule: SpyRule, m: Move, before: &EditList) {
    let mut set = match rule.exposure {
        SpyExposure::NextPly => 0,
        SpyExposure::UntilQuietMove => pos.extra_bits(),
    };
    // a man on an edited square is no longer the spy that was exposed there (it moved on or was
    // captured); a spy that captured is put back below
    for e in before.as_slice() {
        set &= !e.sq.bb().0;
    }
    if !m.is_none() {
        let mover = before
            .as_slice()
            .iter()
            .find(|e| e.sq == m.from())
            .map(|e| e.after);
        if let Some(mover) = mover.filter(|p| p.is_some()) {
            let is_spy = rule.types >> mover.kind().0 & 1 != 0;
            // an enemy man stood on an edited square: only captures edit enemy squares
            let captured = before
                .as_slice()
                .iter()
                .any(|e| e.after.is_some() && e.after.color() != mover.color());
            // R-ESP-3: a promotion that captured made no spy capture (the mover was a pawn)
            if is_spy && captured && pos.piece_at(m.to()) == mover {
                set |= m.to().bb().0;
            }
        }
    }
    if set != pos.extra_bits() {
        pos.set_extra_bits(set);
    }
}

/// Writes the FEN extension field: `-` or the exposed squares, comma-separated.
pub fn write_fen_field(pos: &Position, out: &mut String) {
    let set = exposed(pos);
    if set.is_empty() {
        out.push('-');
        return;
    }
    for (i, sq) in set.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&sq.to_string());
    }
}

/// Reads the FEN extension field into the position (whose board and side to move are set).
pub fn parse_fen_field(pos: &mut Position, rule: SpyRule, field: &str) -> Result<(), String> {
    if field == "-" {
        pos.set_extra_bits(0);
        return Ok(());
    }
    let shape = pos.rules().shape;
    let mut set = Bitboard::EMPTY;
    for name in field.split(',') {
        let sq: Square = shape.parse_square(name).ok_or_else(|| {
            format!(
                "'{name}' is not a square of this {}x{} board (expected '-' or the square of \
                 the capturable spy, e.g. 'd4')",
                shape.files, shape.ranks
            )
        })?;
        if set.has(sq) {
            return Err(format!("'{name}' is given twice"));
        }
        let p = pos.piece_at(sq);
        if !(p.is_some() && rule.types >> p.kind().0 & 1 != 0) {
            return Err(format!(
                "no spy stands on {name}, so it cannot be capturable"
            ));
        }
        set |= sq.bb();
    }
    if rule.exposure == SpyExposure::NextPly {
        if set.more_than_one() {
            return Err(format!(
                "'{field}': only the spy that captured on the last ply can be capturable"
            ));
        }
        let sq = set.lsb();
        let mover = pos.side_to_move().flip();
        if pos.piece_at(sq).color() != mover {
            return Err(format!(
                "the spy on {sq} is {}'s, but only a spy of the side that just moved ({}) can \
                 be capturable",
                pos.piece_at(sq).color().name(),
                mover.name()
            ));
        }
    }
    pos.set_extra_bits(set.0);
    Ok(())
}
