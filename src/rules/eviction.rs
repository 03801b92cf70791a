//! Eviction (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-2.md §1, §2).
//!
//! Two different friendly men, A on `a` and B on `b`. A moves from `a` to `b` with B's movement
//! (B's capture geometry from `a`, sliders blocked as usual; for a pawn B that is the diagonal
//! forward step, EV-R1). B is lifted and moves from `b` with A's movement to an empty square `d`,
//! judged after A's step, so `a` is empty (EV-R2); for a pawn A that is one step straight forward.
//! No pawn may end on the board's first or last rank; men of the same type may not swap (EV-R3);
//! a side in check may not use its King as A or B (EV-R5). Evictions never capture or promote.
//!
//! Notation `ab,bd`. Moves are identified by their effect (EV-R7 and 1.3):
//! * a swap (`d = a`, types differ) that can be described from either man is one move, spelled
//!   from the man on the ASCII-smaller square;
//! * men of one type: the result is "the man on `a` went to `d`" whichever friend `b` was used,
//!   so routes through different `b` with the same castling rights afterwards are one move,
//!   spelled with the smallest `b`, and when the man could go `a`->`d` by an ordinary move the
//!   ordinary one-leg move is the move (all eviction spellings are accepted by [`is_spelling`]).
//!
//! Move encoding: `from` = a, `to` = b, promotion none, and the payload
//!
//! ```text
//!  12         6  5          0
//! +-------------+------------+
//! |  0 (spare)  | d (B's end)|
//! +-------------+------------+
//! ```
//!
//! Edits: `a` emptied (unless `d = a`), `b` gets A, `d` gets B. Castling rights of a King or
//! Rook that moves, or of a square a man lands on, go through the generic square masks. The
//! en-passant target is the generic rule of shared/rules/README.md ruling 3 (which replaces
//! modest-proposals-2.md §1.2 here): e.g. Rd1 evicting Pe2 with the pawn sliding e2-e4 over an
//! empty e3 leaves the target e3.

use crate::geometry::Square;
use crate::movegen::generic::castling_moves;
use crate::moves::{Move, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{Change, EditList, Legality, MechanicSpec, Position};
use crate::rules::{back_ranks, name_before, rights_lost_at};

/// Registration: `specialMoves = eviction`, a mechanic of moves of its own (no settings, no
/// state), whose moves are distinct: a route whose effect an ordinary move has is not
/// generated (see `generate`).
pub const SPEC: MechanicSpec =
    own_moves_spec!("eviction", captures = false, may_promote = |_| false);

#[inline(always)]
fn dest(m: Move) -> Square {
    Square::new((m.payload() & 63) as u8)
}

/// Whether `a -> b -> d` is a valid eviction in `pos` (all rules except the final King test).
/// `in_check`: whether the side to move is in check.
fn route_ok(pos: &Position, in_check: bool, a: Square, b: Square, d: Square) -> bool {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let (pa, pb) = (pos.piece_at(a), pos.piece_at(b));
    if a == b || b == d || pa.is_none() || pb.is_none() || pa.color() != us || pb.color() != us {
        return false;
    }
    let (ta, tb) = (pa.kind(), pb.kind());
    if in_check && (ta == PieceType::KING || tb == PieceType::KING) {
        return false;
    }
    let (Some(adef), Some(bdef)) = (rules.piece(ta), rules.piece(tb)) else {
        return false;
    };
    let occ = pos.occupied();
    let board = rules.board;
    let back = back_ranks(pos);
    // A's step with B's movement onto B
    if !bdef.moves.capture_targets(us, a, occ, board).has(b)
        || !rules.region(us, ta).has(b)
        || (ta == PieceType::PAWN && back.has(b))
    {
        return false;
    }
    // B's step with A's movement to an empty square, `a` now empty
    if (ta == tb && d == a)
        || !adef
            .moves
            .quiet_targets(us, b, occ.without(a), board)
            .has(d)
        || !rules.region(us, tb).has(d)
        || (tb == PieceType::PAWN && back.has(d))
    {
        return false;
    }
    true
}

/// Rights lost by a route through `a`, `b`, `d`.
#[inline]
fn lost(pos: &Position, a: Square, b: Square, d: Square) -> u8 {
    rights_lost_at(pos, a) | rights_lost_at(pos, b) | rights_lost_at(pos, d)
}

/// Whether the eviction `a -> b -> d` of two men of the same type has a spelling that wins over
/// `ab,bd`: an ordinary move `a -> d`, or a route through a friend on a smaller square, with
/// the same castling rights afterwards.
fn same_type_has_better(pos: &Position, in_check: bool, a: Square, b: Square, d: Square) -> bool {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let man = pos.piece_at(a);
    let t = man.kind();
    let rights = pos.castling_rights();
    let after = rights & !lost(pos, a, b, d);
    if let Some(def) = rules.piece(t) {
        let ordinary =
            def.moves.quiet_targets(us, a, pos.occupied(), rules.board) & rules.region(us, t);
        let promotes = t == PieceType::PAWN && rules.promotion_region[us.index()].has(d);
        if ordinary.has(d)
            && !promotes
            && rights & !(rights_lost_at(pos, a) | rights_lost_at(pos, d)) == after
        {
            return true;
        }
    }
    for b2 in pos.pieces_of(us, t) {
        if !name_before(b2, b) || b2 == a {
            continue;
        }
        if route_ok(pos, in_check, a, b2, d) && rights & !lost(pos, a, b2, d) == after {
            return true;
        }
    }
    false
}

/// Pseudo-legal evictions, one per distinct result.
pub fn generate(pos: &Position, list: &mut MoveList) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let board = rules.board;
    let back = back_ranks(pos);
    let in_check = crate::movegen::in_check(pos);
    let mut men = pos.pieces(us);
    if in_check {
        men &= !pos.pieces_of(us, PieceType::KING);
    }
    for a in men {
        let ta = pos.piece_at(a).kind();
        let Some(adef) = rules.piece(ta) else {
            continue;
        };
        let mut may_land = rules.region(us, ta);
        if ta == PieceType::PAWN {
            may_land &= !back;
        }
        for tb in rules.piece_types() {
            let bs = pos.pieces_of(us, tb) & men & may_land & !a.bb();
            if bs.is_empty() {
                continue;
            }
            let Some(bdef) = rules.piece(tb) else {
                continue;
            };
            let hits = bdef.moves.capture_targets(us, a, occ, board) & bs;
            for b in hits {
                let mut ds =
                    adef.moves.quiet_targets(us, b, occ.without(a), board) & rules.region(us, tb);
                if tb == PieceType::PAWN {
                    ds &= !back;
                }
                if ta == tb {
                    ds = ds.without(a);
                }
                for d in ds {
                    if d == a {
                        // a swap: spell it from the man on the smaller square if both can
                        if name_before(b, a) && route_ok(pos, in_check, b, a, b) {
                            continue;
                        }
                    } else if ta == tb && same_type_has_better(pos, in_check, a, b, d) {
                        continue;
                    }
                    if equals_castling(pos, a, b, d) {
                        continue;
                    }
                    list.push(Move::special(a, b, d.raw() as u32, None));
                }
            }
        }
    }
}

/// Whether the eviction `a -> b -> d` ends as a castling move the generator lists does: the
/// King and the castling Rook on that castling's squares, with the same rights lost. Only an
/// X-FEN set-up allows it (the Rook starting on the King's castling square, or the King on
/// the Rook's); the castling is then the move. When the castling is not listed (its path is
/// attacked, say) the eviction is a move of its own.
fn equals_castling(pos: &Position, a: Square, b: Square, d: Square) -> bool {
    let us = pos.side_to_move().index();
    let rights = pos.castling_rights() >> (2 * us) & 3;
    let alike = (0..2)
        .filter(|side| rights >> side & 1 != 0)
        .find_map(|side| {
            let c = pos.castle_path(2 * us + side)?.mv;
            let (king, king_to, rook, rook_to) = (c.from(), c.to(), c.rook_from(), c.rook_to());
            // A ends on `b`, B on `d`
            let same = (a == king && b == rook && b == king_to && d == rook_to)
                || (a == rook && b == king && b == rook_to && d == king_to);
            same.then_some(c)
        });
    alike.is_some_and(|c| {
        let mut castles = MoveList::new();
        castling_moves(pos, &mut castles);
        castles.iter().any(|&listed| listed == c)
    })
}

/// The number of legal evictions, for perft's last ply. Evictions are distinct from every
/// other move: two men change squares without capturing, which no ordinary move does but
/// castling, and [`generate`] leaves out the route that equals a listed castling and routes of
/// one type whose effect an ordinary move or another route has. A route empties `a` (unless B
/// goes there: a swap changes no occupancy) and fills `d`; the King ends on `b` when it is A,
/// on `d` when it is B. `None` when the node's legality facts cannot decide.
fn count_legal(pos: &mut Position, lg: &Legality) -> Option<usize> {
    super::count_judged(pos, lg, generate, change)
}

/// What an eviction does to the board: A `a -> b`, B `b -> d`, nothing captured.
fn change(pos: &Position, m: Move) -> Change {
    let (a, b, d) = (m.from(), m.to(), dest(m));
    Change::two_men(pos, pos.king_square(pos.side_to_move()), (a, b), (b, d))
}

fn route_edits(pos: &Position, a: Square, b: Square, d: Square, edits: &mut EditList) {
    let man_a = pos.piece_at(a);
    let man_b = pos.piece_at(b);
    if d != a {
        edits.push(a, Piece::NONE);
    }
    edits.push(b, man_a);
    edits.push(d, man_b);
}

/// Edits of an eviction: `a` emptied (unless B goes there), A on `b`, B on `d`.
pub fn edits(pos: &Position, m: Move, edits: &mut EditList) {
    route_edits(pos, m.from(), m.to(), dest(m), edits);
}

/// Canonical spelling `ab,bd`.
pub fn write(_pos: &Position, m: Move, out: &mut MoveText) {
    out.push_leg(m.from(), m.to());
    out.push_leg(m.to(), dest(m));
}

/// Whether `s` spells `m`: a valid eviction route `xy,yz` with the same effect as `m` (which may
/// be an eviction or the ordinary move that a same-type eviction equals).
///
/// The en-passant square is not compared: routes with the same placement and rights here never
/// differ in it (a swap never moves a pawn two squares straight ahead, and a same-type route
/// moves pawns diagonally).
pub fn is_spelling(pos: &Position, m: Move, s: &str) -> bool {
    let Some(legs) = crate::rules::parse_legs(pos, s) else {
        return false;
    };
    let &[first, second] = legs.as_slice() else {
        return false;
    };
    if first.promo.is_some() || second.promo.is_some() || second.from != first.to {
        return false;
    }
    let (a, b, d) = (first.from, first.to, second.to);
    let in_check = crate::movegen::in_check(pos);
    if !route_ok(pos, in_check, a, b, d) {
        return false;
    }
    let mut e = EditList::new();
    route_edits(pos, a, b, d, &mut e);
    crate::rules::effect_of(pos, &e) == crate::rules::effect_of_move(pos, m)
}
