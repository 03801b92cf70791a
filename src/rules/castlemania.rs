//! Castlemania (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-1.md §0,
//! §6).
//!
//! Two friendly men of different ranks (pawn < Knight < Bishop < Rook < Queen < King) castle when
//! they lie on one rank, file or diagonal with exactly two or three squares between them, all
//! empty, whether or not they have moved (CM-1). The higher man H on `h` slides two squares
//! toward the lower man L (`h+2d`), and L is put on `h+d`, the square H passed over (CM-2). A
//! King may not castle while in check nor pass over an attacked `h+d` (judged before the move);
//! it may not end in check, like every move (CM-3). Other castlings only need ordinary legality,
//! so they may block a check. A pawn L may go backward or sideways but never onto rank 1 or 8
//! (CM-4; where it lands it never could on 8x8 anyway); castlings never capture (CM-5). Orthodox
//! castling is subsumed (CM-6): the variant turns it off (`castling = false`, checked at load) and
//! the FEN's castling field is ignored (written `-`). Attack detection is orthodox.
//!
//! Men of other types (fairy pieces) have no rank and do not castle.
//!
//! Notation (§6.3): `hH,lL` (H's leg, then L's: `d1b3,a4c2`); a King-led castling is the King's
//! two-square move alone (`h3f3`, `e1g1`), its two-leg form accepted. A King never otherwise
//! moves two squares, so the short form names one move.
//!
//! Identity: a castling moves two men (H by two squares), so it never equals an ordinary move,
//! and its result names H's and L's squares: each castling is one move.
//!
//! Move encoding: `Move::special(h, h+2d, l, promo)`: payload bits 0-5 = L's square; `promo` is
//! L's promotion where a variant's promotion zone lies on `h+d`. Edits: `h` emptied, H on `h+2d`,
//! `l` emptied, L on `h+d`.

use super::relocation::end_types;
use crate::geometry::attacks::{queen_attacks, TABLES};
use crate::geometry::{Bitboard, Square};
use crate::movegen::generic::legal_when_played;
use crate::movegen::{in_check, is_attacked};
use crate::moves::{Move, MoveKind, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{
    Built, EditList, Hooks, Legality, Mechanic, MechanicSpec, Position, StateLayout,
};
use crate::variant::{Rules, Section};

/// The mechanic (no settings, no state).
#[derive(Clone, Copy, Debug)]
pub struct Castlemania;

/// Registration: `specialMoves = castlemania`.
pub const SPEC: MechanicSpec = MechanicSpec::chosen(&["specialMoves"], "castlemania", build);

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    if rules.castling {
        return Err(ctx.err(
            "specialMoves",
            "Castlemania's castlings subsume orthodox castling (CM-6): set castling = false".into(),
        ));
    }
    Ok(Some(Box::new(Castlemania)))
}

/// A man's rank for castling (CM-1), `None` for types outside the scale.
#[inline(always)]
fn rank_of(t: PieceType) -> Option<u8> {
    Some(match t {
        PieceType::PAWN => 0,
        PieceType::KNIGHT => 1,
        PieceType::BISHOP => 2,
        PieceType::ROOK => 3,
        PieceType::QUEEN => 4,
        PieceType::KING => 5,
        _ => return None,
    })
}

/// One castling: H from `h` to `h2` (two squares), L from `l` to `h1` (the square H passes).
#[derive(Clone, Copy, Debug)]
struct Castling {
    h: Square,
    h1: Square,
    h2: Square,
    l: Square,
}

impl Castling {
    /// The castling of move `m`.
    #[inline(always)]
    fn of(m: Move) -> Castling {
        let (h, h2) = (m.from(), m.to());
        let h1 = Square::new(((h.raw() as u16 + h2.raw() as u16) / 2) as u8);
        Castling {
            h,
            h1,
            h2,
            l: Square::new((m.payload() & 63) as u8),
        }
    }
}

impl Mechanic for Castlemania {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES
    }

    fn castling_field_ignored(&self) -> bool {
        true
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        each_castling(pos, |c, promo| {
            list.push(Move::special(c.h, c.h2, c.l.raw() as u32, promo));
        });
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        let c = Castling::of(m);
        let (high, low) = (pos.piece_at(c.h), pos.piece_at(c.l));
        out.push(c.h, Piece::NONE);
        out.push(c.h2, high);
        out.push(c.l, Piece::NONE);
        match m.promotion_type() {
            Some(t) => out.push(c.h1, Piece::new(low.color(), t)),
            None => {
                out.push(c.h1, low);
                if low.kind() == PieceType::PAWN {
                    out.pawn_route(c.l, c.h1);
                }
            }
        }
        out.no_pawn_route();
    }

    fn write_move(&self, pos: &Position, m: Move, out: &mut MoveText) {
        let c = Castling::of(m);
        out.push_leg(c.h, c.h2);
        if pos.piece_at(c.h).kind() == PieceType::KING && m.promotion_type().is_none() {
            return;
        }
        out.push_leg(c.l, c.h1);
        if let Some(t) = m.promotion_type() {
            out.push(pos.rules().letter(t));
        }
    }

    /// The canonical spelling, or the two-leg form of a King-led castling.
    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        if m.kind() != MoveKind::Special {
            return false;
        }
        let Some(legs) = super::parse_legs(pos, s) else {
            return false;
        };
        let c = Castling::of(m);
        match legs.as_slice() {
            [only] => {
                (only.from, only.to, only.promo) == (c.h, c.h2, None)
                    && m.promotion_type().is_none()
                    && pos.piece_at(c.h).kind() == PieceType::KING
            }
            [high, low] => {
                (high.from, high.to, high.promo) == (c.h, c.h2, None)
                    && (low.from, low.to, low.promo) == (c.l, c.h1, m.promotion_type())
            }
            _ => false,
        }
    }

    fn moves_are_distinct(&self) -> bool {
        true
    }

    /// Non-King castlings out of check are judged by the masks: they empty `h` and `l` and fill
    /// `h+d` and `h+2d`, so only a screen on `h` or `l` can uncover the King (if both are the
    /// screens of one line, the castling's line is that line and `h+d`, `h+2d` screen it
    /// again). King-led castlings and those played in check are played and tested.
    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        let masks = lg.masks();
        let mut n = 0;
        let mut doubtful = MoveList::new();
        let free = masks.target == Bitboard::FULL;
        each_castling(pos, |c, promo| {
            let screens = masks.test_from.has(c.h) || masks.test_from.has(c.l);
            let arrivals = masks.test_to.has(c.h1) || masks.test_to.has(c.h2);
            if free && !screens && !arrivals && pos.piece_at(c.h).kind() != PieceType::KING {
                n += 1;
            } else {
                doubtful.push(Move::special(c.h, c.h2, c.l.raw() as u32, promo));
            }
        });
        Some(
            n + doubtful
                .iter()
                .filter(|&&m| legal_when_played(pos, m))
                .count(),
        )
    }
}

/// Calls `out` with each castling of the side to move and L's promotion (CM-1..CM-4), before the
/// final legality test.
#[inline]
fn each_castling(pos: &Position, mut out: impl FnMut(Castling, Option<PieceType>)) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let own = pos.pieces(us) & rules.board;
    let occ = pos.occupied();
    let back = super::back_ranks(pos);
    // own men below each rank (CM-1)
    let mut below = [Bitboard::EMPTY; 7];
    for t in [
        PieceType::PAWN,
        PieceType::KNIGHT,
        PieceType::BISHOP,
        PieceType::ROOK,
        PieceType::QUEEN,
        PieceType::KING,
    ] {
        let r = rank_of(t).unwrap_or(0) as usize;
        below[r + 1] = below[r] | pos.pieces_of(us, t);
    }
    // the King's conditions, asked only when a King can castle
    let mut king_may: Option<bool> = None;
    for h in own {
        let high = pos.piece_at(h);
        let Some(rank_h) = rank_of(high.kind()) else {
            continue;
        };
        // the first man on each line from h, three or four steps away: two or three empty
        // squares between
        let ring = TABLES.within[4][h.index()] & !TABLES.within[2][h.index()];
        let partners = queen_attacks(h, occ) & ring & below[rank_h as usize] & own;
        for l in partners {
            let (df, dr) = super::relocation::direction(h, l);
            let (Some(h1), Some(h2)) = (h.offset(df, dr), h.offset(2 * df, 2 * dr)) else {
                continue;
            };
            let c = Castling { h, h1, h2, l };
            let low = pos.piece_at(l);
            if !rules.region(us, high.kind()).has(h2)
                || (low.kind() == PieceType::PAWN && back.has(h1))
            {
                continue;
            }
            if high.kind() == PieceType::KING {
                // CM-3: not in check, not over an attacked square (tested before the move)
                let may = *king_may.get_or_insert_with(|| !in_check(pos));
                if !may || is_attacked(pos, h1, us.flip()) {
                    continue;
                }
            }
            for &t in end_types(pos, low, h1).as_slice() {
                out(c, (t != low.kind()).then_some(t));
            }
        }
    }
}
