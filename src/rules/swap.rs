//! Swaps of two friendly men: Catalyst (shared/rules/modest-proposals-1.md §0, §7) and
//! Redeployment (modest-proposals-2.md §1, §15), one mechanic with three keys.
//!
//! A swap exchanges the squares of two friendly men X on `x` and Y on `y` of different types,
//! neither a King. The keys say
//! * which pairs may swap (`swapPairs`): `guarded` (Catalyst, CT-1..CT-3): both are guarded,
//!   i.e. reached (§0.2: the capture geometry, a pawn's diagonal forward steps), by one other
//!   friendly man, the catalyst (any type, King included), which does not move; no pawn may be
//!   switched onto rank 1 or rank 8 (CT-3c). `firstRank` (Redeployment, RE-R3): both stand on
//!   the player's own first rank;
//! * what follows the swap (`swapThen`): `nothing` (Catalyst: the swap is the move), or `move`
//!   (Redeployment, RE-R1): an ordinary move, possibly a capture, of one of the two swapped men
//!   from its new square; only with `firstRank` (a pawn follow-up after a catalysed switch would
//!   need the whole pawn rule set, and no variant asks for it);
//! * whether a player may swap on two successive turns of his (`swapSuccessive`): `barred`
//!   (Catalyst, CT-3b, CT-7) or `allowed`. When barred, each colour has a flag, set by its swap
//!   moves and cleared by its other moves, in two bits of the position state (so in the key)
//!   and in the FEN's seventh field: `-`, `w`, `b` or `wb` (CT-8; absent means `-`).
//!
//! A swap changes no square's occupancy and captures nothing: the King is never left attacked
//! by it unless it already was (so a catalysed switch never answers a check, though CT-5
//! allows one). Castling rights go through the position's square masks (a Rook switched or
//! redeployed loses its right, 0.4); a pawn switched from its 2nd to its 4th rank over an empty
//! square leaves an en-passant target (CT-4, README ruling 3).
//!
//! With `swapThen = move` a back-rank man also attacks from the square of every other
//! non-King back-rank man of a different type (occupancy is unchanged by the swap): RE-4/RE-R4,
//! the check relation for every purpose (in check, legality, castling, set-up validation:
//! `Hooks::CHECK`). While the attacker's flag is set it cannot swap, so the relation is then
//! the plain one.
//!
//! Identity (README ruling 2): different pairs give different placements, a swap keeps both
//! squares occupied (an ordinary move empties one), a redeployment's result names its pair and
//! destination (the emptied square is `y`, Y reappears on `x`, X on `t`); so moves are
//! generated once (pairs guarded by several catalysts once, CT-6) and never equal an ordinary
//! move (RE-R2: men of one type do not swap).
//!
//! Notation and encoding (`Move::special(from, to, payload, None)`):
//! * swap: `ab,ba` with `a` the ASCII-smaller square (either order accepted): from `a`, to `b`,
//!   payload 0;
//! * redeployment: `xy,yx,yt` (X to `y`, Y to `x`, X from `y` to `t`; `yx,xy,yt` accepted):
//!   from `x`, to `y`, payload `t` (bits 0-5).

use super::relocation::own_first_rank;
use crate::geometry::attacks::{between, bishop_attacks, rook_attacks};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::generic::{attacked_from_squares, legal_when_played};
use crate::moves::{Move, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{
    types_of, Built, Change, EditList, FenError, Field, Hooks, Legality, Mechanic, MechanicSpec,
    Position, ShortcutMasks, StateLayout,
};
use crate::variant::{Rules, Section};

/// Which pairs of friendly men may swap (`swapPairs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairs {
    /// Both guarded by a common friendly catalyst (Catalyst).
    Guarded,
    /// Both on the player's own first rank (Redeployment).
    FirstRank,
}

/// The swap mechanic and its settings.
#[derive(Clone, Copy, Debug)]
pub struct Swap {
    /// Which pairs may swap.
    pairs: Pairs,
    /// An ordinary move of one swapped man follows the swap (`swapThen = move`).
    then_move: bool,
    /// The flags "this colour's last move was a swap move" (bit 0 White, bit 1 Black), when a
    /// player may not swap on successive turns.
    flags: Option<Field>,
}

/// Registration: `specialMoves = swap` and its three keys.
pub const SPEC: MechanicSpec = MechanicSpec::chosen(
    &["specialMoves", "swapPairs", "swapThen", "swapSuccessive"],
    "swap",
    build,
);

fn build(ctx: &Section, _rules: &mut Rules, state: &mut StateLayout) -> Built {
    let first_rank = ctx.two_way("swapPairs", "guarded", "firstRank")?;
    let then_move = ctx.two_way("swapThen", "nothing", "move")?;
    let successive = ctx.two_way("swapSuccessive", "barred", "allowed")?;
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    if then_move && !first_rank {
        return Err(ctx.err(
            "swapThen",
            "swapThen = move needs swapPairs = firstRank (a move after a catalysed switch \
             is not implemented)"
                .into(),
        ));
    }
    let flags = if successive {
        None
    } else {
        Some(
            state
                .bits(2, "swap")
                .map_err(|e| ctx.err("swapSuccessive", e))?,
        )
    };
    Ok(Some(Box::new(Swap {
        pairs: if first_rank {
            Pairs::FirstRank
        } else {
            Pairs::Guarded
        },
        then_move,
        flags,
    })))
}

impl Mechanic for Swap {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        let mut h = Hooks::MOVES;
        if self.flags.is_some() {
            h = h.with(Hooks::AFTER_MOVE).with(Hooks::FEN);
        }
        if self.then_move {
            h = h.with(Hooks::ATTACK).with(Hooks::CHECK);
        }
        h
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        self.then_move
            .then(|| super::relation_conflict("swapThen = move", other))
            .flatten()
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        self.each_move(pos, |m| list.push(m));
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        let (a, b) = (m.from(), m.to());
        let (man_a, man_b) = (pos.piece_at(a), pos.piece_at(b));
        if self.then_move {
            // X from a (= x) to b (= y), Y to a, X on to t
            let t = target(m);
            out.push(a, man_b);
            out.push(b, Piece::NONE);
            out.push(t, man_a);
            follow_pawn(out, man_b, b, a);
            follow_pawn(out, man_a, a, t);
        } else {
            out.push(a, man_b);
            out.push(b, man_a);
            follow_pawn(out, man_a, a, b);
            follow_pawn(out, man_b, b, a);
        }
        out.no_pawn_route();
    }

    fn write_move(&self, _pos: &Position, m: Move, out: &mut MoveText) {
        out.push_leg(m.from(), m.to());
        out.push_leg(m.to(), m.from());
        if self.then_move {
            out.push_leg(m.to(), target(m));
        }
    }

    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        use crate::moves::MoveKind;
        if m.kind() != MoveKind::Special {
            return false;
        }
        let Some(legs) = super::parse_legs(pos, s) else {
            return false;
        };
        let legs = legs.as_slice();
        if legs.iter().any(|l| l.promo.is_some()) || legs.len() != 2 + self.then_move as usize {
            return false;
        }
        let (l1, l2) = (legs[0], legs[1]);
        if l1.from == l1.to || l2.from != l1.to || l2.to != l1.from {
            return false;
        }
        if !self.then_move {
            return (l1.from, l1.to) == (m.from(), m.to())
                || (l1.to, l1.from) == (m.from(), m.to());
        }
        // the third leg moves the man that now stands on its from-square: X, from y
        let l3 = legs[2];
        let x = if l3.from == l1.to {
            l1.from
        } else if l3.from == l1.from {
            l1.to
        } else {
            return false;
        };
        (x, l3.from, l3.to) == (m.from(), m.to(), target(m))
    }

    fn moves_are_distinct(&self) -> bool {
        true
    }

    fn change(&self, pos: &Position, m: Move) -> Option<Change> {
        // a swap changes no occupancy; a redeployment's x stays occupied (by Y), so it
        // changes the board as a move of X from y to t would (no King is ever swapped)
        Some(if self.then_move {
            Change::net(pos, m.to().bb(), target(m).bb(), None)
        } else {
            Change::NONE
        })
    }

    fn captures(&self, pos: &Position, m: Move) -> Option<bool> {
        // a swap captures nothing; a redeployment only with X's move, on t
        Some(self.then_move && pos.pieces(pos.side_to_move().flip()).has(target(m)))
    }

    fn may_be_noisy(&self, _pos: &Position) -> bool {
        // a swap neither captures nor promotes (no pawn is switched onto a last rank, CT-3c)
        self.then_move
    }

    fn generates_legal(&self) -> bool {
        true
    }

    fn generate_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) {
        self.legal_moves(pos, lg, false, list);
    }

    fn generate_noisy_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) -> bool {
        self.legal_moves(pos, lg, true, list);
        true
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        if self.then_move {
            return Some(self.count_redeployments(pos, lg));
        }
        if let Some(safe) = lg.judge(pos, &Change::NONE) {
            // a swap changes no occupancy and captures nothing: legal unless in check
            if !safe {
                return Some(0);
            }
            let mut n = 0;
            self.each_move(pos, |_| n += 1);
            return Some(n);
        }
        let mut list = MoveList::new();
        self.each_move(pos, |m| list.push(m));
        Some(list.iter().filter(|&&m| legal_when_played(pos, m)).count())
    }

    fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        let partners = self.partner_squares(pos, by);
        attacked_from(pos, sq, by, partners, pos.occupied(), Bitboard::FULL)
    }

    fn attacked_with(
        &self,
        pos: &Position,
        sq: Square,
        by: Color,
        occ: Bitboard,
        removed: Bitboard,
    ) -> Option<bool> {
        let partners = self.partner_squares(pos, by) & !removed;
        Some(attacked_from(pos, sq, by, partners, occ, !removed))
    }

    fn shortcut(&self, pos: &Position, masks: &mut ShortcutMasks) -> bool {
        self.widen_shortcut(pos, masks)
    }

    fn shortcut_judges_changes(&self) -> bool {
        // RE-4's attackers stand on enemy squares, and a capture only takes partners away
        true
    }

    fn relation_reads_enemy_only(&self) -> bool {
        // RE-4: an enemy man attacks from its own square or a partner's (both theirs)
        true
    }

    fn after_move(&self, pos: &mut Position, m: Move) {
        let Some(f) = self.flags else { return };
        // a pass (the search's null move) is no move of the player: the flags stay
        if m.is_none() {
            return;
        }
        let bit = 1u64 << pos.side_to_move().flip().index();
        let old = pos.field(f);
        let new = if m.kind() == crate::moves::MoveKind::Special {
            old | bit
        } else {
            old & !bit
        };
        pos.set_field(f, new);
    }

    fn fen_fields(&self) -> usize {
        1
    }

    fn read_fen(&self, pos: &mut Position, fields: &[&str]) -> Result<(), FenError> {
        let Some(f) = self.flags else { return Ok(()) };
        let value = match fields.first().copied() {
            None | Some("-") => 0,
            Some("w") => 1,
            Some("b") => 2,
            Some("wb") => 3,
            Some(other) => {
                return Err(FenError::Extension(format!(
                    "'{other}': the swap field lists the colours whose last move was a swap: \
                     -, w, b or wb"
                )))
            }
        };
        pos.set_field(f, value);
        Ok(())
    }

    fn write_fen(&self, pos: &Position, out: &mut String) {
        let Some(f) = self.flags else { return };
        out.push_str(match pos.field(f) {
            1 => " w",
            2 => " b",
            3 => " wb",
            _ => " -",
        });
    }
}

/// The destination of a redeployment's follow-up move.
#[inline(always)]
fn target(m: Move) -> Square {
    Square::new((m.payload() & 63) as u8)
}

/// Records the route of `man` from `from` to `to` for en passant when it is a pawn.
#[inline(always)]
fn follow_pawn(out: &mut EditList, man: Piece, from: Square, to: Square) {
    if man.is_some() && man.kind() == PieceType::PAWN {
        out.pawn_route(from, to);
    }
}

/// The men of `color` standing on its own first rank, Kings excepted.
#[inline]
fn first_rank_men(pos: &Position, color: Color) -> Bitboard {
    let rules = pos.rules();
    let rank = rules.shape.rank_bb(own_first_rank(rules, color)) & rules.board;
    pos.pieces(color) & rank & !pos.pieces_of(color, PieceType::KING)
}

/// Men no move may capture now (a mechanic's immune men; none in the swap variants).
#[inline]
fn immune(pos: &Position) -> Bitboard {
    let mechanics = pos.mechanics();
    if !mechanics.uses(Hooks::IMMUNE) {
        return Bitboard::EMPTY;
    }
    mechanics
        .with_hook(Hooks::IMMUNE)
        .fold(Bitboard::EMPTY, |b, m| b | m.immune(pos))
}

impl Swap {
    /// Whether `color`'s last move was a swap move while successive swaps are barred.
    #[inline(always)]
    fn flagged(&self, pos: &Position, color: Color) -> bool {
        self.flags
            .is_some_and(|f| pos.field(f) >> color.index() & 1 != 0)
    }

    /// Calls `out` with each pseudo-legal swap move of the side to move, once per result.
    #[inline]
    fn each_move(&self, pos: &Position, mut out: impl FnMut(Move)) {
        let us = pos.side_to_move();
        if self.flagged(pos, us) {
            return;
        }
        match (self.pairs, self.then_move) {
            (Pairs::FirstRank, true) => redeployments(pos, |x, y, t| {
                out(Move::special(x, y, t.raw() as u32, None));
            }),
            (Pairs::FirstRank, false) => {
                let men = first_rank_men(pos, us);
                swaps(pos, men, |x| men.without(x), &mut out);
            }
            (Pairs::Guarded, _) => {
                let partners = guarded_partners(pos);
                let men = pos.pieces(us) & !pos.pieces_of(us, PieceType::KING);
                swaps(pos, men, |x| partners[x.index()], &mut out);
            }
        }
    }

    /// Appends the legal moves (only the captures when `captures_only`) to `list` in the order
    /// of [`Swap::each_move`]: a redeployment judged by the one-man masks where they decide (it
    /// changes the occupancy as X's move from `y` to `t` would), else by the node's legality
    /// facts; a swap legal unless the King is attacked (it changes no occupancy).
    fn legal_moves(
        &self,
        pos: &mut Position,
        lg: &Legality,
        captures_only: bool,
        list: &mut MoveList,
    ) {
        let us = pos.side_to_move();
        if self.flagged(pos, us) || (captures_only && !self.then_move) {
            return;
        }
        let mut pseudo = MoveList::new();
        self.each_move(pos, |m| pseudo.push(m));
        if !self.then_move {
            match lg.judge(pos, &Change::NONE) {
                Some(true) => pseudo.iter().for_each(|&m| list.push(m)),
                Some(false) => {}
                None => {
                    for &m in pseudo.iter().filter(|&&m| legal_when_played(pos, m)) {
                        list.push(m);
                    }
                }
            }
            return;
        }
        let masks = lg.masks();
        let enemy = pos.pieces(us.flip());
        let decided = lg.decides() && !masks.test_all();
        for &m in pseudo.iter() {
            let (y, t) = (m.to(), target(m));
            if captures_only && !enemy.has(t) {
                continue;
            }
            let legal = if decided && !masks.test_from.has(y) && !masks.test_to.has(t) {
                masks.target.has(t)
            } else {
                lg.legal_move(pos, m)
            };
            if legal {
                list.push(m);
            }
        }
    }

    /// The legal redeployments, judged by the one-man masks where they can be (a redeployment
    /// changes the occupancy as a move of a man from `y` to `t` would: `x` stays occupied), the
    /// others by the node's legality facts.
    fn count_redeployments(&self, pos: &mut Position, lg: &Legality) -> usize {
        let masks = lg.masks();
        if self.flagged(pos, pos.side_to_move()) {
            return 0;
        }
        let mut n = 0;
        let mut doubtful = MoveList::new();
        let (target, test_to, test_from) = (masks.target, masks.test_to, masks.test_from);
        redeployment_sets(pos, |xs, y, tos| {
            if test_from.has(y) {
                for x in xs {
                    for t in tos {
                        doubtful.push(Move::special(x, y, t.raw() as u32, None));
                    }
                }
            } else {
                n += xs.count() as usize * (tos & target & !test_to).count() as usize;
                for x in xs {
                    for t in tos & test_to {
                        doubtful.push(Move::special(x, y, t.raw() as u32, None));
                    }
                }
            }
        });
        n + doubtful.iter().filter(|&&m| lg.legal_move(pos, m)).count()
    }

    /// The men of `by` that may swap under RE-4, on its first rank: none while `by` may not
    /// swap next (its flag).
    #[inline]
    fn partner_squares(&self, pos: &Position, by: Color) -> Bitboard {
        if self.flagged(pos, by) {
            return Bitboard::EMPTY;
        }
        let men = first_rank_men(pos, by);
        if men.more_than_one() {
            men
        } else {
            Bitboard::EMPTY
        }
    }

    /// The legality shortcut under RE-4 (`Mechanic::shortcut`): the enemy's swap attackers are
    /// men of its first-rank types standing, in effect, on the squares of its other first-rank
    /// men. A check by one of them: everything is tested. A slider of those that one man of
    /// ours screens from our King: that man's moves are tested. Our moves never add such
    /// attackers (a capture only removes men), so nothing else changes.
    fn widen_shortcut(&self, pos: &Position, masks: &mut ShortcutMasks) -> bool {
        let us = pos.side_to_move();
        let them = us.flip();
        let Some(k) = pos.king_square(us) else {
            return false;
        };
        let partners = self.partner_squares(pos, them);
        if partners.is_empty() {
            return true;
        }
        let rules = pos.rules();
        let occ = pos.occupied();
        // in check through a swap: everything is tested
        if attacked_from(pos, k, them, partners, occ, Bitboard::EMPTY) {
            return false;
        }
        let theirs = pos.pieces(them);
        // the first enemy man on each line from the King, seen through our men
        let (orth_x, diag_x) = (rook_attacks(k, theirs), bishop_attacks(k, theirs));
        let mut snipers = Bitboard::EMPTY;
        for t in types_of(rules.type_mask) {
            let squares = swap_squares(pos, t, partners);
            if squares.is_empty() {
                continue;
            }
            let Some(def) = rules.piece(t) else { continue };
            let moves = &def.moves;
            if moves.has_rays() {
                return false;
            }
            if moves.rook_capture.is_some() {
                snipers |= orth_x & squares;
            }
            if moves.bishop_capture.is_some() {
                snipers |= diag_x & squares;
            }
        }
        let ours = pos.pieces(us);
        for s in snipers {
            let screen = between(k, s) & occ;
            if !screen.more_than_one() {
                masks.test_from |= screen & ours;
            }
        }
        true
    }
}

/// The squares from which a man of type `t` attacks through a swap, given `partners` (the
/// first-rank men that may swap): the squares of the partners of other types, when a man of type
/// `t` is among them.
#[inline(always)]
fn swap_squares(pos: &Position, t: PieceType, partners: Bitboard) -> Bitboard {
    let of_type = partners & pos.kind(t);
    if of_type.is_empty() {
        Bitboard::EMPTY
    } else {
        partners & !of_type
    }
}

/// Whether `by` attacks `sq` with occupancy `occ`: the men of `by` on `present` from their own
/// squares and, for each type among `partners`, from the squares of the partners of other
/// types (RE-4). One pass over the types, each slider lookup done once.
#[inline]
fn attacked_from(
    pos: &Position,
    sq: Square,
    by: Color,
    partners: Bitboard,
    occ: Bitboard,
    present: Bitboard,
) -> bool {
    attacked_from_squares(pos, sq, by, pos.rules().type_mask, occ, |t| {
        (pos.pieces_of(by, t) & present) | swap_squares(pos, t, partners)
    })
}

/// Each pair of `men` (the first on the ASCII-smaller square) whose partners (`partners_of`)
/// include the other, of different types, each allowed on the other's square: `out` gets the
/// swap move.
#[inline]
fn swaps(
    pos: &Position,
    men: Bitboard,
    partners_of: impl Fn(Square) -> Bitboard,
    out: &mut impl FnMut(Move),
) {
    let us = pos.side_to_move();
    let back = super::back_ranks(pos);
    for a in men {
        let ta = pos.piece_at(a).kind();
        let mut bs = partners_of(a) & men & !pos.pieces_of(us, ta);
        if bs.is_empty() {
            continue;
        }
        // A may stand on b: its region; a pawn never on a back rank (CT-3c)
        bs &= pos.rules().region(us, ta);
        if ta == PieceType::PAWN {
            bs &= !back;
        }
        for b in bs {
            if !super::name_before(a, b) {
                continue;
            }
            let tb = pos.piece_at(b).kind();
            if !pos.rules().region(us, tb).has(a) || (tb == PieceType::PAWN && back.has(a)) {
                continue;
            }
            out(Move::special(a, b, 0, None));
        }
    }
}

/// For each square, the side to move's non-King men that share a catalyst with the man there
/// (CT-1, CT-2: a friendly man reaching both squares; the man itself included).
#[inline]
fn guarded_partners(pos: &Position) -> [Bitboard; 64] {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let own = pos.pieces(us);
    let swappable = own & !pos.pieces_of(us, PieceType::KING);
    let occ = pos.occupied();
    let mut partners = [Bitboard::EMPTY; 64];
    for t in types_of(rules.type_mask) {
        let catalysts = pos.pieces_of(us, t);
        if catalysts.is_empty() {
            continue;
        }
        let Some(def) = rules.piece(t) else { continue };
        for c in catalysts {
            // §0.2 reach: the capture geometry (a pawn's: its diagonal forward squares)
            let guarded = def.moves.capture_targets(us, c, occ, rules.board) & swappable;
            if guarded.more_than_one() {
                for x in guarded {
                    partners[x.index()] |= guarded;
                }
            }
        }
    }
    partners
}

/// The redeployments of the side to move as `(xs, y, targets)`: each man X of one type on a
/// square of `xs` swaps with Y on `y` (both on the first rank, different types, no King) and may
/// then go from `y` to each square of `targets` with an ordinary move (the occupancy is the
/// board's: the swap keeps it). Men of one type share their targets from `y`.
#[inline]
fn redeployment_sets(pos: &Position, mut out: impl FnMut(Bitboard, Square, Bitboard)) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let men = first_rank_men(pos, us);
    if !men.more_than_one() {
        return;
    }
    let occ = pos.occupied();
    let enemy = pos.pieces(us.flip()) & !immune(pos);
    for t in types_of(rules.type_mask) {
        let xs = men & pos.kind(t);
        if xs.is_empty() {
            continue;
        }
        let Some(def) = rules.piece(t) else { continue };
        let region = rules.region(us, t);
        for y in men & !xs {
            let (quiet, caps) = def.moves.targets(us, y, occ, rules.board);
            let tos = (quiet | (caps & enemy)) & region;
            if tos.any() {
                out(xs, y, tos);
            }
        }
    }
}

/// Each redeployment of the side to move as `(x, y, t)`.
#[inline]
fn redeployments(pos: &Position, mut out: impl FnMut(Square, Square, Square)) {
    redeployment_sets(pos, |xs, y, tos| {
        for x in xs {
            for t in tos {
                out(x, y, t);
            }
        }
    });
}
