//! Carom (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-1.md §0, §4).
//!
//! A man A on `o` approaches a friendly man (the pivot) on `P` with one of its standard move
//! geometries (a pawn by its straight step, its double step or its diagonal forward step), then
//! moves once more from `P` to an empty square `T`; the pivot stays (CR-1). The second leg may
//! neither continue nor reverse the approach (CR-2): a man that approached along a line (Rook,
//! Bishop, Queen, King) goes on along the perpendicular line through `P`, sliding over empty
//! squares or stepping; a Knight leaps anywhere but back along or on along its approach leap; a
//! pawn steps onto its other forward diagonal after a diagonal approach, sideways after a
//! straight one. The carom leg never captures; a pawn ending on its promotion rank promotes
//! (CR-3). Kings may carom, also in check; only the final position is judged (CR-4, CR-5).
//!
//! The rule is stated on the men's movement tables (lines and leaps), so a variant's own
//! definition of a man is used: the approach is the man's capture geometry onto a friend, the
//! carom leg its non-capturing moves from the pivot restricted as above.
//!
//! Identity (CR-6, ruling 2): a carom moves one man from `o` to `T` (the pivot does not move, so
//! castling rights go only with `o` and `T`), so its effect is the triple (o, T, promotion).
//! Routes through different pivots are one move, spelled with the pivot whose name sorts first
//! (the ASCII-smallest string); a triple that an ordinary move also produces (a King's diagonal
//! step, a Queen's straight line, a pawn's double step) is that ordinary move and is not
//! generated. [`Carom::is_spelling`] accepts every route of a move, ordinary moves included.
//!
//! Notation `oP,PT` (promotion letter on the second leg). Move encoding: `from` = o, `to` = P
//! (the canonical pivot), `promo` = the promotion, and the payload
//!
//! ```text
//!  12         6  5          0
//! +-------------+------------+
//! |  0 (spare)  |  T (end)   |
//! +-------------+------------+
//! ```
//!
//! Edits: `o` emptied, `T` filled. En passant follows the man (ruling 3): a pawn carom is
//! reported with its route `o -> T`; one that ends two squares straight ahead over an empty
//! square is the double step and is never a carom, so a carom never leaves a target.
//!
//! Leaf counts: [`Carom::count_moves`] counts the caroms per man as a set of end squares (the
//! union over its pivots, less the ordinary moves) and decides legality without playing: a
//! carom empties `o` and fills the empty `T`, so only a King's carom, a man that stands
//! between its King and an enemy slider, or any carom while in check needs the attack test,
//! done on the occupancy after the move.

use crate::geometry::attacks::line;
use crate::geometry::{Bitboard, Square};
use crate::moves::{Move, MoveKind, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{
    Built, Change, EditList, Hooks, Legality, Mechanic, MechanicSpec, Position, StateLayout,
};
use crate::rules::relocation::{
    approach_targets, direction, end_types, pawns_near_promotion, promotion, PawnApproach,
};
use crate::variant::{Rules, Section};

/// The Carom mechanic (no settings, no state).
#[derive(Clone, Copy, Debug)]
pub struct Carom;

/// Registration: `specialMoves = carom`.
pub const SPEC: MechanicSpec = MechanicSpec::chosen(&["specialMoves"], "carom", build);

fn build(ctx: &Section, _rules: &mut Rules, _state: &mut StateLayout) -> Built {
    Ok(SPEC
        .is_chosen(ctx)?
        .then(|| Box::new(Carom) as Box<dyn Mechanic>))
}

impl Mechanic for Carom {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        generate(pos, list);
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        edits(pos, m, out);
    }

    fn write_move(&self, pos: &Position, m: Move, out: &mut MoveText) {
        write(pos, m, out);
    }

    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        is_spelling(pos, m, s)
    }

    /// One carom per (origin, end, promotion), none with an ordinary move's effect (the tests
    /// hold the generator to this: `assert_generated_once`).
    fn moves_are_distinct(&self) -> bool {
        true
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        count_legal(pos, lg)
    }

    /// A carom ends on an empty square and leaves the pivot standing (CR-2): it never captures.
    fn captures(&self, _pos: &Position, _m: Move) -> Option<bool> {
        Some(false)
    }

    /// A carom promotes only a pawn it carries into its promotion region, and a pawn's carom
    /// gains at most two ranks (a diagonal step then the other forward diagonal, or a straight
    /// approach then a sideways step).
    fn may_be_noisy(&self, pos: &Position) -> bool {
        let pawns = pos.pieces_of(pos.side_to_move(), PieceType::PAWN);
        pawns_near_promotion(pos, pawns, 2)
    }

    /// `o` emptied, the empty `T` filled (the pivot stays).
    fn change(&self, pos: &Position, m: Move) -> Option<Change> {
        let (o, t) = (m.from(), dest(m));
        let king = pos.king_square(pos.side_to_move());
        Some(Change::net(
            pos,
            o.bb(),
            t.bb(),
            (king == Some(o)).then_some(t),
        ))
    }
}

/// The carom's end square.
#[inline(always)]
fn dest(m: Move) -> Square {
    Square::new((m.payload() & 63) as u8)
}

/// The squares, on the board, of the line through `p` perpendicular to the unit direction `v`.
#[inline]
fn perpendicular_line(p: Square, v: (i8, i8)) -> Bitboard {
    let (pf, pr) = (-v.1, v.0);
    match (p.offset(pf, pr), p.offset(-pf, -pr)) {
        (Some(q), _) | (None, Some(q)) => line(p, q),
        (None, None) => p.bb(),
    }
}

/// The empty squares the man `man`, having approached the pivot `p` from `o`, may carom to
/// (CR-2), before promotion and the ordinary moves are considered.
#[inline]
fn leg_targets(pos: &Position, man: Piece, o: Square, p: Square) -> Bitboard {
    let rules = pos.rules();
    let occ = pos.occupied();
    let empty = rules.board & !occ;
    let us = man.color();
    if man.kind() == PieceType::PAWN {
        let f = us.forward();
        let df = p.file() - o.file();
        let mut bb = Bitboard::EMPTY;
        if df != 0 {
            // after a diagonal approach, the other forward diagonal
            if let Some(t) = p.offset(-df, f) {
                bb |= t.bb();
            }
        } else {
            // after a straight approach (one or two steps), one step sideways
            for side in [-1, 1] {
                if let Some(t) = p.offset(side, 0) {
                    bb |= t.bb();
                }
            }
        }
        return bb & empty;
    }
    let Some(def) = rules.piece(man.kind()) else {
        return Bitboard::EMPTY;
    };
    let quiet = def.moves.quiet_targets(us, p, occ, rules.board);
    let v = direction(o, p);
    if v.0.abs() <= 1 && v.1.abs() <= 1 {
        // along a line: on along the perpendicular line through the pivot
        quiet & perpendicular_line(p, v)
    } else {
        // a leap: any leap but the approach vector and its reverse
        let mut barred = Bitboard::EMPTY;
        for s in [1, -1] {
            if let Some(t) = p.offset(s * v.0, s * v.1) {
                barred |= t.bb();
            }
        }
        quiet & !barred
    }
}

/// End squares of the ordinary non-capturing moves of `man` from `o`: a carom to one of them is
/// that ordinary move (CR-6). For a pawn only the double step can coincide with a carom.
#[inline]
fn ordinary_targets(pos: &Position, man: Piece, o: Square) -> Bitboard {
    let rules = pos.rules();
    let us = man.color();
    let occ = pos.occupied();
    if man.kind() != PieceType::PAWN {
        return rules.piece(man.kind()).map_or(Bitboard::EMPTY, |d| {
            d.moves.quiet_targets(us, o, occ, rules.board)
        });
    }
    let f = us.forward();
    if rules.double_step && rules.double_step_region[us.index()].has(o) {
        if let (Some(one), Some(two)) = (o.offset(0, f), o.offset(0, 2 * f)) {
            if !occ.has(one) && !occ.has(two) && rules.board.has(two) {
                return two.bb();
            }
        }
    }
    Bitboard::EMPTY
}

/// Files of the board, for walking pivots in the order of their names.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Calls `f(pivot, ends)` for each pivot of the man on `o` in the order of the pivots' names,
/// with the carom ends first reached through that pivot (so each end comes once, with its
/// canonical pivot), ordinary moves left out.
#[inline]
fn for_each_pivot(pos: &Position, o: Square, mut f: impl FnMut(Square, Bitboard)) {
    let man = pos.piece_at(o);
    let pivots = approach_targets(pos, o, PawnApproach::ALL);
    if pivots.is_empty() {
        return;
    }
    let mut done = ordinary_targets(pos, man, o);
    for file in 0..8 {
        for p in pivots & Bitboard(FILE_A << file) {
            let ends = leg_targets(pos, man, o, p) & !done;
            if ends.any() {
                done |= ends;
                f(p, ends);
            }
        }
    }
}

/// Pseudo-legal caroms, one per distinct result.
pub fn generate(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    for o in pos.pieces(us) {
        let man = pos.piece_at(o);
        for_each_pivot(pos, o, |p, ends| {
            for t in ends {
                for &ty in end_types(pos, man, t).as_slice() {
                    list.push(Move::special(
                        o,
                        p,
                        t.raw() as u32,
                        promotion(man.kind(), ty),
                    ));
                }
            }
        });
    }
}

/// Edits of a carom: `o` emptied, `T` filled (the pivot does not move).
pub fn edits(pos: &Position, m: Move, out: &mut EditList) {
    let (o, t) = (m.from(), dest(m));
    let man = pos.piece_at(o);
    let placed = m
        .promotion_type()
        .map_or(man, |ty| Piece::new(man.color(), ty));
    out.push(o, Piece::NONE);
    out.push(t, placed);
    if man.kind() == PieceType::PAWN && m.promotion_type().is_none() {
        out.pawn_route(o, t);
    } else {
        out.no_pawn_route();
    }
}

/// Canonical spelling `oP,PT` with the promotion letter on the second leg.
pub fn write(pos: &Position, m: Move, out: &mut MoveText) {
    out.push_leg(m.from(), m.to());
    out.push_leg(m.to(), dest(m));
    if let Some(t) = m.promotion_type() {
        out.push(pos.rules().letter(t));
    }
}

/// Whether `o -> p -> t`, ending as `promo`, is a valid carom route in `pos` (every rule but the
/// final King test; ordinary equivalents included).
fn route_ok(pos: &Position, o: Square, p: Square, t: Square, promo: Option<PieceType>) -> bool {
    let man = pos.piece_at(o);
    if man.is_none() || man.color() != pos.side_to_move() {
        return false;
    }
    if !approach_targets(pos, o, PawnApproach::ALL).has(p) || !leg_targets(pos, man, o, p).has(t) {
        return false;
    }
    let ty = promo.unwrap_or(man.kind());
    end_types(pos, man, t).as_slice().contains(&ty) && promotion(man.kind(), ty) == promo
}

/// Whether `s` spells `m`: a valid carom route `oP,PT` that moves the same man from the same
/// square to the same square as `m`, ending as the same type (a carom or an ordinary move).
pub fn is_spelling(pos: &Position, m: Move, s: &str) -> bool {
    let Some(legs) = crate::rules::parse_legs(pos, s) else {
        return false;
    };
    let &[approach, leg] = legs.as_slice() else {
        return false;
    };
    if approach.promo.is_some() || leg.from != approach.to {
        return false;
    }
    let (o, p, t) = (approach.from, approach.to, leg.to);
    let same = match m.kind() {
        MoveKind::Special => m.from() == o && dest(m) == t,
        MoveKind::Normal => m.from() == o && m.to() == t && pos.piece_at(t).is_none(),
        _ => false,
    };
    same && m.promotion_type() == leg.promo && route_ok(pos, o, p, t, leg.promo)
}

/// The number of legal caroms, counted without listing: each man's ends judged as a move of
/// that man alone (the pivot stays). `None` where the node's legality facts cannot decide.
pub fn count_legal(pos: &Position, lg: &Legality) -> Option<usize> {
    if !lg.decides() {
        return None;
    }
    let rules = pos.rules();
    let us = pos.side_to_move();
    let mut n = 0;
    for o in pos.pieces(us) {
        let man = pos.piece_at(o);
        let pivots = approach_targets(pos, o, PawnApproach::ALL);
        if pivots.is_empty() {
            continue;
        }
        let mut ends = Bitboard::EMPTY;
        for p in pivots {
            ends |= leg_targets(pos, man, o, p);
        }
        ends &= !ordinary_targets(pos, man, o);
        for t in lg.relocation_targets(pos, o, ends) {
            n += if man.kind() == PieceType::PAWN {
                end_types(pos, man, t).as_slice().len()
            } else {
                rules.region(us, man.kind()).has(t) as usize
            };
        }
    }
    Some(n)
}
