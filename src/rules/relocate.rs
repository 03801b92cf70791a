//! Relocation moves: a man A approaches a friendly man B, and B is relocated. One mechanic for
//! three Modest Proposals variants (Tony Paletta), which differ in how B moves and in a few
//! rulings, each a variants.ini key:
//!
//! * **Bump** (`relocation = bump`; shared/rules/modest-proposals-1.md §2, BU-1..BU-6): B makes
//!   one move of A's type from `S` to a square empty once A has left (so A's origin is allowed,
//!   a swap): a leaper's leap (a Knight's leap, a King's step), a slider's single step, a pawn's
//!   step straight forward.
//! * **Displacement** (`relocation = displace`; §11, DI-1..DI-6): B goes one square back along
//!   A's line of approach, `S - d` with `d` the unit step from A's origin towards `S`; after a
//!   Knight's leap (a vector that is no line) that is A's origin.
//! * **Launch** (`relocation = launch`; modest-proposals-2.md §10, LA-R1..LA-R4): B leaps exactly
//!   two squares, diagonally when A moved along a rank or file, along a rank or file when A moved
//!   diagonally or like a Knight, onto an empty square (LA-R1).
//!
//! The keys (defaults: each variant's rulings; docs/variants/relocate.md):
//!
//! | key | bump | displace | launch |
//! | --- | --- | --- | --- |
//! | `relocationPawnApproach`: pawn geometries that approach (`straight double diagonal`, `-`) | all three (BU-1) | `diagonal` (DI-2) | `diagonal` |
//! | `relocationSameType`: B may be of A's type | `false` (BU-1) | `false` (DI-1) | `true` |
//! | `relocationInCheck`: `allowed`, `kingNotRelocated`, `forbidden` | `kingNotRelocated` (BU-4) | `forbidden` (DI-4) | `allowed` |
//! | `relocationPawnBackward`: a relocated pawn may move backward | `false` (BU-3) | `true` (DI-3) | `false` (LA-R2) |
//! | `relocationCapture`: the launched man may land on an enemy man, not the King (launch only) | | | `false` (LA-R1, a flag) |
//!
//! Common to all (§0.2-§0.5, README rulings): approach is a standard move geometry onto the
//! friend (pieces by their capture geometry, sliders over empty squares); a pawn never stands on
//! its own first rank (P3); a pawn ending on its last rank promotes, each choice a move (P2), so
//! two men may promote in one move; legality is the generic test of the mover's King after the
//! whole move.
//!
//! Notation `oS,ST`: A's leg then B's, a promotion letter on the promoting man's leg.
//!
//! Identity (README ruling 2). A route `o -> S -> T` with A ending as `A'` and B as `B'` empties
//! `o` (unless `T = o`), puts `A'` on `S` and `B'` on `T`. So routes can share an effect only:
//! * as a **swap** (`T = o`) that both men can make (BU-6, DI-6): one move, spelled from the man
//!   on the ASCII-smaller square; when one man is left as it was (a pawn promoting to the type of
//!   the friend it swaps with) every swap with that one change is compared;
//! * when `A' = B` (same type, or a pawn promoting to B's type): `S` looks untouched, so the move
//!   is "the man on `o` went to `T`": an ordinary move `o -> T` with the same castling rights and
//!   en-passant target is the move (its one-leg spelling wins), else the route through the
//!   ASCII-smallest friend. A swap leaving both squares as they were is no move (§0.7).
//!
//! Move encoding: `from` = o, `to` = S, `promo` = A's promotion, and the payload
//!
//! ```text
//!  12     9  8          6  5          0
//! +---------+------------+------------+
//! |  0      | B's promo  |  T (B's)   |
//! +---------+------------+------------+
//! ```
//!
//! with B's promotion as a [`promo_code`]. En passant (README ruling 3): each pawn of the mover
//! is followed through its leg (`EditList::pawn_route`), so a pawn launched `e2-e4` over an empty
//! `e3`, or approaching by its double step, leaves the target `e3`.
//!
//! Leaves are counted without listing ([`Mechanic::count_moves`]): the routes of one pair
//! (A, B) that are unique by the analysis above are counted as a set, and legality is decided
//! without playing the move: a relocation vacates only `o` and fills only `T` (`S` stays
//! occupied), so when the side is not in check, neither man is the King and `o` is no pin
//! blocker, the King stays safe (with leaping and line-sliding enemies only); otherwise the
//! King's square is tested on the board as it would be.

use super::relocation::{
    approach_targets, direction, end_types, promo_code, promo_of_code, PawnApproach,
};
use super::{effect_of, name_before, parse_legs, rights_lost_at};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::generic::attacked_with;
use crate::moves::{Move, MoveKind, MoveList, MoveText};
use crate::piece::{Piece, PieceType, MAX_PIECE_TYPES};
use crate::position::{
    Built, Change, EditList, Hooks, Legality, Mechanic, MechanicSpec, Position, StateLayout,
};
use crate::variant::{IniError, Rules, Section};

/// Registration: `specialMoves = relocate` and its keys.
pub const SPEC: MechanicSpec = MechanicSpec::chosen(
    &[
        "specialMoves",
        "relocation",
        "relocationPawnApproach",
        "relocationSameType",
        "relocationInCheck",
        "relocationPawnBackward",
        "relocationCapture",
    ],
    "relocate",
    build,
);

/// How the relocated man B moves (`relocation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relocation {
    /// One move of A's type, a slider's single step (Bump).
    Bump,
    /// One square back along A's line of approach, to A's origin after a leap (Displacement).
    Displace,
    /// A leap of exactly two squares, diagonal after a move along a line, else orthogonal
    /// (Launch).
    Launch,
}

/// What a side in check may do (`relocationInCheck`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InCheck {
    /// Every relocation; the generic King test decides.
    Allowed,
    /// The checked King may be A but not B (BU-4).
    KingNotRelocated,
    /// No relocation at all (DI-4).
    Forbidden,
}

/// The relocation mechanic with its settings.
pub struct Relocate {
    /// How B moves.
    pub relocation: Relocation,
    /// The pawn geometries that approach.
    pub pawn: PawnApproach,
    /// B may be of A's type.
    pub same_type: bool,
    /// The in-check rule.
    pub in_check: InCheck,
    /// A relocated pawn may move backward (never onto its own first rank).
    pub pawn_backward: bool,
    /// The launched man may land on an enemy man and capture it.
    pub capture: bool,
    /// Bump: the squares one move of each type reaches from each square (leaps whole, slides
    /// and rides one step), `[type][color][square]`, before the board's occupancy.
    steps: Box<[[[Bitboard; 64]; 2]; MAX_PIECE_TYPES]>,
    /// Displacement: `back[o][s]`, the square one step back from `s` along the line from `o`
    /// (`o` itself after a leap), 64 if off the board.
    back: Box<[[u8; 64]; 64]>,
    /// For each colour, the squares from which one of its pawns may end a relocation in its
    /// promotion region: within as many ranks of it as a relocation moves a man (a pawn's
    /// approach by its double step, a launch, a displacement to a Knight's origin: two; a bump
    /// as far as a step of any type).
    promotion_reach: [Bitboard; 2],
}

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    let relocation = match ctx.get("relocation") {
        Some("bump") => Relocation::Bump,
        Some("displace") => Relocation::Displace,
        Some("launch") => Relocation::Launch,
        Some(v) => {
            return Err(ctx.err(
                "relocation",
                format!("expected bump, displace or launch, found '{v}'"),
            ))
        }
        None => {
            return Err(ctx.err(
                "relocation",
                "specialMoves = relocate needs relocation = bump, displace or launch".into(),
            ))
        }
    };
    let (pawn, same_type, in_check, pawn_backward) = match relocation {
        Relocation::Bump => (PawnApproach::ALL, false, InCheck::KingNotRelocated, false),
        Relocation::Displace => (PawnApproach::DIAGONAL, false, InCheck::Forbidden, true),
        Relocation::Launch => (PawnApproach::DIAGONAL, true, InCheck::Allowed, false),
    };
    let pawn = pawn_approach(ctx, pawn)?;
    let same_type = ctx.bool("relocationSameType", same_type)?;
    let in_check = match ctx.get("relocationInCheck") {
        None => in_check,
        Some("allowed") => InCheck::Allowed,
        Some("kingNotRelocated") => InCheck::KingNotRelocated,
        Some("forbidden") => InCheck::Forbidden,
        Some(v) => {
            return Err(ctx.err(
                "relocationInCheck",
                format!("expected allowed, kingNotRelocated or forbidden, found '{v}'"),
            ))
        }
    };
    let pawn_backward = ctx.bool("relocationPawnBackward", pawn_backward)?;
    let capture = ctx.bool("relocationCapture", false)?;
    if ctx.sets("relocationCapture") && relocation != Relocation::Launch {
        return Err(ctx.err(
            "relocationCapture",
            "only relocation = launch reads this key (a bumped or displaced man lands on an \
             empty square by its geometry)"
                .into(),
        ));
    }
    if rules.promotion_types.len() > 7 {
        // a second promotion is a 3-bit code in the payload (relocation::promo_code)
        return Err(ctx.err(
            "specialMoves",
            "relocate moves can carry at most 7 promotion types (promotionPieceTypes)".into(),
        ));
    }
    Ok(Some(Box::new(Relocate::new(
        rules,
        relocation,
        pawn,
        same_type,
        in_check,
        pawn_backward,
        capture,
    ))))
}

/// `relocationPawnApproach`: space-separated geometries among `straight`, `double`,
/// `diagonal`, or `-` for none.
fn pawn_approach(ctx: &Section, default: PawnApproach) -> Result<PawnApproach, IniError> {
    const KEY: &str = "relocationPawnApproach";
    let Some(v) = ctx.get(KEY) else {
        return Ok(default);
    };
    let mut out = PawnApproach {
        straight: false,
        double: false,
        diagonal: false,
    };
    if v.trim() == "-" {
        return Ok(out);
    }
    let mut any = false;
    for word in v.split_whitespace() {
        let slot = match word {
            "straight" => &mut out.straight,
            "double" => &mut out.double,
            "diagonal" => &mut out.diagonal,
            _ => {
                return Err(ctx.err(
                    KEY,
                    format!(
                        "expected straight, double, diagonal (any of them) or -, found '{word}'"
                    ),
                ))
            }
        };
        if *slot {
            return Err(ctx.err(KEY, format!("'{word}' is given twice")));
        }
        *slot = true;
        any = true;
    }
    if !any {
        return Err(ctx.err(KEY, "expected straight, double, diagonal or -".into()));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Geometry tables

/// For each square, the squares at the given vectors that are on the 8x8 frame.
const fn leap_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut t = [Bitboard(0); 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut bb = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bb |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        t[sq] = Bitboard(bb);
        sq += 1;
    }
    t
}

/// Launch after a move along a line: the four diagonal leaps of two squares.
static DIAGONAL_TWO: [Bitboard; 64] = leap_table(&[(2, 2), (2, -2), (-2, 2), (-2, -2)]);
/// Launch after a diagonal or oblique move: the four orthogonal leaps of two squares.
static ORTHOGONAL_TWO: [Bitboard; 64] = leap_table(&[(2, 0), (-2, 0), (0, 2), (0, -2)]);
/// A pawn's two diagonal-forward squares, by colour.
static PAWN_DIAGONAL: [[Bitboard; 64]; 2] = [
    leap_table(&[(1, 1), (-1, 1)]),
    leap_table(&[(1, -1), (-1, -1)]),
];
/// The orthogonal and diagonal neighbours (a slider's single step).
static ORTHOGONAL_ONE: [Bitboard; 64] = leap_table(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);
static DIAGONAL_ONE: [Bitboard; 64] = leap_table(&[(1, 1), (1, -1), (-1, 1), (-1, -1)]);

/// Squares on `from`'s rank or ahead of it for `color` (where a pawn that may not move backward
/// may be relocated).
#[inline(always)]
fn not_behind(color: Color, from: Square) -> Bitboard {
    let r = from.rank() as u32;
    match color {
        Color::White => Bitboard(!0u64 << (8 * r)),
        Color::Black => Bitboard(!0u64 >> (8 * (7 - r))),
    }
}

/// The squares of `color`'s own first rank.
#[inline(always)]
fn first_rank(rules: &Rules, color: Color) -> Bitboard {
    let rank = super::relocation::own_first_rank(rules, color);
    rules.board & Bitboard(0xFFu64 << (8 * rank as u32))
}

// ---------------------------------------------------------------------------------------------
// Routes

/// One relocation: A on `o` goes to `s` and ends as `ta`; B on `s` goes to `t` and ends as `tb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Route {
    o: Square,
    s: Square,
    t: Square,
    ta: PieceType,
    tb: PieceType,
}

impl Route {
    /// The square `T` where move `m` puts B.
    #[inline(always)]
    fn of_target(m: Move) -> Square {
        Square::new((m.payload() & 63) as u8)
    }

    /// The route of a move of this mechanic.
    #[inline]
    fn of(pos: &Position, m: Move) -> Route {
        let (o, s) = (m.from(), m.to());
        let p = m.payload();
        Route {
            o,
            s,
            t: Route::of_target(m),
            ta: m.promotion_type().unwrap_or_else(|| pos.piece_at(o).kind()),
            tb: promo_of_code(pos.rules(), p >> 6).unwrap_or_else(|| pos.piece_at(s).kind()),
        }
    }

    /// The move, or `None` if B's promotion cannot be encoded.
    #[inline]
    fn to_move(self, pos: &Position) -> Option<Move> {
        let a = pos.piece_at(self.o).kind();
        let b = pos.piece_at(self.s).kind();
        let code = promo_code(pos.rules(), (self.tb != b).then_some(self.tb))?;
        Some(Move::special(
            self.o,
            self.s,
            self.t.raw() as u32 | code << 6,
            (self.ta != a).then_some(self.ta),
        ))
    }

    /// The other order of a swap: B approaches A's square and A is relocated onto B's.
    #[inline]
    fn reversed(self) -> Route {
        Route {
            o: self.s,
            s: self.o,
            t: self.s,
            ta: self.tb,
            tb: self.ta,
        }
    }

    /// The square edits, leg by leg, and the routes of the mover's pawns (ruling 3).
    fn edits(self, pos: &Position, out: &mut EditList) {
        let us = pos.side_to_move();
        let (a, b) = (pos.piece_at(self.o), pos.piece_at(self.s));
        if self.t != self.o {
            out.push(self.o, Piece::NONE);
        }
        out.push(self.s, Piece::new(us, self.ta));
        out.push(self.t, Piece::new(us, self.tb));
        if a.kind() == PieceType::PAWN && self.ta == PieceType::PAWN {
            out.pawn_route(self.o, self.s);
        }
        if b.kind() == PieceType::PAWN && self.tb == PieceType::PAWN {
            out.pawn_route(self.s, self.t);
        }
        out.no_pawn_route();
    }

    /// Writes `oS,ST` with promotion letters.
    fn write(self, pos: &Position, out: &mut MoveText) {
        let rules = pos.rules();
        out.push_leg(self.o, self.s);
        if self.ta != pos.piece_at(self.o).kind() {
            out.push(rules.letter(self.ta));
        }
        out.push_leg(self.s, self.t);
        if self.tb != pos.piece_at(self.s).kind() {
            out.push(rules.letter(self.tb));
        }
    }

    /// The castling rights left after the route.
    #[inline]
    fn rights_after(self, pos: &Position) -> u8 {
        pos.castling_rights()
            & !(rights_lost_at(pos, self.o)
                | rights_lost_at(pos, self.s)
                | rights_lost_at(pos, self.t))
    }

    /// The en-passant target after the route (README ruling 3): a pawn of the mover that went,
    /// unpromoted, straight two ranks forward from its double-step region over a square empty
    /// after the move.
    fn ep(self, pos: &Position) -> Option<Square> {
        let (a, b) = (pos.piece_at(self.o), pos.piece_at(self.s));
        let empty_after = |sq: Square| {
            sq != self.t && sq != self.s && (sq == self.o || pos.piece_at(sq).is_none())
        };
        let pawn = PieceType::PAWN;
        let mut found = None;
        if a.kind() == pawn && self.ta == pawn {
            found = found.or(double_step_mid(pos, self.o, self.s, empty_after));
        }
        if b.kind() == pawn && self.tb == pawn {
            found = found.or(double_step_mid(pos, self.s, self.t, empty_after));
        }
        found
    }
}

/// The square a pawn of the side to move passed over going `from -> to`, when that was a
/// straight two-rank advance from its double-step region in a variant with en passant and the
/// square is empty afterwards (`empty_after`).
#[inline]
fn double_step_mid(
    pos: &Position,
    from: Square,
    to: Square,
    empty_after: impl Fn(Square) -> bool,
) -> Option<Square> {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let f = us.forward();
    if !rules.en_passant
        || to.file() != from.file()
        || to.rank() - from.rank() != 2 * f
        || !rules.double_step_region[us.index()].has(from)
    {
        return None;
    }
    from.offset(0, f).filter(|&mid| empty_after(mid))
}

/// Whether the side to move is in check: its King attacked under the ordinary relation, or a
/// mechanic's own relation where one has it.
#[inline]
fn in_check(pos: &Position) -> bool {
    if pos.mechanics().uses(Hooks::ATTACK) || !pos.rules().checking {
        return crate::movegen::in_check(pos);
    }
    let us = pos.side_to_move();
    pos.king_square(us)
        .is_some_and(|k| attacked_with(pos, k, us.flip(), pos.occupied()))
}

/// The en-passant target after the legal move `m` of any kind.
fn ep_after(pos: &Position, m: Move) -> Option<Square> {
    match m.kind() {
        MoveKind::Special => Route::of(pos, m).ep(pos),
        MoveKind::Normal if pos.piece_at(m.from()).kind() == PieceType::PAWN => {
            if m.promotion_type().is_some() {
                return None;
            }
            double_step_mid(pos, m.from(), m.to(), |sq| pos.piece_at(sq).is_none())
        }
        _ => None,
    }
}

impl Relocate {
    fn new(
        rules: &Rules,
        relocation: Relocation,
        pawn: PawnApproach,
        same_type: bool,
        in_check: InCheck,
        pawn_backward: bool,
        capture: bool,
    ) -> Relocate {
        let mut steps = Box::new([[[Bitboard(0); 64]; 2]; MAX_PIECE_TYPES]);
        for t in rules.piece_types() {
            let Some(def) = rules.piece(t) else {
                continue;
            };
            let m = &def.moves;
            for color in Color::ALL {
                for sq in Square::all() {
                    let mut bb = m.leap_quiet[color.index()][sq.index()];
                    if m.rook_move.is_some() {
                        bb |= ORTHOGONAL_ONE[sq.index()];
                    }
                    if m.bishop_move.is_some() {
                        bb |= DIAGONAL_ONE[sq.index()];
                    }
                    for ray in m.rays.iter().filter(|r| r.moves && !r.hop) {
                        let dr = if color == Color::White {
                            ray.step.1
                        } else {
                            -ray.step.1
                        };
                        if let Some(n) = sq.offset(ray.step.0, dr) {
                            bb |= n.bb();
                        }
                    }
                    steps[t.index()][color.index()][sq.index()] = bb;
                }
            }
        }
        // how many ranks a relocation can move a man: two, or a bump's longest step
        let mut lift = 2;
        if relocation == Relocation::Bump {
            for by_color in steps.iter() {
                for (i, &reach) in by_color.iter().flatten().enumerate() {
                    let from = Square::new((i % 64) as u8);
                    for n in reach {
                        lift = lift.max((n.rank() - from.rank()).abs());
                    }
                }
            }
        }
        let promotion_reach = Color::ALL.map(|c| {
            let zone = rules.promotion_region[c.index()];
            Square::all()
                .filter(|sq| {
                    zone.into_iter()
                        .any(|z| (z.rank() - sq.rank()).abs() <= lift)
                })
                .fold(Bitboard::EMPTY, |b, sq| b | sq.bb())
        });
        let mut back = Box::new([[64u8; 64]; 64]);
        for o in Square::all() {
            for s in Square::all() {
                let (df, dr) = direction(o, s);
                if let Some(t) = s.offset(-df, -dr) {
                    back[o.index()][s.index()] = t.raw();
                }
            }
        }
        Relocate {
            relocation,
            back,
            pawn,
            same_type,
            in_check,
            pawn_backward,
            capture,
            steps,
            promotion_reach,
        }
    }

    /// The squares B (on `s`, approached by A from `o`) may be relocated to, by the geometry of
    /// the relocation, onto an empty square (once A has left) or, where captures are allowed,
    /// an enemy man; for a pawn B not backward unless allowed. Promotion, the first-rank ban and
    /// regions are [`end_types`]'s.
    #[inline]
    fn dests(&self, pos: &Position, a: Piece, o: Square, s: Square, b: Piece) -> Bitboard {
        let rules = pos.rules();
        let us = a.color();
        let occ = pos.occupied();
        let mut ts = match self.relocation {
            Relocation::Bump => {
                self.steps[a.kind().index()][us.index()][s.index()] & !occ.without(o)
            }
            Relocation::Displace => match self.back[o.index()][s.index()] {
                t if t < 64 && (t == o.raw() || !occ.has(Square::new(t))) => Square::new(t).bb(),
                _ => Bitboard::EMPTY,
            },
            Relocation::Launch => {
                let leaps = if o.file() == s.file() || o.rank() == s.rank() {
                    DIAGONAL_TWO[s.index()]
                } else {
                    ORTHOGONAL_TWO[s.index()]
                };
                // never onto the enemy King: capturing it is no chess move
                let open = if self.capture {
                    !pos.pieces(us) & !pos.pieces_of(us.flip(), PieceType::KING)
                } else {
                    !occ
                };
                leaps & open
            }
        };
        if b.kind() == PieceType::PAWN && !self.pawn_backward {
            ts &= not_behind(us, s);
        }
        ts & rules.board
    }

    /// The friends the man on `o` may relocate: its approach targets, less those the type and
    /// in-check rules exclude (`barred`: the checked King under BU-4).
    #[inline]
    fn partners(&self, pos: &Position, o: Square, a: Piece, barred: Bitboard) -> Bitboard {
        let mut targets = self.approach(pos, o, a) & !barred;
        if !self.same_type {
            targets &= !pos.pieces_of(a.color(), a.kind());
        }
        targets
    }

    /// [`approach_targets`] of `a` on `o`, by a table lookup for a pawn that approaches only
    /// diagonally (the common case, Displacement's and Launch's).
    #[inline]
    fn approach(&self, pos: &Position, o: Square, a: Piece) -> Bitboard {
        if a.kind() == PieceType::PAWN && self.pawn == PawnApproach::DIAGONAL {
            let us = a.color();
            return PAWN_DIAGONAL[us.index()][o.index()] & pos.pieces(us) & pos.rules().board;
        }
        approach_targets(pos, o, self.pawn)
    }

    /// Whether `a` on `o` approaches the friend on `s` (one target of [`Self::approach`]).
    #[inline]
    fn approaches(&self, pos: &Position, o: Square, a: Piece, s: Square) -> bool {
        if a.kind() == PieceType::PAWN {
            return self.approach(pos, o, a).has(s);
        }
        let rules = pos.rules();
        let us = a.color();
        pos.pieces(us).has(s)
            && rules.piece(a.kind()).is_some_and(|def| {
                def.moves
                    .attacks_from_any(us, o.bb(), s, pos.occupied(), rules.board)
            })
    }

    /// Men barred from being B now, or `None` when no relocation is allowed at all.
    #[inline]
    fn barred(&self, pos: &Position, in_check: bool) -> Option<Bitboard> {
        match (in_check, self.in_check) {
            (true, InCheck::Forbidden) => None,
            (true, InCheck::KingNotRelocated) => {
                Some(pos.pieces_of(pos.side_to_move(), PieceType::KING))
            }
            _ => Some(Bitboard::EMPTY),
        }
    }

    /// Whether `r` is a valid route in `pos` under every rule except the final King test.
    fn route_ok(&self, pos: &Position, in_check: bool, r: Route) -> bool {
        let us = pos.side_to_move();
        let (a, b) = (pos.piece_at(r.o), pos.piece_at(r.s));
        if r.o == r.s || r.s == r.t || a.is_none() || b.is_none() {
            return false;
        }
        if a.color() != us || b.color() != us {
            return false;
        }
        let Some(barred) = self.barred(pos, in_check) else {
            return false;
        };
        if barred.has(r.s) || (!self.same_type && a.kind() == b.kind()) {
            return false;
        }
        self.approaches(pos, r.o, a, r.s)
            && self.dests(pos, a, r.o, r.s, b).has(r.t)
            && may_end_as(pos, a, r.s, r.ta)
            && may_end_as(pos, b, r.t, r.tb)
    }

    /// Whether the route `r` is the move it stands for (README ruling 2): not a null move, and
    /// no other route, nor an ordinary move, with the same effect is spelled before it.
    /// `partners[sq]`: [`Self::partners`] of each of our men, for the reverse of a swap.
    fn keep(&self, pos: &Position, in_check: bool, partners: &[Bitboard; 64], r: Route) -> bool {
        let (a, b) = (pos.piece_at(r.o), pos.piece_at(r.s));
        let s_unchanged = r.ta == b.kind();
        if r.t != r.o {
            return !s_unchanged || !self.same_effect_spelled_before(pos, in_check, r);
        }
        let o_unchanged = r.tb == a.kind();
        match (s_unchanged, o_unchanged) {
            (true, true) => false,
            // the reverse route puts the same men on the same squares as this one, so the end
            // types already hold: B must approach `o` and may put A on `s`
            (false, false) => {
                !(name_before(r.s, r.o)
                    && partners[r.s.index()].has(r.o)
                    && self.dests(pos, b, r.s, r.o, a).has(r.s))
            }
            _ => self.first_of_one_change_swaps(pos, in_check, r),
        }
    }

    /// For a route leaving `S` as it was (`A' = B`) and vacating `o`: whether an ordinary move
    /// `o -> T`, or a route through a friend on a smaller square, has the same effect.
    fn same_effect_spelled_before(&self, pos: &Position, in_check: bool, r: Route) -> bool {
        let rights = r.rights_after(pos);
        let ep = r.ep(pos);
        if let Some(m) = ordinary_move(pos, r.o, r.t, r.tb) {
            let ordinary_rights =
                pos.castling_rights() & !(rights_lost_at(pos, r.o) | rights_lost_at(pos, r.t));
            if ordinary_rights == rights && ep_after(pos, m) == ep {
                return true;
            }
        }
        let us = pos.side_to_move();
        let b = pos.piece_at(r.s);
        let others = approach_targets(pos, r.o, self.pawn) & pos.pieces_of(us, b.kind());
        others.iter().any(|s2| {
            let r2 = Route { s: s2, ..r };
            name_before(s2, r.s)
                && self.route_ok(pos, in_check, r2)
                && r2.rights_after(pos) == rights
                && r2.ep(pos) == ep
        })
    }

    /// For a swap that changes one square only (a pawn promoting to the type of the friend it
    /// swaps with, the friend's square left as it was): whether `r` is spelled first among the
    /// valid swaps with that effect.
    fn first_of_one_change_swaps(&self, pos: &Position, in_check: bool, r: Route) -> bool {
        let mine = spelling(pos, r);
        let mut e = EditList::new();
        r.edits(pos, &mut e);
        let effect = effect_of(pos, &e);
        let (p, becomes) = if r.ta == pos.piece_at(r.s).kind() {
            (r.o, r.tb)
        } else {
            (r.s, r.ta)
        };
        let us = pos.side_to_move();
        for q in pos.pieces(us).without(p) {
            let stays = pos.piece_at(q).kind();
            let from_p = Route {
                o: p,
                s: q,
                t: p,
                ta: stays,
                tb: becomes,
            };
            for other in [from_p, from_p.reversed()] {
                if other == r || !self.route_ok(pos, in_check, other) {
                    continue;
                }
                let mut e2 = EditList::new();
                other.edits(pos, &mut e2);
                if effect_of(pos, &e2) == effect && spelling(pos, other).as_str() < mine.as_str() {
                    return false;
                }
            }
        }
        true
    }

    /// Walks every kept route of the side to move: the routes of a pair (A, B) that are unique
    /// by construction as a set ([`Sink::unique`]), the others one by one after [`Self::keep`].
    fn walk<S: Sink>(&self, pos: &Position, in_check: bool, sink: &mut S) {
        let Some(barred) = self.barred(pos, in_check) else {
            return;
        };
        let us = pos.side_to_move();
        let mut partners = [Bitboard::EMPTY; 64];
        for o in pos.pieces(us) {
            partners[o.index()] = self.partners(pos, o, pos.piece_at(o), barred);
        }
        for o in pos.pieces(us) {
            let a = pos.piece_at(o);
            for s in partners[o.index()] {
                let b = pos.piece_at(s);
                let ts = self.dests(pos, a, o, s, b);
                if ts.is_empty() {
                    continue;
                }
                for_each_end_type(pos, a, s, |ta| {
                    // a swap, or S left as it was: compared with other routes one by one
                    let single = if ta == b.kind() { ts } else { ts & o.bb() };
                    let unique = ts & !single;
                    if unique.any() {
                        sink.unique(pos, o, s, ta, unique);
                    }
                    for t in single {
                        for_each_end_type(pos, b, t, |tb| {
                            let r = Route { o, s, t, ta, tb };
                            if self.keep(pos, in_check, &partners, r) {
                                sink.route(pos, r);
                            }
                        });
                    }
                });
            }
        }
    }

    /// The number of legal relocations (see the module documentation), each judged from what
    /// it changes; `None` when the node's legality facts cannot decide.
    fn count(&self, pos: &Position, lg: &Legality) -> Option<usize> {
        if !lg.decides() {
            return None;
        }
        let mut counter = Counter { n: 0, lg };
        self.walk(pos, in_check(pos), &mut counter);
        Some(counter.n)
    }
}

/// The ordinary move of the man on `o` to `t` that leaves a man of type `t_after` there, if
/// the ordinary generator makes one (a pawn's step, double step or capture with its promotion
/// choices; a piece's move or capture), ignoring the King test.
fn ordinary_move(pos: &Position, o: Square, t: Square, t_after: PieceType) -> Option<Move> {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let man = pos.piece_at(o);
    let def = rules.piece(man.kind())?;
    let occ = pos.occupied();
    let enemy = pos.pieces(us.flip());
    let (quiet, caps) = def.moves.targets(us, o, occ, rules.board);
    let mut reach = (quiet | (caps & enemy)) & rules.region(us, man.kind());
    if man.kind() != PieceType::PAWN {
        return (reach.has(t) && t_after == man.kind()).then(|| Move::normal(o, t));
    }
    if rules.double_step && rules.double_step_region[us.index()].has(o) {
        let f = us.forward();
        if let (Some(one), Some(two)) = (o.offset(0, f), o.offset(0, 2 * f)) {
            if !occ.has(one) && !occ.has(two) && rules.board.has(two) {
                reach |= two.bb() & rules.region(us, PieceType::PAWN);
            }
        }
    }
    if !reach.has(t) {
        return None;
    }
    if rules.promotion_region[us.index()].has(t) {
        if t_after == PieceType::PAWN {
            return (!rules.mandatory_promotion).then(|| Move::normal(o, t));
        }
        let ok = rules.promotion_types.contains(&t_after) && rules.region(us, t_after).has(t);
        return ok.then(|| Move::promotion(o, t, t_after));
    }
    (t_after == PieceType::PAWN).then(|| Move::normal(o, t))
}

/// The spelling of a route.
fn spelling(pos: &Position, r: Route) -> MoveText {
    let mut t = MoveText::new();
    r.write(pos, &mut t);
    t
}

// ---------------------------------------------------------------------------------------------
// Listing and counting

/// Where [`Relocate::walk`] puts the routes.
trait Sink {
    /// The routes A `o -> s` ending as `ta`, B to each square of `ts` with each of its end
    /// types: each a distinct move, none equal to another route or an ordinary move.
    fn unique(&mut self, pos: &Position, o: Square, s: Square, ta: PieceType, ts: Bitboard);
    /// One route, already kept.
    fn route(&mut self, pos: &Position, r: Route);
}

/// Lists the routes as moves.
struct Lister<'a> {
    list: &'a mut MoveList,
}

impl Sink for Lister<'_> {
    fn unique(&mut self, pos: &Position, o: Square, s: Square, ta: PieceType, ts: Bitboard) {
        let b = pos.piece_at(s);
        for t in ts {
            for_each_end_type(pos, b, t, |tb| self.route(pos, Route { o, s, t, ta, tb }));
        }
    }

    fn route(&mut self, pos: &Position, r: Route) {
        if let Some(m) = r.to_move(pos) {
            self.list.push(m);
        }
    }
}

/// Counts the legal routes, judged by the node's legality facts without playing them. A route
/// `o -> S -> T` empties `o` (unless B goes there: a swap) and fills or captures on `T`; `S`
/// stays occupied. Neither man the King, it is the one-man move `o -> T`, so a pair's landing
/// squares are judged as a set; the King ends on `S` when it is A, on `T` when it is B.
struct Counter<'a> {
    n: usize,
    lg: &'a Legality,
}

impl Counter<'_> {
    /// Whether the route `o -> s -> t` leaves the King safe.
    #[inline]
    fn legal(&self, pos: &Position, o: Square, s: Square, t: Square) -> bool {
        let change = Change::two_men(pos, self.lg.king(), (o, s), (s, t));
        self.lg.judge(pos, &change) == Some(true)
    }
}

impl Sink for Counter<'_> {
    fn unique(&mut self, pos: &Position, o: Square, s: Square, _ta: PieceType, ts: Bitboard) {
        let king = self.lg.king();
        let legal = if king != Some(o) && king != Some(s) {
            self.lg.relocation_targets(pos, o, ts)
        } else if king == Some(o) && self.lg.fills_only_block(pos) && {
            // the King on `S` with `o` emptied: B's landing can only block (or capture)
            let king_moved = Change {
                empties: o.bb(),
                king_to: Some(s),
                ..Change::NONE
            };
            self.lg.judge(pos, &king_moved) == Some(true)
        } {
            ts
        } else {
            let mut legal = Bitboard::EMPTY;
            for t in ts {
                if self.legal(pos, o, s, t) {
                    legal |= t.bb();
                }
            }
            legal
        };
        self.n += end_type_count(pos, pos.piece_at(s), legal);
    }

    fn route(&mut self, pos: &Position, r: Route) {
        self.n += self.legal(pos, r.o, r.s, r.t) as usize;
    }
}

/// Calls `f` with each type `man` may end as on `p` ([`end_types`]), a piece's own type
/// without building the list.
#[inline(always)]
fn for_each_end_type(pos: &Position, man: Piece, p: Square, mut f: impl FnMut(PieceType)) {
    if man.kind() != PieceType::PAWN {
        if pos.rules().region(man.color(), man.kind()).has(p) {
            f(man.kind());
        }
        return;
    }
    for &t in end_types(pos, man, p).as_slice() {
        f(t);
    }
}

/// Whether `man` may end as `t` on `p` ([`end_types`]).
#[inline]
fn may_end_as(pos: &Position, man: Piece, p: Square, t: PieceType) -> bool {
    let mut found = false;
    for_each_end_type(pos, man, p, |e| found |= e == t);
    found
}

/// `sum over t in ts of end_types(pos, man, t).len()`, by sets.
#[inline]
fn end_type_count(pos: &Position, man: Piece, ts: Bitboard) -> usize {
    let rules = pos.rules();
    let us = man.color();
    let t = man.kind();
    if t != PieceType::PAWN {
        return (ts & rules.region(us, t)).count() as usize;
    }
    let ok = ts & rules.board & !first_rank(rules, us);
    let zone = ok & rules.promotion_region[us.index()];
    let pawn_region = rules.region(us, PieceType::PAWN);
    let mut n = (ok & !zone & pawn_region).count() as usize;
    if zone.any() {
        for &q in &rules.promotion_types {
            n += (zone & rules.region(us, q)).count() as usize;
        }
        if !rules.mandatory_promotion {
            n += (zone & pawn_region).count() as usize;
        }
    }
    n
}

// ---------------------------------------------------------------------------------------------
// The mechanic

impl Mechanic for Relocate {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        let in_check = in_check(pos);
        self.walk(pos, in_check, &mut Lister { list });
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        Route::of(pos, m).edits(pos, out);
    }

    fn write_move(&self, pos: &Position, m: Move, out: &mut MoveText) {
        Route::of(pos, m).write(pos, out);
    }

    /// A valid route `oS,ST` (checked literally) whose effect (placement, castling rights,
    /// en-passant target) is the move's.
    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        let Some(legs) = parse_legs(pos, s) else {
            return false;
        };
        let &[first, second] = legs.as_slice() else {
            return false;
        };
        if second.from != first.to {
            return false;
        }
        let (a, b) = (pos.piece_at(first.from), pos.piece_at(first.to));
        if a.is_none() || b.is_none() {
            return false;
        }
        // a promotion letter only on a pawn's leg (the route check decides where it promotes)
        let letter_ok =
            |promo: Option<PieceType>, man: Piece| promo.is_none() || man.kind() == PieceType::PAWN;
        if !letter_ok(first.promo, a) || !letter_ok(second.promo, b) {
            return false;
        }
        let r = Route {
            o: first.from,
            s: first.to,
            t: second.to,
            ta: first.promo.unwrap_or(a.kind()),
            tb: second.promo.unwrap_or(b.kind()),
        };
        let in_check = in_check(pos);
        if !self.route_ok(pos, in_check, r) {
            return false;
        }
        let mut e = EditList::new();
        r.edits(pos, &mut e);
        effect_of(pos, &e) == super::effect_of_move(pos, m) && r.ep(pos) == ep_after(pos, m)
    }

    /// Every route is generated once per effect, and none with an ordinary move's effect (the
    /// tests hold the generator to this: `assert_generated_once`).
    fn moves_are_distinct(&self) -> bool {
        true
    }

    /// A goes onto a friend, so only B's square `T` can hold a man it captures.
    fn captures(&self, pos: &Position, m: Move) -> Option<bool> {
        let t = Route::of_target(m);
        Some(pos.pieces(pos.side_to_move().flip()).has(t))
    }

    /// Only a launch with `relocationCapture` captures; a pawn promotes only from near its
    /// promotion region.
    fn may_be_noisy(&self, pos: &Position) -> bool {
        let us = pos.side_to_move();
        self.capture
            || (pos.pieces_of(us, PieceType::PAWN) & self.promotion_reach[us.index()]).any()
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        self.count(pos, lg)
    }

    /// A `o -> S`, B `S -> T` (an enemy man on `T` captured).
    fn change(&self, pos: &Position, m: Move) -> Option<Change> {
        let r = Route::of(pos, m);
        let king = pos.king_square(pos.side_to_move());
        Some(Change::two_men(pos, king, (r.o, r.s), (r.s, r.t)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_and_ranks() {
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(DIAGONAL_TWO[sq("a1").index()], sq("c3").bb());
        assert_eq!(
            ORTHOGONAL_TWO[sq("d4").index()],
            sq("b4").bb() | sq("f4").bb() | sq("d2").bb() | sq("d6").bb()
        );
        assert!(not_behind(Color::White, sq("e3")).has(sq("a3")));
        assert!(!not_behind(Color::White, sq("e3")).has(sq("h2")));
        assert!(not_behind(Color::Black, sq("e6")).has(sq("h1")));
        assert!(!not_behind(Color::Black, sq("e6")).has(sq("e7")));
    }
}
