//! Triangulation (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-2.md
//! §1, §21).
//!
//! Instead of an ordinary move, three different friendly men A (on `a`), B (on `b`) and C (on
//! `c`): A makes a normal move onto `b` (its capture geometry, sliders over empty squares; a pawn
//! by its single straight or its diagonal forward step, never the double step), B then makes a
//! normal move from `b` onto `c` (judged with `a` empty), and C is put on `a`. The two moves must
//! differ in direction (TG-R1: unit vectors for lines, the leap itself for a Knight); B moving
//! back along A's line through the emptied `a` is a different direction (TG-R4, the key
//! `triangulationReversal`, default true; false bars both moves on one line). Three men of one
//! type may not triangulate (TG-R2). A pawn may not end on its own first rank; a pawn ending in
//! its promotion zone promotes (TG-R3; as A, B or C). Kings may take any role, also in check;
//! only the final position is judged. Triangulations never capture.
//!
//! Notation `ab,bc,ca`, each promotion letter on the promoting man's leg.
//!
//! Identity (1.3, ruling 2): a triangulation moves the contents of `a`, `b`, `c` round the
//! triangle, so the rotations of a triangle (`bc,ca,ab`, ...) that are valid routes give the
//! same position, and when two of the men are of one type, other triangles can too (and may
//! differ in the castling rights they cost or the en-passant target they leave). Each route is
//! reduced to an exact key of its effect (the changed squares with their new men, the castling
//! rights afterwards, the en-passant target): the generator keeps one move per key, spelled by
//! the ASCII-smallest route, and `is_spelling` accepts a route whose key is the move's. No
//! triangulation equals an ordinary move: it keeps every square occupied, an ordinary move or
//! castling does not.
//!
//! Move encoding: `from` = a, `to` = b, `promo` = A's promotion, or when A does not promote the
//! first of B's and C's (so that the search sees a promotion), and the payload
//!
//! ```text
//!  12   11       9  8       6  5          0
//! +----+----------+----------+------------+
//! | PA |  C code  |  B code  |  c (C's)   |
//! +----+----------+----------+------------+
//! ```
//!
//! `PA`: A promotes (to the `promo` type); the codes are [`promo_code`]s of B's and C's
//! promotions. Under orthodox promotion rules at most one man of a triangulation can promote (a
//! promoting A ends on the last rank, where no pawn B can stand; a promoting B moves onto a
//! piece C on the last rank; a promoting C is put where a piece A stood on the last rank), but
//! a deeper promotion zone allows more.
//!
//! Edits: `a`, `b`, `c` each get their new man (a square whose man is replaced by one of the
//! same type is still edited: its castling right goes with the leg). En passant follows the men
//! (ruling 3): each pawn's route is reported, so only a pawn C put two squares straight ahead of
//! its square on its second rank leaves a target, never a pawn leaving `e2` while another one
//! arrives on `e4`.
//!
//! Leaf counts ([`Triangulation::count_legal`], the `count_moves` hook) play nothing. Legality: a
//! triangulation keeps the occupancy and moves no enemy man, so the node's legality facts judge
//! it by where the King ends: without the King it is legal exactly when the side is not in
//! check, with the King when the King's new square is not attacked now. Identity:
//! most routes are told apart without a key (`Class`): three types with no possible rotation
//! are unique, two types with no castling right or e.p. at stake are one swap of two squares.

use crate::geometry::attacks::TABLES;
use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveKind, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{
    legal_when_played, Built, Change, EditList, Hooks, Legality, Mechanic, MechanicSpec, Position,
    StateLayout,
};
use crate::rules::relocation::{end_types, own_first_rank, promo_code, promo_of_code, promotion};
use crate::rules::{parse_legs, rights_lost_at};
use crate::variant::{Rules, Section};

/// The Triangulation mechanic and its setting.
#[derive(Clone, Copy, Debug)]
pub struct Triangulation {
    /// B may move back along A's line (TG-R4, `triangulationReversal`).
    reversal: bool,
}

/// Registration: `specialMoves = triangulation`, `triangulationReversal`.
pub const SPEC: MechanicSpec = MechanicSpec::chosen(
    &["specialMoves", "triangulationReversal"],
    "triangulation",
    build,
);

fn build(ctx: &Section, _rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let reversal = ctx.bool("triangulationReversal", true)?;
    SPEC.made_if_chosen(ctx, Triangulation { reversal })
}

impl Mechanic for Triangulation {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        self.generate_moves(pos, list);
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        edits(pos, m, out);
    }

    fn write_move(&self, pos: &Position, m: Move, out: &mut MoveText) {
        write(pos, m, out);
    }

    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        self.spells(pos, m, s)
    }

    /// One move per effect, and none has an ordinary move's (a triangulation leaves every one
    /// of its three squares occupied); the tests hold the generator to this.
    fn moves_are_distinct(&self) -> bool {
        true
    }

    fn captures(&self, _pos: &Position, _m: Move) -> Option<bool> {
        Some(false)
    }

    /// A triangulation captures nothing, and each of its men ends where a man of the side
    /// stands: it promotes only where the side has a pawn and a man in its promotion region.
    fn may_be_noisy(&self, pos: &Position) -> bool {
        let us = pos.side_to_move();
        pos.pieces_of(us, PieceType::PAWN).any()
            && (pos.pieces(us) & pos.rules().promotion_region[us.index()]).any()
    }

    fn generates_legal(&self) -> bool {
        true
    }

    /// Judged route by route by where the King ends (routes of one effect are all legal or
    /// all not), where the node's facts decide; else played.
    fn generate_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) {
        if lg.decides() {
            let mut safety = KingSafety::new(lg);
            self.list_moves(pos, |r| safety.allows(pos, r), list);
            return;
        }
        let mut pseudo = MoveList::new();
        self.generate_moves(pos, &mut pseudo);
        for &m in pseudo.iter() {
            if legal_when_played(pos, m) {
                list.push(m);
            }
        }
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        self.count_legal(pos, lg)
    }
}

/// One triangle: the squares and the men on them before the move.
#[derive(Clone, Copy, Debug)]
struct Route {
    a: Square,
    b: Square,
    c: Square,
    man_a: Piece,
    man_b: Piece,
    man_c: Piece,
}

/// The friendly men that `man` on `from` reaches with a normal move, with `occ` blocking and
/// `own` the friendly men: a piece by its capture geometry, a pawn by its single straight and
/// diagonal forward steps.
#[inline]
fn onto(pos: &Position, man: Piece, from: Square, occ: Bitboard, own: Bitboard) -> Bitboard {
    let rules = pos.rules();
    let us = man.color();
    if man.kind() == PieceType::PAWN {
        let straight = from
            .offset(0, us.forward())
            .map_or(Bitboard::EMPTY, Square::bb);
        return (TABLES.pawn[us.index()][from.index()] | straight) & own & rules.board;
    }
    match rules.piece(man.kind()) {
        Some(def) => def.moves.capture_targets(us, from, occ, rules.board) & own,
        None => Bitboard::EMPTY,
    }
}

impl Triangulation {
    /// Whether B's direction `d2` may follow A's `d1` (TG-R1, TG-R4).
    #[inline(always)]
    fn turns(&self, d1: u8, d2: u8) -> bool {
        d1 != d2 && (self.reversal || d2 != reverse(d1))
    }

    /// Calls `f` for every valid triangle (promotion aside).
    #[inline]
    fn for_each_route(&self, pos: &Position, reach: &Reaches, mut f: impl FnMut(&Route)) {
        for a in reach.own {
            let man_a = pos.piece_at(a);
            // no pawn C may be put on its first rank
            let may_c = if reach.first_rank.has(a) {
                !reach.pawns
            } else {
                Bitboard::FULL
            };
            for b in reach.onto[a.index()] {
                let man_b = pos.piece_at(b);
                let d1 = line_or_leap(a, b);
                let mut cs = reach.without(pos, b, a) & may_c;
                if man_a.kind() == man_b.kind() {
                    // not three of one type (TG-R2)
                    cs &= !pos.pieces_of(man_a.color(), man_a.kind());
                }
                for c in cs {
                    let man_c = pos.piece_at(c);
                    if !self.turns(d1, line_or_leap(b, c)) {
                        continue;
                    }
                    f(&Route {
                        a,
                        b,
                        c,
                        man_a,
                        man_b,
                        man_c,
                    });
                }
            }
        }
    }

    /// Whether `a`, `b`, `c` form a valid triangle (promotion aside).
    fn route_at(&self, pos: &Position, a: Square, b: Square, c: Square) -> Option<Route> {
        let us = pos.side_to_move();
        let own = pos.pieces(us);
        if a == b || b == c || c == a || !own.has(a) || !own.has(b) || !own.has(c) {
            return None;
        }
        let r = Route {
            a,
            b,
            c,
            man_a: pos.piece_at(a),
            man_b: pos.piece_at(b),
            man_c: pos.piece_at(c),
        };
        let occ = pos.occupied();
        let ok = onto(pos, r.man_a, a, occ, own).has(b)
            && onto(pos, r.man_b, b, occ.without(a), own.without(a)).has(c)
            && self.turns(line_or_leap(a, b), line_or_leap(b, c))
            && !(r.man_a.kind() == r.man_b.kind() && r.man_b.kind() == r.man_c.kind());
        ok.then_some(r)
    }

    /// Pseudo-legal triangulations, one per distinct result, each spelled canonically.
    pub fn generate_moves(&self, pos: &Position, list: &mut MoveList) {
        self.list_moves(pos, |_| true, list);
    }

    /// The triangulations of the routes `keep` passes, one per distinct result, each spelled
    /// canonically: the unique ones in route order, then the others in order of their keys.
    /// `keep` must pass all routes of one effect or none.
    fn list_moves(
        &self,
        pos: &Position,
        mut keep: impl FnMut(&Route) -> bool,
        list: &mut MoveList,
    ) {
        let reach = Reaches::new(pos);
        let classes = Classifier::new(pos);
        let mut found = [std::mem::MaybeUninit::<(u64, Move)>::uninit(); MAX_ROUTES];
        let mut n = 0;
        self.for_each_route(pos, &reach, |r| {
            if !keep(r) {
                return;
            }
            if classes.classify(pos, &reach, r) == Class::Unique {
                if let Some(m) = encode(pos.rules(), r, None, None, None) {
                    list.push(m);
                }
                return;
            }
            for_each_choice(pos, r, |m, key| {
                found[n].write((key, m));
                n += 1;
            });
        });
        // SAFETY: the first `n` entries were written above.
        let found =
            unsafe { std::slice::from_raw_parts_mut(found.as_mut_ptr() as *mut (u64, Move), n) };
        found.sort_unstable_by_key(|e| e.0);
        let mut i = 0;
        while i < n {
            let mut best = found[i].1;
            let mut j = i + 1;
            while j < n && found[j].0 == found[i].0 {
                best = smaller_spelling(best, found[j].1);
                j += 1;
            }
            list.push(best);
            i = j;
        }
    }

    /// Whether `s` spells `m`: a valid triangle whose effect is `m`'s.
    fn spells(&self, pos: &Position, m: Move, s: &str) -> bool {
        if m.kind() != MoveKind::Special {
            return false;
        }
        let Some(legs) = parse_legs(pos, s) else {
            return false;
        };
        let &[la, lb, lc] = legs.as_slice() else {
            return false;
        };
        if lb.from != la.to || lc.from != lb.to || lc.to != la.from {
            return false;
        }
        let Some(r) = self.route_at(pos, la.from, la.to, lb.to) else {
            return false;
        };
        let rules = pos.rules();
        let valid = |man: Piece, to: Square, promo: Option<PieceType>| {
            let ty = promo.unwrap_or(man.kind());
            end_types(pos, man, to).as_slice().contains(&ty) && promotion(man.kind(), ty) == promo
        };
        if !valid(r.man_a, r.b, la.promo)
            || !valid(r.man_b, r.c, lb.promo)
            || !valid(r.man_c, r.a, lc.promo)
        {
            return false;
        }
        let Some(route) = encode(rules, &r, la.promo, lb.promo, lc.promo) else {
            return false;
        };
        key_of_move(pos, route) == key_of_move(pos, m)
    }

    /// The number of legal triangulations, counted without playing them (`None` where the
    /// node's legality facts cannot decide).
    pub fn count_legal(&self, pos: &Position, lg: &Legality) -> Option<usize> {
        if !lg.decides() {
            return None;
        }
        let reach = Reaches::new(pos);
        let classes = Classifier::new(pos);
        let mut safety = KingSafety::new(lg);
        // the swapped pairs seen (Class::Swap), a bit set made when first needed
        let mut swaps: Option<[u64; 64]> = None;
        let mut keys = [std::mem::MaybeUninit::<u64>::uninit(); MAX_ROUTES];
        let mut n = 0;
        let mut unique = 0;
        self.for_each_route(pos, &reach, |r| {
            if !safety.allows(pos, r) {
                return;
            }
            match classes.classify(pos, &reach, r) {
                Class::Unique => unique += 1,
                Class::Swap(i) => {
                    let swaps = swaps.get_or_insert([0; 64]);
                    let (w, bit) = (i as usize / 64, 1u64 << (i % 64));
                    if swaps[w] & bit == 0 {
                        swaps[w] |= bit;
                        unique += 1;
                    }
                }
                Class::Keyed => for_each_choice(pos, r, |_, key| {
                    keys[n].write(key);
                    n += 1;
                }),
            }
        });
        // SAFETY: the first `n` entries were written above.
        let keys = unsafe { std::slice::from_raw_parts_mut(keys.as_mut_ptr() as *mut u64, n) };
        keys.sort_unstable();
        Some(unique + n - keys.windows(2).filter(|w| w[0] == w[1]).count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::relocation::direction;

    #[test]
    fn direction_codes_are_the_toolkit_directions() {
        for a in Square::all() {
            for b in Square::all() {
                if a == b {
                    continue;
                }
                let (df, dr) = direction(a, b);
                let code = line_or_leap(a, b) as i32;
                assert_eq!((code % 15 - 7, code / 15 - 7), (df as i32, dr as i32));
                assert_eq!(reverse(line_or_leap(a, b)), line_or_leap(b, a));
            }
        }
    }
}

/// Most routes one position can have: each of at most 16 men approaches at most 8 friends,
/// each of which moves on to at most 9 (one more through the emptied square), and a route of
/// a promoting pawn counts once per promotion choice.
const MAX_ROUTES: usize = 4096;

/// The friends each man of the side to move reaches with a normal move, at one node.
struct Reaches {
    own: Bitboard,
    occ: Bitboard,
    /// By square of the man: the friends it reaches (full occupancy).
    onto: [Bitboard; 64],
    /// Men whose reach depends on the occupancy along lines (sliders).
    sliders: Bitboard,
    /// Men whose reach may change with any square's occupancy (irregular rays, hoppers).
    volatile: Bitboard,
    /// The side's pawns.
    pawns: Bitboard,
    /// The side's first rank (where no pawn of it may stand).
    first_rank: Bitboard,
}

impl Reaches {
    #[inline]
    fn new(pos: &Position) -> Reaches {
        let rules = pos.rules();
        let us = pos.side_to_move();
        let own = pos.pieces(us);
        let occ = pos.occupied();
        let first = own_first_rank(rules, us);
        let mut r = Reaches {
            own,
            occ,
            onto: [Bitboard::EMPTY; 64],
            sliders: Bitboard::EMPTY,
            volatile: Bitboard::EMPTY,
            pawns: pos.pieces_of(us, PieceType::PAWN),
            first_rank: Bitboard(0xFF << (8 * first as u32)),
        };
        for s in own {
            let man = pos.piece_at(s);
            r.onto[s.index()] = onto(pos, man, s, occ, own);
            if let Some(def) = rules
                .piece(man.kind())
                .filter(|_| man.kind() != PieceType::PAWN)
            {
                if def.moves.has_rays() {
                    r.volatile |= s.bb();
                } else if def.moves.rook_capture.is_some() || def.moves.bishop_capture.is_some() {
                    r.sliders |= s.bb();
                }
            }
        }
        r
    }

    /// The friends the man on `from` reaches once the friend on `gone` has left.
    #[inline(always)]
    fn without(&self, pos: &Position, from: Square, gone: Square) -> Bitboard {
        let full = self.onto[from.index()];
        let recompute = self.volatile.has(from) || (full.has(gone) && self.sliders.has(from));
        if recompute {
            let own = self.own.without(gone);
            onto(pos, pos.piece_at(from), from, self.occ.without(gone), own)
        } else {
            full.without(gone)
        }
    }
}

/// Whether routes leave the King safe, at a node whose legality facts decide: a
/// triangulation keeps the occupancy and moves no enemy man, so only where the King ends
/// matters. Each answer is worked out once a node.
struct KingSafety<'a> {
    lg: &'a Legality,
    king: Option<Square>,
    /// Whether a route without the King is legal (the side is not in check), once asked.
    stays_safe: Option<bool>,
    /// The King's destinations judged so far, and those attacked.
    tested: Bitboard,
    attacked: Bitboard,
}

impl<'a> KingSafety<'a> {
    fn new(lg: &'a Legality) -> KingSafety<'a> {
        KingSafety {
            lg,
            king: lg.king(),
            stays_safe: None,
            tested: Bitboard::EMPTY,
            attacked: Bitboard::EMPTY,
        }
    }

    /// Whether the route `r` leaves the King unattacked.
    #[inline]
    fn allows(&mut self, pos: &Position, r: &Route) -> bool {
        let king = self.king;
        let to = [(r.a, r.b), (r.b, r.c), (r.c, r.a)]
            .into_iter()
            .find(|&(from, _)| king == Some(from))
            .map(|(_, to)| to);
        let lg = self.lg;
        let Some(to) = to else {
            return *self
                .stays_safe
                .get_or_insert_with(|| lg.judge(pos, &Change::NONE) == Some(true));
        };
        if !self.tested.has(to) {
            self.tested |= to.bb();
            let change = Change {
                king_to: Some(to),
                ..Change::NONE
            };
            if lg.judge(pos, &change) != Some(true) {
                self.attacked |= to.bb();
            }
        }
        !self.attacked.has(to)
    }
}

/// How a route's effect is told apart from the other routes' effects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// No other route has its effect (and it has one way to end).
    Unique,
    /// It swaps two men of different types (its third man is of one of their types), costs no
    /// castling right and leaves no en-passant target: the swapped pair (`p * 64 + q`, p < q) is
    /// its effect.
    Swap(u16),
    /// Anything else: compared by [`effect_key`].
    Keyed,
}

/// Sorts routes into [`Class`]es at one node.
struct Classifier {
    /// Where a pawn of the side to move promotes or may not stand (its first rank).
    pawn_barred: Bitboard,
    /// Squares whose edit costs a castling right now.
    rights_squares: Bitboard,
    /// Where the side's pawns may double-step from, when en passant is played.
    double_step: Bitboard,
}

impl Classifier {
    #[inline]
    fn new(pos: &Position) -> Classifier {
        let rules = pos.rules();
        let us = pos.side_to_move();
        let first = own_first_rank(rules, us);
        let first_rank = Bitboard(0xFF << (8 * first as u32));
        // the squares `rights_lost_at` names: each right's King and Rook
        let mut rights_squares = Bitboard::EMPTY;
        let rights = pos.castling_rights();
        for bit in 0..4 {
            if rights >> bit & 1 == 0 {
                continue;
            }
            let color = if bit < 2 { Color::White } else { Color::Black };
            for s in [pos.castle_rook(bit), pos.king_square(color)]
                .into_iter()
                .flatten()
            {
                rights_squares |= s.bb();
            }
        }
        Classifier {
            pawn_barred: rules.promotion_region[us.index()] | first_rank,
            rights_squares,
            double_step: if rules.en_passant {
                rules.double_step_region[us.index()]
            } else {
                Bitboard::EMPTY
            },
        }
    }

    /// The class of `r`.
    ///
    /// A route of three types without promotion changes all three squares and keeps the
    /// multiset of types, so only the rotations of its triangle can have its effect; the
    /// rotations `b c a` and `c a b` both need C to move from `c` to `a` (with the whole board
    /// or with `b` empty), so without that the route is unique. A route of two types without
    /// promotion leaves its third man's square as it was and swaps the other two; any route
    /// with that swap, the same castling rights and no en-passant target has its effect.
    #[inline]
    fn classify(&self, pos: &Position, reach: &Reaches, r: &Route) -> Class {
        let rules = pos.rules();
        let us = r.man_a.color();
        let ends_simply = |man: Piece, to: Square| {
            rules.region(us, man.kind()).has(to)
                && (man.kind() != PieceType::PAWN || !self.pawn_barred.has(to))
        };
        if !(ends_simply(r.man_a, r.b) && ends_simply(r.man_b, r.c) && ends_simply(r.man_c, r.a)) {
            return Class::Keyed;
        }
        let (ka, kb, kc) = (r.man_a.kind(), r.man_b.kind(), r.man_c.kind());
        let (p, q) = if ka == kb {
            (r.a, r.c)
        } else if ka == kc {
            (r.b, r.c)
        } else if kb == kc {
            (r.a, r.b)
        } else {
            let rotates = reach.onto[r.c.index()].has(r.a) || reach.without(pos, r.c, r.b).has(r.a);
            return if rotates { Class::Keyed } else { Class::Unique };
        };
        let touched = r.a.bb() | r.b.bb() | r.c.bb();
        // C goes straight two ranks from its double-step region: a target only when the
        // square between stays empty (a triangulation does not change the occupancy); when it
        // does not, the route is the plain swap and must be counted as one
        let ep = kc == PieceType::PAWN
            && self.double_step.has(r.c)
            && r.a.file() == r.c.file()
            && r.a.rank() - r.c.rank() == 2 * us.forward()
            && r.c
                .offset(0, us.forward())
                .is_some_and(|mid| !pos.occupied().has(mid));
        if ep || (touched & self.rights_squares).any() {
            return Class::Keyed;
        }
        let (p, q) = if p.index() < q.index() {
            (p, q)
        } else {
            (q, p)
        };
        Class::Swap((p.index() * 64 + q.index()) as u16)
    }
}

/// Direction codes: for a move of `(df, dr)` (each -7..7) at `(dr + 7) * 15 + df + 7`, the same
/// index of the move's direction (relocation::direction: the vector divided by the greatest
/// common divisor of its parts, so a line's unit step or a Knight's leap). A direction's
/// reverse has the code `224 - code`.
static DIRECTIONS: [u8; 225] = {
    let mut t = [0u8; 225];
    let mut i = 0;
    while i < 225 {
        let (df, dr) = ((i % 15) as i32 - 7, (i / 15) as i32 - 7);
        let (mut x, mut y) = (df.abs(), dr.abs());
        while y != 0 {
            let r = x % y;
            x = y;
            y = r;
        }
        let g = if x == 0 { 1 } else { x };
        t[i] = ((dr / g + 7) * 15 + df / g + 7) as u8;
        i += 1;
    }
    t
};

/// The direction code of `a -> b` ([`DIRECTIONS`]).
#[inline(always)]
fn line_or_leap(a: Square, b: Square) -> u8 {
    let (df, dr) = (b.file() - a.file(), b.rank() - a.rank());
    DIRECTIONS[((dr + 7) as usize) * 15 + (df + 7) as usize]
}

/// The code of the reverse of a direction.
#[inline(always)]
fn reverse(d: u8) -> u8 {
    224 - d
}

/// Calls `f(move, key)` for each way the men of `r` may end (promotion choices).
#[inline]
fn for_each_choice(pos: &Position, r: &Route, mut f: impl FnMut(Move, u64)) {
    let rules = pos.rules();
    let ends_a = end_types(pos, r.man_a, r.b);
    let ends_b = end_types(pos, r.man_b, r.c);
    let ends_c = end_types(pos, r.man_c, r.a);
    for &ta in ends_a.as_slice() {
        for &tb in ends_b.as_slice() {
            for &tc in ends_c.as_slice() {
                let pa = promotion(r.man_a.kind(), ta);
                let pb = promotion(r.man_b.kind(), tb);
                let pc = promotion(r.man_c.kind(), tc);
                if let Some(m) = encode(rules, r, pa, pb, pc) {
                    let us = r.man_a.color();
                    let key = effect_key(
                        pos,
                        r,
                        Piece::new(us, tc),
                        Piece::new(us, ta),
                        Piece::new(us, tb),
                    );
                    f(m, key);
                }
            }
        }
    }
}

/// The move of route `r` with the promotions of A, B and C (`None` if one cannot be encoded).
#[inline]
fn encode(
    rules: &Rules,
    r: &Route,
    pa: Option<PieceType>,
    pb: Option<PieceType>,
    pc: Option<PieceType>,
) -> Option<Move> {
    let code_b = promo_code(rules, pb)?;
    let code_c = promo_code(rules, pc)?;
    let payload = r.c.raw() as u32 | code_b << 6 | code_c << 9 | (pa.is_some() as u32) << 12;
    Some(Move::special(r.a, r.b, payload, pa.or(pb).or(pc)))
}

/// The route of a triangulation and the men it leaves on `a`, `b` and `c`.
#[inline]
fn decode(pos: &Position, m: Move) -> (Route, [Piece; 3]) {
    let p = m.payload();
    let (a, b, c) = (m.from(), m.to(), Square::new((p & 63) as u8));
    let r = Route {
        a,
        b,
        c,
        man_a: pos.piece_at(a),
        man_b: pos.piece_at(b),
        man_c: pos.piece_at(c),
    };
    let rules = pos.rules();
    let us = r.man_a.color();
    let ta = if p >> 12 & 1 == 1 {
        m.promotion_type()
    } else {
        None
    };
    let ends = |man: Piece, t: Option<PieceType>| t.map_or(man, |t| Piece::new(us, t));
    let placed = [
        ends(r.man_c, promo_of_code(rules, p >> 9 & 7)),
        ends(r.man_a, ta),
        ends(r.man_b, promo_of_code(rules, p >> 6 & 7)),
    ];
    (r, placed)
}

/// The en-passant target (64 = none) a pawn of `us` leaves by going unpromoted from `from` to
/// `to` (ruling 3), the board's occupancy being unchanged by the move.
#[inline]
fn ep_target(pos: &Position, us: Color, from: Square, to: Square) -> u64 {
    let rules = pos.rules();
    let f = us.forward();
    if !rules.en_passant
        || to.file() != from.file()
        || to.rank() - from.rank() != 2 * f
        || !rules.double_step_region[us.index()].has(from)
    {
        return 64;
    }
    match from.offset(0, f) {
        Some(mid) if !pos.occupied().has(mid) => mid.raw() as u64,
        _ => 64,
    }
}

/// An exact key of a triangle's effect, with `on_a`, `on_b`, `on_c` the men it leaves there:
/// the changed squares with their new men (in square order), the castling rights afterwards
/// and the en-passant target. Routes of one position with equal keys give one position.
#[inline]
fn effect_key(pos: &Position, r: &Route, on_a: Piece, on_b: Piece, on_c: Piece) -> u64 {
    let term = |sq: Square, before: Piece, after: Piece| -> u64 {
        if before == after {
            0
        } else {
            1 << 13 | (sq.raw() as u64) << 5 | (after.0 as u64 & 31)
        }
    };
    let mut t = [
        term(r.a, r.man_a, on_a),
        term(r.b, r.man_b, on_b),
        term(r.c, r.man_c, on_c),
    ];
    if t[0] > t[1] {
        t.swap(0, 1);
    }
    if t[1] > t[2] {
        t.swap(1, 2);
    }
    if t[0] > t[1] {
        t.swap(0, 1);
    }
    let mut rights = pos.castling_rights();
    if rights != 0 {
        rights &= !(rights_lost_at(pos, r.a) | rights_lost_at(pos, r.b) | rights_lost_at(pos, r.c));
    }
    let ep = if r.man_c.kind() == PieceType::PAWN && on_a == r.man_c {
        ep_target(pos, r.man_c.color(), r.c, r.a)
    } else {
        64
    };
    t[0] | t[1] << 14 | t[2] << 28 | (rights as u64) << 42 | ep << 46
}

/// The effect key of a triangulation.
fn key_of_move(pos: &Position, m: Move) -> u64 {
    let (r, [on_a, on_b, on_c]) = decode(pos, m);
    effect_key(pos, &r, on_a, on_b, on_c)
}

/// Of two moves with one effect, the one with the ASCII-smaller spelling. A spelling begins
/// with the names of `a` and `b` (a file letter and one rank digit: boards have at most 8
/// ranks), and two moves with one effect and the same `a` and `b` are one route with the same
/// men, so those four characters decide, read from the move without writing it.
#[inline]
fn smaller_spelling(x: Move, y: Move) -> Move {
    let name = |m: Move| {
        (
            m.from().file(),
            m.from().rank(),
            m.to().file(),
            m.to().rank(),
        )
    };
    if name(y) < name(x) {
        y
    } else {
        x
    }
}

/// Edits of a triangulation: C (maybe promoted) on `a`, A on `b`, B on `c`; each pawn's route.
pub fn edits(pos: &Position, m: Move, out: &mut EditList) {
    let (r, placed) = decode(pos, m);
    out.push(r.a, placed[0]);
    out.push(r.b, placed[1]);
    out.push(r.c, placed[2]);
    for (man, from, to, now) in [
        (r.man_a, r.a, r.b, placed[1]),
        (r.man_b, r.b, r.c, placed[2]),
        (r.man_c, r.c, r.a, placed[0]),
    ] {
        if man.kind() == PieceType::PAWN && now == man {
            out.pawn_route(from, to);
        }
    }
    out.no_pawn_route();
}

/// Canonical spelling `ab,bc,ca`, each promotion letter on its man's leg.
pub fn write(pos: &Position, m: Move, out: &mut MoveText) {
    let (r, placed) = decode(pos, m);
    let rules = pos.rules();
    for (from, to, man, now) in [
        (r.a, r.b, r.man_a, placed[1]),
        (r.b, r.c, r.man_b, placed[2]),
        (r.c, r.a, r.man_c, placed[0]),
    ] {
        out.push_leg(from, to);
        if now != man {
            out.push(rules.letter(now.kind()));
        }
    }
}
