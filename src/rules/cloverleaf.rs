//! Cloverleaf and Rotary (Modest Proposals, Tony Paletta; rulings: shared/rules/
//! modest-proposals-1.md §8, CL-1..CL-7).
//!
//! The board has a topology of its own, which the Bishop, Rook, Queen and King follow (the
//! builder switches their ordinary moves off through `Rules::quiet_off` and
//! `Rules::captures_off`; Knights and pawns stay ordinary). It is data, two small tables:
//!
//! * [`LINKS`], eight one-way links (square + direction to square + direction; a3 west to c1
//!   north and back, h3/f1, a6/c8, h6/f8) for orthogonal moves: a Rook or Queen sliding past
//!   the link's edge square re-enters at its entry square and slides on in the new direction,
//!   at most once per move (CL-2). For the King each linked pair is adjacent.
//! * the centre ring d4 e4 e5 d5 for diagonal moves (`Cloverleaf::ring_next`, [`EXITS`]): a
//!   diagonal never continues past a centre square; one that arrives on an empty one may stop,
//!   rotate through up to three further empty centre squares (counter-clockwise d4-e4-e5-d5,
//!   or with `cloverleafRotation = cw`, Rotary's CL-4, clockwise d4-d5-e5-e4), stopping on any,
//!   and exit from any of them along its main diagonal toward its corner (d4 a1, e4 h1, e5 h8,
//!   d5 a8), an ordinary slide. A first centre square holding an enemy man is captured; nobody
//!   is captured on a rotation square (CL-3).
//!
//! The mover's origin counts as empty on its own path, so a path may cross it; ending on it
//! would be a null move and is not generated. Every path to a square has the same effect, so
//! each man's destinations are computed as one bitboard and pushed once as `Move::normal`
//! (notation: plain UCI, §8.3). The moves differ from every other move of the position
//! (`moves_are_distinct`).
//!
//! Check (CL-5): a square is attacked when an enemy man reaches it with these moves (pawns and
//! Knights orthodox, the King including its links). Attackers' destination sets are computed
//! forward (rotation is one-way, so the relation is not symmetric); a side has few sliders.
//! This is the check relation for every purpose (`Hooks::CHECK`): legality, castling (CL-7,
//! with `castlingKingSteps = 2` putting Black's King d8 on f8 or b8), set-up validation.

use crate::geometry::attacks::{bishop_attacks, rook_attacks, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::PieceType;
use crate::position::{
    Built, Hooks, Legality, Mechanic, MechanicSpec, Position, ShortcutMasks, StateLayout,
};
use crate::variant::{generator_is_orthodox, Rules, Section};

/// Registration: `specialMoves = cloverleaf` and its rotation direction (CL-3, CL-4).
pub const SPEC: MechanicSpec =
    MechanicSpec::chosen(&["specialMoves", "cloverleafRotation"], "cloverleaf", build);

/// The Cloverleaf mechanic: the rotation direction of the centre ring.
#[derive(Clone, Copy, Debug)]
pub struct Cloverleaf {
    /// For each ring position (index in [`RING`]), the ring position the rotation goes to.
    ring_next: [usize; 4],
}

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let clockwise = ctx.two_way("cloverleafRotation", "ccw", "cw")?;
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    if !generator_is_orthodox(rules) {
        return Err(ctx.err(
            "specialMoves",
            "cloverleaf needs orthodox chess's board and men (its links and centre are \
             defined on the 8x8 board for the orthodox Bishop, Rook, Queen and King)"
                .into(),
        ));
    }
    let types = [
        PieceType::BISHOP,
        PieceType::ROOK,
        PieceType::QUEEN,
        PieceType::KING,
    ]
    .iter()
    .fold(0u16, |m, t| m | 1 << t.0);
    rules.quiet_off |= types;
    rules.captures_off |= types;
    let ring_next = if clockwise {
        [3, 0, 1, 2]
    } else {
        [1, 2, 3, 0]
    };
    Ok(Some(Box::new(Cloverleaf { ring_next })))
}

// ---------------------------------------------------------------------------------------------
// The topology, as data.

/// A direction: (file step, rank step).
type Dir = (i8, i8);

const NORTH: Dir = (0, 1);
const SOUTH: Dir = (0, -1);
const EAST: Dir = (1, 0);
const WEST: Dir = (-1, 0);

/// One link (CL-2): moving `dir` past `edge` re-enters at `entry` moving `then`.
#[derive(Clone, Copy, Debug)]
pub struct Link {
    /// The last square before the link.
    pub edge: Square,
    /// The direction of travel onto and past it.
    pub dir: Dir,
    /// The first square after the link.
    pub entry: Square,
    /// The direction of travel from there.
    pub then: Dir,
}

const fn sq(file: u8, rank: u8) -> Square {
    Square::new(rank * 8 + file)
}

const A3: Square = sq(0, 2);
const C1: Square = sq(2, 0);
const H3: Square = sq(7, 2);
const F1: Square = sq(5, 0);
const A6: Square = sq(0, 5);
const C8: Square = sq(2, 7);
const H6: Square = sq(7, 5);
const F8: Square = sq(5, 7);

/// The eight links of CL-2's table.
pub const LINKS: [Link; 8] = [
    link(A3, WEST, C1, NORTH),
    link(C1, SOUTH, A3, EAST),
    link(H3, EAST, F1, NORTH),
    link(F1, SOUTH, H3, WEST),
    link(A6, WEST, C8, SOUTH),
    link(C8, NORTH, A6, EAST),
    link(H6, EAST, F8, SOUTH),
    link(F8, NORTH, H6, WEST),
];

const fn link(edge: Square, dir: Dir, entry: Square, then: Dir) -> Link {
    Link {
        edge,
        dir,
        entry,
        then,
    }
}

/// The centre ring in counter-clockwise order (CL-3): d4 e4 e5 d5.
pub const RING: [Square; 4] = [sq(3, 3), sq(4, 3), sq(4, 4), sq(3, 4)];

/// The centre squares.
const CENTRE: Bitboard = Bitboard(1 << 27 | 1 << 28 | 1 << 35 | 1 << 36);

/// Each ring square's exit direction, toward its own corner: d4 a1, e4 h1, e5 h8, d5 a8.
pub const EXITS: [Dir; 4] = [(-1, -1), (1, -1), (1, 1), (-1, 1)];

/// The squares from `from` (excluded) in direction `d` to the board's edge.
const fn ray(from: Square, d: Dir) -> Bitboard {
    let mut bb = 0u64;
    let (mut f, mut r) = (from.file() + d.0, from.rank() + d.1);
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        bb |= 1 << (r * 8 + f);
        f += d.0;
        r += d.1;
    }
    Bitboard(bb)
}

/// Per link: the squares a slide in the link's direction starts from to reach its edge (the
/// edge itself and the squares behind it on its line).
static FEEDERS: [Bitboard; 8] = feeder_table();
/// Per link: the squares after its entry square in its new direction.
static BEYOND: [Bitboard; 8] = beyond_table();
/// Per ring position: the exit ray's squares.
static EXIT_RAYS: [Bitboard; 4] = exit_table();
/// Per square: the squares linked to it, which count as adjacent for the King.
static KING_LINKS: [Bitboard; 64] = king_link_table();

/// Squares on which a slide may begin that uses a link: ranks 3 and 6, files c and f.
const LINK_LINES: Bitboard = Bitboard(
    0x0000_0000_00FF_0000 | 0x0000_FF00_0000_0000 | 0x0404_0404_0404_0404 | 0x2020_2020_2020_2020,
);

const fn feeder_table() -> [Bitboard; 8] {
    let mut t = [Bitboard::EMPTY; 8];
    let mut i = 0;
    while i < 8 {
        let l = LINKS[i];
        t[i] = Bitboard(ray(l.edge, (-l.dir.0, -l.dir.1)).0 | 1 << l.edge.index());
        i += 1;
    }
    t
}

const fn beyond_table() -> [Bitboard; 8] {
    let mut t = [Bitboard::EMPTY; 8];
    let mut i = 0;
    while i < 8 {
        t[i] = ray(LINKS[i].entry, LINKS[i].then);
        i += 1;
    }
    t
}

const fn exit_table() -> [Bitboard; 4] {
    let mut t = [Bitboard::EMPTY; 4];
    let mut i = 0;
    while i < 4 {
        t[i] = ray(RING[i], EXITS[i]);
        i += 1;
    }
    t
}

const fn king_link_table() -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < 8 {
        let l = LINKS[i];
        t[l.edge.index()] = Bitboard(t[l.edge.index()].0 | 1 << l.entry.index());
        i += 1;
    }
    t
}

/// The ring position of a centre square.
#[inline(always)]
fn ring_index(s: Square) -> usize {
    match s.index() {
        27 => 0,
        28 => 1,
        36 => 2,
        _ => 3,
    }
}

/// The squares a King on `s` reaches: its orthodox neighbours and its linked square.
#[inline(always)]
pub fn king_reach(s: Square) -> Bitboard {
    TABLES.king[s.index()] | KING_LINKS[s.index()]
}

/// The squares an orthogonal slider on `from` reaches with occupancy `occ` (which may include
/// `from`: the origin counts as empty on its own path): the empty squares of its paths and the
/// first occupied square of each, the origin included when a path crosses it.
#[inline]
pub fn orth_reach(from: Square, occ: Bitboard) -> Bitboard {
    let occ = occ.without(from);
    let straight = rook_attacks(from, occ);
    let mut reach = straight;
    if LINK_LINES.has(from) {
        for (i, l) in LINKS.iter().enumerate() {
            // the straight slide reaches the edge empty (or starts on it) and steps past it
            let edge_open = straight.has(l.edge) && !occ.has(l.edge);
            if FEEDERS[i].has(from) && (from == l.edge || edge_open) {
                reach |= l.entry.bb();
                if !occ.has(l.entry) {
                    reach |= rook_attacks(l.entry, occ) & BEYOND[i];
                }
            }
        }
    }
    reach
}

impl Cloverleaf {
    /// The squares a diagonal slider on `from` reaches with occupancy `occ` (see
    /// [`orth_reach`]): straight diagonals stopping at the first centre square, and from each
    /// empty one reached the rotation and the exits (CL-3).
    #[inline]
    pub fn diag_reach(&self, from: Square, occ: Bitboard) -> Bitboard {
        let occ = occ.without(from);
        let mut reach = bishop_attacks(from, occ | CENTRE);
        let entries = reach & CENTRE & !occ;
        for c in entries {
            let mut at = ring_index(c);
            reach |= bishop_attacks(c, occ) & EXIT_RAYS[at];
            for _ in 0..3 {
                at = self.ring_next[at];
                let r = RING[at];
                if occ.has(r) {
                    break;
                }
                reach |= r.bb() | (bishop_attacks(r, occ) & EXIT_RAYS[at]);
            }
        }
        reach
    }

    /// The squares a man of type `t` (Bishop, Rook, Queen or King) on `from` reaches with
    /// occupancy `occ`.
    #[inline]
    fn reach(&self, t: PieceType, from: Square, occ: Bitboard) -> Bitboard {
        match t {
            PieceType::KING => king_reach(from),
            PieceType::ROOK => orth_reach(from, occ),
            PieceType::BISHOP => self.diag_reach(from, occ),
            _ => orth_reach(from, occ) | self.diag_reach(from, occ),
        }
    }

    /// Calls `out(t, from, dests)` for each man of the side to move that follows the topology.
    #[inline]
    fn each_man(&self, pos: &Position, mut out: impl FnMut(PieceType, Square, Bitboard)) {
        let us = pos.side_to_move();
        let occ = pos.occupied();
        let ours = pos.pieces(us);
        for t in TOPOLOGY_TYPES {
            for from in pos.pieces_of(us, t) {
                out(t, from, self.reach(t, from, occ) & !ours & !from.bb());
            }
        }
    }

    /// Whether a man of `by` on `present` attacks `sq` with occupancy `occ`.
    #[inline]
    fn attacks(
        &self,
        pos: &Position,
        sq: Square,
        by: Color,
        occ: Bitboard,
        present: Bitboard,
    ) -> bool {
        let men = pos.pieces(by) & present & occ;
        let i = sq.index();
        if (TABLES.pawn[by.flip().index()][i] & men & pos.kind(PieceType::PAWN)).any()
            || (TABLES.knight[i] & men & pos.kind(PieceType::KNIGHT)).any()
            || (king_reach(sq) & men & pos.kind(PieceType::KING)).any()
        {
            return true;
        }
        let queens = pos.kind(PieceType::QUEEN) & men;
        let orth = (pos.kind(PieceType::ROOK) & men) | queens;
        let diag = (pos.kind(PieceType::BISHOP) & men) | queens;
        // straight lines first: a straight orthogonal path is always one, a straight diagonal
        // one if no centre square lies strictly between
        if (rook_attacks(sq, occ) & orth).any() || (bishop_attacks(sq, occ | CENTRE) & diag).any() {
            return true;
        }
        if LINK_LINES.has(sq) && orth.any() && orth.into_iter().any(|s| orth_reach(s, occ).has(sq))
        {
            return true;
        }
        DIAG_TARGETS.has(sq)
            && diag.any()
            && diag.into_iter().any(|s| self.diag_reach(s, occ).has(sq))
    }

    /// Whether the side to move's King stays unattacked after an ordinary move that empties
    /// `from` and fills `to` (capturing what stood there), and also empties `gone` (en passant).
    #[inline]
    fn safe_after(&self, pos: &Position, from: Square, to: Square, gone: Bitboard) -> bool {
        let us = pos.side_to_move();
        let Some(k) = pos.king_square(us) else {
            return true;
        };
        let k = if k == from { to } else { k };
        let occ = (pos.occupied().without(from) | to.bb()) & !gone;
        !self.attacks(pos, k, us.flip(), occ, !(to.bb() | gone))
    }

    /// The legality masks of the side to move: `None` in check (every move is judged alone);
    /// otherwise moves of men from `test_from` (the King, and men whose leaving would open a
    /// path to the King) are judged alone, and the others are legal.
    fn masks(&self, pos: &Position) -> Option<ShortcutMasks> {
        let us = pos.side_to_move();
        let them = us.flip();
        let k = pos.king_square(us)?;
        let occ = pos.occupied();
        if self.attacks(pos, k, them, occ, Bitboard::FULL) {
            return None;
        }
        // a path opened by a man leaving is blocked by it now: its first blocked square is
        // that man, which the slider then reaches, unless it stands on a rotation square
        let theirs = pos.pieces(them);
        let queens = pos.kind(PieceType::QUEEN) & theirs;
        let orth = (pos.kind(PieceType::ROOK) & theirs) | queens;
        let diag = (pos.kind(PieceType::BISHOP) & theirs) | queens;
        let mut reached = Bitboard::EMPTY;
        for s in orth {
            reached |= orth_reach(s, occ);
        }
        for s in diag {
            reached |= self.diag_reach(s, occ);
        }
        if diag.any() {
            reached |= CENTRE;
        }
        let mut test_from = k.bb();
        for f in reached & pos.pieces(us) & !k.bb() {
            if self.attacks(pos, k, them, occ.without(f), Bitboard::FULL) {
                test_from |= f.bb();
            }
        }
        Some(ShortcutMasks {
            test_from,
            test_to: Bitboard::EMPTY,
            target: Bitboard::FULL,
        })
    }

    /// The number of legal moves of its men, judged by `masks` where they can be.
    fn count(&self, pos: &Position, masks: &ShortcutMasks) -> usize {
        let mut n = 0;
        self.each_man(pos, |_, from, dests| {
            if masks.test_from.has(from) {
                n += dests
                    .into_iter()
                    .filter(|&to| self.safe_after(pos, from, to, Bitboard::EMPTY))
                    .count();
            } else {
                n += (dests & masks.target & !masks.test_to).count() as usize;
            }
        });
        n
    }
}

/// The types whose moves follow the topology, in generation order.
const TOPOLOGY_TYPES: [PieceType; 4] = [
    PieceType::BISHOP,
    PieceType::ROOK,
    PieceType::QUEEN,
    PieceType::KING,
];

/// Squares a diagonal slider can reach only through the centre: the centre and the four exit
/// rays (the two long diagonals).
const DIAG_TARGETS: Bitboard = Bitboard(0x8040_2010_0804_0201 | 0x0102_0408_1020_4080);

impl Mechanic for Cloverleaf {
    /// A man moves from one square to another, by powers the position gives it.
    fn moves_fit_chess_guis(&self) -> bool {
        true
    }

    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES
            .with(Hooks::ATTACK)
            .with(Hooks::CHECK)
            .with(Hooks::MOBILITY)
    }

    /// The destinations `color`'s Bishops, Rooks, Queens and King have through the links and
    /// the centre ring, minus those the orthodox lines would give them (the centre also cuts
    /// diagonals short).
    fn mobility(&self, pos: &Position, color: Color) -> i32 {
        let occ = pos.occupied();
        let free = !pos.pieces(color);
        let mut squares = 0;
        for t in TOPOLOGY_TYPES {
            for from in pos.pieces_of(color, t) {
                let here = self.reach(t, from, occ) & free & !from.bb();
                let orthodox = match t {
                    PieceType::KING => TABLES.king[from.index()],
                    PieceType::ROOK => rook_attacks(from, occ),
                    PieceType::BISHOP => bishop_attacks(from, occ),
                    _ => rook_attacks(from, occ) | bishop_attacks(from, occ),
                } & free;
                squares += here.count() as i32 - orthodox.count() as i32;
            }
        }
        squares
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        super::relation_conflict("cloverleaf", other)
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        self.each_man(pos, |_, from, dests| {
            for to in dests {
                list.push(Move::normal(from, to));
            }
        });
    }

    fn moves_are_distinct(&self) -> bool {
        true
    }

    fn generates_legal(&self) -> bool {
        true
    }

    fn generate_legal(&self, pos: &mut Position, _lg: &Legality, list: &mut MoveList) {
        let p: &Position = pos;
        let masks = self.masks(p);
        self.each_man(p, |_, from, dests| {
            for to in dests {
                let sure = masks.is_some_and(|k| !k.test_from.has(from));
                if sure || self.safe_after(p, from, to, Bitboard::EMPTY) {
                    list.push(Move::normal(from, to));
                }
            }
        });
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        let masks = lg.masks();
        Some(self.count(pos, masks))
    }

    fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        self.attacks(pos, sq, by, pos.occupied(), Bitboard::FULL)
    }

    fn attacked_with(
        &self,
        pos: &Position,
        sq: Square,
        by: Color,
        occ: Bitboard,
        removed: Bitboard,
    ) -> Option<bool> {
        Some(self.attacks(pos, sq, by, occ, !removed))
    }

    fn judge_ordinary(&self, pos: &Position, _lg: &Legality, m: Move) -> Option<bool> {
        match m.kind() {
            MoveKind::Normal => Some(self.safe_after(pos, m.from(), m.to(), Bitboard::EMPTY)),
            MoveKind::EnPassant => {
                let victim = Square::from_coords(m.to().file(), m.from().rank())?;
                Some(self.safe_after(pos, m.from(), m.to(), victim.bb()))
            }
            _ => None,
        }
    }

    fn shortcut(&self, pos: &Position, masks: &mut ShortcutMasks) -> bool {
        match self.masks(pos) {
            Some(m) => {
                *masks = m;
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_follow_cl2_and_cl3() {
        let s = |n: &str| Square::parse(n).unwrap();
        assert_eq!(KING_LINKS[s("a3").index()], s("c1").bb());
        assert_eq!(KING_LINKS[s("f8").index()], s("h6").bb());
        assert_eq!(FEEDERS[0].count(), 8);
        assert!(FEEDERS[1].has(s("c8")) && FEEDERS[1].has(s("c1")));
        assert_eq!(BEYOND[0], ray(s("c1"), NORTH));
        assert!(EXIT_RAYS[1].has(s("h1")) && EXIT_RAYS[3].has(s("a8")));
        for (i, r) in RING.iter().enumerate() {
            assert!(CENTRE.has(*r));
            assert_eq!(ring_index(*r), i);
        }
    }
}
