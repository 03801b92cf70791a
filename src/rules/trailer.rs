//! Trailer (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-2.md §1,
//! §20).
//!
//! After any ordinary move (captures, pawn moves, King moves, en passant and promotions
//! included; castling excepted, TR-R3) the player may pull one friendly man:
//! * after a move from `a` along a line (unit step `u`, `k` squares), a man standing behind `a`
//!   on that line moves exactly `k` squares along `u` (TR-R4); every square it passes and the
//!   square it lands on must be empty once the mover has moved (so it may pass `a` and land on
//!   the mover's path). Which man: any friendly man whose path is clear (TR-R1), or with
//!   `trailerPull = nearest` only the nearest man on that line behind `a`, when it is friendly;
//! * after a leap by vector `v` (the Knight's), the man on `a - v` jumps to `a`.
//!
//! Pulls never capture. A pawn is never pulled with a backward component (TR-R2: forward,
//! diagonally forward or sideways); it cannot reach its last rank (it lands behind the mover's
//! destination). Kings may be pulled; only the final position must be safe. En passant follows
//! README ruling 3 (which supersedes §20's line): the mover's pawn and a pulled pawn are each
//! followed from their square to their final square, so `d2d4,d1d3` leaves no target (d3 is
//! filled) and a pawn pulled e2-e4 over an empty e3 leaves the target e3.
//!
//! The move without a pull is the ordinary move. A pulled move is a special move:
//!
//! ```text
//!  12       7   6    5          0
//! +-----------+----+------------+
//! | 0 (spare) | ep | pulled man |
//! +-----------+----+------------+
//! ```
//!
//! `from`/`to` and `promo` are the base move's (normal, promotion, or en passant when `ep` is
//! set), the low six bits the pulled man's square; where it goes follows from the base move.
//! Notation `base,pull` (`d3e5,c1d3`, `e7e8q,e6e7`). A pulled move changes the squares of two
//! men, and no other move of the position has its effect (a one-man move would have to pass the
//! square the pulled man refills or jump twice a Knight's vector; another pull would pair the
//! same squares the other way round, against the direction of the pull), so it has one
//! spelling and is generated once.
//!
//! Legality is the node's legality toolkit's (`Legality`), and counting at perft's last ply
//! (orthodox data) shortens it further: when the side is not in check, the mover is not pinned,
//! not the King and not capturing en passant, and the King is not pulled and not on the line
//! of the move, the base move is legal and the pull exposes the King exactly when the pulled
//! man is pinned (a line through the King meets the move's line once, and only the pulled
//! man's square is emptied there), so a direction's pulls are counted at once. The other pulled
//! moves are judged one by one from what they change.

use super::relocation::end_types;
use crate::geometry::attacks::{line, TABLES};
use crate::geometry::Square;
use crate::movegen::generic;
use crate::moves::{Move, MoveKind, MoveList, MoveText};
use crate::piece::{Piece, PieceType};
use crate::position::{
    Built, Change, EditList, Hooks, Legality, Mechanic, MechanicSpec, Position, StateLayout,
};
use crate::variant::{generator_is_orthodox, Rules, Section};

/// Registration: `specialMoves = trailer` and its option `trailerPull`.
pub const SPEC: MechanicSpec =
    MechanicSpec::chosen(&["specialMoves", "trailerPull"], "trailer", build);

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let nearest = ctx.two_way("trailerPull", "any", "nearest")?;
    SPEC.made_if_chosen(
        ctx,
        Trailer {
            nearest,
            fast: generator_is_orthodox(rules),
        },
    )
}

/// The Trailer mechanic and its settings.
#[derive(Clone, Copy, Debug)]
pub struct Trailer {
    /// TR-R1's alternative (`trailerPull = nearest`): only the nearest man behind the mover.
    nearest: bool,
    /// The data is orthodox chess (up to castling): legal pulls are listed and counted mostly
    /// without make/unmake.
    fast: bool,
}

impl Mechanic for Trailer {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        let mut bases = MoveList::new();
        generic::pseudo_moves(pos, &mut bases);
        for &base in bases.iter() {
            let pulls = self.pulls(pos, base);
            for &(c, _) in pulls.as_slice() {
                list.push(pulled(base, c));
            }
        }
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        edits(pos, m, out);
    }

    fn write_move(&self, pos: &Position, m: Move, out: &mut MoveText) {
        write(pos, m, out);
    }

    /// A pulled move has one spelling (see the module notes), and no pull spells an ordinary
    /// move; `parse_move` has already compared the canonical spelling.
    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        m.kind() == MoveKind::Special && super::parse_legs(pos, s).is_some() && {
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
        self.legal_pulls(pos, lg, false, list);
    }

    /// Pulls never capture and never promote the pulled man: a pulled move is noisy exactly
    /// when its base move is.
    fn generate_noisy_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) -> bool {
        self.legal_pulls(pos, lg, true, list);
        true
    }

    /// A pulled move captures exactly when its base move does.
    fn captures(&self, pos: &Position, m: Move) -> Option<bool> {
        Some(m.payload() & EP != 0 || pos.occupied().has(m.to()))
    }

    /// The base move `a -> b` (capturing what stands on `b`, or the pawn passed by en
    /// passant), then the pulled man `c -> d`. `None` where the pull lands on a man (after a
    /// hop, on other data): the edits say what is lost.
    fn change(&self, pos: &Position, m: Move) -> Option<Change> {
        let (a, b, c) = (m.from(), m.to(), pulled_square(m));
        let d = pull_destination(a, b, c);
        if d != a && pos.occupied().has(d) || d == b {
            return None;
        }
        let king = pos.king_square(pos.side_to_move());
        let mut change = Change::two_men(pos, king, (a, b), (c, d));
        if m.payload() & EP != 0 {
            if let Some(victim) = b.offset(0, -pos.side_to_move().forward()) {
                change.empties |= victim.bb();
                change.captured |= victim.bb();
            }
        }
        Some(change)
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        if !self.fast || !lg.decides() {
            return None;
        }
        let pulls = match lg.king() {
            Some(king) if !lg.in_check(pos) => self.count_quiet(pos, lg, king),
            _ => self.count_listed(pos, lg),
        };
        Some(pulls)
    }
}

/// Payload bit: the base move is an en-passant capture.
const EP: u32 = 1 << 6;

/// The pulled move of `base` pulling the man on `c`.
#[inline(always)]
fn pulled(base: Move, c: Square) -> Move {
    let ep = if base.kind() == MoveKind::EnPassant {
        EP
    } else {
        0
    };
    Move::special(
        base.from(),
        base.to(),
        c.raw() as u32 | ep,
        base.promotion_type(),
    )
}

/// The base move of a pulled move.
#[inline(always)]
fn base_of(m: Move) -> Move {
    let (a, b) = (m.from(), m.to());
    match m.promotion_type() {
        _ if m.payload() & EP != 0 => Move::en_passant(a, b),
        Some(t) => Move::promotion(a, b, t),
        None => Move::normal(a, b),
    }
}

/// The pulled man's square.
#[inline(always)]
fn pulled_square(m: Move) -> Square {
    Square::new((m.payload() & 63) as u8)
}

/// Whether the vector `(df, dr)` lies along a rank, file or diagonal.
#[inline(always)]
fn along_line(df: i8, dr: i8) -> bool {
    df == 0 || dr == 0 || df.abs() == dr.abs()
}

/// Where the man on `c` goes when pulled after the move `a -> b`: `k` squares along a line
/// move's direction, or onto `a` after a leap.
#[inline]
fn pull_destination(a: Square, b: Square, c: Square) -> Square {
    let (df, dr) = (b.file() - a.file(), b.rank() - a.rank());
    if !along_line(df, dr) {
        return a;
    }
    let k = df.abs().max(dr.abs());
    let to = c.offset(df.signum() * k, dr.signum() * k);
    to.unwrap_or(a)
}

/// The pulls of one base move: (pulled man's square, its destination).
struct Pulls {
    pulls: [(Square, Square); 8],
    len: usize,
}

impl Pulls {
    fn push(&mut self, c: Square, d: Square) {
        if self.len < self.pulls.len() {
            self.pulls[self.len] = (c, d);
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[(Square, Square)] {
        &self.pulls[..self.len]
    }
}

/// Whether the man on `c` may be pulled by `v` to `d` (TR-R2; its type must stay, as a pull
/// never promotes).
#[inline]
fn may_pull(pos: &Position, c: Square, d: Square, v: (i8, i8)) -> bool {
    let man = pos.piece_at(c);
    if man.kind() == PieceType::PAWN && v.1 * man.color().forward() < 0 {
        return false;
    }
    end_types(pos, man, d).as_slice().first() == Some(&man.kind())
}

impl Trailer {
    /// Appends the legal pulled moves to `list`, only those whose base move captures or
    /// promotes when `noisy_only`.
    fn legal_pulls(
        &self,
        pos: &mut Position,
        lg: &Legality,
        noisy_only: bool,
        list: &mut MoveList,
    ) {
        let mut bases = MoveList::new();
        if noisy_only {
            generic::pseudo_noisy_moves(pos, &mut bases);
        } else {
            generic::pseudo_moves(pos, &mut bases);
        }
        for &base in bases.iter() {
            let pulls = self.pulls(pos, base);
            for &(c, _) in pulls.as_slice() {
                let m = pulled(base, c);
                if lg.legal_move(pos, m) {
                    list.push(m);
                }
            }
        }
    }

    /// The pulls that may follow the pseudo-legal move `base` (none after castling).
    #[inline]
    fn pulls(&self, pos: &Position, base: Move) -> Pulls {
        let mut out = Pulls {
            pulls: [(Square::new(0), Square::new(0)); 8],
            len: 0,
        };
        if base.kind() == MoveKind::Castling {
            return out;
        }
        let board = pos.rules().board;
        let own = pos.pieces(pos.side_to_move());
        let occ = pos.occupied();
        let (a, b) = (base.from(), base.to());
        let (df, dr) = (b.file() - a.file(), b.rank() - a.rank());
        if !along_line(df, dr) {
            if let Some(c) = a.offset(-df, -dr).filter(|&c| board.has(c) && own.has(c)) {
                if may_pull(pos, c, a, (df, dr)) {
                    out.push(c, a);
                }
            }
            return out;
        }
        let u = (df.signum(), dr.signum());
        let k = df.abs().max(dr.abs());
        // walk back from `a`: the man `j` squares behind passes the squares `j - 1` down to
        // `j - k` behind `a` (those at or beyond `a` are empty once the mover has moved), so
        // the previous occupied square must lie more than `k` squares nearer to it
        let mut previous = 0;
        let mut j = 0;
        let mut cur = a;
        while let Some(c) = cur.offset(-u.0, -u.1).filter(|&c| board.has(c)) {
            j += 1;
            cur = c;
            if !occ.has(c) {
                continue;
            }
            if own.has(c) && (previous == 0 || previous < j - k) {
                if let Some(d) = c.offset(u.0 * k, u.1 * k) {
                    if may_pull(pos, c, d, u) {
                        out.push(c, d);
                    }
                }
            }
            if self.nearest {
                break;
            }
            previous = j;
        }
        out
    }
}

impl Trailer {
    /// The number of legal pulled moves, from the list of pseudo-legal base moves.
    fn count_listed(&self, pos: &mut Position, lg: &Legality) -> usize {
        let mut bases = MoveList::new();
        generic::pseudo_moves(pos, &mut bases);
        let mut n = 0;
        for &base in bases.iter() {
            let pulls = self.pulls(pos, base);
            for &(c, _) in pulls.as_slice() {
                n += lg.legal_move(pos, pulled(base, c)) as usize;
            }
        }
        n
    }

    /// [`Trailer::count_listed`] for a side not in check, with its King on `king` (orthodox
    /// men): per man and direction, every destination along the direction sharing the men
    /// behind, judged at once where the module notes allow.
    fn count_quiet(&self, pos: &mut Position, lg: &Legality, king: Square) -> usize {
        let rules = pos.rules();
        let us = pos.side_to_move();
        let own = pos.pieces(us);
        let theirs = pos.pieces(us.flip());
        let mut n = 0;
        for a in own {
            let t = pos.piece_at(a).kind();
            if t == PieceType::KNIGHT {
                n += self.count_knight(pos, lg, king, a);
                continue;
            }
            if t == PieceType::PAWN {
                n += self.count_pawn(pos, lg, king, a);
                continue;
            }
            let Some(def) = rules.piece(t) else {
                continue;
            };
            let dirs = match (def.moves.rook_capture, def.moves.bishop_capture) {
                (Some(_), Some(_)) => &LINES[..],
                (Some(_), None) => &LINES[..4],
                (None, Some(_)) => &LINES[4..],
                // the King: one step each way
                (None, None) => &LINES[..],
            };
            let slides = def.moves.rook_capture.is_some() || def.moves.bishop_capture.is_some();
            for &u in dirs {
                // how many squares ahead the man may go: empty ones and one enemy
                let mut k_max = 0;
                let mut cur = a;
                while let Some(b) = cur.offset(u.0, u.1).filter(|&b| rules.board.has(b)) {
                    if own.has(b) {
                        break;
                    }
                    k_max += 1;
                    if theirs.has(b) || !slides {
                        break;
                    }
                    cur = b;
                }
                n += self.count_line(pos, lg, king, a, u, k_max, 1);
            }
        }
        n
    }

    /// The legal pulls after the moves of the man on `a` along `u` to each of the `k_max`
    /// squares ahead, each base move counted `mult` times (a pawn's promotions).
    #[allow(clippy::too_many_arguments)]
    fn count_line(
        &self,
        pos: &mut Position,
        lg: &Legality,
        king: Square,
        a: Square,
        u: (i8, i8),
        k_max: i8,
        mult: usize,
    ) -> usize {
        if k_max == 0 {
            return 0;
        }
        let board = pos.rules().board;
        let own = pos.pieces(pos.side_to_move());
        let occ = pos.occupied();
        let ahead = a.offset(u.0, u.1).unwrap_or(a);
        let simple = a != king && !lg.pinned().has(a) && !line(a, ahead).has(king);
        let mut total = 0;
        let mut previous = 0;
        let mut j = 0;
        let mut cur = a;
        while let Some(c) = cur.offset(-u.0, -u.1).filter(|&c| board.has(c)) {
            j += 1;
            cur = c;
            if !occ.has(c) {
                continue;
            }
            let man = pos.piece_at(c);
            let back = man.kind() == PieceType::PAWN && u.1 * man.color().forward() < 0;
            // the man `j` behind passes the `k` squares ahead of it: a nearer man blocks it
            // unless more than `k` squares nearer
            let ks = if previous == 0 {
                k_max
            } else {
                k_max.min(j - previous - 1)
            };
            if own.has(c) && !back && ks > 0 {
                if simple && c != king {
                    if !lg.pinned().has(c) {
                        total += ks as usize * mult;
                    }
                } else {
                    for k in 1..=ks {
                        let (Some(b), Some(d)) =
                            (a.offset(u.0 * k, u.1 * k), c.offset(u.0 * k, u.1 * k))
                        else {
                            break;
                        };
                        total += pull_legal(pos, lg, a, b, c, d) as usize * mult;
                    }
                }
            }
            if self.nearest {
                break;
            }
            previous = j;
        }
        total
    }

    /// The legal pulls after the Knight on `a`'s moves: the man on `a - v` follows.
    fn count_knight(&self, pos: &mut Position, lg: &Legality, king: Square, a: Square) -> usize {
        let own = pos.pieces(pos.side_to_move());
        let board = pos.rules().board;
        let simple = !lg.pinned().has(a);
        let mut n = 0;
        for c in TABLES.knight[a.index()] & own {
            let v = (a.file() - c.file(), a.rank() - c.rank());
            let Some(b) = a.offset(v.0, v.1).filter(|&b| board.has(b) && !own.has(b)) else {
                continue;
            };
            let man = pos.piece_at(c);
            if man.kind() == PieceType::PAWN && v.1 * man.color().forward() < 0 {
                continue;
            }
            n += if simple && c != king {
                !lg.pinned().has(c) as usize
            } else {
                pull_legal(pos, lg, a, b, c, a) as usize
            };
        }
        n
    }

    /// The legal pulls after the pawn on `a`'s moves: steps, double step, captures (each
    /// promotion a move), en passant.
    fn count_pawn(&self, pos: &mut Position, lg: &Legality, king: Square, a: Square) -> usize {
        let rules = pos.rules();
        let us = pos.side_to_move();
        let f = us.forward();
        let occ = pos.occupied();
        let theirs = pos.pieces(us.flip());
        let promos = |b: Square| {
            if rules.promotion_region[us.index()].has(b) {
                rules.promotion_types.len()
            } else {
                1
            }
        };
        let mut n = 0;
        if let Some(one) = a
            .offset(0, f)
            .filter(|&b| rules.board.has(b) && !occ.has(b))
        {
            let double = rules.double_step_region[us.index()].has(a)
                && a.offset(0, 2 * f)
                    .is_some_and(|b| rules.board.has(b) && !occ.has(b));
            let k_max = if double { 2 } else { 1 };
            n += self.count_line(pos, lg, king, a, (0, f), k_max, promos(one));
        }
        for df in [-1, 1] {
            let Some(b) = a.offset(df, f).filter(|&b| rules.board.has(b)) else {
                continue;
            };
            if theirs.has(b) {
                n += self.count_line(pos, lg, king, a, (df, f), 1, promos(b));
            } else if pos.ep_square() == Some(b) {
                let base = Move::en_passant(a, b);
                let pulls = self.pulls(pos, base);
                for &(c, _) in pulls.as_slice() {
                    n += lg.legal_move(pos, pulled(base, c)) as usize;
                }
            }
        }
        n
    }
}

/// The eight directions: orthogonal first, then diagonal.
const LINES: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

/// Whether the pulled move `a -> b` (a normal move: `b` empty or an enemy man), the man on `c`
/// following to `d`, leaves the King safe, judged from what it changes.
#[inline]
fn pull_legal(pos: &Position, lg: &Legality, a: Square, b: Square, c: Square, d: Square) -> bool {
    let change = Change::two_men(pos, lg.king(), (a, b), (c, d));
    lg.judge(pos, &change) == Some(true)
}

/// Edits of a pulled move: the base move's, then the pull's (net: a man pulled onto the
/// mover's square is one edit there), with the pawn routes for en passant.
pub fn edits(pos: &Position, m: Move, out: &mut EditList) {
    let (a, b, c) = (m.from(), m.to(), pulled_square(m));
    let d = pull_destination(a, b, c);
    let mover = pos.piece_at(a);
    let placed = match m.promotion_type() {
        Some(t) => Piece::new(mover.color(), t),
        None => mover,
    };
    let man = pos.piece_at(c);
    out.push(a, if d == a { man } else { Piece::NONE });
    if m.payload() & EP != 0 {
        if let Some(victim) = b.offset(0, -mover.color().forward()) {
            out.push(victim, Piece::NONE);
        }
    }
    out.push(b, placed);
    out.push(c, Piece::NONE);
    if d != a {
        out.push(d, man);
    }
    // only a route from the double-step region can leave a target (the edit list keeps one)
    out.no_pawn_route();
    let region = pos.rules().double_step_region[mover.color().index()];
    if placed.kind() == PieceType::PAWN && region.has(a) {
        out.pawn_route(a, b);
    }
    if man.kind() == PieceType::PAWN && region.has(c) {
        out.pawn_route(c, d);
    }
}

/// Canonical (and only) spelling: the base move, then the pull.
pub fn write(pos: &Position, m: Move, out: &mut MoveText) {
    let base = base_of(m);
    out.push_leg(base.from(), base.to());
    if let Some(t) = base.promotion_type() {
        out.push(pos.rules().letter(t));
    }
    let c = pulled_square(m);
    out.push_leg(c, pull_destination(m.from(), m.to(), c));
}
