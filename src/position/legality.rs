//! Whether a move of the side to move leaves its King attacked, judged from what the move does
//! to the board instead of by playing it. One [`Legality`] is computed per node (the generic
//! generator builds it); the generator and every mechanic describe a move as a [`Change`] (the
//! squares it empties and fills, the enemy men it removes, where the King ends) and ask
//! [`Legality::judge`].
//!
//! Why a `Change` decides: an enemy man's attack on a square depends only on its own square
//! and the occupancy (leaps, slides, hops and irregular rays alike), and none of these moves
//! moves or places an enemy man. So the King is safe after the move exactly when no enemy man
//! that is left attacks its final square over the new occupancy: one attack computation, the
//! *attack tier*. Most changes need not even that (the *mask tier*): when the King stays, is not
//! in check and every enemy man only leaps or slides, a line onto the King opens only where our
//! men that alone screen it leave, or where every man screening a line of two or more screens
//! leaves at once; arrivals can only block.
//!
//! The node's masks also serve the one-man moves of the data ([`ShortcutMasks`]), and a
//! mechanic's check relation (Hooks::CHECK) widens them. The fallback, for the nodes the
//! judge cannot decide ([`Legality::decides`]), is to play the move ([`legal_when_played`]).

use super::{is_attacked, types_of, EditList, Position, ShortcutMasks};
use crate::geometry::attacks::{between, bishop_attacks, rook_attacks, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveKind};
use crate::piece::{PieceType, Ray};

/// What a move does to the board, as the King's safety sees it: the net result of all its legs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// Occupied before, empty after (the King's square when it moves, an en-passant victim's).
    /// A square emptied and refilled by the same move is in neither set.
    pub empties: Bitboard,
    /// Empty before, occupied after.
    pub fills: Bitboard,
    /// Enemy men removed: a capture's square (still occupied afterwards, by our man) or a
    /// square the move also empties.
    pub captured: Bitboard,
    /// Where the side's King ends, when the move moves it.
    pub king_to: Option<Square>,
}

impl Change {
    /// No occupancy change and the King in place (a swap of two of our men).
    pub const NONE: Change = Change {
        empties: Bitboard::EMPTY,
        fills: Bitboard::EMPTY,
        captured: Bitboard::EMPTY,
        king_to: None,
    };

    /// Our men leave the squares of `left` and stand on those of `arrived` (enemy men on
    /// `arrived` are captured); `king_to` where the King ends if it moves.
    #[inline]
    pub fn net(
        pos: &Position,
        left: Bitboard,
        arrived: Bitboard,
        king_to: Option<Square>,
    ) -> Change {
        let occ = pos.occupied();
        Change {
            empties: left & !arrived,
            fills: arrived & !occ,
            captured: arrived & pos.pieces(pos.side_to_move().flip()),
            king_to,
        }
    }

    /// Two of our men move, `a` to `b` and then `c` to `d` (a square one leaves and the other
    /// reaches stays occupied; an enemy man on `b` or `d` is captured); the King, `king`, ends
    /// where its leg ends.
    #[inline]
    pub fn two_men(
        pos: &Position,
        king: Option<Square>,
        (a, b): (Square, Square),
        (c, d): (Square, Square),
    ) -> Change {
        let king_to = if king == Some(a) {
            Some(b)
        } else if king == Some(c) {
            Some(d)
        } else {
            None
        };
        Change::net(pos, a.bb() | c.bb(), b.bb() | d.bb(), king_to)
    }

    /// What `m` does to the board: a normal move's two squares directly, a mechanic's word for
    /// its own moves ([`crate::position::Mechanic::change`]), else read from the move's edits
    /// ([`Change::of_edits`]).
    #[inline]
    pub fn of_move(pos: &Position, m: Move) -> Option<Change> {
        match m.kind() {
            MoveKind::Normal => {
                let (from, to) = (m.from(), m.to());
                let moved = pos.piece_at(from);
                let placed = m.promotion_type().unwrap_or(moved.kind());
                let king_to = (placed == PieceType::KING).then_some(to);
                return Some(Change::net(pos, from.bb(), to.bb(), king_to));
            }
            MoveKind::Special => {
                if let Some(c) = pos.mechanics().mover().and_then(|own| own.change(pos, m)) {
                    return Some(c);
                }
            }
            _ => {}
        }
        Change::of_edits(pos, &pos.edits_of(m))
    }

    /// The change of any move, from the edits `make` would apply: `None` when they place or
    /// change an enemy man, or take the King off the board.
    pub fn of_edits(pos: &Position, edits: &EditList) -> Option<Change> {
        let us = pos.side_to_move();
        let king = crate::piece::Piece::new(us, PieceType::KING);
        let all = edits.as_slice();
        let mut c = Change::NONE;
        let mut king_left = false;
        for (i, e) in all.iter().enumerate() {
            // a square edited several times counts once, from its first content to its last
            if all[..i].iter().any(|x| x.sq == e.sq) {
                continue;
            }
            let before = pos.piece_at(e.sq);
            let after = all.iter().rev().find(|x| x.sq == e.sq).expect("e").after;
            if before == after {
                continue;
            }
            if after.is_some() && after.color() != us {
                return None;
            }
            let sq = e.sq.bb();
            if before.is_some() && before.color() != us {
                c.captured |= sq;
            }
            if after.is_none() {
                c.empties |= sq;
            } else if before.is_none() {
                c.fills |= sq;
            }
            if after == king {
                c.king_to = Some(e.sq);
            } else if before == king {
                king_left = true;
            }
        }
        (!king_left || c.king_to.is_some()).then_some(c)
    }
}

/// One node's facts about the side to move's King, computed once and asked for every move
/// ([`Legality::judge`]). `Copy`, no allocation.
#[derive(Clone, Copy, Debug)]
pub struct Legality {
    /// The one-man moves' masks, widened by a check relation of a mechanic.
    masks: ShortcutMasks,
    /// Segments between the King and an enemy slider screened by two or more of our men (and
    /// with the flying general, between the Kings): emptying two squares of one can open it.
    screened: Bitboard,
    /// Our men that alone screen the King from an enemy slider (or the other King, with the
    /// flying general): every square when the masks judge nothing.
    pinned: Bitboard,
    /// The enemy's piece types.
    enemy_types: u16,
    /// The side to move's only King.
    king: Option<Square>,
    /// The mask tier may answer: not in check, every enemy man leaps or slides, the ordinary
    /// relation or one whose widened masks judge changes
    /// ([`super::Mechanic::shortcut_judges_changes`]).
    quiet: bool,
    /// In check by one leaping or sliding man under the ordinary relation: a change that
    /// leaves the King where it is answers the check only by filling or capturing on
    /// `masks.target` (the checker and the squares between).
    single_check: bool,
    /// `judge` answers every change.
    decides: bool,
}

impl Legality {
    /// The facts of the side to move's King in `pos`.
    #[inline]
    pub fn new(pos: &Position) -> Legality {
        let rules = pos.rules();
        let enemy_types = types_among(pos, pos.pieces(pos.side_to_move().flip()));
        let (masks, screened, pinned) = shortcut_masks(pos, enemy_types);
        let king = pos.king_square(pos.side_to_move());
        let checker = pos.mechanics().checker();
        let both_kings =
            pos.king_square(Color::White).is_some() && pos.king_square(Color::Black).is_some();
        let decides = (!rules.checking
            || (king.is_some() && !rules.promotion_types.contains(&PieceType::KING)))
            && (!rules.flying_general || both_kings)
            && checker.is_none_or(|c| c.relation_reads_enemy_only());
        let quiet = !masks.test_all()
            && masks.target == Bitboard::FULL
            && checker.is_none_or(|c| c.shortcut_judges_changes());
        let single_check = !masks.test_all() && masks.target != Bitboard::FULL && checker.is_none();
        Legality {
            masks,
            screened,
            pinned,
            enemy_types,
            king,
            quiet,
            single_check,
            decides,
        }
    }

    /// The one-man moves' masks.
    #[inline(always)]
    pub fn masks(&self) -> &ShortcutMasks {
        &self.masks
    }

    /// The enemy's piece types (bit `t` for type `t`).
    #[inline(always)]
    pub fn enemy_types(&self) -> u16 {
        self.enemy_types
    }

    /// The side to move's only King.
    #[inline(always)]
    pub fn king(&self) -> Option<Square> {
        self.king
    }

    /// Our men that alone screen the King from an enemy slider under the ordinary relation
    /// (every square when no single King or an irregular rider or a double check leaves them
    /// uncomputed): moving one off its line may expose the King.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Whether the King is attacked now (under the relation that decides legality). Only in a
    /// node that [`Legality::decides`].
    #[inline]
    pub fn in_check(&self, pos: &Position) -> bool {
        self.judge(pos, &Change::NONE) == Some(false)
    }

    /// Whether filling squares (or capturing the enemy men on them) can only block attacks on
    /// the King: every enemy man leaps or slides, under the ordinary relation. A change that is
    /// legal stays legal with more such fills.
    /// Asked by few callers, so computed on demand rather than at every node.
    #[inline]
    pub fn fills_only_block(&self, pos: &Position) -> bool {
        let rules = pos.rules();
        pos.mechanics().checker().is_none()
            && types_of(self.enemy_types).all(|t| {
                rules
                    .piece(t)
                    .is_none_or(|d| !d.moves.rays.iter().any(|r| r.captures))
            })
    }

    /// Whether [`Legality::judge`] answers every change in this node. It does unless the side
    /// has no single King while Kings may be checked, a pawn may promote to a King, the flying
    /// general lacks a King, or a mechanic's check relation reads our own men (the move is then
    /// played: [`legal_when_played`]).
    #[inline(always)]
    pub fn decides(&self) -> bool {
        self.decides
    }

    /// Whether the King is safe after change `c` of the side to move; `None` only when the
    /// node is not [`Legality::decides`]. Exact: it agrees with playing the move.
    #[inline]
    pub fn judge(&self, pos: &Position, c: &Change) -> Option<bool> {
        if !self.decides {
            return None;
        }
        if self.quiet
            && c.king_to.is_none()
            && (c.empties & (self.masks.test_from | pos.pieces(pos.side_to_move().flip())))
                .is_empty()
            && ((c.fills | c.captured) & self.masks.test_to).is_empty()
            && !(c.empties & self.screened).more_than_one()
        {
            return Some(true);
        }
        if self.single_check
            && c.king_to.is_none()
            && ((c.fills | c.captured) & self.masks.target).is_empty()
        {
            // the checker stays and nothing new stands on its line
            return Some(false);
        }
        Some(self.safe_after(pos, c))
    }

    /// The attack tier: the King's final square against the enemy men left, over the new
    /// occupancy.
    fn safe_after(&self, pos: &Position, c: &Change) -> bool {
        let rules = pos.rules();
        let them = pos.side_to_move().flip();
        let occ = (pos.occupied() & !c.empties) | c.fills;
        let enemy = pos.pieces(them) & !c.captured;
        let king = c.king_to.or(self.king);
        if rules.flying_general {
            let other = pos.pieces_of(them, PieceType::KING) & enemy;
            if let (Some(k), true) = (king, other.any() && !other.more_than_one()) {
                let o = other.lsb();
                if o.file() == k.file() && (between(o, k) & occ).is_empty() {
                    return false;
                }
            }
        }
        if !rules.checking {
            return true;
        }
        let k = king.expect("decides: a single King");
        match pos.mechanics().checker() {
            Some(checker) => !checker
                .attacked_with(pos, k, them, occ, c.captured)
                .expect("a relation that reads only the enemy's men answers"),
            None => !attacked_by(pos, k, them, enemy, self.enemy_types, occ),
        }
    }

    /// The squares of `tos` to which the man on `from` may go (every other man staying; an
    /// enemy man on the square is captured) without leaving the King attacked: by the masks
    /// where they decide, else each square judged. Only in a node that
    /// [`Legality::decides`].
    #[inline]
    pub fn relocation_targets(&self, pos: &Position, from: Square, tos: Bitboard) -> Bitboard {
        debug_assert!(self.decides);
        let m = &self.masks;
        let king = self.king == Some(from);
        if !king && !m.test_all() && !m.test_from.has(from) {
            // the masks' one-man move: exact wherever they do not ask for a test
            let mut legal = tos & m.target & !m.test_to;
            for t in tos & m.test_to {
                if self.judges_safe(pos, from, t, None) {
                    legal |= t.bb();
                }
            }
            return legal;
        }
        let mut legal = Bitboard::EMPTY;
        for t in tos {
            if self.judges_safe(pos, from, t, king.then_some(t)) {
                legal |= t.bb();
            }
        }
        legal
    }

    /// `judge` of the one-man move `from -> t`.
    #[inline]
    fn judges_safe(
        &self,
        pos: &Position,
        from: Square,
        t: Square,
        king_to: Option<Square>,
    ) -> bool {
        self.judge(pos, &Change::net(pos, from.bb(), t.bb(), king_to)) == Some(true)
    }

    /// Whether the pseudo-legal move `m` (of any kind) leaves the King safe: judged from what
    /// it changes ([`Change::of_move`]) where the node decides, else played.
    #[inline]
    pub fn legal_move(&self, pos: &mut Position, m: Move) -> bool {
        if self.decides {
            if let Some(c) = Change::of_move(pos, m) {
                return self.judge(pos, &c) == Some(true);
            }
        }
        legal_when_played(pos, m)
    }
}

impl ShortcutMasks {
    /// Masks that judge nothing: every move is played.
    pub const TEST_ALL: ShortcutMasks = ShortcutMasks {
        test_from: Bitboard::FULL,
        test_to: Bitboard::EMPTY,
        target: Bitboard::FULL,
    };
}

/// Whether a man of `by` among `men` attacks `sq` when the occupancy is `occ`: the test of
/// [`is_attacked`] for a board with those men and that occupancy, with each slider lookup done
/// once for all piece types. For the shortcuts; `is_attacked` stays the plain definition.
/// `types` must hold the types of all of `men` (see [`types_among`]).
#[inline]
pub(crate) fn attacked_by(
    pos: &Position,
    sq: Square,
    by: Color,
    men: Bitboard,
    types: u16,
    occ: Bitboard,
) -> bool {
    attacked_from_squares(pos, sq, by, types, occ, |t| pos.kind(t) & men)
}

/// Whether a man of `by` of one of `types`, standing on the squares `from(t)` gives for its
/// type `t`, attacks `sq` when the occupancy is `occ` (each slider lookup done once for all
/// types). The squares need not hold such men: a mechanic's relation may let a man attack
/// from another man's square (Redeployment's swaps).
#[inline]
pub fn attacked_from_squares(
    pos: &Position,
    sq: Square,
    by: Color,
    types: u16,
    occ: Bitboard,
    mut from: impl FnMut(PieceType) -> Bitboard,
) -> bool {
    let rules = pos.rules();
    let mut orth: Option<Bitboard> = None;
    let mut diag: Option<Bitboard> = None;
    for t in types_of(types) {
        let of_type = from(t);
        if of_type.is_empty() {
            continue;
        }
        let Some(def) = rules.piece(t) else {
            continue;
        };
        let m = &def.moves;
        if (m.leap_capture_from[by.index()][sq.index()] & of_type).any() {
            return true;
        }
        if m.has_rays() {
            if m.attacks_from_any(by, of_type, sq, occ, rules.board) {
                return true;
            }
            continue;
        }
        let near = if m.no_adjacent_capture {
            of_type & !TABLES.king[sq.index()]
        } else {
            of_type
        };
        if let Some(slide) = m.rook_capture {
            let att = *orth.get_or_insert_with(|| rook_attacks(sq, occ));
            if (slide.reach(att, sq) & near).any() {
                return true;
            }
        }
        if let Some(slide) = m.bishop_capture {
            let att = *diag.get_or_insert_with(|| bishop_attacks(sq, occ));
            if (slide.reach(att, sq) & near).any() {
                return true;
            }
        }
    }
    false
}

/// [`is_attacked`] with occupancy `occ` instead of the board's, computed the fast way (for
/// tests of the fast path).
pub fn attacked_with(pos: &Position, sq: Square, by: Color, occ: Bitboard) -> bool {
    let men = pos.pieces(by);
    attacked_by(pos, sq, by, men, types_among(pos, men), occ)
}

/// The piece types (bit `t` for type `t`) of the men in `men`.
#[inline]
pub(crate) fn types_among(pos: &Position, men: Bitboard) -> u16 {
    types_of(pos.rules().type_mask).fold(0, |acc, t| {
        acc | (((pos.kind(t) & men).any() as u16) << t.0)
    })
}

/// Whether the position after a move is illegal for the side that just moved.
#[inline]
fn leaves_king_exposed(pos: &Position) -> bool {
    let rules = pos.rules();
    let mover = pos.side_to_move().flip();
    if rules.flying_general {
        if let (Some(a), Some(b)) = (pos.king_square(Color::White), pos.king_square(Color::Black)) {
            if a.file() == b.file() && (between(a, b) & pos.occupied()).is_empty() {
                return true;
            }
        }
    }
    if !rules.checking {
        return false;
    }
    match pos.king_square(mover) {
        Some(k) => match pos.mechanics().checker() {
            Some(c) => c.attacked(pos, k, pos.side_to_move()),
            None => is_attacked(pos, k, pos.side_to_move()),
        },
        None => true,
    }
}

/// The node's masks (see [`ShortcutMasks`]), the segments screened by two or more of our men
/// and our men that alone screen the King (every square when the masks judge nothing), given
/// the enemy's piece types.
#[inline]
fn shortcut_masks(pos: &Position, enemy_types: u16) -> (ShortcutMasks, Bitboard, Bitboard) {
    const TEST_ALL: (ShortcutMasks, Bitboard, Bitboard) =
        (ShortcutMasks::TEST_ALL, Bitboard::FULL, Bitboard::FULL);
    let rules = pos.rules();
    let us = pos.side_to_move();
    let them = us.flip();
    let occ = pos.occupied();
    let ours = pos.pieces(us);
    let mut test = Bitboard::EMPTY;
    let mut target = Bitboard::FULL;
    let mut test_to = Bitboard::EMPTY;
    let mut screened = Bitboard::EMPTY;
    let mut pinned = Bitboard::EMPTY;
    if rules.flying_general {
        let (Some(a), Some(b)) = (pos.king_square(Color::White), pos.king_square(Color::Black))
        else {
            return TEST_ALL;
        };
        if a.file() == b.file() {
            let screen = between(a, b) & occ;
            if screen.is_empty() {
                return TEST_ALL;
            }
            if !screen.more_than_one() {
                test |= screen;
                pinned |= screen & ours;
            } else {
                screened |= between(a, b);
            }
        }
        test |= pos.pieces_of(us, PieceType::KING);
    }
    if rules.checking {
        let Some(k) = pos.king_square(us) else {
            return TEST_ALL;
        };
        // one pass over the enemy types: the checkers (as `attacked_by` finds attackers), the
        // irregular riders, and the sliders that could pin
        let theirs = pos.pieces(them);
        let (orth, diag) = (rook_attacks(k, occ), bishop_attacks(k, occ));
        let (orth_x, diag_x) = (rook_attacks(k, theirs), bishop_attacks(k, theirs));
        let mut snipers = Bitboard::EMPTY;
        let mut checkers = Bitboard::EMPTY;
        let mut leaping_checkers = Bitboard::EMPTY;
        let mut hop_lines = Bitboard::EMPTY;
        for t in types_of(enemy_types) {
            let men = pos.kind(t) & theirs;
            let m = &rules.piece(t).expect("type in use").moves;
            if m.rays.iter().any(|r| r.captures) {
                // hoppers: only men leaving or reaching the hopper lines through the king
                // can change a hop attack on it; irregular riders: test everything
                if m.rays.iter().any(|r| r.captures && !r.hop)
                    || m.attacks_from_any(them, men, k, occ, rules.board)
                {
                    return TEST_ALL;
                }
                for ray in m.rays.iter().filter(|r| r.captures) {
                    // a line without such a hopper on it stays harmless whatever we move
                    let line = hop_line(ray, them, k, rules.board);
                    if (line & men).any() {
                        hop_lines |= line;
                    }
                }
            }
            let leapers = m.leap_capture_from[them.index()][k.index()] & men;
            checkers |= leapers;
            leaping_checkers |= leapers;
            let near = if m.no_adjacent_capture {
                men & !TABLES.king[k.index()]
            } else {
                men
            };
            if let Some(slide) = m.rook_capture {
                checkers |= slide.reach(orth, k) & near;
                snipers |= orth_x & men;
            }
            if let Some(slide) = m.bishop_capture {
                checkers |= slide.reach(diag, k) & near;
                snipers |= diag_x & men;
            }
        }
        if checkers.more_than_one() {
            return TEST_ALL;
        }
        if checkers.any() {
            // a leaping check is answered only by capturing the checker, a sliding one also by
            // blocking its line
            let c = checkers.lsb();
            target = if leaping_checkers.has(c) {
                c.bb()
            } else {
                c.bb() | between(k, c)
            };
        }
        for s in snipers {
            let screen = between(k, s) & occ;
            if !screen.more_than_one() {
                test |= screen & ours;
                pinned |= screen & ours;
            } else {
                screened |= between(k, s);
            }
        }
        test |= k.bb() | hop_lines;
        test_to = hop_lines;
        if rules.promotion_types.contains(&PieceType::KING) {
            test |= pos.pieces_of(us, PieceType::PAWN);
        }
        // a mechanic's check relation widens the ordinary one: it says what more to test
        if let Some(checker) = pos.mechanics().checker() {
            let mut masks = ShortcutMasks {
                test_from: test,
                test_to,
                target,
            };
            if !checker.shortcut(pos, &mut masks) {
                return (ShortcutMasks::TEST_ALL, Bitboard::FULL, pinned);
            }
            // the widened masks hold one-man moves; a change emptying two of our squares could
            // open a line of the relation's own that two of our men screen: it is computed
            return (masks, Bitboard::FULL, pinned);
        }
    }
    let masks = ShortcutMasks {
        test_from: test,
        test_to,
        target,
    };
    (masks, screened, pinned)
}

/// The squares from which a hopper's `ray` of colour `by` could reach `k`, or serve it as the
/// screen: walking from `k` against the ray, within its range.
#[inline]
fn hop_line(ray: &Ray, by: Color, k: Square, board: Bitboard) -> Bitboard {
    let (df, dr) = match by {
        Color::White => ray.step,
        Color::Black => (ray.step.0, -ray.step.1),
    };
    let mut line = Bitboard::EMPTY;
    let mut cur = k;
    let mut steps = 0;
    while let Some(next) = cur.offset(-df, -dr) {
        steps += 1;
        if !board.has(next) || (ray.max != 0 && steps > ray.max) {
            break;
        }
        line |= next.bb();
        cur = next;
    }
    line
}

/// Whether the pseudo-legal move `m` is legal under the ordinary rules (the mover's king not
/// left attacked, under the variant's check relation), by playing it: for mechanics that
/// judge most of their moves by the node's [`Legality`].
pub fn legal_when_played(pos: &mut Position, m: Move) -> bool {
    !exposes_when_played(pos, m)
}

/// Plays `m` and tells whether it leaves the mover's king exposed.
#[inline]
pub(crate) fn exposes_when_played(pos: &mut Position, m: Move) -> bool {
    pos.make(m);
    let bad = leaves_king_exposed(pos);
    pos.unmake();
    bad
}

/// [`leaves_king_exposed`] after the only king of the side to move went from `from` to `to`
/// (capturing what stood there), computed without playing the move. `enemy_types` holds the
/// enemy's piece types. `None` when a mechanic's check relation cannot be judged so (the step
/// is then played).
pub(crate) fn king_step_exposes(
    pos: &Position,
    from: Square,
    to: Square,
    enemy_types: u16,
) -> Option<bool> {
    let rules = pos.rules();
    let them = pos.side_to_move().flip();
    let occ = (pos.occupied() ^ from.bb()) | to.bb();
    let enemy = pos.pieces(them) & !to.bb();
    if rules.flying_general {
        let other = pos.kind(PieceType::KING) & enemy;
        if other.any() && !other.more_than_one() {
            let k = other.lsb();
            if k.file() == to.file() && (between(k, to) & occ).is_empty() {
                return Some(true);
            }
        }
    }
    if !rules.checking {
        return Some(false);
    }
    match pos.mechanics().checker() {
        Some(checker) => checker.attacked_with(pos, to, them, occ, to.bb()),
        None => Some(attacked_by(pos, to, them, enemy, enemy_types, occ)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    fn position(variant: &str, fen: &str) -> Position {
        Position::from_fen(builtin_variants().get(variant).unwrap(), fen).unwrap()
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn pinned_men_are_the_only_screens() {
        // the Knight screens the Rook, the pawn the Bishop; nothing else stands alone
        let p = position("chess", "4r2k/8/8/8/1b6/4N3/3P4/4K3 w - - 0 1");
        let lg = Legality::new(&p);
        assert_eq!(lg.pinned(), sq("e3").bb() | sq("d2").bb());
        assert!(lg.decides() && !lg.in_check(&p));
    }

    #[test]
    fn two_screens_of_one_line_leaving_together_expose_the_king() {
        // the Knight and the Bishop both stand between the Rook and the King: neither alone
        // is pinned, but a move emptying both squares (as a Bracket can) opens the file
        let p = position("chess", "4r2k/8/8/8/4N3/4B3/8/4K3 w - - 0 1");
        let lg = Legality::new(&p);
        assert!(lg.pinned().is_empty());
        let both = Change::net(
            &p,
            sq("e4").bb() | sq("e3").bb(),
            sq("d4").bb() | sq("f4").bb(),
            None,
        );
        assert_eq!(lg.judge(&p, &both), Some(false));
        let one = Change::net(&p, sq("e4").bb(), sq("d6").bb(), None);
        assert_eq!(lg.judge(&p, &one), Some(true));
    }

    #[test]
    fn a_king_that_moves_is_judged_on_its_new_square() {
        let p = position("chess", "4r2k/8/8/8/8/8/8/3K4 w - - 0 1");
        let lg = Legality::new(&p);
        let onto_file = Change::net(&p, sq("d1").bb(), sq("e1").bb(), Some(sq("e1")));
        assert_eq!(lg.judge(&p, &onto_file), Some(false));
        let aside = Change::net(&p, sq("d1").bb(), sq("c2").bb(), Some(sq("c2")));
        assert_eq!(lg.judge(&p, &aside), Some(true));
    }
}
