//! Wonderland (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-2.md §1,
//! §22, and README.md ruling 3 with its WO-R4 exception).
//!
//! Every non-capturing move of a man other than the King, computed as an ordinary move to a
//! square `t` (pawn steps and double steps included, the path checked on the original file),
//! ends on the mirror square `t'` of `t` on the same rank (files a<->h, b<->g, c<->f, d<->e):
//! * `t'` empty: the man lands there;
//! * `t'` holds a man other than a King (either colour): that man goes to `t` (WO-R1; with
//!   `wonderlandDisplaced = origin`, to the mover's starting square) and the mover lands on `t'`;
//! * `t'` holds a King: no repositioning, the man stays on `t` (WO-R2): that is the ordinary
//!   move, generated here as a `Move::normal` / `Move::promotion` (so an unmirrored double step
//!   is FIDE's, en passant included).
//!
//! Captures (en passant, capture-promotions) and every King move (castling included) are
//! ordinary; the builder switches off the ordinary quiet moves of every other type
//! (`Rules::quiet_off`) and this module generates their replacements. A move whose mirror
//! square is its own starting square would be a pass: illegal (WO-R3), unless
//! `wonderlandPass = legal`. A pawn reaching the last rank promotes on `t'` (or on `t` when a
//! King blocks). A mirrored double step leaves the en-passant target directly behind the
//! pawn's final square, if empty (WO-R4, `EditList::ep_target`); enemy pawns beside that
//! square take it with the ordinary en-passant capture.
//!
//! Move encoding: `Move::special(s, t', 0, promo)`: `from` the mover's square, `to` its final
//! square (so the search's piece-to tables see where it went), `t = mirror(t')`; the man
//! displaced, if any, is whoever stands on `t'`. A pass is `Move::special(s, s, 0, None)`.
//!
//! Notation: `s t, t t'` (promotion letter on the second leg), then the displaced man's leg
//! `t' d`: `g1f3,f3c3`, `a1b1,b1g1,g1b1`, `b7b8,b8g8q`; a pass `d1e1,e1d1`. Each route has one
//! spelling and a different effect (`t'` is a function of `t`), except passes under
//! `wonderlandPass = legal` (same placement: merged by effect, `is_spelling` takes each). The
//! bare nominal move (`g1f3` for `g1f3,f3c3`) is refused with an error naming the canonical
//! spelling ([`Mechanic::refused_spelling`]): an orthodox GUI that sent it would show the man on
//! the wrong square.
//!
//! Legality: the King after the whole move (WO-4: a displaced enemy man may give check). With
//! orthodox data, a side not in check judges its moves without playing them: a man that is not
//! pinned cannot expose its King by landing on `t'` or sending a friend along the rank; only a
//! displaced enemy man can then give check, from its new square.

use super::relocation::{end_types, pawns_near_promotion, promotion};
use crate::geometry::{Bitboard, Square};
use crate::moves::{Move, MoveKind, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{
    Built, EditList, Hooks, Legality, Mechanic, MechanicSpec, Position, StateLayout,
};
use crate::variant::{generator_is_orthodox, Rules, Section};

/// Registration: `specialMoves = wonderland` and its options `wonderlandDisplaced` (WO-R1) and
/// `wonderlandPass` (WO-R3).
pub const SPEC: MechanicSpec = MechanicSpec::chosen(
    &["specialMoves", "wonderlandDisplaced", "wonderlandPass"],
    "wonderland",
    build,
);

/// The Wonderland mechanic and its settings.
#[derive(Clone, Copy, Debug)]
pub struct Wonderland {
    /// WO-R1's alternative (`wonderlandDisplaced = origin`): the displaced man goes to the
    /// mover's starting square instead of the nominal destination `t`.
    to_origin: bool,
    /// WO-R3's alternative (`wonderlandPass = legal`): a move mirrored back onto its own
    /// starting square is a legal pass.
    pass: bool,
    /// Orthodox data on eight files: legal moves listed and counted mostly without make/unmake.
    fast: bool,
}

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let to_origin = ctx.two_way("wonderlandDisplaced", "destination", "origin")?;
    let pass = ctx.two_way("wonderlandPass", "illegal", "legal")?;
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    // judged before the quiet moves are switched off (that makes the data non-orthodox)
    let fast = generator_is_orthodox(rules) && rules.shape.files == 8;
    let off = rules
        .piece_types()
        .filter(|&t| !kingly(rules, t))
        .fold(0u16, |acc, t| acc | 1 << t.0);
    rules.quiet_off |= off;
    Ok(Some(Box::new(Wonderland {
        to_origin,
        pass,
        fast,
    })))
}

/// Whether men of type `t` are Kings (never mirrored, and blocking a mirror square).
#[inline(always)]
fn kingly(rules: &Rules, t: PieceType) -> bool {
    t == PieceType::KING || rules.royal == Some(t)
}

/// The mirror square of `sq` on its rank.
#[inline(always)]
fn mirror(rules: &Rules, sq: Square) -> Square {
    let files = rules.shape.files as i8;
    Square::from_coords(files - 1 - sq.file(), sq.rank()).unwrap_or(sq)
}

/// The mirror image of a set of squares of an eight-file board (each rank's byte reversed).
#[inline(always)]
fn mirror_bb(b: Bitboard) -> Bitboard {
    let mut x = b.0;
    x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
    x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
    x = ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4);
    Bitboard(x)
}

/// The nominal destinations of the man `man` on `s`: its ordinary non-capturing moves (a
/// pawn's step and double step, both squares empty), before mirroring.
#[inline]
fn nominal_targets(pos: &Position, s: Square, man: Piece) -> Bitboard {
    super::quiet_targets(pos, s, man) & pos.rules().region(man.color(), man.kind())
}

impl Wonderland {
    /// Where the man displaced from `tm` goes when the man on `s` is mirrored onto `tm`.
    #[inline(always)]
    fn displaced_to(&self, pos: &Position, s: Square, tm: Square) -> Square {
        if self.to_origin {
            s
        } else {
            mirror(pos.rules(), tm)
        }
    }

    /// Whether another route may have the same result as `m` (only under the flagged
    /// rulings' alternatives): a pass, or an exchange with a friend sent to the mover's start
    /// (which the friend's own route to the mirror of that start also makes).
    #[inline]
    fn may_have_twin(&self, pos: &Position, m: Move) -> bool {
        m.kind() == MoveKind::Special
            && (m.from() == m.to()
                || (self.to_origin
                    && pos.piece_at(m.to()).is_some()
                    && pos.piece_at(m.to()).color() == pos.side_to_move()))
    }

    /// Whether `a`'s spelling comes before `b`'s (fewest legs, then ASCII).
    fn spelled_before(&self, pos: &Position, a: Move, b: Move) -> bool {
        let text = |m: Move| {
            let mut t = MoveText::new();
            self.write_move(pos, m, &mut t);
            t
        };
        let (ta, tb) = (text(a), text(b));
        (ta.legs(), ta.as_str()) < (tb.legs(), tb.as_str())
    }

    /// What a move does, for comparing routes: placement and castling rights
    /// ([`super::effect_of_move`]) and the en-passant target it leaves.
    fn identity(&self, pos: &Position, m: Move) -> (super::Effect, Option<Square>) {
        (super::effect_of_move(pos, m), self.ep_after(pos, m))
    }

    /// The en-passant target a special move leaves: WO-R4's after a mirrored double step,
    /// ruling 3's when a displaced own pawn goes straight two ranks from its second rank.
    fn ep_after(&self, pos: &Position, m: Move) -> Option<Square> {
        if m.kind() != MoveKind::Special || m.from() == m.to() {
            return None;
        }
        let rules = pos.rules();
        let (s, tm) = (m.from(), m.to());
        let (man, y) = (pos.piece_at(s), pos.piece_at(tm));
        let f = man.color().forward();
        let empty = |sq: Option<Square>| sq.filter(|&q| pos.piece_at(q).is_none());
        if man.kind() == PieceType::PAWN
            && m.promotion_type().is_none()
            && (tm.rank() - s.rank()).abs() == 2
        {
            return empty(tm.offset(0, -f));
        }
        let d = self.displaced_to(pos, s, tm);
        let straight = y.kind() == PieceType::PAWN
            && y.color() == man.color()
            && d.file() == tm.file()
            && d.rank() - tm.rank() == 2 * f
            && rules.double_step_region[man.color().index()].has(tm);
        if y.is_some() && straight {
            return empty(tm.offset(0, f));
        }
        None
    }

    /// Appends the pseudo-legal moves of the man on `s` to its nominal destination `t`.
    #[inline]
    fn routes(&self, pos: &Position, s: Square, man: Piece, t: Square, out: &mut MoveList) {
        let rules = pos.rules();
        let tm = mirror(rules, t);
        if tm == s {
            if self.pass {
                out.push(Move::special(s, s, 0, None));
            }
            return;
        }
        let there = pos.piece_at(tm);
        if there.is_some() && kingly(rules, there.kind()) {
            // WO-R2: the ordinary move to t
            for &e in end_types(pos, man, t).as_slice() {
                out.push(match promotion(man.kind(), e) {
                    Some(q) => Move::promotion(s, t, q),
                    None => Move::normal(s, t),
                });
            }
            return;
        }
        if there == man && self.to_origin && !self.pass {
            // WO-R1's alternative: two like men exchanged change nothing, a pass (WO-R3)
            return;
        }
        if there.is_some() {
            // the displaced man keeps its type (under WO-R1's alternative a pawn sent to its
            // first or last rank makes the move impossible: see the docs page)
            let d = self.displaced_to(pos, s, tm);
            if end_types(pos, there, d).as_slice().first() != Some(&there.kind()) {
                return;
            }
        }
        for &e in end_types(pos, man, tm).as_slice() {
            out.push(Move::special(s, tm, 0, promotion(man.kind(), e)));
        }
    }

    /// Appends the pseudo-legal moves of the man on `s` (one of the side to move's, not a King).
    #[inline]
    fn man_moves(&self, pos: &Position, s: Square, out: &mut MoveList) {
        let man = pos.piece_at(s);
        for t in nominal_targets(pos, s, man) {
            self.routes(pos, s, man, t, out);
        }
    }

    /// The side to move's men that move under this rule.
    #[inline]
    fn movers(pos: &Position) -> Bitboard {
        let rules = pos.rules();
        let mut men = pos.pieces(pos.side_to_move());
        for t in rules.piece_types().filter(|&t| kingly(rules, t)) {
            men &= !pos.kind(t);
        }
        men
    }

    /// Whether the enemy man displaced by the special move `m` attacks the King on `k` from
    /// its new square (the only way such a move can expose a King not in check, when the
    /// mover is not pinned).
    #[inline]
    fn displaced_checks(&self, pos: &Position, m: Move, k: Square) -> bool {
        let rules = pos.rules();
        let (s, tm) = (m.from(), m.to());
        let y = pos.piece_at(tm);
        let d = self.displaced_to(pos, s, tm);
        let occ = pos.occupied().without(s).with(d);
        rules.piece(y.kind()).is_some_and(|def| {
            def.moves
                .capture_targets(y.color(), d, occ, rules.board)
                .has(k)
        })
    }
}

impl Mechanic for Wonderland {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        if self.moves_are_distinct() {
            for s in Wonderland::movers(pos) {
                self.man_moves(pos, s, list);
            }
            return;
        }
        let mut all = MoveList::new();
        for s in Wonderland::movers(pos) {
            self.man_moves(pos, s, &mut all);
        }
        for &m in all.iter() {
            let twin = self.may_have_twin(pos, m)
                && all.iter().any(|&o| {
                    o != m
                        && self.may_have_twin(pos, o)
                        && self.spelled_before(pos, o, m)
                        && self.identity(pos, o) == self.identity(pos, m)
                });
            if !twin {
                list.push(m);
            }
        }
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        let (s, tm) = (m.from(), m.to());
        let man = pos.piece_at(s);
        out.no_pawn_route();
        if s == tm {
            // a pass (WO-R3's alternative): the man "moved", so a Rook loses its right
            out.push(s, man);
            return;
        }
        let placed = match m.promotion_type() {
            Some(q) => Piece::new(man.color(), q),
            None => man,
        };
        let y = pos.piece_at(tm);
        let d = self.displaced_to(pos, s, tm);
        let refill = y.is_some() && d == s;
        out.push(s, if refill { y } else { Piece::NONE });
        out.push(tm, placed);
        if y.is_some() && !refill {
            out.push(d, y);
        }
        if y.is_some() && y.kind() == PieceType::PAWN && y.color() == man.color() {
            out.pawn_route(tm, d);
        }
        let double = (tm.rank() - s.rank()).abs() == 2;
        if placed.kind() == PieceType::PAWN && man.kind() == PieceType::PAWN && double {
            // WO-R4: the square directly behind the pawn's final square
            if let Some(b) = tm.offset(0, -man.color().forward()) {
                out.ep_target(b);
            }
        }
    }

    fn write_move(&self, pos: &Position, m: Move, out: &mut MoveText) {
        let rules = pos.rules();
        let (s, tm) = (m.from(), m.to());
        let t = mirror(rules, tm);
        out.push_leg(s, t);
        out.push_leg(t, tm);
        if let Some(q) = m.promotion_type() {
            out.push(rules.letter(q));
        }
        if s != tm && pos.piece_at(tm).is_some() {
            out.push_leg(tm, self.displaced_to(pos, s, tm));
        }
    }

    /// The spelling of each route is its canonical one; a spelling of another route counts when
    /// it has the same effect (passes). The bare nominal move is not a spelling.
    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        let Some(legs) = super::parse_legs(pos, s) else {
            return false;
        };
        let from = legs.as_slice()[0].from;
        if !Wonderland::movers(pos).has(from) {
            return false;
        }
        let mut routes = MoveList::new();
        self.man_moves(pos, from, &mut routes);
        let mut want = None;
        routes.iter().any(|&c| {
            if c.kind() != MoveKind::Special {
                return false;
            }
            let mut t = MoveText::new();
            self.write_move(pos, c, &mut t);
            t.as_str() == s
                && (c == m
                    || *want.get_or_insert_with(|| self.identity(pos, m)) == self.identity(pos, c))
        })
    }

    fn refused_spelling(&self, pos: &Position, legal: &[Move], s: &str) -> Option<String> {
        let legs = super::parse_legs(pos, s)?;
        let &[leg] = legs.as_slice() else {
            return None;
        };
        let rules = pos.rules();
        let m = legal.iter().copied().find(|&m| {
            m.kind() == MoveKind::Special
                && m.from() == leg.from
                && mirror(rules, m.to()) == leg.to
                && m.promotion_type() == leg.promo
        })?;
        let mut t = MoveText::new();
        self.write_move(pos, m, &mut t);
        Some(format!(
            "in Wonderland this move is mirrored and is written {t} (the man ends on {}, not on {})",
            m.to(),
            leg.to
        ))
    }

    /// Its moves are the non-capturing ones: a displaced man is moved, never taken.
    fn captures(&self, _pos: &Position, _m: Move) -> Option<bool> {
        Some(false)
    }

    /// Noisy only by promotion: on orthodox data a pawn one step (or a double step) from its
    /// promotion region.
    fn may_be_noisy(&self, pos: &Position) -> bool {
        if !self.fast {
            return true;
        }
        let pawns = pos.pieces_of(pos.side_to_move(), PieceType::PAWN);
        pawns_near_promotion(pos, pawns, 2)
    }

    fn moves_are_distinct(&self) -> bool {
        // passes of different men can have one effect, and so can the two routes of an
        // exchange under WO-R1's alternative; every other route is unique
        !self.pass && !self.to_origin
    }

    fn generates_legal(&self) -> bool {
        self.fast && self.moves_are_distinct()
    }

    fn generate_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) {
        let judge = Judge::new(pos, lg);
        let mut mine = MoveList::new();
        self.generate(pos, &mut mine);
        for &m in mine.iter() {
            if judge.legal(self, pos, m) {
                list.push(m);
            }
        }
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        if !self.fast || !self.moves_are_distinct() {
            return None;
        }
        let judge = Judge::new(pos, lg);
        if judge.king.is_none() || judge.in_check {
            let mut mine = MoveList::new();
            self.generate(pos, &mut mine);
            return Some(mine.iter().filter(|&&m| judge.legal(self, pos, m)).count());
        }
        Some(self.count_quiet(pos, &judge))
    }
}

impl Wonderland {
    /// The legal moves of a side not in check, with its King (orthodox men, eight files,
    /// WO-R1's ruling): per unpinned man, the mirror image of its nominal destinations
    /// counted at once, except those displacing an enemy man (promotions are listed).
    fn count_quiet(&self, pos: &mut Position, judge: &Judge) -> usize {
        let us = pos.side_to_move();
        let occ = pos.occupied();
        let own = pos.pieces(us);
        let kings = pos.kind(PieceType::KING);
        let theirs = pos.pieces(us.flip()) & !kings;
        let mut n = 0;
        let mut listed = MoveList::new();
        let promoting = pos.rules().promotion_region[us.index()];
        for s in Wonderland::movers(pos) {
            let man = pos.piece_at(s);
            let targets = nominal_targets(pos, s, man);
            let pawn = man.kind() == PieceType::PAWN;
            if judge.pinned.has(s) || (pawn && (targets & promoting).any()) {
                self.man_moves(pos, s, &mut listed);
                continue;
            }
            let m = mirror_bb(targets).without(s);
            n += ((m & !occ) | (m & own & !kings) | (m & kings)).count() as usize;
            for tm in m & theirs {
                listed.push(Move::special(s, tm, 0, None));
            }
        }
        n + listed
            .iter()
            .filter(|&&m| judge.legal(self, pos, m))
            .count()
    }
}

/// The node's facts for judging moves (see the module notes).
struct Judge {
    /// The side's only King, if it has one.
    king: Option<Square>,
    in_check: bool,
    pinned: Bitboard,
}

impl Judge {
    fn new(pos: &Position, lg: &Legality) -> Judge {
        let king = lg.king();
        Judge {
            king,
            in_check: king.is_some() && crate::movegen::in_check(pos),
            pinned: if king.is_some() {
                lg.pinned()
            } else {
                Bitboard::EMPTY
            },
        }
    }

    /// Whether the pseudo-legal move `m` (one of this module's) leaves the King unattacked.
    #[inline]
    fn legal(&self, w: &Wonderland, pos: &mut Position, m: Move) -> bool {
        let Some(k) = self.king else {
            return played_legal(pos, m);
        };
        if self.in_check || self.pinned.has(m.from()) {
            return played_legal(pos, m);
        }
        if m.kind() != MoveKind::Special || m.from() == m.to() {
            return true;
        }
        let y = pos.piece_at(m.to());
        !(y.is_some() && y.color() != pos.side_to_move() && w.displaced_checks(pos, m, k))
    }
}

/// Whether `m` leaves the mover's King unattacked, by make/unmake.
fn played_legal(pos: &mut Position, m: Move) -> bool {
    pos.make(m);
    let mover = pos.side_to_move().flip();
    let bad = pos.rules().checking
        && match pos.king_square(mover) {
            Some(k) => crate::movegen::is_attacked(pos, k, pos.side_to_move()),
            None => true,
        };
    pos.unmake();
    !bad
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    #[test]
    fn mirror_of_a_set_reverses_each_rank() {
        let rules = builtin_variants().get("chess").unwrap();
        for i in 0..64u8 {
            let sq = Square::new(i);
            assert_eq!(mirror_bb(sq.bb()), mirror(rules, sq).bb());
        }
    }
}
