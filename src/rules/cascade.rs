//! Cascade (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-1.md §0, §5).
//!
//! Instead of an ordinary move a man (the initiator) may move onto or past friendly men, which
//! are relocated ahead of it in the same direction (CS-1..CS-7, ruling H2, the "push train"):
//! * a slider (its rook and bishop lines) moves along a line whose first occupied square holds a
//!   friend, and stops on that square or on any square beyond it (`cascadeInitiator = first`:
//!   only on it, the H1 reading). Every friend it lands on or passes is pushed ahead along the
//!   line, and a pushed man that lands on or passes a further friend pushes that one in turn;
//!   pushed men keep their order, end on distinct squares beyond the initiator's, and may slide
//!   any distance, never onto or past an enemy man, never off the board;
//! * a leaper or stepper (its leaps: Knight, King) lands on a friend with vector `v`; that man
//!   moves exactly `v`, and so on along the chain until one lands on an empty square (an enemy
//!   or the board's edge in the way makes the move illegal);
//! * a pawn approaches by its straight step, its double step or its diagonal-forward step; each
//!   relocated man then moves exactly one square in the pawn's direction of travel (straight
//!   forward after a straight or double step, diagonally forward after a diagonal one).
//!
//! A pushed pawn never moves backward; one that reaches its last rank promotes (each choice a
//! move). Cascades never capture and may be played in check; only the final position is tested.
//!
//! Notation (§5.3): the initiator's leg, then one leg per pushed man, from its square to its
//! final square: next comes the man still standing where the previous leg ended (it was lifted),
//! else the unmoved train man nearest the initiator. A promotion letter goes on the promoting
//! pawn's leg. Every cascade has one effect of its own (the net change of the board determines
//! the line, the initiator as its rearmost man and each man's final square, since men keep
//! their order), and its notation is one string, so a cascade has exactly one spelling, and no
//! cascade equals an ordinary move (it moves at least two men, and a one-leg route to its
//! effect would have to pass the men it pushes).
//!
//! Move encoding: `from` = the initiator's square, `to` = its final square, `promo` = the
//! promotion of the frontmost pushed man (only the frontmost can reach the last rank), and the
//! payload
//!
//! ```text
//!    12    11        7  6                     0
//! +-------+-----------+------------------------+
//! | chain | 0 (spare) | final squares (slider) |
//! +-------+-----------+------------------------+
//! ```
//!
//! For a slider (chain bit clear), bit `i` is set when a pushed man ends `i + 1` squares beyond
//! the initiator's final square along the line; the k-th pushed man is the k-th friendly man on
//! the line, since the men keep their order. A leaper's or pawn's chain (chain bit set) is
//! determined by its first leg.
//!
//! Edits are net (one per square whose content changes, at most the eight squares of a line),
//! plus any leg square that carries a castling right, so rights go with the men as the generic
//! square masks say (§0.4). En passant follows README ruling 3: every pawn of the mover that
//! moved is followed from its square to its final square (`EditList::pawn_route`), so a Queen
//! d1-d2 pushing the pawn d2 to d4 leaves the target d3 (CS-7).
//!
//! Legality without make/unmake: a cascade captures nothing, so after it the King is attacked
//! exactly when the enemy men attack the King's final square over the new occupancy. On
//! orthodox data, when the side is not in check, the King stays where it is and off the line
//! the men moved along, a cascade is illegal exactly when it empties the square of a pinned
//! man (a line through the King crosses the cascade's line once, and filled squares only
//! block).

use super::relocation::{
    approach_targets, direction, end_types, pawns_near_promotion, promotion, PawnApproach,
};
use crate::geometry::attacks::{between, bishop_attacks, line, rook_attacks};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::generic;
use crate::moves::{Move, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{
    legal_when_played, Built, Change, EditList, Hooks, Legality, Mechanic, MechanicSpec, Position,
    StateLayout,
};
use crate::rules::rights_lost_at;
use crate::variant::{generator_is_orthodox, Rules, Section};

/// Registration: `specialMoves = cascade` and its option `cascadeInitiator`.
pub const SPEC: MechanicSpec =
    MechanicSpec::chosen(&["specialMoves", "cascadeInitiator"], "cascade", build);

/// The Cascade mechanic and its settings.
#[derive(Clone, Copy, Debug)]
pub struct Cascade {
    /// The H1 reading (`cascadeInitiator = first`): a sliding initiator stops on the first
    /// occupied square of its line.
    stops: bool,
    /// The data is orthodox chess (up to castling): legal cascades are listed and counted
    /// without make/unmake.
    fast: bool,
}

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let stops = ctx.two_way("cascadeInitiator", "beyond", "first")?;
    SPEC.made_if_chosen(
        ctx,
        Cascade {
            stops,
            fast: generator_is_orthodox(rules),
        },
    )
}

impl Mechanic for Cascade {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        enumerate(pos, self.stops, &mut Pseudo(list));
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        edits(pos, m, out);
    }

    fn write_move(&self, pos: &Position, m: Move, out: &mut MoveText) {
        write(pos, m, out);
    }

    /// A cascade has one spelling (see the module notes), and no cascade spells an ordinary
    /// move; `parse_move` has already compared the canonical spelling, so this is the same test
    /// for callers that ask directly.
    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        m.kind() == crate::moves::MoveKind::Special && super::parse_legs(pos, s).is_some() && {
            let mut t = MoveText::new();
            write(pos, m, &mut t);
            t.as_str() == s
        }
    }

    fn moves_are_distinct(&self) -> bool {
        self.fast
    }

    fn generates_legal(&self) -> bool {
        self.fast
    }

    fn generate_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) {
        if lg.decides() {
            enumerate(pos, self.stops, &mut Legal { list, lg });
            return;
        }
        let mut pseudo = MoveList::new();
        enumerate(pos, self.stops, &mut Pseudo(&mut pseudo));
        for &m in pseudo.iter() {
            if legal_when_played(pos, m) {
                list.push(m);
            }
        }
    }

    /// Cascades never capture: the noisy ones are those that promote, and only a push train
    /// with one of our pawns on its line, or a chain, can.
    fn generate_noisy_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) -> bool {
        if !self.fast || !lg.decides() {
            return false;
        }
        enumerate(pos, self.stops, &mut NoisyLegal { list, lg });
        true
    }

    /// Every leg's man leaves its square and stands on its end (a cascade never captures).
    fn change(&self, pos: &Position, m: Move) -> Option<Change> {
        let r = route(pos, m);
        let (mut left, mut arrived, mut king_to) = (Bitboard::EMPTY, Bitboard::EMPTY, None);
        for &(from, to, man) in r.legs() {
            left |= from.bb();
            arrived |= to.bb();
            if man.kind() == PieceType::KING {
                king_to = Some(to);
            }
        }
        Some(Change::net(pos, left, arrived, king_to))
    }

    fn captures(&self, _pos: &Position, _m: Move) -> Option<bool> {
        Some(false)
    }

    /// Cascades never capture; on orthodox data one promotes only a pawn that a chain lifts at
    /// most two ranks, or that a push train moves along its file or a forward diagonal (no
    /// enemy man in the way), into the promotion zone.
    fn may_be_noisy(&self, pos: &Position) -> bool {
        !self.fast || may_promote(pos)
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        if !self.fast || !lg.decides() {
            return None;
        }
        let (king, in_check) = (lg.king(), lg.in_check(pos));
        let mut count = Count {
            n: 0,
            lg,
            king,
            in_check,
        };
        enumerate(pos, self.stops, &mut count);
        Some(count.n)
    }
}

/// Whether a cascade of the side to move may promote a pawn, on orthodox data (promotion on
/// the last rank): a pawn within two ranks of it (a chain lifts a man at most a Knight's two
/// ranks), or a push train that can carry a pawn along its file or a forward diagonal to the
/// last rank: a friendly slider of that line behind the pawn and no enemy man from the slider
/// to the last rank (a train never passes one).
fn may_promote(pos: &Position) -> bool {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let pawns = pos.pieces_of(us, PieceType::PAWN);
    if pawns.is_empty() {
        return false;
    }
    let last = if us == Color::White { 7 } else { 0 };
    let last_rank = rules.shape.rank_bb(last);
    if rules.promotion_region[us.index()] != last_rank {
        return true;
    }
    if (pawns & last_rank).any() || pawns_near_promotion(pos, pawns, 2) {
        return true;
    }
    let f = us.forward();
    let theirs = pos.pieces(us.flip());
    let queens = pos.pieces_of(us, PieceType::QUEEN);
    let orthogonal = pos.pieces_of(us, PieceType::ROOK) | queens;
    let diagonal = pos.pieces_of(us, PieceType::BISHOP) | queens;
    // only a pawn on a file of an orthogonal slider or a diagonal of a diagonal one
    let mut lines = Bitboard::EMPTY;
    for s in orthogonal {
        lines |= Bitboard::FILE_A.shift(s.file());
    }
    for s in diagonal {
        lines |= bishop_attacks(s, Bitboard::EMPTY);
    }
    (pawns & lines).into_iter().any(|p| {
        let k = (last - p.rank()).abs();
        [(0, orthogonal), (-1, diagonal), (1, diagonal)]
            .into_iter()
            .any(|(df, sliders)| {
                let Some(z) = p.offset(df * k, f * k) else {
                    return false;
                };
                ((between(p, z) | z.bb()) & theirs).is_empty()
                    && (sliders & line(p, z))
                        .into_iter()
                        .any(|s| between(s, z).has(p) && (between(s, p) & theirs).is_empty())
            })
    })
}

/// Payload bit of a leaper's or pawn's chain.
const CHAIN: u32 = 1 << 12;

// ---------------------------------------------------------------------------------------------
// Generation

/// Where enumerated cascades go: `base` is the move without promotion, `ends` the types its
/// frontmost man may end as (`own`: that man's type; each other type is a promotion).
trait Sink: Sized {
    fn add(&mut self, pos: &Position, base: Move, ends: &[PieceType], own: PieceType, ch: &Change);

    /// The push trains of the slider on `o` along the line through its first friend `first`
    /// ([`slide_cascades`]).
    #[inline]
    fn line(&mut self, pos: &Position, o: Square, first: Square, max: u8, stops: bool) {
        slide_cascades(pos, o, first, max, stops, self);
    }
}

/// Each end type of the frontmost man as a move.
#[inline]
fn each_move(base: Move, ends: &[PieceType], own: PieceType, mut f: impl FnMut(Move)) {
    for &t in ends {
        f(Move::special(
            base.from(),
            base.to(),
            base.payload(),
            promotion(own, t),
        ));
    }
}

/// Every cascade, pseudo-legal.
struct Pseudo<'a>(&'a mut MoveList);

impl Sink for Pseudo<'_> {
    #[inline]
    fn add(&mut self, _: &Position, base: Move, ends: &[PieceType], own: PieceType, _: &Change) {
        each_move(base, ends, own, |m| self.0.push(m));
    }
}

/// The legal cascades.
struct Legal<'a> {
    list: &'a mut MoveList,
    lg: &'a Legality,
}

impl Sink for Legal<'_> {
    #[inline]
    fn add(&mut self, pos: &Position, base: Move, ends: &[PieceType], own: PieceType, ch: &Change) {
        if self.lg.judge(pos, ch) == Some(true) {
            each_move(base, ends, own, |m| self.list.push(m));
        }
    }
}

/// The legal cascades that promote, in the order [`Legal`] lists them.
struct NoisyLegal<'a> {
    list: &'a mut MoveList,
    lg: &'a Legality,
}

impl Sink for NoisyLegal<'_> {
    #[inline]
    fn add(&mut self, pos: &Position, base: Move, ends: &[PieceType], own: PieceType, ch: &Change) {
        if ends.iter().any(|&t| t != own) && self.lg.judge(pos, ch) == Some(true) {
            each_move(base, ends, own, |m| {
                if m.promotion_type().is_some() {
                    self.list.push(m)
                }
            });
        }
    }

    /// Only the frontmost pushed man may promote: a line without one of our pawns that can
    /// end in its promotion region lists nothing.
    #[inline]
    fn line(&mut self, pos: &Position, o: Square, first: Square, max: u8, stops: bool) {
        let d = direction(o, first);
        let l = Line::new(pos, o, d);
        let us = pos.side_to_move();
        let zone = pos.rules().promotion_region[us.index()];
        let promotes = !backward(d, us)
            && l.friends[..l.nf].iter().any(|&f| {
                let f = f as usize;
                pos.piece_at(l.sq[f]).kind() == PieceType::PAWN
                    && (f + 1..l.enemy).any(|u| zone.has(l.sq[u]))
            });
        if promotes {
            slide_cascades(pos, o, first, max, stops, self);
        }
    }
}

/// The number of legal cascades.
struct Count<'a> {
    n: usize,
    lg: &'a Legality,
    king: Option<Square>,
    in_check: bool,
}

impl Sink for Count<'_> {
    #[inline]
    fn add(&mut self, pos: &Position, _: Move, ends: &[PieceType], _: PieceType, ch: &Change) {
        if self.lg.judge(pos, ch) == Some(true) {
            self.n += ends.len();
        }
    }

    /// Counted without listing (see [`count_trains`]) unless the side is in check or a man of
    /// the line is pinned while the King is off the line; those lines are judged train by
    /// train.
    #[inline]
    fn line(&mut self, pos: &Position, o: Square, first: Square, max: u8, stops: bool) {
        let d = direction(o, first);
        let l = Line::new(pos, o, d);
        let on_line = self.king.is_some_and(|k| line(o, first).has(k));
        let mut men = o.bb();
        for &f in &l.friends[..l.nf] {
            men |= l.sq[f as usize].bb();
        }
        if self.in_check
            || self.king.is_none()
            || max != 0
            || (!on_line && (men & self.lg.pinned()).any())
        {
            slide_cascades(pos, o, first, max, stops, self);
            return;
        }
        let king = (0..l.nf).find(|&k| Some(l.sq[l.friends[k] as usize]) == self.king);
        let them = pos.side_to_move().flip();
        let safe = |u: usize, front: bool| king_safe(pos, o, &l, u, front, them);
        self.n += count_trains(pos, &l, d, stops, king, safe);
    }
}

/// Whether the King, pushed along the line `l` to index `u`, is safe there: as the train's
/// frontmost man (`front`) or with a pushed man ahead of it.
///
/// Lines through its new square other than `l` keep their men; along `l` the square behind it
/// holds one of ours (the previous man or the initiator), and ahead of it either the next
/// pushed man or, when it is the frontmost, the line as it stood (the men beyond it are not
/// pushed). So the test is the attack relation over the present occupancy with those squares
/// filled.
fn king_safe(pos: &Position, o: Square, l: &Line, u: usize, front: bool, them: Color) -> bool {
    let behind = if u == 0 { o } else { l.sq[u - 1] };
    let mut occ = pos.occupied() | l.sq[u].bb() | behind.bb();
    if !front && u + 1 < l.enemy {
        occ |= l.sq[u + 1].bb();
    }
    !generic::attacked_with(pos, l.sq[u], them, occ)
}

/// The number of legal push trains (promotions counted) on the line `l` in direction `d`, on
/// orthodox data, for a side not in check whose men on the line are not pinned unless its King
/// is on the line: then every train is legal except where it pushes the King to a square that
/// `safe` rules out (friend `king` is the King; see [`king_safe`] and the module notes).
///
/// `g[lo]` is the number of ways to place friend `j` and those it pushes, given that the
/// previous man (or the initiator) ended on index `lo`; friends are placed from the farthest.
fn count_trains(
    pos: &Position,
    l: &Line,
    d: (i8, i8),
    stops: bool,
    king: Option<usize>,
    safe: impl Fn(usize, bool) -> bool,
) -> usize {
    let rules = pos.rules();
    let e = l.enemy;
    let mut next = [0usize; 9];
    for j in (0..l.nf).rev() {
        let f = l.friends[j] as usize;
        let man = pos.piece_at(l.sq[f]);
        let pawn = man.kind() == PieceType::PAWN;
        let is_king = king == Some(j);
        let mut g = [0usize; 9];
        if !(pawn && backward(d, man.color())) {
            let zone = rules.promotion_region[man.color().index()];
            let mut sum = 0;
            for u in (f + 1..e).rev() {
                let more = j + 1 < l.nf && l.friends[j + 1] as usize <= u;
                let ways = if more {
                    next[u]
                } else if pawn && zone.has(l.sq[u]) {
                    rules.promotion_types.len()
                } else {
                    1
                };
                // the King's square is judged only where a train can put it
                if ways > 0 && (!is_king || safe(u, !more)) {
                    sum += ways;
                }
                g[u - 1] = sum;
            }
        }
        next = g;
    }
    let start = l.friends[0] as usize;
    let last = if stops { start + 1 } else { e };
    (start..last.min(e)).map(|ti| next[ti]).sum()
}

/// Whether a pawn of `color` moving by `v` would move backward (CS-4).
#[inline(always)]
fn backward(v: (i8, i8), color: Color) -> bool {
    v.1 * color.forward() < 0
}

/// Whether `man` may stand on `p` as it is (no promotion): where a pushed man that is not the
/// frontmost, or an initiator, ends.
#[inline]
fn stands_as_is(pos: &Position, man: Piece, p: Square) -> bool {
    end_types(pos, man, p).as_slice().first() == Some(&man.kind())
}

/// Feeds every pseudo-legal cascade of the side to move to `sink`.
fn enumerate<S: Sink>(pos: &Position, stops: bool, sink: &mut S) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let own = pos.pieces(us);
    let occ = pos.occupied();
    for o in own {
        let t = pos.piece_at(o).kind();
        if t == PieceType::PAWN {
            let f = us.forward();
            for s in approach_targets(pos, o, PawnApproach::ALL) {
                let df = s.file() - o.file();
                chain(pos, o, s, (df, f), sink);
            }
            continue;
        }
        let Some(def) = rules.piece(t) else {
            continue;
        };
        for s in def.moves.leap_capture[us.index()][o.index()] & own & rules.board {
            chain(pos, o, s, (s.file() - o.file(), s.rank() - o.rank()), sink);
        }
        // a line whose first occupied square holds a friend
        if let Some(slide) = def.moves.rook_capture {
            for s in rook_attacks(o, occ) & own {
                sink.line(pos, o, s, slide.max, stops);
            }
        }
        if let Some(slide) = def.moves.bishop_capture {
            for s in bishop_attacks(o, occ) & own {
                sink.line(pos, o, s, slide.max, stops);
            }
        }
    }
}

/// A leaper's or pawn's chain from `o` onto the friend on `s1`, each relocated man moving `w`
/// (CS-2, CS-3).
fn chain<S: Sink>(pos: &Position, o: Square, s1: Square, w: (i8, i8), sink: &mut S) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let own = pos.pieces(us);
    let theirs = pos.pieces(us.flip());
    let initiator = pos.piece_at(o);
    if !stands_as_is(pos, initiator, s1) {
        return;
    }
    let mut king = (initiator.kind() == PieceType::KING).then_some(s1);
    let mut cur = s1;
    loop {
        let man = pos.piece_at(cur);
        if man.kind() == PieceType::PAWN && backward(w, man.color()) {
            return;
        }
        let Some(next) = cur.offset(w.0, w.1).filter(|&s| rules.board.has(s)) else {
            return;
        };
        if man.kind() == PieceType::KING {
            king = Some(next);
        }
        if theirs.has(next) {
            return;
        }
        if own.has(next) {
            if !stands_as_is(pos, man, next) {
                return;
            }
            cur = next;
            continue;
        }
        let ends = end_types(pos, man, next);
        if ends.as_slice().is_empty() {
            return;
        }
        let ch = Change {
            empties: o.bb(),
            fills: next.bb(),
            captured: Bitboard::EMPTY,
            king_to: king,
        };
        sink.add(
            pos,
            Move::special(o, s1, CHAIN, None),
            ends.as_slice(),
            man.kind(),
            &ch,
        );
        return;
    }
}

/// A slider's line from its square: the squares along it to the board's edge, and where the
/// friendly men stand before the first enemy man.
struct Line {
    /// The squares, nearest first (index 0 is one step from the initiator).
    sq: [Square; 8],
    /// The index of the first enemy man (or the number of squares).
    enemy: usize,
    /// The indices of the friendly men before it, nearest first.
    friends: [u8; 8],
    /// How many.
    nf: usize,
}

impl Line {
    /// The line from `o` in direction `d` (unit step) for the side to move.
    #[inline]
    fn new(pos: &Position, o: Square, d: (i8, i8)) -> Line {
        let board = pos.rules().board;
        let us = pos.side_to_move();
        let (own, theirs) = (pos.pieces(us), pos.pieces(us.flip()));
        let mut l = Line {
            sq: [o; 8],
            enemy: 0,
            friends: [0; 8],
            nf: 0,
        };
        // steps to the frame's edge, then the board's
        let room = |x: i8, dx: i8| match dx {
            1 => 7 - x,
            -1 => x,
            _ => 7,
        };
        let steps = room(o.file(), d.0).min(room(o.rank(), d.1)) as usize;
        let delta = d.1 as i32 * 8 + d.0 as i32;
        let mut n = 0;
        let mut idx = o.raw() as i32;
        while n < steps {
            idx += delta;
            let sq = Square::new(idx as u8);
            if !board.has(sq) {
                break;
            }
            l.sq[n] = sq;
            n += 1;
            if theirs.has(sq) {
                break;
            }
            if own.has(sq) {
                l.friends[l.nf] = (n - 1) as u8;
                l.nf += 1;
            }
        }
        l.enemy = n - (n > 0 && theirs.has(l.sq[n - 1])) as usize;
        l
    }
}

/// The push trains of the slider on `o` along the line through its first friend `first`
/// (CS-1, CS-4); `max` limits the initiator's range (0: none).
fn slide_cascades<S: Sink>(
    pos: &Position,
    o: Square,
    first: Square,
    max: u8,
    stops: bool,
    sink: &mut S,
) {
    let d = direction(o, first);
    let l = Line::new(pos, o, d);
    let start = l.friends[0] as usize;
    let reach = if max == 0 {
        l.enemy
    } else {
        l.enemy.min(max as usize)
    };
    let initiator = pos.piece_at(o);
    let last = if stops { start + 1 } else { reach };
    for ti in start..last.min(reach) {
        let t = l.sq[ti];
        if !stands_as_is(pos, initiator, t) {
            continue;
        }
        let train = Train { o, d, l: &l, ti };
        let king = (initiator.kind() == PieceType::KING).then_some(t);
        train.push(pos, 0, ti, 0, o.bb(), t.bb(), king, sink);
    }
}

/// One initiator's stop on a line, while its train is being placed.
struct Train<'a> {
    o: Square,
    d: (i8, i8),
    l: &'a Line,
    /// The initiator's final index.
    ti: usize,
}

impl Train<'_> {
    /// Places the friend `j` (it was landed on or passed) beyond index `lo`, then the next one
    /// if that one is landed on or passed; `mask` holds the finals so far, `before`/`after` the
    /// occupied squares of the moved men before and after, `king` where our King ends.
    #[allow(clippy::too_many_arguments)]
    fn push<S: Sink>(
        &self,
        pos: &Position,
        j: usize,
        lo: usize,
        mask: u32,
        before: Bitboard,
        after: Bitboard,
        king: Option<Square>,
        sink: &mut S,
    ) {
        let l = self.l;
        let from = l.sq[l.friends[j] as usize];
        let man = pos.piece_at(from);
        if man.kind() == PieceType::PAWN && backward(self.d, man.color()) {
            return;
        }
        let before = before | from.bb();
        for u in lo + 1..l.enemy {
            let to = l.sq[u];
            let mask = mask | 1 << (u - self.ti - 1);
            let after = after | to.bb();
            let king = if man.kind() == PieceType::KING {
                Some(to)
            } else {
                king
            };
            if j + 1 < l.nf && l.friends[j + 1] as usize <= u {
                // it lands on or passes the next friend, which is pushed on in turn
                if stands_as_is(pos, man, to) {
                    self.push(pos, j + 1, u, mask, before, after, king, sink);
                }
                continue;
            }
            let ends = end_types(pos, man, to);
            if ends.as_slice().is_empty() {
                continue;
            }
            let ch = Change {
                empties: before & !after,
                fills: after & !before,
                captured: Bitboard::EMPTY,
                king_to: king,
            };
            let base = Move::special(self.o, l.sq[self.ti], mask, None);
            sink.add(pos, base, ends.as_slice(), man.kind(), &ch);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A move's route, edits and notation

/// A cascade spelled out: each moving man's square and final square in leg order, with the
/// men as they end.
struct Route {
    /// (from, to, the man afterwards), the initiator first.
    legs: [(Square, Square, Piece); 8],
    len: usize,
}

impl Route {
    fn push(&mut self, from: Square, to: Square, man: Piece) {
        if self.len < self.legs.len() {
            self.legs[self.len] = (from, to, man);
            self.len += 1;
        }
    }

    fn legs(&self) -> &[(Square, Square, Piece)] {
        &self.legs[..self.len]
    }
}

/// The man `man` ending as the move's promotion when it is the frontmost pushed man.
#[inline]
fn as_ended(man: Piece, m: Move, frontmost: bool) -> Piece {
    match m.promotion_type() {
        Some(t) if frontmost => Piece::new(man.color(), t),
        _ => man,
    }
}

/// The legs of cascade `m` of `pos`, in notation order (§5.3).
fn route(pos: &Position, m: Move) -> Route {
    let (o, t) = (m.from(), m.to());
    let initiator = pos.piece_at(o);
    let mut r = Route {
        legs: [(o, o, Piece::NONE); 8],
        len: 0,
    };
    r.push(o, t, initiator);
    if m.payload() & CHAIN != 0 {
        let w = if initiator.kind() == PieceType::PAWN {
            (t.file() - o.file(), initiator.color().forward())
        } else {
            (t.file() - o.file(), t.rank() - o.rank())
        };
        let own = pos.pieces(initiator.color());
        let mut cur = t;
        while let Some(next) = cur.offset(w.0, w.1) {
            let last = !own.has(next);
            r.push(cur, next, as_ended(pos.piece_at(cur), m, last));
            if last || r.len == 8 {
                break;
            }
            cur = next;
        }
        return r;
    }
    let l = Line::new(pos, o, direction(o, t));
    let ti = o.distance(t) as usize - 1;
    // each pushed man's final index: the k-th set bit goes to the k-th friend
    let mut finals = [0usize; 8];
    let mut n = 0;
    let mut bits = m.payload() & 0xFF;
    while bits != 0 && n < l.nf {
        finals[n] = ti + 1 + bits.trailing_zeros() as usize;
        bits &= bits - 1;
        n += 1;
    }
    // legs: the man still standing where the previous leg ended, else the nearest unmoved one
    let mut moved = [false; 8];
    let mut cursor = ti;
    for _ in 0..n {
        let k = (0..n)
            .find(|&k| !moved[k] && l.friends[k] as usize == cursor)
            .or_else(|| (0..n).find(|&k| !moved[k]))
            .unwrap_or(0);
        moved[k] = true;
        let man = pos.piece_at(l.sq[l.friends[k] as usize]);
        r.push(
            l.sq[l.friends[k] as usize],
            l.sq[finals[k]],
            as_ended(man, m, k + 1 == n),
        );
        cursor = finals[k];
    }
    r
}

/// Net edits of a cascade: each square whose content changes (and each leg square carrying a
/// castling right), with the pawn routes for en passant.
pub fn edits(pos: &Position, m: Move, out: &mut EditList) {
    let r = route(pos, m);
    // squares touched by the legs, at most the eight of one line
    let mut squares = [(Square::new(0), Piece::NONE); 16];
    let mut n = 0;
    let mut note =
        |sq: Square, after: Option<Piece>| match squares[..n].iter_mut().find(|e| e.0 == sq) {
            Some(e) => {
                if let Some(p) = after {
                    e.1 = p;
                }
            }
            None if n < 16 => {
                squares[n] = (sq, after.unwrap_or(pos.piece_at(sq)));
                n += 1;
            }
            None => {}
        };
    // every man leaves its square first, then each lands: a landing overrides a leaving
    for &(from, _, _) in r.legs() {
        note(from, Some(Piece::NONE));
    }
    for &(_, to, man) in r.legs() {
        note(to, Some(man));
    }
    for &(sq, after) in &squares[..n] {
        if after != pos.piece_at(sq) || rights_lost_at(pos, sq) != 0 {
            out.push(sq, after);
        }
    }
    // the edit list keeps one straight two-rank route, and two pawns of a file can each be
    // pushed two ranks (a2-a4 and a3-a5): only a route from the double-step region can leave
    // a target, so only such a route is handed over
    out.no_pawn_route();
    let region = pos.rules().double_step_region[pos.side_to_move().index()];
    for &(from, to, man) in r.legs() {
        if man.kind() == PieceType::PAWN
            && pos.piece_at(from).kind() == PieceType::PAWN
            && region.has(from)
        {
            out.pawn_route(from, to);
        }
    }
}

/// Canonical (and only) spelling: the legs in notation order, a promotion letter on the
/// promoting pawn's leg.
pub fn write(pos: &Position, m: Move, out: &mut MoveText) {
    let r = route(pos, m);
    for &(from, to, man) in r.legs() {
        out.push_leg(from, to);
        if man != pos.piece_at(from) {
            out.push(pos.rules().letter(man.kind()));
        }
    }
}
