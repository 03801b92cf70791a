//! Coercion (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-1.md §0, §9,
//! §14, README rulings 1-4).
//!
//! Statuses are read by *reach* (§0.2: geometric, pins ignored, Kings included, a pawn reaching
//! only its two diagonally-forward squares) at the start of the turn: a man is *defended* when
//! a man of its colour reaches its square (so a King defends its neighbours), *attacked* when an
//! enemy man does. Besides its own moves, the player to move may move ONE undefended non-King
//! enemy man X (CO-2, CO-3): if X is unattacked, by X's standard move to an empty square only;
//! if attacked, also by X's captures of its own side's men (never the mover's, never a King).
//! X moves with its own type and colour: an enemy pawn steps in its own direction and
//! double-steps from its own 2nd rank (P1), never castles, never takes en passant; reaching its
//! last rank it promotes to a piece of its colour chosen by the mover (the promotion letter).
//! A coerced double step creates no en-passant target (P4: `no_pawn_route`). The core judges
//! captures and the half-move clock by net effect: a coerced capture removes an enemy man (a
//! capture), a coerced pawn move resets the clock (P5).
//!
//! Encoding: `Move::special(from, to, 0, promo)`, `from` the coerced man's square; notation
//! plain UCI (`b8c6` played by White, `e7e8n` played by Black promoting White's pawn to a white
//! Knight: the piece takes the pawn's colour). A coerced move changes only enemy men and an
//! ordinary move always moves an own man, so no coerced move has an ordinary move's effect.
//! Captures from one square of men of the type the coerced man ends as only take that man off
//! its square: those losing the same castling rights are one move (ruling ID), generated once
//! with the ASCII-smallest destination; `is_spelling` accepts the others. So every generated
//! move has an effect of its own (`moves_are_distinct`).
//!
//! Check (CO-4), the check relation for every purpose (`Hooks::CHECK`): side C's King on `k` is
//! in check when an enemy man reaches `k`, or when a non-King man Y of C, undefended and
//! attacked, reaches `k` (a Y next to `k` is defended by the King, so only distant Ys count).
//! Statuses are recomputed on the board being judged. [`Mechanic::attacked`]`(pos, sq, by)` for
//! a square that does not hold the King of `by`'s opponent (castling's transit squares) means
//! "that King, placed there (taken from its square, replacing whatever stands on `sq`), would be
//! in check" (CO-5): moving the King changes which men it defends and which lines it blocks.
//! No orthodox pin shortcut alone is sound (§9.5): [`Mechanic::shortcut`] widens the generic
//! masks with every square whose moves could create a check by (ii) (see there), and the
//! mechanic's own moves are judged on a copy of the bitboards without playing.
//!
//! Rulings: none in §9.2 is marked *(option)* or *(flag)*, so the mechanic reads no key of its
//! own (the mover choosing a coerced pawn's promotion is a plain ruling, not an option).

use super::relocation::{end_types, own_first_rank, promotion};
use crate::geometry::attacks::{bishop_attacks, rook_attacks, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveKind, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{
    Built, EditList, Hooks, Legality, Mechanic, MechanicSpec, Position, ShortcutMasks, StateLayout,
};
use crate::variant::{generator_is_orthodox, Rules, Section};

/// Registration: `specialMoves = coercion` (no option keys: §9.2 marks none).
pub const SPEC: MechanicSpec = MechanicSpec::chosen(&["specialMoves"], "coercion", build);

/// The Coercion mechanic.
#[derive(Clone, Copy, Debug)]
pub struct Coercion;

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    // reach is computed with the orthodox tables (§0.2 defines it for the six chess men)
    if !generator_is_orthodox(rules) || rules.shape.files != 8 || rules.shape.ranks != 8 {
        return Err(ctx.err(
            "specialMoves",
            "coercion needs orthodox chess men on the 8x8 board (reach, §0.2, is defined for \
             them)"
                .into(),
        ));
    }
    Ok(Some(Box::new(Coercion)))
}

// ---------------------------------------------------------------------------------------------
// A copy of the board as bitboards: statuses and check judged without playing a move.

/// The men of both colours as bitboards (orthodox types; queens in both slider sets).
#[derive(Clone, Copy, Debug)]
struct Men {
    color: [Bitboard; 2],
    pawns: Bitboard,
    knights: Bitboard,
    /// Bishops and queens.
    diag: Bitboard,
    /// Rooks and queens.
    orth: Bitboard,
    kings: Bitboard,
}

impl Men {
    /// The men of `pos`.
    #[inline]
    fn of(pos: &Position) -> Men {
        let queens = pos.kind(PieceType::QUEEN);
        Men {
            color: [pos.pieces(Color::White), pos.pieces(Color::Black)],
            pawns: pos.kind(PieceType::PAWN),
            knights: pos.kind(PieceType::KNIGHT),
            diag: pos.kind(PieceType::BISHOP) | queens,
            orth: pos.kind(PieceType::ROOK) | queens,
            kings: pos.kind(PieceType::KING),
        }
    }

    #[inline(always)]
    fn occupied(&self) -> Bitboard {
        self.color[0] | self.color[1]
    }

    /// Empties `sq`.
    #[inline(always)]
    fn clear(&mut self, sq: Square) {
        let keep = !sq.bb();
        self.color[0] &= keep;
        self.color[1] &= keep;
        self.pawns &= keep;
        self.knights &= keep;
        self.diag &= keep;
        self.orth &= keep;
        self.kings &= keep;
    }

    /// Puts `man` on the empty square `sq`.
    #[inline(always)]
    fn put(&mut self, sq: Square, man: Piece) {
        let b = sq.bb();
        self.color[man.color().index()] |= b;
        match man.kind() {
            PieceType::PAWN => self.pawns |= b,
            PieceType::KNIGHT => self.knights |= b,
            PieceType::BISHOP => self.diag |= b,
            PieceType::ROOK => self.orth |= b,
            PieceType::QUEEN => {
                self.diag |= b;
                self.orth |= b;
            }
            _ => self.kings |= b,
        }
    }

    /// The men of colour `c` that reach `sq` (§0.2).
    #[inline(always)]
    fn reaching(&self, sq: Square, c: Color) -> Bitboard {
        let own = self.color[c.index()];
        let occ = self.occupied();
        let i = sq.index();
        let mut r = (TABLES.pawn[c.flip().index()][i] & self.pawns)
            | (TABLES.knight[i] & self.knights)
            | (TABLES.king[i] & self.kings);
        if (self.orth & own).any() {
            r |= rook_attacks(sq, occ) & self.orth;
        }
        if (self.diag & own).any() {
            r |= bishop_attacks(sq, occ) & self.diag;
        }
        r & own
    }

    /// Whether colour `c` has a man reaching `sq`.
    #[inline(always)]
    fn reaches(&self, sq: Square, c: Color) -> bool {
        self.reaching(sq, c).any()
    }

    /// Whether the King of colour `c` on `k` is in check (CO-4): an enemy man reaches `k`, or a
    /// non-King man of `c` reaching `k` is undefended and attacked. Men next to `k` are
    /// defended by the King, so only the others are examined.
    #[inline]
    fn in_check(&self, k: Square, c: Color) -> bool {
        let them = c.flip();
        if self.reaches(k, them) {
            return true;
        }
        let ys = self.reaching(k, c) & !self.kings & !TABLES.king[k.index()];
        ys.into_iter()
            .any(|y| self.reaches(y, them) && !self.reaches(y, c))
    }
}

impl Mechanic for Coercion {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES
            .with(Hooks::ATTACK)
            .with(Hooks::CHECK)
            .with(Hooks::MOBILITY)
    }

    /// The coerced routes `color` has: moves of enemy men its own pieces could never make.
    fn mobility(&self, pos: &Position, color: Color) -> i32 {
        let men = Men::of(pos);
        let mut routes = 0;
        for x in coercible(pos, &men, color) {
            man_moves(pos, &men, color, x, &mut |_| routes += 1);
        }
        routes
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        super::relation_conflict("coercion", other)
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        each_coerced(pos, |m| list.push(m));
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        let man = pos.piece_at(m.from());
        let placed = match m.promotion_type() {
            Some(q) => Piece::new(man.color(), q),
            None => man,
        };
        out.push(m.from(), Piece::NONE);
        out.push(m.to(), placed);
        // the man is the opponent's: no pawn of the mover moved, so no en-passant target (P4)
        out.no_pawn_route();
    }

    fn write_move(&self, pos: &Position, m: Move, out: &mut MoveText) {
        out.push_leg(m.from(), m.to());
        if let Some(q) = m.promotion_type() {
            out.push(pos.rules().letter(q).to_ascii_lowercase());
        }
    }

    /// A spelling is one leg, a coerced route of the man on its from-square, with the effect of
    /// `m` (captures of same-type men from one square are one move).
    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        let Some(legs) = super::parse_legs(pos, s) else {
            return false;
        };
        let [leg] = legs.as_slice() else {
            return false;
        };
        if m.kind() != MoveKind::Special || leg.from != m.from() {
            return false;
        }
        let men = Men::of(pos);
        if !coercible(pos, &men, pos.side_to_move()).has(leg.from) {
            return false;
        }
        let mut found = None;
        man_moves(pos, &men, pos.side_to_move(), leg.from, &mut |r| {
            if (r.to(), r.promotion_type()) == (leg.to, leg.promo) {
                found = Some(r);
            }
        });
        found.is_some_and(|r| {
            r == m || super::effect_of_move(pos, r) == super::effect_of_move(pos, m)
        })
    }

    fn moves_are_distinct(&self) -> bool {
        true
    }

    fn generates_legal(&self) -> bool {
        true
    }

    fn generate_legal(&self, pos: &mut Position, _lg: &Legality, list: &mut MoveList) {
        let men = Men::of(pos);
        let us = pos.side_to_move();
        let king = pos.king_square(us);
        each_coerced(pos, |m| {
            if legal_on(pos, &men, king, m) {
                list.push(m);
            }
        });
    }

    fn count_moves(&self, pos: &mut Position, _lg: &Legality) -> Option<usize> {
        let men = Men::of(pos);
        let king = pos.king_square(pos.side_to_move());
        let mut n = 0;
        each_coerced(pos, |m| n += legal_on(pos, &men, king, m) as usize);
        Some(n)
    }

    fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        king_placed(pos, sq, by.flip()).in_check(sq, by.flip())
    }

    fn attacked_with(
        &self,
        pos: &Position,
        sq: Square,
        by: Color,
        occ: Bitboard,
        removed: Bitboard,
    ) -> Option<bool> {
        // judged only for the board of a King's step to `sq` (the King off its square, the man
        // on `sq` gone): the same board as the King placed on `sq`
        let c = by.flip();
        let k = pos.king_square(c)?;
        let expected = (pos.occupied() & !removed).without(k).with(sq);
        if occ != expected || (!removed.has(sq) && pos.piece_at(sq).is_some()) {
            return None;
        }
        Some(king_placed(pos, sq, c).in_check(sq, c))
    }

    /// The ordinary masks (pins, the King, the checker's line) cover the orthodox part of CO-4;
    /// this adds the men whose normal moves could create a check by (ii). Not in such a check
    /// now, a normal move from `f` to `t` (occupancy: `f` emptied, `t` filled) makes a man Y
    /// of ours a checker only if Y reaches the King afterwards and is then undefended and
    /// attacked. Y reaches it afterwards only if it does now, or it is the man arriving on `t`
    /// (`arrivals`: tested), or `f` opens or leaves a line from the King (`opening_screens`:
    /// tested). For a Y that reaches it now, its status changes only if `f` is Y, one of its
    /// defenders, or the first man on a line from Y (an enemy line opening), or `t` lands on a
    /// line from Y (a defender's line blocked): all tested; the other moves are judged by the
    /// masks.
    fn shortcut(&self, pos: &Position, masks: &mut ShortcutMasks) -> bool {
        let us = pos.side_to_move();
        let them = us.flip();
        let Some(k) = pos.king_square(us) else {
            return false;
        };
        let men = Men::of(pos);
        let occ = pos.occupied();
        let ours = pos.pieces(us);
        let near = TABLES.king[k.index()];
        masks.test_from |= opening_screens(&men, k, us);
        masks.test_to |= arrivals(&men, k, us) & !near;
        for y in men.reaching(k, us) & !men.kings & !near {
            let defenders = men.reaching(y, us);
            if defenders.is_empty() && men.reaches(y, them) {
                return false;
            }
            let around = rook_attacks(y, occ) | bishop_attacks(y, occ);
            masks.test_from |= y.bb() | defenders | (around & ours);
            masks.test_to |= around;
        }
        true
    }
}

/// The men of `c` that are the first man on a line from `c`'s King on `k` and either move
/// along that line themselves (they may stop beyond their square, still reaching the King) or
/// have a slider of `c` moving along that line right behind them (vacating the square makes
/// it reach the King): the moves that may create a new Y of CO-4 (ii) from such a line.
#[inline]
fn opening_screens(men: &Men, k: Square, c: Color) -> Bitboard {
    let own = men.color[c.index()];
    let occ = men.occupied();
    let mut out = Bitboard::EMPTY;
    for (orthogonal, sliders) in [(true, men.orth), (false, men.diag)] {
        let line_of = |o: Bitboard| {
            if orthogonal {
                rook_attacks(k, o)
            } else {
                bishop_attacks(k, o)
            }
        };
        let lines = line_of(occ);
        let screens = lines & own;
        if screens.is_empty() {
            continue;
        }
        // a screen moving along the line may stop beyond its square and reach the King
        out |= screens & sliders;
        let behind = line_of(occ & !screens) & !lines & sliders & own;
        for s in behind {
            out |= crate::geometry::attacks::between(k, s) & screens;
        }
    }
    out
}

/// The squares where a man of `c` arriving by a normal move could reach `c`'s King on `k`: a
/// knight leap from `k` that a Knight of `c` can reach, a square on a line from `k` (up to the
/// first man) that a slider moving along such lines can reach, and the last rank when a pawn
/// of `c` may promote there.
#[inline]
fn arrivals(men: &Men, k: Square, c: Color) -> Bitboard {
    let own = men.color[c.index()];
    let occ = men.occupied();
    let mut knights = Bitboard::EMPTY;
    for n in men.knights & own {
        knights |= TABLES.knight[n.index()];
    }
    let mut orth = Bitboard::EMPTY;
    for r in men.orth & own {
        orth |= rook_attacks(r, occ);
        if men.diag.has(r) {
            orth |= bishop_attacks(r, occ);
        }
    }
    let mut diag = Bitboard::EMPTY;
    for b in men.diag & own {
        diag |= bishop_attacks(b, occ);
        if men.orth.has(b) {
            diag |= rook_attacks(b, occ);
        }
    }
    // a pawn promoting (a normal move with a promotion) arrives as a new piece: its last rank
    let (seventh, last) = match c {
        Color::White => (Bitboard(0xFF << 48), Bitboard(0xFF << 56)),
        Color::Black => (Bitboard(0xFF << 8), Bitboard(0xFF)),
    };
    let promoting = if (men.pawns & own & seventh).any() {
        last
    } else {
        Bitboard::EMPTY
    };
    (TABLES.knight[k.index()] & knights)
        | (rook_attacks(k, occ) & orth)
        | (bishop_attacks(k, occ) & diag)
        | promoting
}

/// The board with the King of `c` on `sq`: as it is if that King stands there, else taken from
/// its square (if any) and placed on `sq`, replacing whatever stood there.
#[inline]
fn king_placed(pos: &Position, sq: Square, c: Color) -> Men {
    let mut men = Men::of(pos);
    let kings = pos.pieces_of(c, PieceType::KING);
    if !kings.has(sq) {
        if let Some(k) = pos.king_square(c) {
            men.clear(k);
        }
        men.clear(sq);
        men.put(sq, Piece::new(c, PieceType::KING));
    }
    men
}

/// Whether the coerced move `m` leaves the mover's King (on `king`) out of check, judged on a
/// copy of the board `men` of `pos` with the move applied.
#[inline]
fn legal_on(pos: &Position, men: &Men, king: Option<Square>, m: Move) -> bool {
    let Some(k) = king else {
        return true;
    };
    let man = pos.piece_at(m.from());
    let placed = match m.promotion_type() {
        Some(q) => Piece::new(man.color(), q),
        None => man,
    };
    let mut after = *men;
    after.clear(m.from());
    after.clear(m.to());
    after.put(m.to(), placed);
    !after.in_check(k, pos.side_to_move())
}

/// Calls `out` with each pseudo-legal coerced move of the side to move (CO-2, CO-3): for every
/// undefended non-King enemy man, its standard moves to empty squares, and when it is attacked
/// its captures of its own side's non-King men; a pawn promoting once per choice. A capture
/// of a man of the type the mover ends as only takes the man off its square: such captures
/// with the same castling rights lost are one move (ruling ID), given once with its canonical
/// spelling (the ASCII-smallest destination).
#[inline]
fn each_coerced(pos: &Position, mut out: impl FnMut(Move)) {
    let men = Men::of(pos);
    let us = pos.side_to_move();
    for x in coercible(pos, &men, us) {
        let mut vanish = [Move::NONE; 16];
        let mut n = 0;
        man_moves(pos, &men, us, x, &mut |m| {
            let victim = pos.piece_at(m.to());
            let ends = m.promotion_type().unwrap_or(pos.piece_at(x).kind());
            if victim.is_some() && victim.kind() == ends {
                if n < vanish.len() {
                    vanish[n] = m;
                    n += 1;
                }
            } else {
                out(m);
            }
        });
        for i in 0..n {
            let m = vanish[i];
            let group = super::rights_lost_at(pos, m.to());
            let first = vanish[..n].iter().all(|&o| {
                o == m
                    || super::rights_lost_at(pos, o.to()) != group
                    || super::name_before(m.to(), o.to())
            });
            if first {
                out(m);
            }
        }
    }
}

/// The enemy men `us` may move: not Kings, undefended (CO-2, CO-3).
#[inline]
fn coercible(pos: &Position, men: &Men, us: Color) -> Bitboard {
    let them = us.flip();
    let victims = pos.pieces(them) & !pos.kind(PieceType::KING);
    let mut out = Bitboard::EMPTY;
    for x in victims {
        if !men.reaches(x, them) {
            out |= x.bb();
        }
    }
    out
}

/// Every coerced route `us` has for the coercible man on `x`, before routes of equal effect
/// are merged.
#[inline]
fn man_moves(pos: &Position, men: &Men, us: Color, x: Square, out: &mut impl FnMut(Move)) {
    let them = us.flip();
    let occ = pos.occupied();
    let prey = if men.reaches(x, us) {
        pos.pieces(them) & !pos.kind(PieceType::KING)
    } else {
        Bitboard::EMPTY
    };
    let i = x.index();
    let targets = match pos.piece_at(x).kind() {
        PieceType::PAWN => return pawn_moves(pos, x, them, occ, prey, out),
        PieceType::KNIGHT => TABLES.knight[i],
        PieceType::BISHOP => bishop_attacks(x, occ),
        PieceType::ROOK => rook_attacks(x, occ),
        _ => rook_attacks(x, occ) | bishop_attacks(x, occ),
    };
    for t in targets & (!occ | prey) {
        out(Move::special(x, t, 0, None));
    }
}

/// The coerced moves of the pawn of colour `c` on `x`: steps in its own direction (a double
/// step from its own 2nd rank, middle square empty), captures of the men of `prey` diagonally
/// forward; each promotion choice on its last rank.
#[inline]
fn pawn_moves(
    pos: &Position,
    x: Square,
    c: Color,
    occ: Bitboard,
    prey: Bitboard,
    out: &mut impl FnMut(Move),
) {
    let f = c.forward();
    let man = Piece::new(c, PieceType::PAWN);
    let mut land = |t: Square| {
        for &e in end_types(pos, man, t).as_slice() {
            out(Move::special(x, t, 0, promotion(PieceType::PAWN, e)));
        }
    };
    if let Some(one) = x.offset(0, f).filter(|s| !occ.has(*s)) {
        land(one);
        let second = own_first_rank(pos.rules(), c) + f;
        if x.rank() == second {
            if let Some(two) = one.offset(0, f).filter(|s| !occ.has(*s)) {
                land(two);
            }
        }
    }
    for t in TABLES.pawn[c.index()][x.index()] & prey {
        land(t);
    }
}
