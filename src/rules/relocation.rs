//! The relocation toolkit: what the Modest Proposals moves that move friendly men beside the
//! mover have in common (shared/rules/modest-proposals-1.md §0.2-§0.3 and
//! modest-proposals-2.md §1.2): which friendly men a man approaches, the direction of a move,
//! the types a relocated man may end as (promotion, P2; never a pawn on its own first rank, P3),
//! and a compact code for a second promotion in a move's payload.

use crate::geometry::{Bitboard, Color, Square};
use crate::piece::{Piece, PieceType};
use crate::position::Position;
use crate::variant::Rules;

/// The pawn geometries that may approach a friendly man (each variant says which count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PawnApproach {
    /// One step straight forward.
    pub straight: bool,
    /// Two steps straight forward from the double-step region, the middle square empty.
    pub double: bool,
    /// One step diagonally forward (the capture geometry).
    pub diagonal: bool,
}

impl PawnApproach {
    /// Every pawn geometry (Bump, Carom, Cascade).
    pub const ALL: PawnApproach = PawnApproach {
        straight: true,
        double: true,
        diagonal: true,
    };
    /// The diagonal-forward step only (Displacement, Launch).
    pub const DIAGONAL: PawnApproach = PawnApproach {
        straight: false,
        double: false,
        diagonal: true,
    };
    /// The single straight and the diagonal step, no double step (Triangulation).
    pub const SINGLE: PawnApproach = PawnApproach {
        straight: true,
        double: false,
        diagonal: true,
    };
}

/// The squares holding a friendly man that the man on `from` reaches with one of its moves, were
/// each an enemy man (§0.2 "approach"): pieces by their capture geometry (sliders over empty
/// squares), pawns by the geometries of `pawn`.
#[inline]
pub fn approach_targets(pos: &Position, from: Square, pawn: PawnApproach) -> Bitboard {
    let rules = pos.rules();
    let man = pos.piece_at(from);
    let us = man.color();
    let own = pos.pieces(us);
    let Some(def) = rules.piece(man.kind()) else {
        return Bitboard(0);
    };
    if man.kind() != PieceType::PAWN {
        return def
            .moves
            .capture_targets(us, from, pos.occupied(), rules.board)
            & own;
    }
    let f = us.forward();
    let mut bb = Bitboard(0);
    if pawn.diagonal {
        for df in [-1, 1] {
            if let Some(t) = from.offset(df, f) {
                bb |= t.bb();
            }
        }
    }
    if let Some(one) = from.offset(0, f) {
        if pawn.straight {
            bb |= one.bb();
        }
        let may_double =
            pawn.double && rules.double_step && rules.double_step_region[us.index()].has(from);
        if may_double && !pos.occupied().has(one) {
            if let Some(two) = from.offset(0, 2 * f) {
                bb |= two.bb();
            }
        }
    }
    bb & own & rules.board
}

/// The direction of the move `a -> b`: the unit step along a rank, file or diagonal, or for any
/// other vector (a Knight's leap) the vector itself reduced by its greatest common divisor.
#[inline]
pub fn direction(a: Square, b: Square) -> (i8, i8) {
    let (df, dr) = (b.file() - a.file(), b.rank() - a.rank());
    let g = gcd(df.unsigned_abs(), dr.unsigned_abs()).max(1) as i8;
    (df / g, dr / g)
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The rank (0-based) that is `color`'s own first rank.
#[inline]
pub fn own_first_rank(rules: &Rules, color: Color) -> i8 {
    if color == Color::White {
        0
    } else {
        rules.shape.ranks as i8 - 1
    }
}

/// The types `man` may end a move as on `p`, in order (its own type first): its own type, unless
/// it is a pawn that must promote there; each promotion choice when a pawn ends in its zone (P2).
/// Empty when `man` may not stand on `p` at all: a pawn on its own first rank (P3), or any man
/// outside its mobility region.
#[inline(always)]
pub fn end_types(pos: &Position, man: Piece, p: Square) -> EndTypes {
    let mut out = EndTypes {
        types: [PieceType::PAWN; 8],
        len: 0,
    };
    let t = man.kind();
    if t != PieceType::PAWN {
        if pos.rules().region(man.color(), t).has(p) {
            out.push(t);
        }
        return out;
    }
    pawn_end_types(pos, man, p, out)
}

/// [`end_types`] of a pawn, added to the empty `out`.
#[inline(never)]
fn pawn_end_types(pos: &Position, man: Piece, p: Square, mut out: EndTypes) -> EndTypes {
    let rules = pos.rules();
    let us = man.color();
    let t = man.kind();
    if p.rank() == own_first_rank(rules, us) || !rules.board.has(p) {
        return out;
    }
    let promotes = rules.promotion_region[us.index()].has(p);
    if (!promotes || !rules.mandatory_promotion) && rules.region(us, t).has(p) {
        out.push(t);
    }
    if promotes {
        for &q in &rules.promotion_types {
            if rules.region(us, q).has(p) {
                out.push(q);
            }
        }
    }
    out
}

/// The result of [`end_types`]: at most eight types, on the stack.
#[derive(Clone, Copy, Debug)]
pub struct EndTypes {
    types: [PieceType; 8],
    len: usize,
}

impl EndTypes {
    fn push(&mut self, t: PieceType) {
        if self.len < self.types.len() {
            self.types[self.len] = t;
            self.len += 1;
        }
    }

    /// The types.
    pub fn as_slice(&self) -> &[PieceType] {
        &self.types[..self.len]
    }
}

/// Bits a [`promo_code`] takes in a payload.
pub const PROMO_CODE_BITS: u32 = 3;

/// A promotion as a 3-bit code for a move's payload, for a move that promotes a second man (the
/// move's own promotion field holds the first): 0 for none, else the index of `t` among the
/// variant's promotion types plus one. `None` if the type is not among the first seven.
#[inline]
pub fn promo_code(rules: &Rules, t: Option<PieceType>) -> Option<u32> {
    match t {
        None => Some(0),
        Some(t) => rules
            .promotion_types
            .iter()
            .position(|&q| q == t)
            .filter(|&i| i < 7)
            .map(|i| i as u32 + 1),
    }
}

/// The promotion a [`promo_code`] stands for.
#[inline]
pub fn promo_of_code(rules: &Rules, code: u32) -> Option<PieceType> {
    match code & 7 {
        0 => None,
        c => rules.promotion_types.get(c as usize - 1).copied(),
    }
}

/// The promotion field for a man of type `from_type` ending as `to_type`: `None` when it keeps
/// its type.
#[inline(always)]
pub fn promotion(from_type: PieceType, to_type: PieceType) -> Option<PieceType> {
    (from_type != to_type).then_some(to_type)
}

/// Whether one of the side to move's `pawns` has a square of its promotion region within
/// `ranks` ranks ahead, on its own file or a neighbouring one: where a mechanic carries a pawn
/// no further than that, none of its moves can promote from anywhere else (quiescence asks,
/// `Mechanic::may_be_noisy`).
pub fn pawns_near_promotion(pos: &Position, pawns: Bitboard, ranks: i8) -> bool {
    let us = pos.side_to_move();
    let f = us.forward();
    let reach = (1..=ranks).fold(Bitboard::EMPTY, |b, k| b | pawns.shift_ranks(k * f));
    let wide = reach | (reach & !Bitboard::FILE_A).shift(-1) | (reach & !Bitboard::FILE_H).shift(1);
    (wide & pos.rules().promotion_region[us.index()]).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    fn pos(fen: &str) -> Position {
        Position::from_fen(builtin_variants().get("chess").unwrap(), fen).unwrap()
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn approaches_follow_each_geometry() {
        let p = pos("4k3/8/8/8/3N4/2P1P3/3P4/3QK3 w - - 0 1");
        // the pawn d2 reaches the friends on c3 and e3 diagonally and d4 by the double step
        assert_eq!(
            approach_targets(&p, sq("d2"), PawnApproach::ALL),
            sq("c3").bb() | sq("e3").bb() | sq("d4").bb()
        );
        assert_eq!(
            approach_targets(&p, sq("d2"), PawnApproach::DIAGONAL),
            sq("c3").bb() | sq("e3").bb()
        );
        // the queen reaches d2 and e1 (adjacent), not d4 (d2 blocks)
        assert_eq!(
            approach_targets(&p, sq("d1"), PawnApproach::ALL),
            sq("d2").bb() | sq("e1").bb()
        );
        // the double step reaches d4 only over an empty d3, and only when allowed
        let p = pos("4k3/8/8/8/3N4/8/3P4/4K3 w - - 0 1");
        assert_eq!(
            approach_targets(&p, sq("d2"), PawnApproach::ALL),
            sq("d4").bb()
        );
        assert_eq!(
            approach_targets(&p, sq("d2"), PawnApproach::SINGLE),
            Bitboard(0)
        );
    }

    #[test]
    fn directions_are_unit_steps_or_leaps() {
        assert_eq!(direction(sq("a1"), sq("a5")), (0, 1));
        assert_eq!(direction(sq("h8"), sq("c3")), (-1, -1));
        assert_eq!(direction(sq("b1"), sq("c3")), (1, 2));
        assert_eq!(direction(sq("e4"), sq("c3")), (-2, -1));
    }

    #[test]
    fn end_types_promote_and_keep_pawns_off_their_first_rank() {
        let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let white_pawn = Piece::new(Color::White, PieceType::PAWN);
        let black_pawn = Piece::new(Color::Black, PieceType::PAWN);
        assert_eq!(
            end_types(&p, white_pawn, sq("e4")).as_slice(),
            &[PieceType::PAWN]
        );
        assert!(end_types(&p, white_pawn, sq("e1")).as_slice().is_empty());
        assert!(end_types(&p, black_pawn, sq("e8")).as_slice().is_empty());
        // a white pawn on the 8th rank must promote: four choices, no pawn
        let on_last = end_types(&p, white_pawn, sq("e8"));
        assert_eq!(on_last.as_slice().len(), 4);
        assert!(!on_last.as_slice().contains(&PieceType::PAWN));
        let rook = Piece::new(Color::White, PieceType::ROOK);
        assert_eq!(end_types(&p, rook, sq("a8")).as_slice(), &[PieceType::ROOK]);
    }

    #[test]
    fn promotion_codes_round_trip() {
        let rules = builtin_variants().get("chess").unwrap();
        assert_eq!(promo_code(rules, None), Some(0));
        for &t in &rules.promotion_types {
            let c = promo_code(rules, Some(t)).unwrap();
            assert!(c > 0 && c < 1 << PROMO_CODE_BITS);
            assert_eq!(promo_of_code(rules, c), Some(t));
        }
        assert_eq!(promo_code(rules, Some(PieceType::KING)), None);
    }
}
