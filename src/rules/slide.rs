//! Slides after a move: Dominion (shared/rules/modest-proposals-1.md §0, §12) and Summit,
//! Crater, Ridge, Valley (modest-proposals-2.md §1, §18, §23.1), one mechanic with keys.
//!
//! After an ordinary pseudo-legal move (normal, promotion, en passant; castling only with
//! `slideAfterCastling = king`, and then the King alone, DO-2) that ends on `t`, the man that
//! moved may slide on to one square `t'` of `t`'s slide squares, when `t'` holds no friendly man
//! once the move is made (an enemy man there is captured: two captures in one move). A pawn
//! promoted on `t` slides as the promoted piece (`e7e8,e8e7q`); a pawn that reaches its last
//! rank by the slide promotes there; no pawn ever slides onto its own first rank (P3). The
//! slide squares of each square are data, a table built once from `slideGeometry`:
//! * `domino` (DO-1): the other half of the vertical domino (ranks 1-2, 3-4, 5-6, 7-8), from
//!   every square;
//! * `summit`: one square toward the nearest edge (both ways on the main diagonals), only from
//!   non-edge squares;
//! * `crater`: one square away from the nearest edge, not from d4 e4 d5 e5 nor edge squares;
//! * `ridge`: one square along the rank toward the nearer side edge (files b-d toward a, e-g
//!   toward h); `valley`: toward the centre files (b-c toward d, f-g toward e; none from d, e).
//!   Both only from non-edge squares, or with `slideFromBackRanks = true` (SU-R3's flag) also
//!   from ranks 1 and 8.
//!
//! Identity (README ruling 2, DO-3, DO-6, SU-R4): a route `o -> t -> t'` whose first leg
//! captures (or is en passant or castling) has an effect no other move has (only routes through
//! `t` capture there, and the slide square fixes the rest). A route whose first leg lands on an
//! empty square moves one man from `o` to `t'` (capturing there): it is the plain move `o t'`
//! when that exists (then not generated), else the route through the ASCII-smallest such `t`
//! (the canonical spelling). A route back to `o` with nothing captured or promoted is a null
//! move and is illegal (DO-3). So every move is generated once, and the generator skips merging.
//! En passant follows README ruling 3: the moved pawn is followed from `o` to `t'`, so
//! `e2e3,e3e4` is the double step `e2e4`, target included.
//!
//! Encoding: `Move::special(o, t, payload, promo)`, payload bits 0-5 the slide square `t'`,
//! bit 6 set when the first leg is en passant, bit 7 when it is castling (the Rook's squares
//! follow from the castling right whose King goes `o -> t`); `promo` is the man's type at the
//! end when it changed (promotion on `t` or on `t'`). Notation `ot,tt'` with the promotion
//! letter on the slide leg.
//!
//! Attack (DO-4, §18 engine notes, §23.1), the check relation for every purpose: `x` is
//! attacked by `S` when an `S` man reaches it, or when for a square `s` whose slide squares hold
//! `x` (a predecessor, at most 4) `s` holds no `S` man and an `S` man can move there: onto a
//! man of the other side by reach, onto an empty square by reach (pieces, King), a pawn step or
//! double step, or an en-passant capture (only with the target the position gives `S`). The
//! relation assumes orthodox men (checked at load).

use super::relocation::end_types;
use super::{effect_of_move, name_before, parse_legs};
use crate::geometry::attacks::{between, bishop_attacks, line, rook_attacks, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::generic;
use crate::moves::{Move, MoveKind, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{
    Built, Change, EditList, Hooks, Legality, Mechanic, MechanicSpec, Position, ShortcutMasks,
    StateLayout,
};
use crate::variant::{generator_is_orthodox, Rules, Section};

/// Registration: `specialMoves = slide` and its keys.
pub const SPEC: MechanicSpec = MechanicSpec::chosen(
    &[
        "specialMoves",
        "slideGeometry",
        "slideAfterCastling",
        "slideFromBackRanks",
    ],
    "slide",
    build,
);

/// Payload bit: the first leg is an en-passant capture.
const EP: u32 = 1 << 6;
/// Payload bit: the first leg is castling.
const CASTLING: u32 = 1 << 7;

/// Where a man may slide after a move (`slideGeometry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geometry {
    /// Dominion: the other half of the vertical domino.
    Domino,
    /// Summit: toward the nearest edge.
    Summit,
    /// Crater: away from the nearest edge.
    Crater,
    /// Ridge: along the rank toward the nearer side edge.
    Ridge,
    /// Valley: along the rank toward the centre files.
    Valley,
}

impl Geometry {
    fn parse(v: &str) -> Option<Geometry> {
        Some(match v {
            "domino" => Geometry::Domino,
            "summit" => Geometry::Summit,
            "crater" => Geometry::Crater,
            "ridge" => Geometry::Ridge,
            "valley" => Geometry::Valley,
            _ => return None,
        })
    }
}

/// The slide mechanic: its tables and settings.
pub struct Slide {
    /// The geometry, for messages and tests.
    pub geometry: Geometry,
    /// Whether the King may slide after castling (DO-2; the Summit family: no).
    after_castling: bool,
    /// The slide squares of each square.
    to: [Bitboard; 64],
    /// For each square, the squares whose slide squares hold it (the predecessors).
    from: [Bitboard; 64],
    /// The table by direction: each index step with the squares that slide by it, so the
    /// slide squares of a set of squares are a few shifts.
    steps: [(i8, Bitboard); 4],
}

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let geometry = match ctx.get("slideGeometry") {
        None => None,
        Some(v) => Some(Geometry::parse(v).ok_or_else(|| {
            ctx.err(
                "slideGeometry",
                format!("expected domino, summit, crater, ridge or valley, found '{v}'"),
            )
        })?),
    };
    let after_castling = match ctx.get("slideAfterCastling") {
        None => None,
        Some("king") => Some(true),
        Some("none") => Some(false),
        Some(v) => {
            return Err(ctx.err(
                "slideAfterCastling",
                format!("expected king or none, found '{v}'"),
            ))
        }
    };
    let back_ranks = ctx.bool("slideFromBackRanks", false)?;
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    let Some(geometry) = geometry else {
        return Err(ctx.err(
            "slideGeometry",
            "specialMoves = slide needs slideGeometry = domino, summit, crater, ridge or valley"
                .into(),
        ));
    };
    if back_ranks && !matches!(geometry, Geometry::Ridge | Geometry::Valley) {
        return Err(ctx.err(
            "slideFromBackRanks",
            "only slideGeometry = ridge or valley slides along the back ranks".into(),
        ));
    }
    if !generator_is_orthodox(rules) {
        return Err(ctx.err(
            "specialMoves",
            "specialMoves = slide needs orthodox men on the 8x8 board (its attack relation \
             assumes them)"
                .into(),
        ));
    }
    Ok(Some(Box::new(Slide::new(
        geometry,
        after_castling.unwrap_or(geometry == Geometry::Domino),
        back_ranks,
    ))))
}

/// The slide squares of `sq` under `g` (see the module notes).
fn slide_squares(g: Geometry, back_ranks: bool, sq: Square) -> Bitboard {
    let (f, r) = (sq.file(), sq.rank());
    let side_edge = f == 0 || f == 7;
    let rank_edge = r == 0 || r == 7;
    let step = |df: i8, dr: i8| sq.offset(df, dr).map_or(Bitboard::EMPTY, |s| s.bb());
    match g {
        Geometry::Domino => step(0, if r % 2 == 0 { 1 } else { -1 }),
        Geometry::Summit | Geometry::Crater => {
            let centre = (3..=4).contains(&f) && (3..=4).contains(&r);
            if side_edge || rank_edge || (g == Geometry::Crater && centre) {
                return Bitboard::EMPTY;
            }
            // the distance to each edge with the step toward it
            let edges = [(f, (-1, 0)), (7 - f, (1, 0)), (r, (0, -1)), (7 - r, (0, 1))];
            let nearest = edges.iter().map(|e| e.0).min().unwrap_or(0);
            let sign = if g == Geometry::Summit { 1 } else { -1 };
            edges
                .iter()
                .filter(|e| e.0 == nearest)
                .fold(Bitboard::EMPTY, |b, e| {
                    b | step(sign * e.1 .0, sign * e.1 .1)
                })
        }
        Geometry::Ridge | Geometry::Valley => {
            if side_edge || (rank_edge && !back_ranks) {
                return Bitboard::EMPTY;
            }
            match (g, f) {
                (Geometry::Ridge, 1..=3) => step(-1, 0),
                (Geometry::Ridge, _) => step(1, 0),
                (_, 1..=2) => step(1, 0),
                (_, 5..=6) => step(-1, 0),
                _ => Bitboard::EMPTY,
            }
        }
    }
}

impl Slide {
    /// The mechanic with its tables.
    pub fn new(geometry: Geometry, after_castling: bool, back_ranks: bool) -> Slide {
        let mut to = [Bitboard::EMPTY; 64];
        let mut from = [Bitboard::EMPTY; 64];
        for i in 0..64u8 {
            let sq = Square::new(i);
            to[sq.index()] = slide_squares(geometry, back_ranks, sq);
            for s in to[sq.index()] {
                from[s.index()] |= sq.bb();
            }
        }
        let mut steps = [(0i8, Bitboard::EMPTY); 4];
        for (i, d) in [1i8, -1, 8, -8].into_iter().enumerate() {
            steps[i].0 = d;
            for sq in 0..64u8 {
                let target = sq as i16 + d as i16;
                if (0..64).contains(&target) && to[sq as usize].has(Square::new(target as u8)) {
                    steps[i].1 |= Square::new(sq).bb();
                }
            }
        }
        Slide {
            geometry,
            after_castling,
            to,
            from,
            steps,
        }
    }

    /// The slide squares of `sq`.
    pub fn slide_squares(&self, sq: Square) -> Bitboard {
        self.to[sq.index()]
    }

    /// The slide squares of the squares of `set`, together.
    #[inline(always)]
    fn slides_of(&self, set: Bitboard) -> Bitboard {
        self.steps
            .iter()
            .fold(Bitboard::EMPTY, |b, &(d, mask)| b | (set & mask).shift(d))
    }
}

impl Mechanic for Slide {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES.with(Hooks::ATTACK).with(Hooks::CHECK)
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        super::relation_conflict("specialMoves = slide", other)
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        self.each_move(pos, &mut |m| list.push(m));
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        edits(pos, m, out);
    }

    fn change(&self, pos: &Position, m: Move) -> Option<Change> {
        if m.payload() & CASTLING != 0 {
            return None;
        }
        // the man leaves o for t'; a man on t (the first leg's capture) and an en-passant
        // victim are removed, and o may be t' again (a capture on t, then back)
        let (o, t, t2) = (m.from(), m.to(), slide_square(m));
        let man = pos.piece_at(o);
        let mut removed = t.bb() & pos.occupied();
        if m.payload() & EP != 0 {
            removed |= ep_victim(t, man.color()).bb();
        }
        let king_to = (man.kind() == PieceType::KING && t2 != o).then_some(t2);
        let mut c = Change::net(pos, o.bb() | removed, t2.bb(), king_to);
        c.captured |= removed & !t2.bb();
        Some(c)
    }

    fn write_move(&self, pos: &Position, m: Move, out: &mut MoveText) {
        out.push_leg(m.from(), m.to());
        out.push_leg(m.to(), slide_square(m));
        if let Some(t) = m.promotion_type() {
            out.push(pos.rules().letter(t));
        }
    }

    /// A spelling is a base move `o t` then the slide `t t'` (promotion letter on the slide
    /// leg), valid in the position, whose effect is `m`'s: also a route the generator leaves
    /// out because a plain move or another route has its effect.
    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        let Some(legs) = parse_legs(pos, s) else {
            return false;
        };
        let &[l1, l2] = legs.as_slice() else {
            return false;
        };
        if l1.promo.is_some() || l2.from != l1.to {
            return false;
        }
        let mut bases = MoveList::new();
        generic::pseudo_moves(pos, &mut bases);
        let want = effect_of_move(pos, m);
        let mut found = false;
        for &base in bases.iter() {
            if base.from() != l1.from || base.to() != l1.to {
                continue;
            }
            self.slides_after(pos, base, true, &mut Origin::default(), &mut |r| {
                found |= slide_square(r) == l2.to
                    && r.promotion_type() == l2.promo
                    && effect_of_move(pos, r) == want;
            });
        }
        found
    }

    fn moves_are_distinct(&self) -> bool {
        true
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        let masks = lg.masks();
        Some(self.count_legal(pos, masks))
    }

    fn generates_legal(&self) -> bool {
        true
    }

    fn generate_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) {
        let mut own = MoveList::new();
        self.generate(pos, &mut own);
        self.keep_legal(pos, lg.masks(), &own, list);
    }

    fn generate_noisy_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) -> bool {
        let mut own = MoveList::new();
        self.each_noisy_move(pos, &mut |m| own.push(m));
        self.keep_legal(pos, lg.masks(), &own, list);
        true
    }

    fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        let (occ, men) = (pos.occupied(), pos.pieces(by));
        plain_attacked(pos, sq, by, occ, men, true)
            || self.slide_attack(pos, sq, by, occ, men, pos.ep_square())
    }

    fn attacked_with(
        &self,
        pos: &Position,
        sq: Square,
        by: Color,
        occ: Bitboard,
        removed: Bitboard,
    ) -> Option<bool> {
        Some(self.attacked_with_slides(pos, sq, by, occ, removed))
    }

    fn shortcut(&self, pos: &Position, masks: &mut ShortcutMasks) -> bool {
        self.widen_shortcut(pos, masks)
    }

    /// The ordinary moves the widened shortcut tests (to and from the King's predecessors, the
    /// screens) change only the occupancy of `o` and `t` and the men captured there, so the
    /// relation is judged on that board instead of playing them. A pawn's double step is
    /// played: it leaves an en-passant target the enemy may use to reach a predecessor. Out
    /// of check, a man the ordinary relation does not pin (or one staying on its pin's line)
    /// cannot expose the King to it, so only the slides are asked.
    #[inline]
    fn judge_ordinary(&self, pos: &Position, lg: &Legality, m: Move) -> Option<bool> {
        if m.kind() != MoveKind::Normal {
            return None;
        }
        let king = single_king(pos)?;
        let (o, t) = (m.from(), m.to());
        if pos.piece_at(o).kind() == PieceType::PAWN && (o.rank() - t.rank()).abs() == 2 {
            return None;
        }
        let occ = pos.occupied();
        let now = (occ & !o.bb()) | t.bb();
        let them = pos.side_to_move().flip();
        let masks = lg.masks();
        let plain_safe = o != king
            && !masks.test_all()
            && masks.target == Bitboard::FULL
            && (!lg.pinned().has(o) || line(king, o).has(t));
        if plain_safe {
            let men = pos.pieces(them) & !t.bb();
            return Some(!self.slide_attack(pos, king, them, now, men, None));
        }
        let sq = if o == king { t } else { king };
        Some(!self.attacked_with_slides(pos, sq, them, now, t.bb() & occ))
    }
}

/// The side to move's King, when it has exactly one.
#[inline]
fn single_king(pos: &Position) -> Option<Square> {
    let kings = pos.pieces_of(pos.side_to_move(), PieceType::KING);
    (kings.any() && !kings.more_than_one()).then(|| kings.lsb())
}

/// The slide square of a slide move.
#[inline(always)]
fn slide_square(m: Move) -> Square {
    Square::new((m.payload() & 63) as u8)
}

/// The pawn an en-passant capture by `us` on `t` takes.
#[inline(always)]
fn ep_victim(t: Square, us: Color) -> Square {
    Square::new(((t.rank() - us.forward()) * 8 + t.file()) as u8)
}

/// The Rook's squares of the castling whose King goes `o -> t`.
fn castling_rook(pos: &Position, o: Square, t: Square) -> Option<(Square, Square)> {
    (0..4).find_map(|right| {
        pos.castle_path(right)
            .filter(|p| p.mv.from() == o && p.mv.to() == t)
            .map(|p| (p.mv.rook_from(), p.mv.rook_to()))
    })
}

/// The net edits of a slide move, with the mover followed for en passant.
fn edits(pos: &Position, m: Move, out: &mut EditList) {
    let (o, t, t2) = (m.from(), m.to(), slide_square(m));
    let man = pos.piece_at(o);
    let placed = match m.promotion_type() {
        Some(p) => Piece::new(man.color(), p),
        None => man,
    };
    if m.payload() & CASTLING != 0 {
        let Some((rf, rt)) = castling_rook(pos, o, t) else {
            return;
        };
        let rook = pos.piece_at(rf);
        if o != rt && o != t2 {
            out.push(o, Piece::NONE);
        }
        if rf != rt && rf != t2 && rf != o {
            out.push(rf, Piece::NONE);
        }
        out.push(rt, rook);
        out.push(t2, placed);
        out.no_pawn_route();
        return;
    }
    if o != t2 {
        out.push(o, Piece::NONE);
    }
    if m.payload() & EP != 0 {
        let v = ep_victim(t, man.color());
        if v != t2 {
            out.push(v, Piece::NONE);
        }
    }
    if pos.piece_at(t).is_some() {
        out.push(t, Piece::NONE);
    }
    out.push(t2, placed);
    if placed.kind() == PieceType::PAWN {
        out.pawn_route(o, t2);
    } else {
        out.no_pawn_route();
    }
}

impl Slide {
    /// The enemy men whose capture (their square emptied, the capturer elsewhere) can expose
    /// the King on `k` under the slide relation: those on a predecessor of `k`, those among at
    /// most two men between `k` or a predecessor and an enemy slider on that line (the capturer
    /// may be the other one), and those on the middle
    /// square of an enemy pawn's double step to a predecessor.
    fn opened_by_capture(&self, pos: &Position, k: Square) -> Bitboard {
        let them = pos.side_to_move().flip();
        let theirs = pos.pieces(them);
        let occ = pos.occupied();
        let preds = self.from[k.index()];
        let queens = pos.kind(PieceType::QUEEN);
        let orth = (pos.kind(PieceType::ROOK) | queens) & theirs;
        let diag = (pos.kind(PieceType::BISHOP) | queens) & theirs;
        let their_pawns = pos.pieces_of(them, PieceType::PAWN);
        let double = pos.rules().double_step_region[them.index()];
        let fw = them.forward();
        let mut out = preds & theirs;
        for s in preds.with(k) {
            let snipers = (rook_attacks(s, Bitboard::EMPTY) & orth)
                | (bishop_attacks(s, Bitboard::EMPTY) & diag);
            for p in snipers {
                // the capturer may leave the same line: two screens can both go
                let screen = between(s, p) & occ;
                if screen.count() <= 2 {
                    out |= screen & theirs;
                }
            }
            if let (Some(m), Some(p)) = (s.offset(0, -fw), s.offset(0, -2 * fw)) {
                if their_pawns.has(p) && double.has(p) {
                    out |= m.bb() & theirs;
                }
            }
        }
        out
    }

    /// Calls `out` with each pseudo-legal slide move, once per effect: after the pieces' moves
    /// (from their capture geometry, which is their move geometry in orthodox chess), the
    /// pawns' (steps, double steps, captures, each promotion, en passant), then castling.
    fn each_move(&self, pos: &Position, out: &mut impl FnMut(Move)) {
        self.each_move_except(pos, Bitboard::EMPTY, out);
    }

    /// [`Slide::each_move`] without the moves of the men on `skip`.
    fn each_move_except(&self, pos: &Position, skip: Bitboard, out: &mut impl FnMut(Move)) {
        self.each_move_of(pos, skip, false, out);
    }

    /// [`Slide::each_move`], only the moves that capture or promote (in the same order).
    fn each_noisy_move(&self, pos: &Position, out: &mut impl FnMut(Move)) {
        self.each_move_of(pos, Bitboard::EMPTY, true, out);
    }

    /// [`Slide::each_move`] without the moves of the men on `skip`, and only those that
    /// capture or promote when `noisy_only`.
    fn each_move_of(
        &self,
        pos: &Position,
        skip: Bitboard,
        noisy_only: bool,
        out: &mut impl FnMut(Move),
    ) {
        let rules = pos.rules();
        let us = pos.side_to_move();
        let own = pos.pieces(us);
        let occ = pos.occupied();
        let mut origin = Origin {
            noisy_only,
            ..Origin::default()
        };
        let theirs = pos.pieces(us.flip());
        let zone = rules.promotion_region[us.index()];
        // where a pawn's route may not end as a pawn: its zone and its own first rank (P3)
        let first_rank = if us == Color::White {
            Bitboard(0xFF)
        } else {
            Bitboard(0xFF << 56)
        };
        let pawn_changes = zone | first_rank;
        for o in own & !skip {
            let man = pos.piece_at(o);
            let reach = orthodox_reach(man, o, occ);
            if man.kind() != PieceType::PAWN {
                self.routes_as_is(
                    o,
                    reach & !occ,
                    reach & theirs,
                    own,
                    theirs,
                    noisy_only,
                    out,
                );
                continue;
            }
            let pushes = quiet_targets(pos, o, man);
            let tos = pushes | (reach & theirs);
            if ((tos | self.slides_of(tos)) & pawn_changes).is_empty() {
                // every route ends with the pawn a pawn
                self.routes_as_is(o, pushes, reach & theirs, own, theirs, noisy_only, out);
            } else {
                origin.set_reach(pos, o, man, reach);
                self.pawn_routes(pos, o, tos, &mut origin, out);
            }
            if let Some(ep) = pos
                .ep_square()
                .filter(|&e| rules.en_passant && reach.has(e))
            {
                self.slides_after(pos, Move::en_passant(o, ep), false, &mut origin, out);
            }
        }
        let rights = pos.castling_rights() >> (2 * us.index()) & 3;
        if self.after_castling && rights != 0 {
            let mut castles = MoveList::new();
            generic::pseudo_castling_moves(pos, &mut castles);
            for &base in castles.iter() {
                self.slides_after(pos, base, false, &mut origin, out);
            }
        }
    }

    /// The routes of the pawn on `o` through its targets `tos` (pushes and captures), each
    /// promotion of a base move into the zone apart (`origin` holds its plain moves).
    fn pawn_routes(
        &self,
        pos: &Position,
        o: Square,
        tos: Bitboard,
        origin: &mut Origin,
        out: &mut impl FnMut(Move),
    ) {
        let rules = pos.rules();
        let zone = rules.promotion_region[pos.side_to_move().index()];
        for t in tos {
            if zone.has(t) {
                for &q in &rules.promotion_types {
                    let base = Move::promotion(o, t, q);
                    self.slides_after(pos, base, false, origin, out);
                }
            } else {
                self.slides_after(pos, Move::normal(o, t), false, origin, out);
            }
        }
    }

    /// The routes of the man on `o` that ends every route as it is (a piece, or a pawn that
    /// can reach neither its zone nor its first rank), whose plain moves go to the empty
    /// squares `quiet` and capture on `captures`, as [`Slide::slides_after`] gives them target
    /// by target, without its general case: a first leg capturing on `t` goes on to every
    /// slide square of `t` free of our men; a quiet one only to a slide square no plain move
    /// reaches, never back to `o`, and only through the ASCII-smallest empty square it can
    /// pass (the canonical route). With `noisy_only`, only the routes that capture.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn routes_as_is(
        &self,
        o: Square,
        quiet: Bitboard,
        captures: Bitboard,
        own: Bitboard,
        theirs: Bitboard,
        noisy_only: bool,
        out: &mut impl FnMut(Move),
    ) {
        let own_after = own.without(o);
        let plain = quiet | captures;
        let mut quiet_ends = !own_after & !plain & !o.bb();
        if noisy_only {
            quiet_ends &= theirs;
        }
        for t in plain {
            let slides = self.to[t.index()];
            if captures.has(t) {
                for t2 in slides & !own_after {
                    out(Move::special(o, t, t2.raw() as u32, None));
                }
                continue;
            }
            for t2 in slides & quiet_ends {
                let others = self.from[t2.index()] & quiet;
                if !others.into_iter().any(|t1| name_before(t1, t)) {
                    out(Move::special(o, t, t2.raw() as u32, None));
                }
            }
        }
    }

    /// Appends the legal moves of `moves` (slide moves of `pos`) to `list`, judged by the node's
    /// shortcut `masks` where they decide ([`Slide::judge`]).
    fn keep_legal(
        &self,
        pos: &mut Position,
        masks: &ShortcutMasks,
        moves: &MoveList,
        list: &mut MoveList,
    ) {
        let king = single_king(pos);
        // out of check, a route capturing on its first leg is a normal move to `t'` that also
        // empties `t` ([`Slide::count_bulk`]'s rule); the squares whose emptying can expose the
        // King are found at the first such route
        let by_masks = king.is_some() && !masks.test_all() && masks.target == Bitboard::FULL;
        let mut opened = None;
        for &m in moves.iter() {
            let (o, t) = (m.from(), m.to());
            let capture_route = by_masks
                && m.payload() & (EP | CASTLING) == 0
                && Some(o) != king
                && !masks.test_from.has(o)
                && !masks.test_to.has(slide_square(m))
                && pos.occupied().has(t);
            if capture_route {
                let k = king.expect("by_masks");
                let open = *opened.get_or_insert_with(|| self.opened_by_capture(pos, k));
                if !open.has(t) {
                    list.push(m);
                    continue;
                }
            }
            let legal = match self.judge(pos, m, king, Some(masks)) {
                Some(legal) => legal,
                None => generic::legal_when_played(pos, m),
            };
            if legal {
                list.push(m);
            }
        }
    }

    /// The number of legal slide moves (see [`Slide::judge`]).
    fn count_legal(&self, pos: &mut Position, masks: &ShortcutMasks) -> usize {
        let king = single_king(pos);
        let mut n = 0;
        let mut doubtful = MoveList::new();
        let p: &Position = pos;
        let mut bulk = Bitboard::EMPTY;
        if king.is_some() && !masks.test_all() {
            let us = p.side_to_move();
            let kings = p.pieces_of(us, PieceType::KING);
            // pawns on their own first four ranks: no move and slide of theirs reaches a back
            // rank (a step or double step, then one square)
            let near_half = if us == Color::White {
                Bitboard(0x0000_0000_FFFF_FFFF)
            } else {
                Bitboard(0xFFFF_FFFF_0000_0000)
            };
            let pawns_out = p.pieces_of(us, PieceType::PAWN) & near_half;
            let pawns = p.pieces_of(us, PieceType::PAWN);
            bulk = (p.pieces(us) & !pawns & !kings & !masks.test_from)
                | (pawns_out & !masks.test_from);
            n += self.count_bulk(p, bulk, king, masks, &mut doubtful);
        }
        self.each_move_except(
            p,
            bulk,
            &mut |m| match self.judge(p, m, king, Some(masks)) {
                Some(legal) => n += legal as usize,
                None => doubtful.push(m),
            },
        );
        n + doubtful
            .iter()
            .filter(|&&m| generic::legal_when_played(pos, m))
            .count()
    }

    /// The legal slide moves of the men on `men` (no King, no pawn that could promote, none in
    /// the masks' `test_from`), when the side is judged by the masks: the quiet-first-leg
    /// routes of a man go, once per slide square, where no plain move of it goes; they are legal exactly
    /// when that square is in the masks' target and not in `test_to` (those are played). The
    /// routes that capture on their first leg are judged one by one.
    fn count_bulk(
        &self,
        pos: &Position,
        men: Bitboard,
        king: Option<Square>,
        masks: &ShortcutMasks,
        doubtful: &mut MoveList,
    ) -> usize {
        let rules = pos.rules();
        let us = pos.side_to_move();
        let own = pos.pieces(us);
        let theirs = pos.pieces(us.flip());
        let occ = pos.occupied();
        // out of check, a route capturing on `t` changes the occupancy as a normal move plus
        // the emptied `t`: judged by the masks unless emptying `t` can open an attack
        let opened = (masks.target == Bitboard::FULL)
            .then(|| king.map(|k| self.opened_by_capture(pos, k)))
            .flatten();
        let mut n = 0;
        for o in men {
            let man = pos.piece_at(o);
            let reach = orthodox_reach(man, o, occ);
            let own_after = own.without(o);
            let (quiet, plain, captures) = if man.kind() == PieceType::PAWN {
                let pushes = quiet_targets(pos, o, man);
                (pushes, pushes | (reach & theirs), reach & theirs)
            } else {
                (reach & !occ, reach & !own, reach & theirs)
            };
            let t2s = self.slides_of(quiet) & !own_after & !plain & !o.bb();
            n += (t2s & masks.target & !masks.test_to).count() as usize;
            for t2 in t2s & masks.test_to {
                // the canonical route: through the ASCII-smallest square
                let t = (self.from[t2.index()] & quiet).into_iter().reduce(|a, b| {
                    if name_before(b, a) {
                        b
                    } else {
                        a
                    }
                });
                if let Some(t) = t {
                    // judged on the board after it (played only for a pawn's two-rank route)
                    let m = Move::special(o, t, t2.raw() as u32, None);
                    match self.judge(pos, m, king, None) {
                        Some(legal) => n += legal as usize,
                        None => doubtful.push(m),
                    }
                }
            }
            if man.kind() == PieceType::PAWN {
                let ep = pos
                    .ep_square()
                    .filter(|&e| rules.en_passant && reach.has(e));
                if let Some(ep) = ep {
                    let mut origin = Origin::default();
                    let base = Move::en_passant(o, ep);
                    self.slides_after(pos, base, false, &mut origin, &mut |m| doubtful.push(m));
                }
            }
            for t in captures {
                for t2 in self.to[t.index()] & !own_after {
                    if opened.is_some_and(|open| !open.has(t) && !masks.test_to.has(t2)) {
                        n += 1;
                        continue;
                    }
                    let m = Move::special(o, t, t2.raw() as u32, None);
                    match self.judge(pos, m, king, None) {
                        Some(legal) => n += legal as usize,
                        None => doubtful.push(m),
                    }
                }
            }
        }
        n
    }

    /// Whether the pseudo-legal slide move `m` leaves the King (on `king`, the side's only
    /// one) unattacked, judged without playing it, or `None` when it must be played (castling,
    /// en passant, a pawn's straight two-rank route, no single King). A route whose first leg
    /// lands on an empty square changes the occupancy as the normal move `o t'` would, so the
    /// shortcut masks (`masks`) judge it when the man is not the King; every other route is
    /// judged on the board as it would be after it (the attackers are the enemy's men less
    /// those captured; en passant cannot follow for them).
    #[inline]
    fn judge(
        &self,
        pos: &Position,
        m: Move,
        king: Option<Square>,
        masks: Option<&ShortcutMasks>,
    ) -> Option<bool> {
        let king = king?;
        let (o, t, t2) = (m.from(), m.to(), slide_square(m));
        if m.payload() & (EP | CASTLING) != 0 {
            return None;
        }
        let pawn = pos.piece_at(o).kind() == PieceType::PAWN;
        if pawn && o.file() == t2.file() && (o.rank() - t2.rank()).abs() == 2 {
            return None;
        }
        let occ = pos.occupied();
        if let Some(masks) = masks.filter(|k| o != king && !k.test_all() && !occ.has(t)) {
            if !masks.test_from.has(o) && !masks.test_to.has(t2) {
                return Some(masks.target.has(t2));
            }
        }
        let now = (occ & !o.bb() & !t.bb()) | t2.bb();
        let removed = (t.bb() & occ) | t2.bb();
        let sq = if o == king { t2 } else { king };
        let them = pos.side_to_move().flip();
        Some(!self.attacked_with_slides(pos, sq, them, now, removed))
    }

    /// [`Mechanic::attacked_with`]: the plain relation and the slides, on the board with
    /// occupancy `occ` and the men on `removed` gone.
    #[inline]
    fn attacked_with_slides(
        &self,
        pos: &Position,
        sq: Square,
        by: Color,
        occ: Bitboard,
        removed: Bitboard,
    ) -> bool {
        // a King's move leaves no en-passant target for `by`
        let men = pos.pieces(by) & !removed;
        plain_attacked(pos, sq, by, occ, men, true)
            || self.slide_attack(pos, sq, by, occ, men, None)
    }

    /// Calls `out` with each slide move after the pseudo-legal ordinary move `base`: every
    /// route when `all`, else once per effect (the module notes) and never a null move.
    #[inline]
    fn slides_after(
        &self,
        pos: &Position,
        base: Move,
        all: bool,
        origin: &mut Origin,
        out: &mut impl FnMut(Move),
    ) {
        let us = pos.side_to_move();
        let (o, t) = (base.from(), base.to());
        let mut own = pos.pieces(us).without(o);
        let mut flags = 0;
        match base.kind() {
            MoveKind::Castling => {
                if !self.after_castling {
                    return;
                }
                flags = CASTLING;
                own = own.without(base.rook_from()) | base.rook_to().bb();
            }
            MoveKind::EnPassant => flags = EP,
            _ => {}
        }
        let mut targets = self.to[t.index()] & !own;
        let man = pos.piece_at(o);
        let moved = match base.promotion_type() {
            Some(p) => Piece::new(us, p),
            None => man,
        };
        let first_leg_noisy = base.kind() == MoveKind::EnPassant
            || base.promotion_type().is_some()
            || (base.kind() == MoveKind::Normal && pos.occupied().has(t));
        if origin.noisy_only && !first_leg_noisy {
            // the slide must capture, or promote a pawn
            let mut wanted = pos.pieces(us.flip());
            if moved.kind() == PieceType::PAWN {
                wanted |= pos.rules().promotion_region[us.index()];
            }
            targets &= wanted;
        }
        if targets.is_empty() {
            return;
        }
        // the first leg lands on an empty square and captures nothing
        let quiet = base.kind() == MoveKind::Normal && !pos.occupied().has(t);
        // a piece keeps its type (orthodox regions: the whole board); a pawn may promote
        let single = [moved.kind()];
        for t2 in targets {
            let ends;
            let fs: &[PieceType] = if moved.kind() == PieceType::PAWN {
                ends = end_types(pos, moved, t2);
                ends.as_slice()
            } else {
                &single
            };
            for &f in fs {
                let promo = (f != man.kind()).then_some(f);
                if !all && quiet {
                    if t2 == o && promo.is_none() {
                        continue;
                    }
                    origin.set(pos, o, man);
                    if self.shadowed(pos, origin, t, t2, man, f) {
                        continue;
                    }
                }
                out(Move::special(o, t, t2.raw() as u32 | flags, promo));
            }
        }
    }

    /// Whether the quiet-first-leg route `o -> t -> t2` of `man` (from `origin`), ending as
    /// type `f`, has the effect of a plain move or of a route through an ASCII-smaller square.
    fn shadowed(
        &self,
        pos: &Position,
        origin: &Origin,
        t: Square,
        t2: Square,
        man: Piece,
        f: PieceType,
    ) -> bool {
        let zone = pos.rules().promotion_region[man.color().index()];
        let plain = if man.kind() == PieceType::PAWN {
            // a plain pawn move promotes exactly when it ends in the promotion zone
            zone.has(t2) != (f == PieceType::PAWN)
        } else {
            f == man.kind()
        };
        if plain && origin.plain.has(t2) {
            return true;
        }
        let others = origin.quiet & self.from[t2.index()];
        others
            .into_iter()
            .any(|t1| name_before(t1, t) && route_may_end_as(pos, man, t1, t2, f))
    }

    /// Whether `by` attacks `x` through a slide, with occupancy `occ`, `by`'s men on `men` and
    /// `ep` the en-passant target of the position (see the module notes).
    #[inline]
    fn slide_attack(
        &self,
        pos: &Position,
        x: Square,
        by: Color,
        occ: Bitboard,
        men: Bitboard,
        ep: Option<Square>,
    ) -> bool {
        let preds = self.from[x.index()] & !men;
        if preds.is_empty() {
            return false;
        }
        for s in preds {
            if occ.has(s) {
                if plain_attacked(pos, s, by, occ, men, true) {
                    return true;
                }
                continue;
            }
            if plain_attacked(pos, s, by, occ, men, false)
                || pawn_moves_to(pos, s, by, occ, men, ep)
            {
                return true;
            }
        }
        false
    }

    /// The legality shortcut under the slide relation (`Mechanic::shortcut`). In check under it:
    /// everything is tested. Otherwise a normal move of ours can create a slide attack on the
    /// King only by leaving or entering a predecessor `s` of the King's square, by unmasking an
    /// enemy slider aimed at `s`, by clearing the middle square of an enemy pawn's double step
    /// to `s`, or by a double step that leaves the target `s`: those moves are tested.
    fn widen_shortcut(&self, pos: &Position, masks: &mut ShortcutMasks) -> bool {
        let us = pos.side_to_move();
        let them = us.flip();
        let Some(k) = pos.king_square(us) else {
            return false;
        };
        let preds = self.from[k.index()];
        if preds.is_empty() {
            return true;
        }
        let occ = pos.occupied();
        let theirs = pos.pieces(them);
        if self.slide_attack(pos, k, them, occ, theirs, pos.ep_square()) {
            return false;
        }
        let ours = pos.pieces(us);
        let queens = pos.kind(PieceType::QUEEN);
        let orth = (pos.kind(PieceType::ROOK) | queens) & theirs;
        let diag = (pos.kind(PieceType::BISHOP) | queens) & theirs;
        let their_pawns = pos.pieces_of(them, PieceType::PAWN);
        let double = pos.rules().double_step_region[them.index()];
        let (fw, our_fw) = (them.forward(), us.forward());
        for s in preds {
            masks.test_from |= s.bb();
            masks.test_to |= s.bb();
            let snipers = (rook_attacks(s, theirs) & orth) | (bishop_attacks(s, theirs) & diag);
            for p in snipers {
                let screen = between(s, p) & occ;
                if !screen.more_than_one() {
                    masks.test_from |= screen & ours;
                }
            }
            if let (Some(m), Some(p)) = (s.offset(0, -fw), s.offset(0, -2 * fw)) {
                if their_pawns.has(p) && double.has(p) {
                    masks.test_from |= m.bb() & ours;
                }
            }
            if let Some(p) = s.offset(0, -our_fw) {
                masks.test_from |= p.bb() & ours;
            }
        }
        true
    }
}

/// Whether a man of `by` on `men` attacks `sq` in the orthodox sense with occupancy `occ`
/// (pawns only when `pawns`): the mechanic runs only on orthodox men on the 8x8 board, so the
/// fixed tables replace the data-driven walk over the piece types, which dominated the leaf
/// count (every King step, slide and tested move asks this two or three times).
#[inline(always)]
fn plain_attacked(
    pos: &Position,
    sq: Square,
    by: Color,
    occ: Bitboard,
    men: Bitboard,
    pawns: bool,
) -> bool {
    let i = sq.index();
    let theirs = men & pos.pieces(by);
    let of = |t: PieceType| pos.kind(t) & theirs;
    let queens = of(PieceType::QUEEN);
    (TABLES.knight[i] & of(PieceType::KNIGHT)).any()
        || (TABLES.king[i] & of(PieceType::KING)).any()
        || (pawns && (TABLES.pawn[by.flip().index()][i] & of(PieceType::PAWN)).any())
        || (rook_attacks(sq, occ) & (of(PieceType::ROOK) | queens)).any()
        || (bishop_attacks(sq, occ) & (of(PieceType::BISHOP) | queens)).any()
}

/// Where `man` on `o` captures with occupancy `occ` (its capture geometry, which is its move
/// geometry for the pieces): the men are orthodox (the mechanic is refused on other data), so
/// the fixed tables stand in for the data-driven capture geometry of the piece definitions.
#[inline(always)]
fn orthodox_reach(man: Piece, o: Square, occ: Bitboard) -> Bitboard {
    let i = o.index();
    match man.kind() {
        PieceType::PAWN => TABLES.pawn[man.color().index()][i],
        PieceType::KNIGHT => TABLES.knight[i],
        PieceType::BISHOP => bishop_attacks(o, occ),
        PieceType::ROOK => rook_attacks(o, occ),
        PieceType::QUEEN => bishop_attacks(o, occ) | rook_attacks(o, occ),
        PieceType::KING => TABLES.king[i],
        _ => Bitboard::EMPTY,
    }
}

/// Whether a pawn of `by` (on `men`) can move to the empty square `s`: a step, a double step
/// over an empty square, or an en-passant capture onto the target `ep` that `by` may use.
#[inline]
fn pawn_moves_to(
    pos: &Position,
    s: Square,
    by: Color,
    occ: Bitboard,
    men: Bitboard,
    ep: Option<Square>,
) -> bool {
    let pawns = pos.pieces_of(by, PieceType::PAWN) & men;
    if pawns.is_empty() {
        return false;
    }
    let fw = by.forward();
    let rules = pos.rules();
    if let Some(one) = s.offset(0, -fw) {
        if pawns.has(one) {
            return true;
        }
        if let Some(two) = s.offset(0, -2 * fw) {
            if rules.double_step
                && pawns.has(two)
                && !occ.has(one)
                && rules.double_step_region[by.index()].has(two)
            {
                return true;
            }
        }
    }
    // the target of the other side's double step: `by`'s fifth rank is one behind it
    if ep == Some(s) && s.relative_rank(by, rules.shape.ranks) == 5 {
        return [-1, 1]
            .iter()
            .any(|&df| s.offset(df, -fw).is_some_and(|p| pawns.has(p)));
    }
    false
}

/// The ordinary moves (castling aside) of the man on one square, for comparing routes with
/// them: computed once per origin.
#[derive(Default)]
struct Origin {
    /// Only the routes that capture or promote are wanted (quiescence's moves).
    noisy_only: bool,
    sq: Option<Square>,
    /// Where a plain move goes (empty squares and enemy men).
    plain: Bitboard,
    /// Where a non-capturing plain move goes.
    quiet: Bitboard,
}

impl Origin {
    /// The moves of `man` on `o`, unless already known.
    #[inline]
    fn set(&mut self, pos: &Position, o: Square, man: Piece) {
        if self.sq == Some(o) {
            return;
        }
        self.set_reach(pos, o, man, orthodox_reach(man, o, pos.occupied()));
    }

    /// The moves of `man` on `o`, whose capture geometry is `reach`.
    #[inline]
    fn set_reach(&mut self, pos: &Position, o: Square, man: Piece, reach: Bitboard) {
        let us = man.color();
        self.sq = Some(o);
        if man.kind() == PieceType::PAWN {
            self.quiet = quiet_targets(pos, o, man);
            self.plain = self.quiet | (reach & pos.pieces(us.flip()));
        } else {
            self.quiet = reach & !pos.occupied();
            self.plain = reach & !pos.pieces(us);
        }
    }
}

/// The empty squares the pawn `man` on `o` reaches by a step or a double step.
fn quiet_targets(pos: &Position, o: Square, man: Piece) -> Bitboard {
    let rules = pos.rules();
    let us = man.color();
    let occ = pos.occupied();
    let fw = us.forward();
    let mut out = Bitboard::EMPTY;
    if let Some(one) = o.offset(0, fw).filter(|&s| !occ.has(s)) {
        out |= one.bb();
        let may_double = rules.double_step && rules.double_step_region[us.index()].has(o);
        if let Some(two) = o.offset(0, 2 * fw).filter(|&s| may_double && !occ.has(s)) {
            out |= two.bb();
        }
    }
    out
}

/// Whether the route of `man` through the empty `t1` to `t2` can end with the man of type `f`.
fn route_may_end_as(pos: &Position, man: Piece, t1: Square, t2: Square, f: PieceType) -> bool {
    if man.kind() != PieceType::PAWN {
        return f == man.kind();
    }
    let zone = pos.rules().promotion_region[man.color().index()];
    (zone.has(t1) || zone.has(t2)) == (f != PieceType::PAWN)
}
