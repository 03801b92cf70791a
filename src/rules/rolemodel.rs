//! Role-Model (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-2.md §1,
//! §17 RM-R1..RM-R3, 23.1, README rulings 1-4).
//!
//! A Rook, Knight, Bishop or Queen moves and captures only as the highest-ranking piece
//! standing anywhere on its own rank or file: both colours, itself included, whatever stands
//! between (RM-R1, RM-R2). Knight < Bishop < Rook < Queen < King; pawns do not count. Where that
//! piece is a King, the man steps like a King (no castling) and stays non-royal (RM-R3). Kings
//! and pawns are FIDE's, castling included.
//!
//! The ranking is the key `roleModelOrder` (piece letters from low to high, default `nbrqk`),
//! so a variant with other pieces can rank them: every listed type but the pawn counts on the
//! lines; every listed type but the royal one moves by its effective type (the type it moves
//! as: the highest listed type on its rank and file); unlisted types move as their own.
//!
//! Moves: the builder switches the ranked movers off in the generic generator (`quiet_off` and
//! `captures_off`), and this module generates their moves with the effective type's move
//! tables, as plain one-leg `Move::normal` moves (a man from one square to another). They are
//! moved by no other rule, so they differ from every ordinary move (`moves_are_distinct`).
//!
//! Check (23.1): the attack relation uses effective types; it is the check relation for every
//! purpose (`Hooks::CHECK`). A man moving changes other men's effective types, so legality is
//! judged on a virtual board after the move (`View`), without make/unmake, and the King's
//! steps likewise ([`Mechanic::attacked_with`]: the King then stands on the queried square).
//!
//! Fast paths on orthodox data: a man on its King's rank or file is a King-mover (the King
//! outranks all), so no slider attacks a King along a rank or file from afar (RM-4). An enemy
//! man attacks the King only from a diagonal, a knight square or a king square of it. A move
//! that empties no square on the King's diagonals and touches (by its two squares' ranks and
//! files) no enemy man on those squares is legal when the side is not in check.

use crate::geometry::attacks::{between, bishop_attacks, rook_attacks, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::generic::attacked_from_squares;
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::{PieceType, MAX_PIECE_TYPES};
use crate::position::{
    types_of, Built, Hooks, Legality, Mechanic, MechanicSpec, Position, ShortcutMasks, StateLayout,
};
use crate::variant::{generator_is_orthodox, Rules, Section};

/// Registration: `specialMoves = rolemodel` and its ranking `roleModelOrder`.
pub const SPEC: MechanicSpec =
    MechanicSpec::chosen(&["specialMoves", "roleModelOrder"], "rolemodel", build);

/// The Role-Model mechanic and its settings.
#[derive(Clone, Debug)]
pub struct RoleModel {
    /// The ranked types, from low to high (`roleModelOrder`).
    order: Vec<PieceType>,
    /// The types that move by their effective type (bit `t` for type `t`).
    movers: u16,
    /// The ranked types (bit set).
    ranked: u16,
    /// Orthodox data with the default ranking: the fast legality paths hold.
    fast: bool,
}

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    if rules.shape.files != 8 || rules.shape.ranks != 8 {
        return Err(ctx.err(
            "specialMoves",
            "rolemodel needs the 8x8 board (its lines are bitboard ranks and files)".into(),
        ));
    }
    let order = if ctx.get("roleModelOrder").is_some() {
        ctx.letters("roleModelOrder", rules)?
    } else {
        let letters = [
            PieceType::KNIGHT,
            PieceType::BISHOP,
            PieceType::ROOK,
            PieceType::QUEEN,
            PieceType::KING,
        ];
        letters
            .into_iter()
            .filter(|t| rules.type_mask >> t.0 & 1 != 0)
            .collect()
    };
    if order.is_empty() {
        return Err(ctx.err(
            "roleModelOrder",
            "expected piece letters from low to high, e.g. nbrqk".into(),
        ));
    }
    if order.contains(&PieceType::PAWN) {
        return Err(ctx.err(
            "roleModelOrder",
            "pawns are not pieces: they do not count (§17), leave 'p' out".into(),
        ));
    }
    let ranked = order.iter().fold(0u16, |a, t| a | 1 << t.0);
    let royal = rules.royal.filter(|r| ranked >> r.0 & 1 != 0);
    let movers = ranked & !royal.map_or(0, |r| 1 << r.0);
    let default_order = order
        == [
            PieceType::KNIGHT,
            PieceType::BISHOP,
            PieceType::ROOK,
            PieceType::QUEEN,
            PieceType::KING,
        ];
    let fast = generator_is_orthodox(rules) && default_order && royal == Some(PieceType::KING);
    rules.quiet_off |= movers;
    rules.captures_off |= movers;
    Ok(Some(Box::new(RoleModel {
        order,
        movers,
        ranked,
        fast,
    })))
}

/// Every full rank holding a square of `b`.
#[inline(always)]
fn rank_fill(b: Bitboard) -> Bitboard {
    let mut x = b.0;
    x = (x | x >> 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x >> 2) & 0x0303_0303_0303_0303;
    x = (x | x >> 1) & 0x0101_0101_0101_0101;
    Bitboard(x * 0xFF)
}

/// Every full file holding a square of `b`.
#[inline(always)]
fn file_fill(b: Bitboard) -> Bitboard {
    let mut x = b.0;
    x |= x >> 32;
    x |= x >> 16;
    x |= x >> 8;
    Bitboard((x & 0xFF) * 0x0101_0101_0101_0101)
}

/// The rank and file of `sq`.
#[inline(always)]
fn lines(sq: Square) -> Bitboard {
    Bitboard((0xFFu64 << (8 * sq.rank() as u32)) | (Bitboard::FILE_A.0 << sq.file() as u32))
}

/// A board for the attack relation: the men by type (both colours) and by colour, and the
/// occupancy. Built from a position, then changed by the move being judged.
#[derive(Clone, Copy)]
struct View {
    kind: [Bitboard; MAX_PIECE_TYPES],
    color: [Bitboard; 2],
    occ: Bitboard,
}

impl View {
    /// The position's board.
    #[inline]
    fn of(pos: &Position) -> View {
        let mut kind = [Bitboard::EMPTY; MAX_PIECE_TYPES];
        for t in types_of(pos.rules().type_mask) {
            kind[t.index()] = pos.kind(t);
        }
        View {
            kind,
            color: [pos.pieces(Color::White), pos.pieces(Color::Black)],
            occ: pos.occupied(),
        }
    }

    /// Removes whatever stands on the squares of `b`.
    #[inline(always)]
    fn clear(&mut self, b: Bitboard) {
        for k in self.kind.iter_mut() {
            *k &= !b;
        }
        self.color[0] &= !b;
        self.color[1] &= !b;
        self.occ &= !b;
    }

    /// Puts a man of type `t` and colour `c` on `sq` (the square must be clear).
    #[inline(always)]
    fn put(&mut self, sq: Square, t: PieceType, c: Color) {
        self.kind[t.index()] = self.kind[t.index()].with(sq);
        self.color[c.index()] = self.color[c.index()].with(sq);
        self.occ = self.occ.with(sq);
    }

    /// The man of type `t`, colour `c`, moved from `f` to `t` capturing what stands there.
    #[inline(always)]
    fn moved(mut self, from: Square, to: Square, t: PieceType, c: Color) -> View {
        self.clear(from.bb() | to.bb());
        self.put(to, t, c);
        self
    }
}

impl RoleModel {
    /// The men of the ranked movers on `view`, split by effective type: `eff[t]` the movers
    /// (both colours) whose highest ranked type on their rank and file is `t`.
    #[inline]
    fn effective(&self, view: &View) -> [Bitboard; MAX_PIECE_TYPES] {
        let mut eff = [Bitboard::EMPTY; MAX_PIECE_TYPES];
        let mut left = Bitboard::EMPTY;
        for t in types_of(self.movers) {
            left |= view.kind[t.index()];
        }
        for &t in self.order.iter().rev() {
            if left.is_empty() {
                break;
            }
            let men = view.kind[t.index()];
            if men.is_empty() {
                continue;
            }
            let reach = (rank_fill(men) | file_fill(men)) & left;
            eff[t.index()] = reach;
            left &= !reach;
        }
        eff
    }

    /// The effective type of the mover on `sq` of `view`.
    fn effective_type(&self, view: &View, sq: Square) -> PieceType {
        let l = lines(sq);
        *self
            .order
            .iter()
            .rev()
            .find(|t| (view.kind[t.index()] & l).any())
            .expect("a ranked mover stands on its own lines")
    }

    /// Whether `sq` is attacked by `by` on `view`, men moving by their effective types.
    #[inline]
    fn attacked_on(&self, pos: &Position, view: &View, sq: Square, by: Color) -> bool {
        if self.fast {
            return orthodox_attacked(view, sq, by);
        }
        let eff = self.effective(view);
        let theirs = view.color[by.index()];
        let movers = self.movers;
        attacked_from_squares(pos, sq, by, pos.rules().type_mask, view.occ, |t| {
            let own = if movers >> t.0 & 1 != 0 {
                Bitboard::EMPTY
            } else {
                view.kind[t.index()]
            };
            (own | eff[t.index()]) & theirs
        })
    }

    /// Whether the side to move's King is safe after its mover on `from` goes to `to`.
    #[inline]
    fn safe_after(&self, pos: &Position, base: &View, from: Square, to: Square) -> bool {
        let us = pos.side_to_move();
        let Some(k) = pos.king_square(us) else {
            return true;
        };
        let t = pos.piece_at(from).kind();
        let view = base.moved(from, to, t, us);
        !self.attacked_on(pos, &view, k, us.flip())
    }

    /// Calls `out(from, targets)` for each mover of the side to move: the squares it may go to
    /// by its effective type (empty or holding an enemy man).
    #[inline]
    fn each_mover(&self, pos: &Position, view: &View, mut out: impl FnMut(Square, Bitboard)) {
        let rules = pos.rules();
        let us = pos.side_to_move();
        let ours = view.color[us.index()];
        let mut mine = Bitboard::EMPTY;
        for t in types_of(self.movers) {
            mine |= view.kind[t.index()];
        }
        mine &= ours;
        if mine.is_empty() {
            return;
        }
        let eff = if self.fast {
            orthodox_effective(view)
        } else {
            self.effective(view)
        };
        let enemy = view.color[us.flip().index()];
        for &t in &self.order {
            let men = eff[t.index()] & mine;
            if self.fast {
                for a in men {
                    out(a, orthodox_targets(t, a, view.occ) & (!view.occ | enemy));
                }
                continue;
            }
            if men.is_empty() {
                continue;
            }
            let Some(def) = rules.piece(t) else { continue };
            for a in men {
                let region = rules.region(us, pos.piece_at(a).kind());
                let (quiet, caps) = def.moves.targets(us, a, view.occ, rules.board);
                let to = ((quiet & !view.occ) | (caps & view.color[us.flip().index()])) & region;
                out(a, to);
            }
        }
    }

    /// The squares from which, on orthodox data, an enemy man can attack `k` (whatever its
    /// effective type): `k`'s diagonals up to the first man on `occ`, knight and king squares.
    #[inline(always)]
    fn reach_of_king(k: Square, occ: Bitboard) -> Bitboard {
        bishop_attacks(k, occ) | TABLES.knight[k.index()] | TABLES.king[k.index()]
    }

    /// The number (`count`) or list of the legal moves of the movers of the side to move.
    fn legal_movers(&self, pos: &Position, mut push: impl FnMut(Move)) {
        let us = pos.side_to_move();
        let view = View::of(pos);
        let k = pos.king_square(us);
        // orthodox data, not in check: the moves that cannot change an attack on the King
        let quick = match k {
            Some(k) if self.fast && !self.attacked_on(pos, &view, k, us.flip()) => {
                let diag = bishop_attacks(k, view.occ);
                // pawns and the King keep their powers whatever the lines hold
                let fixed = view.kind[PieceType::PAWN.index()] | view.kind[PieceType::KING.index()];
                let candidates = Self::reach_of_king(k, view.occ.without(k))
                    & view.color[us.flip().index()]
                    & !fixed;
                Some((diag, candidates))
            }
            _ => None,
        };
        self.each_mover(pos, &view, |a, to| {
            for c in to {
                let sure = quick.is_some_and(|(diag, candidates)| {
                    !diag.has(a) && (candidates & (lines(a) | lines(c))).is_empty()
                });
                if sure || self.safe_after(pos, &view, a, c) {
                    push(Move::normal(a, c));
                }
            }
        });
    }
}

/// How many squares a man of colour `c` on `a` would reach on `view` moving as type `t`
/// (empty squares and enemy men).
fn reach_count(pos: &Position, view: &View, t: PieceType, c: Color, a: Square) -> i32 {
    let rules = pos.rules();
    let Some(def) = rules.piece(t) else {
        return 0;
    };
    let (quiet, caps) = def.moves.targets(c, a, view.occ, rules.board);
    ((quiet & !view.occ) | (caps & view.color[c.flip().index()])).count() as i32
}

/// The full ranks and files holding a square of `b`.
#[inline(always)]
fn lines_of(b: Bitboard) -> Bitboard {
    rank_fill(b) | file_fill(b)
}

/// [`RoleModel::effective`] for the default ranking on orthodox data, unrolled.
#[inline(always)]
fn orthodox_effective(view: &View) -> [Bitboard; MAX_PIECE_TYPES] {
    let k = |t: PieceType| view.kind[t.index()];
    let mut left =
        k(PieceType::KNIGHT) | k(PieceType::BISHOP) | k(PieceType::ROOK) | k(PieceType::QUEEN);
    let mut eff = [Bitboard::EMPTY; MAX_PIECE_TYPES];
    for t in [
        PieceType::KING,
        PieceType::QUEEN,
        PieceType::ROOK,
        PieceType::BISHOP,
    ] {
        let men = k(t);
        if men.any() {
            let these = lines_of(men) & left;
            eff[t.index()] = these;
            left &= !these;
        }
    }
    eff[PieceType::KNIGHT.index()] = left;
    eff
}

/// Where a man moving as the orthodox type `t` on `a` goes (empty squares or captures).
#[inline(always)]
fn orthodox_targets(t: PieceType, a: Square, occ: Bitboard) -> Bitboard {
    match t {
        PieceType::KNIGHT => TABLES.knight[a.index()],
        PieceType::BISHOP => bishop_attacks(a, occ),
        PieceType::ROOK => rook_attacks(a, occ),
        PieceType::QUEEN => bishop_attacks(a, occ) | rook_attacks(a, occ),
        _ => TABLES.king[a.index()],
    }
}

/// Whether `sq` is attacked by `by` on `view` (orthodox data, the default ranking).
#[inline]
fn orthodox_attacked(view: &View, sq: Square, by: Color) -> bool {
    let eff = orthodox_effective(view);
    let theirs = view.color[by.index()];
    let e = |t: PieceType| eff[t.index()];
    let pawns = view.kind[PieceType::PAWN.index()] & theirs;
    let kings = (view.kind[PieceType::KING.index()] | e(PieceType::KING)) & theirs;
    let knights = e(PieceType::KNIGHT) & theirs;
    let diag = (e(PieceType::BISHOP) | e(PieceType::QUEEN)) & theirs;
    let orth = (e(PieceType::ROOK) | e(PieceType::QUEEN)) & theirs;
    (TABLES.pawn[by.flip().index()][sq.index()] & pawns).any()
        || (TABLES.king[sq.index()] & kings).any()
        || (TABLES.knight[sq.index()] & knights).any()
        || (diag.any() && (bishop_attacks(sq, view.occ) & diag).any())
        || (orth.any() && (rook_attacks(sq, view.occ) & orth).any())
}

impl Mechanic for RoleModel {
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

    /// The targets `color`'s movers have by their effective types, minus those their own
    /// types would give them.
    fn mobility(&self, pos: &Position, color: Color) -> i32 {
        let view = View::of(pos);
        let eff = self.effective(&view);
        let mut squares = 0;
        for &t in &self.order {
            for a in eff[t.index()] & view.color[color.index()] {
                let own = pos.piece_at(a).kind();
                if own != t {
                    squares += reach_count(pos, &view, t, color, a)
                        - reach_count(pos, &view, own, color, a);
                }
            }
        }
        squares
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        super::relation_conflict("rolemodel", other)
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        let view = View::of(pos);
        self.each_mover(pos, &view, |a, to| {
            for c in to {
                list.push(Move::normal(a, c));
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
        self.legal_movers(pos, |m| list.push(m));
    }

    fn count_moves(&self, pos: &mut Position, _lg: &Legality) -> Option<usize> {
        let mut n = 0;
        self.legal_movers(pos, |_| n += 1);
        Some(n)
    }

    /// Right after a castling, asked for the castled King's square (the legality test of the
    /// move), it also asks whether that square was attacked before the move: FIDE 3.8.2.1 bars
    /// castling onto a square attacked in the position where it is made, and here the King's
    /// and Rook's arrival can change the attackers' types (a Rook on the King's new file becomes
    /// a King-mover), so the test after the move is not enough.
    fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        let view = View::of(pos);
        if self.attacked_on(pos, &view, sq, by) {
            return true;
        }
        match pos.last_move() {
            Some(m)
                if m.kind() == MoveKind::Castling && m.to() == sq && by == pos.side_to_move() =>
            {
                let before = Self::before_castling(pos, view, m);
                self.attacked_on(pos, &before, sq, by)
            }
            _ => false,
        }
    }

    /// The board with occupancy `occ` and the men on `removed` gone; the King of the side
    /// attacked, when its square is empty in `occ`, stands on `sq` (the generic code asks this
    /// for a King's step only).
    fn attacked_with(
        &self,
        pos: &Position,
        sq: Square,
        by: Color,
        occ: Bitboard,
        removed: Bitboard,
    ) -> Option<bool> {
        let mut view = View::of(pos);
        view.clear(removed);
        let side = by.flip();
        if let Some(k) = pos.king_square(side) {
            if !occ.has(k) {
                view.clear(k.bb() | sq.bb());
                view.put(sq, pos.piece_at(k).kind(), side);
            }
        }
        view.occ = occ;
        Some(self.attacked_on(pos, &view, sq, by))
    }

    /// The generic masks are computed with the ordinary relation, which this one is not a
    /// widening of (a Rook on the King's file gives no check here): they are replaced. On
    /// orthodox data and not in check, the data's moves other than the King's, castling,
    /// promotions and en passant are pawn steps and captures. A pawn does not count on the
    /// lines, so its move changes the attack only by emptying its square (a screen on a
    /// King's diagonal: no other line can carry an attack from afar) or by capturing a piece
    /// (effective types change: captures on enemy pieces are tested) or by promoting (the new
    /// piece counts on its lines: pawns one step from promotion are tested).
    fn shortcut(&self, pos: &Position, masks: &mut ShortcutMasks) -> bool {
        if !self.fast {
            return false;
        }
        let us = pos.side_to_move();
        let them = us.flip();
        let Some(k) = pos.king_square(us) else {
            return false;
        };
        let view = View::of(pos);
        if self.attacked_on(pos, &view, k, them) {
            return false;
        }
        let theirs = pos.pieces(them);
        let eff = orthodox_effective(&view);
        let diag = (eff[PieceType::BISHOP.index()] | eff[PieceType::QUEEN.index()]) & theirs;
        // our men screening the King from an enemy man that moves diagonally now: the only
        // line that carries an attack from afar (pawn moves change no effective type)
        let screens = bishop_attacks(k, view.occ) & pos.pieces(us);
        let mut pinned = Bitboard::EMPTY;
        for x in bishop_attacks(k, view.occ & !screens) & diag {
            pinned |= between(k, x) & screens;
        }
        let seventh = match us {
            Color::White => Bitboard(0xFF << 48),
            Color::Black => Bitboard(0xFF << 8),
        };
        let promoting = pos.pieces_of(us, PieceType::PAWN) & seventh;
        masks.test_from = k.bb() | pinned | promoting;
        masks.test_to = theirs & !pos.kind(PieceType::PAWN);
        masks.target = Bitboard::FULL;
        true
    }
}

impl RoleModel {
    /// The board `view` (after the castling `m`) as it was before it.
    fn before_castling(pos: &Position, mut view: View, m: Move) -> View {
        let castler = pos.side_to_move().flip();
        let king = pos.piece_at(m.to()).kind();
        let rook = pos.piece_at(m.rook_to()).kind();
        view.clear(m.to().bb() | m.rook_to().bb());
        view.put(m.from(), king, castler);
        view.put(m.rook_from(), rook, castler);
        view
    }

    /// The type the man on `sq` of `pos` moves as (its own when it is not a ranked mover).
    pub fn moves_as(&self, pos: &Position, sq: Square) -> PieceType {
        let t = pos.piece_at(sq).kind();
        if self.movers >> t.0 & 1 == 0 {
            return t;
        }
        self.effective_type(&View::of(pos), sq)
    }

    /// The ranked types (bit `t` for type `t`).
    pub fn ranked(&self) -> u16 {
        self.ranked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_cover_whole_lines() {
        let sq = |s: &str| Square::parse(s).unwrap();
        let b = sq("c3").bb() | sq("h8").bb();
        assert_eq!(rank_fill(b).0, 0xFF << 16 | 0xFF << 56);
        assert_eq!(
            file_fill(b).0,
            Bitboard::FILE_A.0 << 2 | Bitboard::FILE_A.0 << 7
        );
        assert_eq!(lines(sq("a1")).0, 0xFF | Bitboard::FILE_A.0);
    }
}
