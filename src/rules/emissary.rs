//! Emissary (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-1.md §0,
//! §13, ruling EM-E1), the first variant with holdings.
//!
//! * EM-1 withdrawal: with no man held, the King steps (its ordinary capture step, never
//!   castling) onto a friendly man, which leaves the board and is held. Legal when the King is
//!   safe on its new square, also while in check.
//! * EM-2: at most one held man per player.
//! * EM-3 re-entry (ruling E1, `emissaryReentry = vacated`): a move of a man of the
//!   highest-ranking type among the player's non-King men on the board at the start of the
//!   turn may put the held man on the square that man just left; castling counts as a move of
//!   its Rook (the drop goes on the Rook's vacated corner when Rooks rank highest). Legality is
//!   judged after the drop; the move without the drop stays available.
//! * EM-4: no pawn re-enters on rank 1 or 8; on its 2nd rank it has the double step (P1).
//! * EM-5: with no non-King man on the board there is no re-entry; K v K is dead even with a
//!   held man (`deadMaterial = k:k` in the variant's section).
//! * EM-6: neither withdrawal nor re-entry captures; checks are orthodox.
//!
//! Ranking (`emissaryRank`, highest first, default `qrbnp`): the seed ranks Q > R > B > N >
//! pawn. A variant with other piece types must rank every non-King type in this key (a load
//! error says which letter is missing), since the text gives no rank for them.
//!
//! E2 (a stand-alone drop on a square vacated earlier) is not offered: the text never says
//! which vacated square counts nor how long it stays valid, so it has no rules to implement.
//!
//! Holdings live in two 5-bit state fields (type + 1, 0 = none), so they are hashed and
//! restored by `unmake`; after every special move [`Mechanic::after_move`] sets them. The FEN
//! writes them Crazyhouse-style after the placement (`[Q]`, `[p]`, `[Rn]`), and only when a
//! man is held, so the start FEN stays the orthodox one; `[]` or no brackets read as none.
//!
//! Move encoding: `Move::special(from, to, payload, promo)` with
//!
//! ```text
//!  12    8 7     6 5      2 1   0
//! +-------+-------+--------+-----+
//! | spare | right | type   | tag |
//! +-------+-------+--------+-----+
//! ```
//!
//! tag 0: withdrawal (`from` the King, `to` the withdrawn man's square, `type` its type);
//! tag 1: re-entry after the normal move or promotion `from`-`to` (`promo`); tag 2: after the
//! en-passant capture `from`-`to`; tag 3: after the castling of right `right` (its King's
//! squares in `from`/`to`). `type` is the dropped man's. Notation: a withdrawal is the King's
//! UCI move (`e1d2`); a re-entry is the base move's UCI spelling, a comma and the drop
//! (`d1a4,N@d1`, `e1g1,R@h1`). Castling is also accepted as King-takes-Rook (`e1h1,R@h1`) and
//! in two legs (`e1g1,h1f1`, also for the plain castling, 0.8).
//!
//! Identity: a withdrawal or re-entry changes the holdings, which no ordinary move does; two
//! re-entries differ in their base moves, whose effects differ; so every move is generated
//! once and the merge by effect is skipped (`moves_are_distinct`).
//!
//! Legality without make/unmake (orthodox data): a withdrawal only vacates the King's square,
//! so the King is safe exactly when its new square is unattacked with that square emptied. A
//! re-entry refills the square its mover left, so the occupancy only grows and the one man
//! removed is the captured one: when not in check it is always legal (even for a pinned
//! mover), in single check exactly when it captures the checker or lands between it and the
//! King. En-passant and castling bases, double check and other data are played and tested.

use super::{back_ranks, effect_of_move, name_before, parse_legs, rights_lost_at};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::{generic, move_to_string};
use crate::moves::{Move, MoveKind, MoveList, MoveText};
use crate::piece::{Piece, PieceType, MAX_PIECE_TYPES};
use crate::position::{
    Built, EditList, FenError, Field, Hooks, Legality, Mechanic, MechanicSpec, Position,
    ShortcutMasks, StateLayout,
};
use crate::variant::{generator_is_orthodox, IniError, Rules, Section};

/// Registration: `specialMoves = emissary`, its ruling key `emissaryReentry` and the ranking
/// `emissaryRank`.
pub const SPEC: MechanicSpec = MechanicSpec::chosen(
    &["specialMoves", "emissaryReentry", "emissaryRank"],
    "emissary",
    build,
);

/// The Emissary mechanic: its ranking and state fields.
#[derive(Clone, Debug)]
pub struct Emissary {
    /// Non-King types, highest rank first.
    rank: Vec<PieceType>,
    /// Each colour's held man (type + 1, 0 = none), indexed by `Color::index`.
    held: [Field; 2],
    /// The data is orthodox chess (up to castling): legal moves listed and counted mostly
    /// without make/unmake.
    fast: bool,
}

const TAG_WITHDRAW: u32 = 0;
const TAG_NORMAL: u32 = 1;
const TAG_EP: u32 = 2;
const TAG_CASTLE: u32 = 3;

fn build(ctx: &Section, rules: &mut Rules, state: &mut StateLayout) -> Built {
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    match ctx.get("emissaryReentry") {
        None | Some("vacated") => {}
        Some(v) => {
            return Err(ctx.err(
                "emissaryReentry",
                format!(
                    "expected vacated (ruling EM-E1: the held man re-enters on the square the \
                     highest-ranking man just left), found '{v}'; the E2 reading has no rules \
                     in the text, so it is not offered"
                ),
            ))
        }
    }
    let rank = ranking(ctx, rules)?;
    if rules.piece(PieceType::KING).is_none() {
        return Err(ctx.err(
            "specialMoves",
            "emissary needs a King (it withdraws the men)".into(),
        ));
    }
    let field = |state: &mut StateLayout| {
        state
            .bits(5, "emissary")
            .map_err(|e| ctx.err("specialMoves", e))
    };
    let held = [field(state)?, field(state)?];
    Ok(Some(Box::new(Emissary {
        rank,
        held,
        fast: generator_is_orthodox(rules),
    })))
}

/// The ranking of `emissaryRank` (default `qrbnp`), every non-King type of the variant ranked.
fn ranking(ctx: &Section, rules: &Rules) -> Result<Vec<PieceType>, IniError> {
    let rank = if ctx.get("emissaryRank").is_some() {
        ctx.letters("emissaryRank", rules)?
    } else {
        "qrbnp"
            .chars()
            .filter_map(|c| rules.type_of_letter(c))
            .collect()
    };
    if rank.contains(&PieceType::KING) {
        return Err(ctx.err(
            "emissaryRank",
            "the King is not ranked (only non-King men re-admit a held man)".into(),
        ));
    }
    for t in rules.piece_types() {
        if t != PieceType::KING && !rank.contains(&t) {
            return Err(ctx.err(
                "emissaryRank",
                format!(
                    "the piece '{}' has no rank: list every non-King piece letter, highest \
                     first (default qrbnp)",
                    rules.letter(t)
                ),
            ));
        }
    }
    Ok(rank)
}

#[inline(always)]
fn tag(m: Move) -> u32 {
    m.payload() & 3
}

#[inline(always)]
fn man_type(m: Move) -> PieceType {
    PieceType((m.payload() >> 2 & 15) as u8)
}

#[inline(always)]
fn payload(tag: u32, t: PieceType, right: u32) -> u32 {
    tag | (t.0 as u32) << 2 | right << 6
}

/// The castling move of a castling re-entry.
#[inline]
fn castling_of(pos: &Position, m: Move) -> Option<Move> {
    pos.castle_path((m.payload() >> 6 & 3) as usize)
        .map(|p| p.mv)
}

/// The base move of a re-entry (the move without the drop).
fn base_of(pos: &Position, m: Move) -> Option<Move> {
    let (a, b) = (m.from(), m.to());
    match tag(m) {
        TAG_NORMAL => Some(match m.promotion_type() {
            Some(t) => Move::promotion(a, b, t),
            None => Move::normal(a, b),
        }),
        TAG_EP => Some(Move::en_passant(a, b)),
        TAG_CASTLE => castling_of(pos, m),
        _ => None,
    }
}

/// The square a re-entry's drop goes to: the square the highest-ranking man left.
#[inline]
fn drop_square(pos: &Position, m: Move) -> Square {
    match tag(m) {
        TAG_CASTLE => castling_of(pos, m).map_or(m.from(), |c| c.rook_from()),
        _ => m.from(),
    }
}

/// The re-entry of `held` after the base move `base`.
#[inline]
fn reentry(base: Move, held: PieceType) -> Move {
    let (t, right) = match base.kind() {
        MoveKind::EnPassant => (TAG_EP, 0),
        MoveKind::Castling => (TAG_CASTLE, 0),
        _ => (TAG_NORMAL, 0),
    };
    Move::special(
        base.from(),
        base.to(),
        payload(t, held, right),
        base.promotion_type(),
    )
}

impl Emissary {
    /// The man `color` holds, if any.
    #[inline(always)]
    pub fn held_by(&self, pos: &Position, color: Color) -> Option<PieceType> {
        match pos.field(self.held[color.index()]) {
            0 => None,
            v => Some(PieceType(v as u8 - 1)),
        }
    }

    /// The highest-ranking type among `color`'s non-King men on the board.
    #[inline]
    fn top(&self, pos: &Position, color: Color) -> Option<PieceType> {
        self.rank
            .iter()
            .copied()
            .find(|&t| pos.pieces_of(color, t).any())
    }

    /// Whether the held man `held` may be dropped on `sq` (EM-4, and its mobility region).
    #[inline]
    fn may_drop(pos: &Position, held: PieceType, sq: Square) -> bool {
        let us = pos.side_to_move();
        pos.rules().region(us, held).has(sq)
            && !(held == PieceType::PAWN && back_ranks(pos).has(sq))
    }

    /// The castling re-entry of `held` with the castling move `c`, if the Rooks rank highest
    /// and the Rook's corner is vacated.
    fn castling_reentry(pos: &Position, c: Move, held: PieceType) -> Option<Move> {
        let us = pos.side_to_move();
        let corner = c.rook_from();
        if corner == c.to() || corner == c.rook_to() || !Self::may_drop(pos, held, corner) {
            return None;
        }
        let right = (0..2)
            .map(|side| 2 * us.index() + side)
            .find(|&r| pos.castle_path(r).is_some_and(|p| p.mv == c))?;
        Some(Move::special(
            c.from(),
            c.to(),
            payload(TAG_CASTLE, held, right as u32),
            None,
        ))
    }

    /// Calls `f` with every pseudo-legal move of its own, once per effect, in a fixed order:
    /// withdrawals by destination, then re-entries in the order of the generic generator's
    /// base moves. When the held man is of the highest type, a re-entry only puts one more man
    /// of that type on the destination, so routes from different men to one destination (with
    /// the same promotion and the same castling rights afterwards) are one move: only the
    /// route from the square whose name sorts first is kept (its spelling is canonical).
    fn each_move(&self, pos: &Position, mut f: impl FnMut(Move)) {
        let us = pos.side_to_move();
        if self.held_by(pos, us).is_none() || self.held_by(pos, us) != self.top(pos, us) {
            return self.each_route(pos, f);
        }
        let mut routes = MoveList::new();
        self.each_route(pos, |m| routes.push(m));
        for &m in routes.iter() {
            if !routes.iter().any(|&o| shadows(pos, o, m)) {
                f(m);
            }
        }
    }

    /// Calls `f` with every pseudo-legal route of its own (see [`Emissary::each_move`]).
    fn each_route(&self, pos: &Position, mut f: impl FnMut(Move)) {
        let us = pos.side_to_move();
        let Some(held) = self.held_by(pos, us) else {
            let Some(k) = pos.king_square(us) else {
                return;
            };
            for t in withdrawal_targets(pos, k) {
                let man = pos.piece_at(t).kind();
                f(Move::special(k, t, payload(TAG_WITHDRAW, man, 0), None));
            }
            return;
        };
        let Some(top) = self.top(pos, us) else {
            return;
        };
        let rules = pos.rules();
        let castles =
            top == rules.castling_rook && pos.castling_rights() >> (2 * us.index()) & 3 != 0;
        if top == PieceType::PAWN || castles || !self.fast {
            let mut bases = MoveList::new();
            generic::pseudo_moves(pos, &mut bases);
            let men = pos.pieces_of(us, top);
            for &b in bases.iter() {
                if b.kind() == MoveKind::Castling {
                    if top == rules.castling_rook {
                        if let Some(m) = Self::castling_reentry(pos, b, held) {
                            f(m);
                        }
                    }
                } else if men.has(b.from()) && Self::may_drop(pos, held, b.from()) {
                    f(reentry(b, held));
                }
            }
            return;
        }
        // a non-pawn type without castling: its moves straight from the tables, in the
        // generic generator's order (men, then destinations, by square)
        for a in pos.pieces_of(us, top) {
            if !Self::may_drop(pos, held, a) {
                continue;
            }
            for b in piece_targets(pos, top, a) {
                f(Move::special(a, b, payload(TAG_NORMAL, held, 0), None));
            }
        }
    }
}

/// Whether the re-entry route `o` has the effect of the route `m` (the held man being of the
/// movers' type) and its spelling sorts first: same kind, destination and promotion, the
/// same castling rights lost, from a square whose name sorts first.
#[inline]
fn shadows(pos: &Position, o: Move, m: Move) -> bool {
    let kind = tag(m);
    (kind == TAG_NORMAL || kind == TAG_EP)
        && tag(o) == kind
        && o.to() == m.to()
        && o.promotion_type() == m.promotion_type()
        && name_before(o.from(), m.from())
        && rights_lost_at(pos, o.from()) == rights_lost_at(pos, m.from())
}

/// The squares of the friendly men the King on `k` may withdraw: its capture steps onto them,
/// within its region.
#[inline]
fn withdrawal_targets(pos: &Position, k: Square) -> Bitboard {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let Some(def) = rules.piece(PieceType::KING) else {
        return Bitboard::EMPTY;
    };
    let (_, caps) = def.moves.targets(us, k, pos.occupied(), rules.board);
    caps & pos.pieces(us) & !k.bb() & rules.region(us, PieceType::KING)
}

/// The pseudo-legal destinations of the non-pawn man of type `t` on `a`.
#[inline]
fn piece_targets(pos: &Position, t: PieceType, a: Square) -> Bitboard {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let Some(def) = rules.piece(t) else {
        return Bitboard::EMPTY;
    };
    let (quiet, caps) = def.moves.targets(us, a, pos.occupied(), rules.board);
    (quiet | (caps & pos.pieces(us.flip()))) & rules.region(us, t)
}

/// What a node knows for judging its special moves without playing them (orthodox data).
struct Judge {
    /// The King's square.
    king: Option<Square>,
    /// Where a re-entry's base move must land: everywhere, or in single check the checker
    /// and the squares between it and the King; `None` in double check (every move played).
    target: Option<Bitboard>,
}

impl Judge {
    fn new(pos: &Position, masks: Option<&ShortcutMasks>) -> Judge {
        let us = pos.side_to_move();
        let king = pos.king_square(us);
        let target = match masks {
            Some(m) if !m.test_all() => Some(m.target),
            Some(_) => None,
            None if !crate::movegen::in_check(pos) => Some(Bitboard::FULL),
            None => checker_target(pos, king),
        };
        Judge { king, target }
    }

    /// Whether the pseudo-legal special move `m` is legal.
    #[inline]
    fn legal(&self, pos: &mut Position, m: Move) -> bool {
        match tag(m) {
            TAG_WITHDRAW => match self.king {
                Some(k) => {
                    let occ = pos.occupied() ^ k.bb();
                    !generic::attacked_with(pos, m.to(), pos.side_to_move().flip(), occ)
                }
                None => generic::legal_when_played(pos, m),
            },
            TAG_NORMAL if self.king.is_some() => match self.target {
                Some(t) => t.has(m.to()),
                None => generic::legal_when_played(pos, m),
            },
            _ => generic::legal_when_played(pos, m),
        }
    }
}

/// The squares answering a check of the side to move's King (everything when not in check),
/// or `None` in double check (orthodox men: only Rooks, Bishops and Queens slide).
fn checker_target(pos: &Position, king: Option<Square>) -> Option<Bitboard> {
    let k = king?;
    let them = pos.side_to_move().flip();
    let occ = pos.occupied();
    let mut checkers = Bitboard::EMPTY;
    for sq in pos.pieces(them) {
        let man = pos.piece_at(sq);
        let Some(def) = pos.rules().piece(man.kind()) else {
            continue;
        };
        let (_, caps) = def.moves.targets(them, sq, occ, pos.rules().board);
        if caps.has(k) {
            checkers |= sq.bb();
        }
    }
    if checkers.is_empty() {
        return Some(Bitboard::FULL);
    }
    if checkers.more_than_one() {
        return None;
    }
    let c = checkers.lsb();
    let man = pos.piece_at(c).kind();
    let slides = matches!(man, PieceType::ROOK | PieceType::BISHOP | PieceType::QUEEN);
    Some(if slides {
        c.bb() | crate::geometry::attacks::between(k, c)
    } else {
        c.bb()
    })
}

impl Mechanic for Emissary {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES.with(Hooks::AFTER_MOVE).with(Hooks::HOLDINGS)
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        self.each_move(pos, |m| list.push(m));
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        let us = pos.side_to_move();
        let (a, b) = (m.from(), m.to());
        if tag(m) == TAG_WITHDRAW {
            out.push(a, Piece::NONE);
            out.push(b, pos.piece_at(a));
            out.no_pawn_route();
            return;
        }
        let dropped = Piece::new(us, man_type(m));
        let Some(base) = base_of(pos, m) else {
            return;
        };
        let mover = pos.piece_at(a);
        // the base move's edits, the square the man left refilled (net edits)
        let at = drop_square(pos, m);
        for e in pos.edits_of(base).as_slice() {
            out.push(e.sq, if e.sq == at { dropped } else { e.after });
        }
        out.no_pawn_route();
        if mover.kind() == PieceType::PAWN && base.promotion_type().is_none() {
            out.pawn_route(a, b);
        }
    }

    fn write_move(&self, pos: &Position, m: Move, out: &mut MoveText) {
        if tag(m) == TAG_WITHDRAW {
            out.push_leg(m.from(), m.to());
            return;
        }
        if let Some(base) = base_of(pos, m) {
            out.push_str(move_to_string(pos, base).as_str());
        }
        out.push(',');
        push_drop(pos, man_type(m), drop_square(pos, m), out);
    }

    /// A re-entry is also spelled with its castling as King-takes-Rook or in two legs; the
    /// plain castling in two legs (0.8); a re-entry of a man of the movers' type from any
    /// route with its effect (`Emissary::each_move`). Withdrawals have one spelling.
    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        match m.kind() {
            MoveKind::Castling => castling_spelling(pos, m, s),
            MoveKind::Special if tag(m) == TAG_NORMAL || tag(m) == TAG_EP => {
                let mut found = None;
                self.each_route(pos, |o| {
                    if found.is_none() && o != m {
                        let mut t = MoveText::new();
                        self.write_move(pos, o, &mut t);
                        if t.as_str() == s {
                            found = Some(o);
                        }
                    }
                });
                found.is_some_and(|o| effect_of_move(pos, o) == effect_of_move(pos, m))
            }
            MoveKind::Special if tag(m) == TAG_CASTLE => {
                let Some((head, drop)) = s.rsplit_once(',') else {
                    return false;
                };
                let mut t = MoveText::new();
                push_drop(pos, man_type(m), drop_square(pos, m), &mut t);
                t.as_str() == drop
                    && castling_of(pos, m).is_some_and(|c| {
                        castling_spelling(pos, c, head) || move_to_string(pos, c).as_str() == head
                    })
            }
            _ => false,
        }
    }

    fn moves_are_distinct(&self) -> bool {
        true
    }

    fn generates_legal(&self) -> bool {
        self.fast
    }

    fn generate_legal(&self, pos: &mut Position, _lg: &Legality, list: &mut MoveList) {
        let judge = Judge::new(pos, None);
        let mut own = MoveList::new();
        self.each_move(pos, |m| own.push(m));
        for &m in own.iter() {
            if judge.legal(pos, m) {
                list.push(m);
            }
        }
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        let masks = lg.masks();
        if !self.fast {
            return None;
        }
        let us = pos.side_to_move();
        let judge = Judge::new(pos, Some(masks));
        if let (Some(held), Some(target)) = (self.held_by(pos, us), judge.target) {
            let Some(top) = self.top(pos, us) else {
                return Some(0);
            };
            let castles = top == pos.rules().castling_rook
                && pos.castling_rights() >> (2 * us.index()) & 3 != 0;
            if top != PieceType::PAWN && top != held && !castles && judge.king.is_some() {
                // every re-entry landing on the target is legal (module notes)
                let mut n = 0;
                for a in pos.pieces_of(us, top) {
                    if Self::may_drop(pos, held, a) {
                        n += (piece_targets(pos, top, a) & target).count() as usize;
                    }
                }
                return Some(n);
            }
        }
        let mut own = MoveList::new();
        self.each_move(pos, |m| own.push(m));
        Some(own.iter().filter(|&&m| judge.legal(pos, m)).count())
    }

    fn after_move(&self, pos: &mut Position, m: Move) {
        if m.kind() != MoveKind::Special {
            return;
        }
        let mover = pos.side_to_move().flip();
        let value = if tag(m) == TAG_WITHDRAW {
            man_type(m).0 as u64 + 1
        } else {
            0
        };
        pos.set_field(self.held[mover.index()], value);
    }

    fn read_holdings(&self, pos: &mut Position, text: &str) -> Result<(), FenError> {
        let rules = pos.rules();
        let mut held: [Option<PieceType>; 2] = [None, None];
        for c in text.chars() {
            let bad = |why: &str| FenError::Holdings(format!("'{c}' in [{text}]: {why}"));
            let t = rules
                .type_of_letter(c)
                .ok_or_else(|| bad("no piece of this variant has this letter"))?;
            if t == PieceType::KING {
                return Err(bad("a King is never withdrawn"));
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if held[color.index()].replace(t).is_some() {
                return Err(bad(&format!(
                    "{} already holds a man; a player holds at most one (EM-2)",
                    if color == Color::White {
                        "White"
                    } else {
                        "Black"
                    }
                )));
            }
        }
        for color in [Color::White, Color::Black] {
            let value = held[color.index()].map_or(0, |t| t.0 as u64 + 1);
            pos.set_field(self.held[color.index()], value);
        }
        Ok(())
    }

    fn write_holdings(&self, pos: &Position, out: &mut String) {
        let white = self.held_by(pos, Color::White);
        let black = self.held_by(pos, Color::Black);
        if white.is_none() && black.is_none() {
            return;
        }
        let rules = pos.rules();
        out.push('[');
        if let Some(t) = white {
            out.push(rules.letter(t).to_ascii_uppercase());
        }
        if let Some(t) = black {
            out.push(rules.letter(t));
        }
        out.push(']');
    }

    fn held(&self, pos: &Position, color: Color) -> [u8; MAX_PIECE_TYPES] {
        let mut out = [0; MAX_PIECE_TYPES];
        if let Some(t) = self.held_by(pos, color) {
            out[t.index()] = 1;
        }
        out
    }
}

/// Appends the drop `X@sq` (upper-case letter whatever the colour, as in UCI Crazyhouse).
fn push_drop(pos: &Position, t: PieceType, sq: Square, out: &mut MoveText) {
    out.push(pos.rules().letter(t).to_ascii_uppercase());
    out.push('@');
    out.push_square(sq);
}

/// Whether `s` spells the castling `c` as King-takes-Rook or in two legs (King's, Rook's).
fn castling_spelling(pos: &Position, c: Move, s: &str) -> bool {
    let Some(legs) = parse_legs(pos, s) else {
        return false;
    };
    let leg = |l: &super::Leg, from: Square, to: Square| {
        l.from == from && l.to == to && l.promo.is_none()
    };
    match legs.as_slice() {
        [k] => leg(k, c.from(), c.rook_from()),
        [k, r] => leg(k, c.from(), c.to()) && leg(r, c.rook_from(), c.rook_to()),
        _ => false,
    }
}
