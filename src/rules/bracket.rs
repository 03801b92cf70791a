//! Bracket (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-1.md §0, §1).
//!
//! A man A on `o` approaches a friendly man B on `S` (any standard move geometry; a pawn by its
//! straight step, its double step from its second rank, or its diagonal forward step). If a pair
//! of squares `S+d`, `S-d` (d = (0,1), (1,0), (1,1), (1,-1)) is on the board and empty before the
//! move, A and B are put one on each square of the pair, in either order, and `S` is left empty.
//! A pawn (A or B) may only be put on `S`'s rank or on the three squares of the next rank forward
//! (BR-4); a pawn put on its promotion rank promotes, each choice a separate move (P2). Bracket
//! moves never capture and may be played in check (legality is the generic king test).
//!
//! Notation `oS,SPB,SPA`: the approach, B's placement, A's placement; a promotion letter goes on
//! the promoting pawn's leg. When both orders of a pair leave the same men on the same squares
//! (A and B of the same type, counting promotion), they are one move, spelled with B on the
//! ASCII-smaller square; the other order is accepted by [`is_spelling`].
//!
//! Move encoding: `from` = o, `to` = S, `promo` = the promoting pawn's new type, and the payload
//!
//! ```text
//!  12  11         6  5          0
//! +---+------------+------------+
//! | 0 |  PA (A's)  |  PB (B's)  |
//! +---+------------+------------+
//! ```
//!
//! `PA`/`PB` are the squares (0..64) where A and B are put. The promotion applies to A if A is
//! a pawn put in its promotion zone, otherwise to B. (Both pawns could only be put in the zone
//! together with a non-mandatory zone deeper than one rank; then only A may promote.)
//!
//! En passant: the generic rule (shared/rules/README.md ruling 3, P4) is derived from the edits.
//! A pawn A on `e2` that approaches `f3` diagonally and is put on `e4` (pair e4/g2) has gone from
//! its second rank to two squares straight ahead, so with `e3` empty it leaves the target `e3`
//! (BR-7's remark that Bracket never creates a target overlooks this route; ruling 3 decides).

use crate::geometry::{Bitboard, Square};
use crate::moves::{Move, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{Change, EditList, Legality, MechanicSpec, Position};
use crate::rules::relocation::pawns_near_promotion;

/// Registration: `specialMoves = bracket`, a mechanic of moves of its own (no settings, no
/// state).
pub const SPEC: MechanicSpec =
    own_moves_spec!("bracket", captures = false, may_promote = may_promote);

/// Whether a bracket move of the side to move may promote a pawn: a pawn is put on `S`'s rank
/// or the next one forward (BR-4), and A reaches `S` by a step forward (straight or diagonal)
/// or, from its double-step region, two; so only a pawn within two ranks of its promotion
/// region (three from the double-step region) may reach it, on its file or a neighbour's.
fn may_promote(pos: &Position) -> bool {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let pawns = pos.pieces_of(us, PieceType::PAWN);
    let doubles = pawns & rules.double_step_region[us.index()];
    pawns_near_promotion(pos, pawns, 2)
        || (rules.double_step && pawns_near_promotion(pos, doubles, 3))
}

/// The four pair directions around `S`.
const PAIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

#[inline(always)]
fn payload(pa: Square, pb: Square) -> u32 {
    pb.raw() as u32 | (pa.raw() as u32) << 6
}

#[inline(always)]
fn decode(m: Move) -> (Square, Square) {
    let p = m.payload();
    (
        Square::new((p >> 6 & 63) as u8),
        Square::new((p & 63) as u8),
    )
}

/// Squares from which `man` on `o` reaches by a standard move geometry (BR-1, 0.2 "approach"):
/// its capture geometry onto any man, its non-capturing geometry onto a square that is only
/// blocked by the man standing there, and for a pawn the double step.
fn approach_targets(pos: &Position, man: Piece, o: Square) -> Bitboard {
    let rules = pos.rules();
    let us = man.color();
    let Some(def) = rules.piece(man.kind()) else {
        return Bitboard::EMPTY;
    };
    let occ = pos.occupied();
    let board = rules.board;
    let own = pos.pieces(us).without(o);
    let mut bb = def.moves.capture_targets(us, o, occ, board) & own;
    // friendly men the man could move to if their square were empty
    let rest = own & !bb;
    let candidates = if def.moves.rays.iter().any(|r| r.hop) {
        rest
    } else {
        // with nothing on the board the quiet geometry is a superset of what any board allows
        rest & def.moves.quiet_targets(us, o, Bitboard::EMPTY, board)
    };
    for s in candidates {
        if def.moves.quiet_targets(us, o, occ.without(s), board).has(s) {
            bb |= s.bb();
        }
    }
    if man.kind() == PieceType::PAWN
        && rules.double_step
        && rules.double_step_region[us.index()].has(o)
    {
        let f = us.forward();
        if let (Some(one), Some(two)) = (o.offset(0, f), o.offset(0, 2 * f)) {
            if !occ.has(one) && own.has(two) && board.has(two) {
                bb |= two.bb();
            }
        }
    }
    bb
}

/// Whether `man` may be put on `p` when bracketing `s` (BR-4, P3, mobility regions), before
/// promotion is considered.
#[inline]
fn placeable(pos: &Position, man: Piece, s: Square, p: Square) -> bool {
    let rules = pos.rules();
    let us = man.color();
    if !rules.region(us, man.kind()).has(p) {
        return false;
    }
    if man.kind() != PieceType::PAWN {
        return true;
    }
    let f = us.forward();
    let df = p.file() - s.file();
    let dr = p.rank() - s.rank();
    let shape_ok = (dr == 0 && df.abs() == 1) || (dr == f && df.abs() <= 1);
    let own_first = if f > 0 {
        0
    } else {
        rules.shape.ranks as i8 - 1
    };
    shape_ok && p.rank() != own_first
}

/// Whether `man`, put on `p` next to `s`, may end the move as a man of type `t`.
#[inline]
fn can_end_as(pos: &Position, man: Piece, s: Square, p: Square, t: PieceType) -> bool {
    if !placeable(pos, man, s, p) {
        return false;
    }
    let rules = pos.rules();
    let us = man.color();
    if man.kind() == PieceType::PAWN && rules.promotion_region[us.index()].has(p) {
        if t == PieceType::PAWN {
            !rules.mandatory_promotion
        } else {
            rules.promotion_types.contains(&t) && rules.region(us, t).has(p)
        }
    } else {
        t == man.kind()
    }
}

/// The types `man` may end as on `p` (the man's own type, or the promotion choices).
#[inline]
fn end_types<'a>(
    pos: &'a Position,
    man: Piece,
    s: Square,
    p: Square,
) -> impl Iterator<Item = PieceType> + 'a {
    let rules = pos.rules();
    let promotes =
        man.kind() == PieceType::PAWN && rules.promotion_region[man.color().index()].has(p);
    let choices: &'a [PieceType] = if promotes {
        &rules.promotion_types
    } else {
        &[]
    };
    std::iter::once(man.kind())
        .chain(choices.iter().copied())
        .filter(move |&t| can_end_as(pos, man, s, p, t))
}

/// The promotion field for A ending as `ta` on `pa` and B as `tb` on `pb`, or `Err` if the
/// combination cannot be encoded (both promote, or B promotes while A is an unpromoted pawn in
/// its zone).
#[inline]
fn promo_field(
    pos: &Position,
    a: Piece,
    b: Piece,
    pa: Square,
    ta: PieceType,
    tb: PieceType,
) -> Result<Option<PieceType>, ()> {
    let zone = pos.rules().promotion_region[a.color().index()];
    let a_in_zone = a.kind() == PieceType::PAWN && zone.has(pa);
    let b_promotes = tb != b.kind();
    if a_in_zone {
        if b_promotes {
            return Err(());
        }
        Ok((ta != PieceType::PAWN).then_some(ta))
    } else if b_promotes {
        Ok(Some(tb))
    } else {
        Ok(None)
    }
}

/// Pseudo-legal bracket moves, one per distinct result.
pub fn generate(pos: &Position, list: &mut MoveList) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let board = rules.board;
    let empty = board & !occ;
    for o in pos.pieces(us) {
        let a = pos.piece_at(o);
        for s in approach_targets(pos, a, o) {
            let b = pos.piece_at(s);
            for &(df, dr) in &PAIRS {
                let (Some(p1), Some(p2)) = (s.offset(df, dr), s.offset(-df, -dr)) else {
                    continue;
                };
                if !empty.has(p1) || !empty.has(p2) {
                    continue;
                }
                for (pa, pb) in [(p1, p2), (p2, p1)] {
                    for ta in end_types(pos, a, s, pa) {
                        for tb in end_types(pos, b, s, pb) {
                            // the other order leaving the same men: keep B on the smaller square
                            if crate::rules::name_before(pa, pb)
                                && can_end_as(pos, a, s, pb, tb)
                                && can_end_as(pos, b, s, pa, ta)
                                && promo_field(pos, a, b, pb, tb, ta).is_ok()
                            {
                                continue;
                            }
                            let Ok(promo) = promo_field(pos, a, b, pa, ta, tb) else {
                                continue;
                            };
                            list.push(Move::special(o, s, payload(pa, pb), promo));
                        }
                    }
                }
            }
        }
    }
}

/// The number of legal bracket moves, for perft's last ply. Bracket moves are distinct from
/// every other move (two men change squares, and the pair squares are two apart, so no
/// castling ends alike; two orders with one result are generated once), so they are counted
/// apart from the ordinary moves, each judged from what it changes ([`change`]). `None` when
/// the node's legality facts cannot decide.
fn count_legal(pos: &mut Position, lg: &Legality) -> Option<usize> {
    super::count_judged(pos, lg, generate, change)
}

/// What a bracket does to the board: `o` and `S` are emptied, `PA` and `PB` filled (they were
/// empty: a bracket never captures); the King, A or B, ends on its pair square. Emptying two
/// men of one line at once is what the one-man masks cannot see; the judge does.
fn change(pos: &Position, m: Move) -> Change {
    let (o, s) = (m.from(), m.to());
    let (pa, pb) = decode(m);
    let king = pos.king_square(pos.side_to_move());
    Change::two_men(pos, king, (o, pa), (s, pb))
}

/// The men put on A's and B's squares: (A afterwards, B afterwards).
#[inline]
fn placed(pos: &Position, m: Move) -> (Piece, Piece) {
    let a = pos.piece_at(m.from());
    let b = pos.piece_at(m.to());
    let (pa, _) = decode(m);
    let zone = pos.rules().promotion_region[a.color().index()];
    match m.promotion_type() {
        Some(t) if a.kind() == PieceType::PAWN && zone.has(pa) => (Piece::new(a.color(), t), b),
        Some(t) => (a, Piece::new(b.color(), t)),
        None => (a, b),
    }
}

/// Edits of a bracket move, leg by leg: A leaves `o`, B is put on `PB`, `S` is left empty, A is
/// put on `PA`.
pub fn edits(pos: &Position, m: Move, edits: &mut EditList) {
    let (pa, pb) = decode(m);
    let (a_after, b_after) = placed(pos, m);
    edits.push(m.from(), Piece::NONE);
    edits.push(pb, b_after);
    edits.push(m.to(), Piece::NONE);
    edits.push(pa, a_after);
}

/// Writes the three legs of `m` as given: the approach, B's leg (with B's promotion letter),
/// A's leg (with A's).
fn write_order(pos: &Position, m: Move, pa: Square, pb: Square, out: &mut MoveText) {
    let a = pos.piece_at(m.from());
    let b = pos.piece_at(m.to());
    let (a_after, b_after) = placed(pos, m);
    let rules = pos.rules();
    out.push_leg(m.from(), m.to());
    out.push_leg(m.to(), pb);
    if b_after != b {
        out.push(rules.letter(b_after.kind()));
    }
    out.push_leg(m.to(), pa);
    if a_after != a {
        out.push(rules.letter(a_after.kind()));
    }
}

/// Canonical spelling `oS,SPB,SPA`.
pub fn write(pos: &Position, m: Move, out: &mut MoveText) {
    let (pa, pb) = decode(m);
    write_order(pos, m, pa, pb, out);
}

/// Whether `s` spells `m`: a valid bracket route (approach, pair, placements, promotion) with
/// the same effect as `m`. Accepts the canonical spelling and the other order of a pair whose
/// two orders leave the same men on the same squares.
pub fn is_spelling(pos: &Position, m: Move, s: &str) -> bool {
    let Some(legs) = crate::rules::parse_legs(pos, s) else {
        return false;
    };
    let &[approach, leg_b, leg_a] = legs.as_slice() else {
        return false;
    };
    let (o, sq) = (approach.from, approach.to);
    if approach.promo.is_some() || leg_b.from != sq || leg_a.from != sq {
        return false;
    }
    let (pb, pa) = (leg_b.to, leg_a.to);
    let us = pos.side_to_move();
    let a = pos.piece_at(o);
    let b = pos.piece_at(sq);
    if a.is_none() || b.is_none() || a.color() != us || b.color() != us || o == sq {
        return false;
    }
    if !approach_targets(pos, a, o).has(sq) {
        return false;
    }
    // a pair around S, both squares on the board and empty
    let (dfa, dra) = (pa.file() - sq.file(), pa.rank() - sq.rank());
    let (dfb, drb) = (pb.file() - sq.file(), pb.rank() - sq.rank());
    let empty = pos.rules().board & !pos.occupied();
    if (dfa, dra) != (-dfb, -drb)
        || dfa.abs() > 1
        || dra.abs() > 1
        || (dfa, dra) == (0, 0)
        || !empty.has(pa)
        || !empty.has(pb)
    {
        return false;
    }
    let ta = leg_a.promo.unwrap_or(a.kind());
    let tb = leg_b.promo.unwrap_or(b.kind());
    if !can_end_as(pos, a, sq, pa, ta) || !can_end_as(pos, b, sq, pb, tb) {
        return false;
    }
    let Ok(promo) = promo_field(pos, a, b, pa, ta, tb) else {
        return false;
    };
    let route = Move::special(o, sq, payload(pa, pb), promo);
    let mut e = EditList::new();
    edits(pos, route, &mut e);
    crate::rules::effect_of(pos, &e) == crate::rules::effect_of_move(pos, m)
}
