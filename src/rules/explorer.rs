//! Explorer (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-2.md §1,
//! §3, README rulings 1-4).
//!
//! A Knight, Bishop, Rook or Queen (here: every type of the variant but the pawn and the royal
//! King, whose non-capturing moves the builder switches off in the generic generator through
//! `Rules::quiet_off`) that moves to an empty square `s` must continue one square from `s`:
//! horizontally away from the nearer side edge (files a-d one file towards h, e-h towards a)
//! or vertically away from the nearer back edge (ranks 1-4 one rank towards 8, 5-8 towards 1)
//! (EX-R5). The continuation captures whatever stands there, of either colour (an own man's
//! capture resets the half-move clock, §1.4), except the mover's own King (EX-R2); it may not
//! end on the move's origin (the position would not change); a move whose continuations are
//! all illegal does not exist (EX-R3). Captures by these men are ordinary moves and do not
//! continue (EX-R1, default). Pawns, Kings and castling are FIDE's (EX-R4).
//!
//! EX-R1's other reading (`explorerCaptureContinues = true`): a capture may also continue, as
//! the page's "additional opposing chessman" suggests. The man captures on `s` and then may go
//! on one square from `s` by the same rule (capturing what stands there, never the own King);
//! the plain capture stays a move too. Such a continuation may end on the origin: the position
//! differs by the man captured on `s`.
//!
//! Identity (EX-R6, README ruling 2): a continuation from `a` through the empty `s` to `c`
//! leaves `a` empty and the mover on `c`, so every route with the same `a` and `c` is one move,
//! spelled with the ASCII-smallest `s` (both legs of all routes start alike). Where `c` holds
//! an enemy man that the mover captures directly from `a`, the one-leg capture is the move and
//! no route is generated. A capture's continuation empties `s` as well, so it has one route.
//! Moves are thus generated once and differ from every ordinary move (`moves_are_distinct`).
//!
//! Encoding `Move::special(a, c, payload, None)`: payload bits 0-5 the intermediate square
//! `s`, bit 6 set when the man captured on `s` (only with `explorerCaptureContinues`).
//! Notation `as,sc` (`b1a3,a3a4`).
//!
//! Check (§3 engine notes, 23.1): a square `k` is attacked when the ordinary relation says so
//! or some stop `s` of `k` (a square whose continuation is `k`: at most four orthogonal
//! neighbours) is empty and reached by an enemy continuing man; with
//! `explorerCaptureContinues` also when `s` holds a man of `k`'s side that such a man can
//! capture. This is the check relation for every purpose (`Hooks::CHECK`).

use crate::geometry::attacks::{between, bishop_attacks, rook_attacks, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::generic::{attacked_from_squares, legal_when_played};
use crate::moves::{Move, MoveKind, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{
    is_attacked, types_of, Built, EditList, Hooks, Legality, Mechanic, MechanicSpec, Position,
    ShortcutMasks, StateLayout,
};
use crate::variant::{generator_is_orthodox, Rules, Section};

/// Registration: `specialMoves = explorer` and its option `explorerCaptureContinues` (EX-R1).
pub const SPEC: MechanicSpec = MechanicSpec::chosen(
    &["specialMoves", "explorerCaptureContinues"],
    "explorer",
    build,
);

/// The Explorer mechanic and its settings.
#[derive(Clone, Copy, Debug)]
pub struct Explorer {
    /// EX-R1's alternative: a capture may continue too.
    captures_continue: bool,
    /// The continuing types (bit `t` for type `t`): every type but the pawn and the royal one.
    types: u16,
    /// The data is orthodox chess (before the quiet moves were switched off): the legal moves
    /// are listed with the orthodox pins, mostly without make/unmake.
    fast: bool,
}

/// Payload bit: the man captured on the intermediate square (a capture's continuation).
const CAPTURED: u32 = 1 << 6;

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let captures_continue = ctx.bool("explorerCaptureContinues", false)?;
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    if rules.shape.files != 8 || rules.shape.ranks != 8 {
        return Err(ctx.err(
            "specialMoves",
            "explorer needs the 8x8 board (its continuation squares are defined there, EX-R5)"
                .into(),
        ));
    }
    let mut types = rules.type_mask & !(1 << PieceType::PAWN.0);
    if let Some(royal) = rules.royal {
        types &= !(1 << royal.0);
    }
    for t in types_of(types) {
        let Some(def) = rules.piece(t) else { continue };
        let m = &def.moves;
        // the check relation reaches an empty stop with the capture tables: they must be the
        // move tables too
        let same = m.rays.is_empty()
            && *m.leap_quiet == *m.leap_capture
            && m.rook_move == m.rook_capture
            && m.bishop_move == m.bishop_capture
            && !m.no_adjacent_capture
            && !m.mirror_leap;
        if !same {
            return Err(ctx.err(
                "specialMoves",
                format!(
                    "explorer needs pieces that move as they capture along lines or by leaps; \
                     '{}' does not",
                    def.letter
                ),
            ));
        }
    }
    let fast = generator_is_orthodox(rules);
    rules.quiet_off |= types;
    Ok(Some(Box::new(Explorer {
        captures_continue,
        types,
        fast,
    })))
}

// ---------------------------------------------------------------------------------------------
// The continuation geometry (EX-R5), as tables.

/// Files a-d: the continuation goes one file towards h.
const WEST: Bitboard = Bitboard(0x0F0F_0F0F_0F0F_0F0F);
/// Files e-h: towards a.
const EAST: Bitboard = Bitboard(0xF0F0_F0F0_F0F0_F0F0);
/// Ranks 1-4: one rank towards 8.
const LOW: Bitboard = Bitboard(0x0000_0000_FFFF_FFFF);
/// Ranks 5-8: towards 1.
const HIGH: Bitboard = Bitboard(0xFFFF_FFFF_0000_0000);

/// The two continuation squares of each square: `[horizontal, vertical]`.
static CONTINUATIONS: [[Square; 2]; 64] = continuation_table();

/// For each square `c`, its stops: the squares whose continuations include `c`.
static STOPS: [Bitboard; 64] = stop_table();

const fn continuation_table() -> [[Square; 2]; 64] {
    let mut t = [[Square::new(0); 2]; 64];
    let mut i = 0;
    while i < 64 {
        let (f, r) = (i % 8, i / 8);
        let h = if f <= 3 { i + 1 } else { i - 1 };
        let v = if r <= 3 { i + 8 } else { i - 8 };
        t[i] = [Square::new(h as u8), Square::new(v as u8)];
        i += 1;
    }
    t
}

const fn stop_table() -> [Bitboard; 64] {
    let cont = continuation_table();
    let mut t = [Bitboard::EMPTY; 64];
    let mut s = 0;
    while s < 64 {
        let mut j = 0;
        while j < 2 {
            let c = cont[s][j].index();
            t[c] = Bitboard(t[c].0 | 1u64 << s);
            j += 1;
        }
        s += 1;
    }
    t
}

/// The squares where continuations from the squares of `stops` end.
#[inline(always)]
fn continued(stops: Bitboard) -> Bitboard {
    Bitboard(
        (stops & WEST).0 << 1
            | (stops & EAST).0 >> 1
            | (stops & LOW).0 << 8
            | (stops & HIGH).0 >> 8,
    )
}

/// The stop among `stops` whose name sorts first (the canonical route's).
#[inline]
fn first_by_name(stops: Bitboard) -> Square {
    let mut best = stops.lsb();
    for s in stops {
        if super::name_before(s, best) {
            best = s;
        }
    }
    best
}

/// The intermediate square of a move.
#[inline(always)]
fn stop_of(m: Move) -> Square {
    Square::new((m.payload() & 63) as u8)
}

impl Mechanic for Explorer {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES.with(Hooks::ATTACK).with(Hooks::CHECK)
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        super::relation_conflict("explorer", other)
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        self.list_moves(pos, Bitboard::FULL, list);
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        let (a, c) = (m.from(), m.to());
        let man = pos.piece_at(a);
        let victim = pos.piece_at(c);
        if m.payload() & CAPTURED != 0 {
            let s = stop_of(m);
            if c == a {
                // out and back: only the man captured on s goes
                out.push(s, Piece::NONE);
                out.no_pawn_route();
                return;
            }
            out.push(a, Piece::NONE);
            out.push(s, Piece::NONE);
        } else {
            out.push(a, Piece::NONE);
        }
        out.push(c, man);
        if victim.is_some() && victim.color() == man.color() {
            // an own man captured: the edits show it only as replaced (§1.4)
            out.count_capture();
        }
        out.no_pawn_route();
    }

    /// An enemy man is lost on `s` (a capture that continues) or on `c`; a man of the mover's
    /// own that the continuation takes is no capture of the enemy's.
    fn captures(&self, pos: &Position, m: Move) -> Option<bool> {
        let them = pos.side_to_move().flip();
        Some(m.payload() & CAPTURED != 0 || pos.pieces(them).has(m.to()))
    }

    fn write_move(&self, _pos: &Position, m: Move, out: &mut MoveText) {
        let s = stop_of(m);
        out.push_leg(m.from(), s);
        out.push_leg(s, m.to());
    }

    fn is_spelling(&self, pos: &Position, m: Move, text: &str) -> bool {
        self.route_is(pos, m, text)
    }

    fn moves_are_distinct(&self) -> bool {
        true
    }

    fn generates_legal(&self) -> bool {
        self.fast
    }

    fn generate_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) {
        let mut own = MoveList::new();
        self.generate(pos, &mut own);
        self.keep_legal(pos, lg, &own, list);
    }

    /// Only the continuations onto an enemy man, and those of captures: the others take
    /// nothing of the enemy's (an own man taken is no capture for quiescence).
    fn generate_noisy_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) -> bool {
        let mut own = MoveList::new();
        let enemy = pos.pieces(pos.side_to_move().flip());
        self.list_moves(pos, enemy, &mut own);
        self.keep_legal(pos, lg, &own, list);
        true
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        let masks = lg.masks();
        Some(self.count(pos, masks))
    }

    fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        let occ = pos.occupied();
        let plain = if self.fast {
            orthodox_attacked(pos, sq, by, occ, Bitboard::FULL)
        } else {
            is_attacked(pos, sq, by)
        };
        plain || self.attacked_by_continuation(pos, sq, by, occ, Bitboard::FULL)
    }

    fn attacked_with(
        &self,
        pos: &Position,
        sq: Square,
        by: Color,
        occ: Bitboard,
        removed: Bitboard,
    ) -> Option<bool> {
        let present = !removed;
        let plain = if self.fast {
            orthodox_attacked(pos, sq, by, occ, present)
        } else {
            let types = pos.rules().type_mask;
            attacked_from_squares(pos, sq, by, types, occ, |t| pos.pieces_of(by, t) & present)
        };
        Some(plain || self.attacked_by_continuation(pos, sq, by, occ, present))
    }

    fn shortcut(&self, pos: &Position, masks: &mut ShortcutMasks) -> bool {
        self.widen_shortcut(pos, masks)
    }
}

impl Explorer {
    /// Appends its pseudo-legal moves to `list`: the continuations ending on `ends` (each
    /// through its canonical stop), and every continuation of a capture.
    fn list_moves(&self, pos: &Position, ends: Bitboard, list: &mut MoveList) {
        self.each_man(pos, |a, quiet, dests, caps| {
            for c in dests & ends {
                let s = first_by_name(STOPS[c.index()] & quiet);
                list.push(Move::special(a, c, s.raw() as u32, None));
            }
            if self.captures_continue {
                self.capture_continuations(pos, a, caps, |s, c| {
                    list.push(Move::special(a, c, s.raw() as u32 | CAPTURED, None));
                });
            }
        });
    }

    /// Appends the legal moves of `own` (its pseudo-legal moves) to `list`, judged by the
    /// widened masks where they decide ([`Explorer::legal_masks`]), else on the board after.
    fn keep_legal(&self, pos: &mut Position, lg: &Legality, own: &MoveList, list: &mut MoveList) {
        let masks = self.legal_masks(pos, lg);
        for &m in own.iter() {
            let sure = masks.is_some_and(|k| {
                m.payload() & CAPTURED == 0 && !k.test_from.has(m.from()) && !k.test_to.has(m.to())
            });
            if sure || self.legal(pos, m) {
                list.push(m);
            }
        }
    }

    /// Calls `out(a, quiet, dests, caps)` for each continuing man of the side to move on `a`:
    /// `quiet` the empty squares it may move to, `dests` the squares its continuations from
    /// them end on that make a move of their own (not its origin, not its own King, not an
    /// enemy man it captures directly), `caps` the enemy men it may capture.
    #[inline]
    fn each_man(&self, pos: &Position, mut out: impl FnMut(Square, Bitboard, Bitboard, Bitboard)) {
        let rules = pos.rules();
        let us = pos.side_to_move();
        let occ = pos.occupied();
        let enemy = pos.pieces(us.flip());
        let own_king = pos.pieces_of(us, PieceType::KING);
        for t in types_of(self.types) {
            let men = pos.pieces_of(us, t);
            if men.is_empty() {
                continue;
            }
            let Some(def) = rules.piece(t) else { continue };
            let region = rules.region(us, t);
            for a in men {
                let (quiet, caps) = def.moves.targets(us, a, occ, rules.board);
                let quiet = quiet & region;
                let caps = caps & enemy & region;
                let dests = continued(quiet) & region & !own_king & !caps & !a.bb();
                out(a, quiet, dests, caps);
            }
        }
    }

    /// Calls `out(s, c)` for each continuation of a capture on a square of `caps` by the man on
    /// `a` (`explorerCaptureContinues`): to either continuation square of `s` the man may stand
    /// on, its origin included, never its own King.
    #[inline]
    fn capture_continuations(
        &self,
        pos: &Position,
        a: Square,
        caps: Bitboard,
        mut out: impl FnMut(Square, Square),
    ) {
        let us = pos.side_to_move();
        let region = pos.rules().region(us, pos.piece_at(a).kind());
        let own_king = pos.pieces_of(us, PieceType::KING);
        for s in caps {
            for c in CONTINUATIONS[s.index()] {
                if region.has(c) && !own_king.has(c) {
                    out(s, c);
                }
            }
        }
    }

    /// The number of its legal moves, judged by the shortcut masks where they can be (a
    /// continuation without capture on the way changes the occupancy as a move from `a` to `c`
    /// does; an own man's capture replaces it), the others by [`Explorer::legal`].
    fn count(&self, pos: &mut Position, masks: &ShortcutMasks) -> usize {
        let mut n = 0;
        let mut doubtful = MoveList::new();
        let all = masks.test_all();
        let p: &Position = pos;
        self.each_man(p, |a, _quiet, dests, caps| {
            if all || masks.test_from.has(a) {
                for c in dests {
                    doubtful.push(Move::special(a, c, 0, None));
                }
            } else {
                n += (dests & masks.target & !masks.test_to).count() as usize;
                for c in dests & masks.test_to {
                    doubtful.push(Move::special(a, c, 0, None));
                }
            }
            if self.captures_continue {
                self.capture_continuations(p, a, caps, |s, c| {
                    doubtful.push(Move::special(a, c, s.raw() as u32 | CAPTURED, None));
                });
            }
        });
        n + doubtful.iter().filter(|&&m| self.legal(pos, m)).count()
    }

    /// Whether the pseudo-legal move `m` of its own leaves the mover's King unattacked, judged
    /// on the occupancy after the move without playing it: the relation depends only on the
    /// occupancy and on which enemy men remain (the moving man never attacks its own King).
    #[inline]
    fn legal(&self, pos: &mut Position, m: Move) -> bool {
        let us = pos.side_to_move();
        let Some(k) = pos.king_square(us) else {
            return legal_when_played(pos, m);
        };
        let (a, c) = (m.from(), m.to());
        let mut occ = pos.occupied().without(a).with(c);
        let mut removed = c.bb();
        if m.payload() & CAPTURED != 0 {
            let s = stop_of(m);
            occ = occ.without(s);
            removed |= s.bb();
        }
        let attacked = self.attacked_with(pos, k, us.flip(), occ, removed);
        !attacked.expect("explorer judges every square")
    }

    /// The stops of `sq` through which a continuation of `by` may reach it, given the men of
    /// `by` on `present` and occupancy `occ`: empty ones, and with `explorerCaptureContinues`
    /// also those holding a man of the other side.
    #[inline(always)]
    fn open_stops(
        &self,
        pos: &Position,
        sq: Square,
        by: Color,
        occ: Bitboard,
        present: Bitboard,
    ) -> Bitboard {
        let stops = STOPS[sq.index()];
        if self.captures_continue {
            stops & !(pos.pieces(by) & present & occ)
        } else {
            stops & !occ
        }
    }

    /// Whether a continuing man of `by` (those on `present`) reaches an open stop of `sq` with
    /// occupancy `occ`, and so attacks `sq` by a continuation.
    #[inline]
    fn attacked_by_continuation(
        &self,
        pos: &Position,
        sq: Square,
        by: Color,
        occ: Bitboard,
        present: Bitboard,
    ) -> bool {
        let stops = self.open_stops(pos, sq, by, occ, present);
        if stops.is_empty() {
            return false;
        }
        if self.fast {
            return orthodox_reach(pos, stops, by, occ, present);
        }
        let types = self.types & pos_types(pos, by);
        stops.into_iter().any(|s| {
            attacked_from_squares(pos, s, by, types, occ, |t| pos.pieces_of(by, t) & present)
        })
    }

    /// The legality shortcut under the continuation relation (`Mechanic::shortcut`). In check
    /// by a continuation everything is tested. Otherwise a move can open such a check only by
    /// emptying a stop of the King (its man's moves are tested) or a square screening an enemy
    /// slider from an open stop (that man's moves are tested); filling squares only blocks,
    /// except that with `explorerCaptureContinues` a capture on a stop puts there a man the
    /// enemy may capture and continue from (moves to the stops are tested).
    fn widen_shortcut(&self, pos: &Position, masks: &mut ShortcutMasks) -> bool {
        let us = pos.side_to_move();
        let them = us.flip();
        let Some(k) = pos.king_square(us) else {
            return false;
        };
        let occ = pos.occupied();
        if self.attacked_by_continuation(pos, k, them, occ, Bitboard::FULL) {
            return false;
        }
        let rules = pos.rules();
        let ours = pos.pieces(us);
        let theirs = pos.pieces(them);
        let stops = STOPS[k.index()] & !theirs;
        masks.test_from |= stops & ours;
        if self.captures_continue {
            masks.test_to |= STOPS[k.index()];
        }
        let (mut orth, mut diag) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for t in types_of(self.types) {
            let Some(def) = rules.piece(t) else { continue };
            let men = pos.pieces_of(them, t);
            if def.moves.rook_capture.is_some() {
                orth |= men;
            }
            if def.moves.bishop_capture.is_some() {
                diag |= men;
            }
        }
        let screened = if self.captures_continue {
            stops
        } else {
            stops & !occ
        };
        for s in screened {
            let snipers = (rook_attacks(s, theirs) & orth) | (bishop_attacks(s, theirs) & diag);
            for x in snipers {
                let screen = between(s, x) & occ;
                if !screen.more_than_one() {
                    masks.test_from |= screen & ours;
                }
            }
        }
        true
    }

    /// The legality shortcut for listing legal moves on orthodox data, when the side to move is
    /// not in check: a continuation (changing the occupancy as a move from `a` to `c`) is legal
    /// unless `a` is pinned or in `test_from`, or `c` in `test_to`, of the widened masks.
    /// `None`: every move must be played and tested.
    fn legal_masks(&self, pos: &Position, lg: &Legality) -> Option<ShortcutMasks> {
        let us = pos.side_to_move();
        let k = pos.king_square(us)?;
        if is_attacked(pos, k, us.flip()) {
            return None;
        }
        let mut masks = ShortcutMasks {
            test_from: lg.pinned() | k.bb(),
            test_to: Bitboard::EMPTY,
            target: Bitboard::FULL,
        };
        self.widen_shortcut(pos, &mut masks).then_some(masks)
    }

    /// Whether `text` is a valid route of the legal move `m` (any kind: a route through an
    /// empty square onto an enemy man the mover captures directly spells that capture).
    fn route_is(&self, pos: &Position, m: Move, text: &str) -> bool {
        let Some(legs) = super::parse_legs(pos, text) else {
            return false;
        };
        let [l1, l2] = legs.as_slice() else {
            return false;
        };
        if l1.promo.is_some() || l2.promo.is_some() || l2.from != l1.to {
            return false;
        }
        let (a, s, c) = (l1.from, l1.to, l2.to);
        let us = pos.side_to_move();
        let man = pos.piece_at(a);
        if man.is_none() || man.color() != us || self.types >> man.kind().0 & 1 == 0 {
            return false;
        }
        let rules = pos.rules();
        let region = rules.region(us, man.kind());
        let at_c = pos.piece_at(c);
        if !CONTINUATIONS[s.index()].contains(&c)
            || !region.has(s)
            || !region.has(c)
            || (at_c.is_some() && at_c.color() == us && at_c.kind() == PieceType::KING)
        {
            return false;
        }
        let Some(def) = rules.piece(man.kind()) else {
            return false;
        };
        let (quiet, caps) = def.moves.targets(us, a, pos.occupied(), rules.board);
        if quiet.has(s) {
            // the effect: the man from a to c
            c != a
                && m.from() == a
                && m.to() == c
                && match m.kind() {
                    MoveKind::Normal => true,
                    MoveKind::Special => m.payload() & CAPTURED == 0,
                    _ => false,
                }
        } else {
            let at_s = pos.piece_at(s);
            self.captures_continue
                && caps.has(s)
                && at_s.is_some()
                && at_s.color() != us
                && m.kind() == MoveKind::Special
                && (m.from(), m.to(), m.payload()) == (a, c, s.raw() as u32 | CAPTURED)
        }
    }
}

/// Whether a Knight, Bishop, Rook or Queen of `by` on `present` reaches a square of `stops`
/// with occupancy `occ` (orthodox men: the tables and slider lookups directly).
#[inline]
fn orthodox_reach(
    pos: &Position,
    stops: Bitboard,
    by: Color,
    occ: Bitboard,
    present: Bitboard,
) -> bool {
    let men = pos.pieces(by) & present;
    let queens = pos.kind(PieceType::QUEEN) & men;
    let orth = (pos.kind(PieceType::ROOK) & men) | queens;
    let diag = (pos.kind(PieceType::BISHOP) & men) | queens;
    let knights = pos.kind(PieceType::KNIGHT) & men;
    stops.into_iter().any(|s| {
        (TABLES.knight[s.index()] & knights).any()
            || (orth.any() && (rook_attacks(s, occ) & orth).any())
            || (diag.any() && (bishop_attacks(s, occ) & diag).any())
    })
}

/// The ordinary attack of orthodox men of `by` on `present` on `sq` with occupancy `occ`.
#[inline]
fn orthodox_attacked(
    pos: &Position,
    sq: Square,
    by: Color,
    occ: Bitboard,
    present: Bitboard,
) -> bool {
    let men = pos.pieces(by) & present;
    let pawns = pos.kind(PieceType::PAWN) & men;
    let kings = pos.kind(PieceType::KING) & men;
    (TABLES.pawn[by.flip().index()][sq.index()] & pawns).any()
        || (TABLES.king[sq.index()] & kings).any()
        || orthodox_reach(pos, sq.bb(), by, occ, present)
}

/// The piece types `by` has on the board (bit `t` for type `t`).
#[inline(always)]
fn pos_types(pos: &Position, by: Color) -> u16 {
    let rules = pos.rules();
    types_of(rules.type_mask).fold(0, |acc, t| {
        acc | ((pos.pieces_of(by, t).any() as u16) << t.0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_squares_follow_ex_r5() {
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(CONTINUATIONS[sq("a3").index()], [sq("b3"), sq("a4")]);
        assert_eq!(CONTINUATIONS[sq("d5").index()], [sq("e5"), sq("d4")]);
        assert_eq!(CONTINUATIONS[sq("e4").index()], [sq("d4"), sq("e5")]);
        assert_eq!(CONTINUATIONS[sq("h8").index()], [sq("g8"), sq("h7")]);
        // e1's stops: d1 (files a-d continue towards h) and f1 (e-h towards a); e2 continues
        // up, to e3
        assert_eq!(STOPS[sq("e1").index()], sq("d1").bb() | sq("f1").bb());
        for s in Square::all() {
            let c = CONTINUATIONS[s.index()];
            assert_eq!(continued(s.bb()), c[0].bb() | c[1].bb());
            assert!(STOPS[c[0].index()].has(s) && STOPS[c[1].index()].has(s));
        }
    }
}
