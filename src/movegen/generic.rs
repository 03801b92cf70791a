//! The table-driven generator for every variant: pseudo-legal moves from the compiled Betza
//! tables, the variant's regions and pawn rules, the rule module's special moves, then
//! legality by make / test / unmake, and finally the merging of moves with the same effect.
//!
//! Most moves need no make / test / unmake. When no enemy man attacks by hopping or along
//! irregular rays (only by leaps and by orthogonal or diagonal slides), a normal move of a man
//! other than the king can only expose its king by vacating the one square that stood between
//! the king and an enemy slider of that line's kind (or between the two kings, with the flying
//! general), or by leaving a check unanswered: with one checker it must capture it, or block
//! it if it slides; with two, every move is tested. Those squares and the answering squares are
//! computed once per node (`Shortcut`); moves from those squares, king moves and moves of other
//! kinds are still played and tested (a king step on the board as it would be after the step).
//! Leaves are counted without listing, the pawns' moves by shifts. [`legal_moves_by_testing`]
//! keeps the plain test of every move by make / test / unmake as the reference.

use super::LeafJudge;
use crate::geometry::attacks::TABLES;
use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::PieceType;
use crate::position::legality::{exposes_when_played, king_step_exposes};
use crate::position::{types_of, Change, Hooks, Legality, Mechanic, Position};
use crate::variant::PieceDef;

pub use crate::position::{attacked_from_squares, attacked_with, is_attacked, legal_when_played};

#[inline]
fn push_pawn_move(pos: &Position, list: &mut MoveList, from: Square, to: Square) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    if rules.promotion_region[us.index()].has(to) {
        for &t in &rules.promotion_types {
            if rules.region(us, t).has(to) {
                list.push(Move::promotion(from, to, t));
            }
        }
        if !rules.mandatory_promotion {
            list.push(Move::normal(from, to));
        }
    } else {
        list.push(Move::normal(from, to));
    }
}

/// Number of moves [`push_pawn_move`] makes for a pawn going to each square of `tos`.
#[inline]
fn count_pawn_moves(pos: &Position, tos: Bitboard) -> usize {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let promo = tos & rules.promotion_region[us.index()];
    let mut n = (tos & !promo).count() as usize;
    if promo.any() {
        for &t in &rules.promotion_types {
            n += (promo & rules.region(us, t)).count() as usize;
        }
        if !rules.mandatory_promotion {
            n += promo.count() as usize;
        }
    }
    n
}

/// Where pseudo-legal generation puts its moves.
trait PseudoSink {
    /// Normal moves of the (non-pawn) man on `from` to each of `tos`.
    fn targets(&mut self, pos: &Position, from: Square, tos: Bitboard);
    /// Moves of the pawn on `from` to each of `tos`, with the variant's promotion rules.
    fn pawn_targets(&mut self, pos: &Position, from: Square, tos: Bitboard);
    /// A move of another kind (en passant, castling).
    fn other(&mut self, m: Move);
    /// Takes care of all moves of the pawns in `pawns` it can handle at once; returns the
    /// pawns left for one-by-one generation.
    fn bulk_pawns(&mut self, _pos: &Position, _def: &PieceDef, pawns: Bitboard) -> Bitboard {
        pawns
    }
}

impl PseudoSink for MoveList {
    #[inline]
    fn targets(&mut self, _pos: &Position, from: Square, tos: Bitboard) {
        for to in tos {
            self.push(Move::normal(from, to));
        }
    }

    #[inline]
    fn pawn_targets(&mut self, pos: &Position, from: Square, tos: Bitboard) {
        for to in tos {
            push_pawn_move(pos, self, from, to);
        }
    }

    #[inline]
    fn other(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts the moves that need no test and keeps the others for make / test / unmake; a
/// filter's judge ([`LeafJudge`]) decides which of the legal ones count.
struct Counter<'j, J: LeafJudge> {
    /// Moves known legal (and passed by the judge) so far.
    legal: usize,
    /// Normal moves from these squares are kept for testing.
    test_from: Bitboard,
    /// Normal moves to these squares are kept for testing too.
    test_to: Bitboard,
    /// The others are legal when they land here.
    target: Bitboard,
    /// The moves to test (and, for a judge that does not pass everything, the legal
    /// promotions, which it judges one by one).
    to_test: MoveList,
    /// The side's only king, whose steps are tested at once on the board as it would be after
    /// the step (`None`: no single king, its steps are kept for testing too).
    king: Option<Square>,
    /// The enemy's piece types ([`types_among`]).
    enemy_types: u16,
    /// The filter's judge.
    judge: &'j mut J,
}

impl<J: LeafJudge> Counter<'_, J> {
    /// Counts the legal pawn moves to `tos`, each from `to - delta`: in bulk, except that a
    /// judge judges promotions one by one (they go to the tests).
    #[inline(always)]
    fn pawn_set(&mut self, pos: &Position, tos: Bitboard, delta: i8) -> usize {
        if J::ALL {
            return count_pawn_moves(pos, tos);
        }
        let promo = tos & pos.rules().promotion_region[pos.side_to_move().index()];
        for to in promo {
            let from = Square::new((to.raw() as i8 - delta) as u8);
            push_pawn_move(pos, &mut self.to_test, from, to);
        }
        self.judge.count_pawns(pos, tos & !promo, delta)
    }
}

impl<J: LeafJudge> PseudoSink for Counter<'_, J> {
    #[inline]
    fn targets(&mut self, pos: &Position, from: Square, tos: Bitboard) {
        if self.king == Some(from) {
            let mut safe = Bitboard::EMPTY;
            for to in tos {
                match king_step_exposes(pos, from, to, self.enemy_types) {
                    Some(false) => safe |= to.bb(),
                    Some(true) => {}
                    None => self.to_test.push(Move::normal(from, to)),
                }
            }
            self.legal += if J::ALL {
                safe.count() as usize
            } else {
                self.judge.count(pos, from, safe)
            };
        } else if self.test_from.has(from) {
            self.to_test.targets(pos, from, tos);
        } else {
            let legal = tos & self.target & !self.test_to;
            self.legal += if J::ALL {
                legal.count() as usize
            } else {
                self.judge.count(pos, from, legal)
            };
            self.to_test.targets(pos, from, tos & self.test_to);
        }
    }

    #[inline]
    fn pawn_targets(&mut self, pos: &Position, from: Square, tos: Bitboard) {
        if self.test_from.has(from) {
            self.to_test.pawn_targets(pos, from, tos);
        } else {
            let legal = tos & self.target & !self.test_to;
            if J::ALL {
                self.legal += count_pawn_moves(pos, legal);
            } else {
                let promo = legal & pos.rules().promotion_region[pos.side_to_move().index()];
                self.to_test.pawn_targets(pos, from, promo);
                self.legal += self.judge.count(pos, from, legal & !promo);
            }
            self.to_test.pawn_targets(pos, from, tos & self.test_to);
        }
    }

    #[inline]
    fn other(&mut self, m: Move) {
        self.to_test.push(m);
    }

    /// Counts the pawns' steps, double steps and captures with shifts (the pawn type always
    /// moves `fmWfcF`); en-passant captures go to the tests. Pawns to test are left alone.
    #[inline]
    fn bulk_pawns(&mut self, pos: &Position, def: &PieceDef, pawns: Bitboard) -> Bitboard {
        let free = pawns & !self.test_from;
        // arrivals to test (hopper lines) are sorted out pawn by pawn
        if free.is_empty() || self.test_to.any() {
            return pawns;
        }
        let rules = pos.rules();
        let us = pos.side_to_move();
        let board = rules.board;
        let region = rules.region(us, PieceType::PAWN);
        // where counted moves may land (en passant, tested, only needs the region)
        let dest = region & self.target;
        let empty = !pos.occupied() & board;
        let (up, up_west, up_east) = match us {
            Color::White => (8, 7, 9),
            Color::Black => (-8, -9, -7),
        };
        let quiet_on = rules.quiet_off >> PieceType::PAWN.0 & 1 == 0;
        let one = if quiet_on {
            free.shift(up) & empty
        } else {
            Bitboard::EMPTY
        };
        let mut n = self.pawn_set(pos, one & dest, up);
        if rules.double_step && quiet_on {
            let starters = (free & rules.double_step_region[us.index()]).shift(up) & empty;
            n += self.pawn_set(pos, starters.shift(up) & empty & dest, 2 * up);
        }
        let captures_on = rules.captures_off >> PieceType::PAWN.0 & 1 == 0;
        if captures_on && !def.moves.no_adjacent_capture {
            let west = (free & !Bitboard::FILE_A).shift(up_west) & board & region;
            let east = (free & !Bitboard::FILE_H).shift(up_east) & board & region;
            let immune = immune(pos);
            let enemy = pos.pieces(us.flip()) & self.target & !immune;
            n += self.pawn_set(pos, west & enemy, up_west)
                + self.pawn_set(pos, east & enemy, up_east);
            if let Some(ep) = pos.ep_square() {
                if ((west | east) & ep.bb()).any() && ep_victim_capturable(ep, us, immune) {
                    for from in TABLES.pawn[us.flip().index()][ep.index()] & free {
                        self.to_test.push(Move::en_passant(from, ep));
                    }
                }
            }
        }
        self.legal += n;
        pawns & self.test_from
    }
}

/// Whether the pawn an en-passant capture of `us` on `ep` would take is not immune.
#[inline(always)]
fn ep_victim_capturable(ep: Square, us: Color, immune: Bitboard) -> bool {
    ep.offset(0, -us.forward())
        .is_some_and(|victim| !immune.has(victim))
}

/// Pseudo-legal moves of the data-described kinds (pieces, pawns, castling).
pub fn pseudo_moves(pos: &Position, list: &mut MoveList) {
    generate_pseudo(pos, list);
}

#[inline]
fn generate_pseudo<S: PseudoSink>(pos: &Position, sink: &mut S) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let them = us.flip();
    let occ = pos.occupied();
    let ours = pos.pieces(us);
    // men a mechanic makes immune (Espionage's spies) are no targets; they still attack
    let immune = immune(pos);
    let enemy = pos.pieces(them) & !immune;
    let board = rules.board;
    for t in types_of(rules.type_mask) {
        let men = pos.kind(t) & ours;
        if men.is_empty() {
            continue;
        }
        let def = rules.piece(t).expect("type in use");
        let region = rules.region(us, t);
        let quiet_on = rules.quiet_off >> t.0 & 1 == 0;
        let captures_on = rules.captures_off >> t.0 & 1 == 0;
        let men = if t == PieceType::PAWN {
            sink.bulk_pawns(pos, def, men)
        } else {
            men
        };
        for from in men {
            let (quiet, caps) = def.moves.targets(us, from, occ, board);
            let quiet = if quiet_on { quiet } else { Bitboard::EMPTY };
            let caps = if captures_on { caps } else { Bitboard::EMPTY };
            let tos = (quiet | (caps & enemy)) & region;
            if t == PieceType::PAWN {
                sink.pawn_targets(pos, from, tos);
                if quiet_on && rules.double_step && rules.double_step_region[us.index()].has(from) {
                    let f = us.forward();
                    if let (Some(one), Some(two)) = (from.offset(0, f), from.offset(0, 2 * f)) {
                        if !occ.has(one) && !occ.has(two) && board.has(two) && region.has(two) {
                            sink.pawn_targets(pos, from, two.bb());
                        }
                    }
                }
                if let Some(ep) = pos.ep_square() {
                    if (caps & region).has(ep) && ep_victim_capturable(ep, us, immune) {
                        sink.other(Move::en_passant(from, ep));
                    }
                }
            } else {
                sink.targets(pos, from, tos);
            }
        }
    }
    if rules.castling && may_castle(pos) {
        let mut castles = MoveList::new();
        castling_moves(pos, &mut castles);
        for &m in castles.iter() {
            sink.other(m);
        }
    }
}

/// Whether [`castling_moves`] can find anything: a right of the side to move whose destinations
/// the variant allows ([`Position::castle_path`]) with an empty path.
#[inline]
fn may_castle(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let rights = pos.castling_rights() >> (2 * us.index()) & 3;
    (0..2).any(|side| {
        rights >> side & 1 != 0
            && pos
                .castle_path(2 * us.index() + side)
                .is_some_and(|p| (p.clear & pos.occupied()).is_empty())
    })
}

/// The castling moves of the side to move that pass every condition but the last test of the
/// King's destination (made by the legality filter, as for every move).
pub(crate) fn castling_moves(pos: &Position, list: &mut MoveList) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let rights = pos.castling_rights() >> (2 * us.index()) & 3;
    if rights == 0 {
        return;
    }
    let Some(king) = pos.king_square(us) else {
        return;
    };
    if rules.castling_checks && castle_attacked(pos, king, us.flip()) {
        return;
    }
    for side in 0..2 {
        if rights >> side & 1 == 0 {
            continue;
        }
        // the geometry fixed at set-up (destinations on the board and in their regions)
        let Some(path) = pos.castle_path(2 * us.index() + side) else {
            continue;
        };
        if (path.clear & pos.occupied()).any() {
            continue;
        }
        if rules.castling_checks
            && path
                .king_path
                .iter()
                .any(|s| castle_attacked(pos, s, us.flip()))
        {
            continue;
        }
        let m = path.mv;
        let (kto, rook, rto) = (m.to(), m.rook_from(), m.rook_to());
        // where kings are captured the move is not tested afterwards: test the destination
        if rules.castling_checks && !rules.checking {
            let occ = (pos.occupied() ^ king.bb() ^ rook.bb()) | kto.bb() | rto.bb();
            if attacked_with(pos, kto, us.flip(), occ) {
                continue;
            }
        }
        list.push(m);
    }
}

/// Men a mechanic makes immune to capture now (none for most variants).
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

/// Whether a square the castling king stands on or crosses is attacked: the ordinary relation,
/// or a mechanic's for the side to move's own status (Hippophobic's).
#[inline]
fn castle_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    match pos.mechanics().with_hook(Hooks::ATTACK).next() {
        Some(m) => m.attacked(pos, sq, by),
        None => is_attacked(pos, sq, by),
    }
}

/// Whether the side to move's royal man is attacked, under the variant's relation for its own
/// status ([`castle_attacked`]).
pub fn in_check(pos: &Position) -> bool {
    let us = pos.side_to_move();
    match pos.king_square(us) {
        Some(k) if pos.rules().checking => castle_attacked(pos, k, us.flip()),
        _ => false,
    }
}

/// Whether a pseudo-legal move needs more than the masks ([`ShortcutMasks::test_from`] and
/// [`ShortcutMasks::test_to`]) to be judged.
#[inline(always)]
fn needs_test(m: Move, test_from: Bitboard, test_to: Bitboard) -> bool {
    m.kind() != MoveKind::Normal || test_from.has(m.from()) || test_to.has(m.to())
}

/// Whether `m` leaves the mover's king exposed: a step of the side's only king is tested on
/// the board as it would be after the move (where the variant's check relation can be judged
/// so), other moves are judged by what they change ([`Legality::judge`]) where the node allows,
/// and the rest are played and tested.
#[inline]
fn exposes(pos: &mut Position, m: Move, lg: &Legality) -> bool {
    if m.kind() == MoveKind::Normal && lg.king() == Some(m.from()) {
        if let Some(exposed) = king_step_exposes(pos, m.from(), m.to(), lg.enemy_types()) {
            return exposed;
        }
    }
    if lg.decides() {
        if let Some(c) = Change::of_move(pos, m) {
            return lg.judge(pos, &c) == Some(false);
        }
    }
    // a mechanic's check relation may judge the move on the board as it would be after it
    if let Some(legal) = pos
        .mechanics()
        .checker()
        .and_then(|c| c.judge_ordinary(pos, m))
    {
        return !legal;
    }
    exposes_when_played(pos, m)
}

/// Legal moves, generically: the moves legal under the ordinary rules, less those the
/// variant's mechanics' filters bar.
pub fn legal_moves(pos: &mut Position, list: &mut MoveList) {
    ordinary_legal_moves(pos, list);
    super::apply_filters(pos, list);
}

/// The moves that leave the mover's king unattacked (and obey the flying general), before any
/// restriction: what Torpedo calls the FIDE-legal moves.
pub fn ordinary_legal_moves(pos: &mut Position, list: &mut MoveList) {
    let mover = pos.mechanics().mover();
    if let Some(own) = mover.filter(|m| m.generates_legal()) {
        let lg = Legality::new(pos);
        data_legal_moves(pos, &lg, list);
        own.generate_legal(pos, &lg, list);
        return;
    }
    let mut pseudo = MoveList::new();
    generate_pseudo(pos, &mut pseudo);
    if let Some(mover) = mover {
        mover.generate(pos, &mut pseudo);
    }
    keep_legal(pos, &Legality::new(pos), &pseudo, list);
    if mover.is_some_and(|m| !m.moves_are_distinct()) {
        merge_same_effect(pos, list);
    }
}

/// The legal moves of the kinds the data describes (pieces, pawns, castling), without the
/// mechanics' own moves: what a mechanic that lists its own legal moves adds to. `lg` is the
/// node's legality facts.
fn data_legal_moves(pos: &mut Position, lg: &Legality, list: &mut MoveList) {
    let mut pseudo = MoveList::new();
    generate_pseudo(pos, &mut pseudo);
    keep_legal(pos, lg, &pseudo, list);
}

/// Appends the legal moves of `pseudo` to `list`, in order.
#[inline]
fn keep_legal(pos: &mut Position, lg: &Legality, pseudo: &MoveList, list: &mut MoveList) {
    for &m in pseudo.iter() {
        if is_legal(pos, lg, m) {
            list.push(m);
        }
    }
}

/// Whether the pseudo-legal move `m` is legal under the ordinary rules: by the masks where
/// they decide, else judged or played ([`exposes`]).
#[inline]
fn is_legal(pos: &mut Position, lg: &Legality, m: Move) -> bool {
    let masks = lg.masks();
    if needs_test(m, masks.test_from, masks.test_to) {
        !exposes(pos, m, lg)
    } else {
        masks.target.has(m.to())
    }
}

/// Whether [`noisy_legal_moves`] serves this variant: the generic generator, no mechanic
/// filters moves, and a mechanic's own moves (if any) are distinct from every other move (so
/// no move is merged away and the legal moves are the legal pseudo-legal ones, in order).
pub fn noisy_is_staged(pos: &Position) -> bool {
    !pos.rules().orthodox
        && !pos.mechanics().uses(Hooks::FILTER)
        && pos
            .mechanics()
            .mover()
            .is_none_or(|m| m.moves_are_distinct())
}

/// Whether `m` captures or promotes: the moves quiescence searches.
#[inline]
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    m.promotion_type().is_some()
        || match m.kind() {
            MoveKind::Normal => pos.piece_at(m.to()).is_some(),
            MoveKind::EnPassant => true,
            MoveKind::Castling => false,
            MoveKind::Special => is_capture(pos, m),
        }
}

/// The legal moves that capture or promote, in the order [`legal_moves`] gives them, with
/// only those judged for legality (staged generation for quiescence); returns whether the
/// side has any legal move at all. Only where [`noisy_is_staged`].
pub fn noisy_legal_moves(pos: &mut Position, list: &mut MoveList) -> bool {
    debug_assert!(noisy_is_staged(pos));
    let lg = Legality::new(pos);
    let mut pseudo = MoveList::new();
    generate_pseudo(pos, &mut pseudo);
    let mover = pos.mechanics().mover();
    // a mechanic that lists its legal moves judges them by its own rules
    let own_legal = mover.filter(|m| m.generates_legal());
    match mover {
        Some(mover) if own_legal.is_none() => mover.generate(pos, &mut pseudo),
        _ => {}
    }
    for &m in pseudo.iter() {
        if is_noisy(pos, m) && is_legal(pos, &lg, m) {
            list.push(m);
        }
    }
    let mut own = MoveList::new();
    if let Some(mover) = own_legal {
        mover.generate_legal(pos, &lg, &mut own);
        for &m in own.iter().filter(|&&m| is_noisy(pos, m)) {
            list.push(m);
        }
    }
    !list.is_empty()
        || !own.is_empty()
        || pseudo
            .iter()
            .any(|&m| !is_noisy(pos, m) && is_legal(pos, &lg, m))
}

/// Legal moves by playing and testing every pseudo-legal move: the reference for
/// [`legal_moves`] (same moves, same order).
pub fn legal_moves_by_testing(pos: &mut Position, list: &mut MoveList) {
    let mut pseudo = MoveList::new();
    pseudo_moves(pos, &mut pseudo);
    let mover = pos.mechanics().mover();
    if let Some(mover) = mover {
        mover.generate(pos, &mut pseudo);
    }
    for &m in pseudo.iter() {
        if !exposes_when_played(pos, m) {
            list.push(m);
        }
    }
    if mover.is_some_and(|m| !m.moves_are_distinct()) {
        merge_same_effect(pos, list);
    }
    super::apply_filters(pos, list);
}

/// Number of legal moves (`legal_moves(pos).len()`), counting without listing where no
/// mechanic adds or filters moves.
pub fn count_legal(pos: &mut Position) -> usize {
    if pos.mechanics().uses(Hooks::FILTER) {
        let mut list = MoveList::new();
        legal_moves(pos, &mut list);
        return list.len();
    }
    count_ordinary(pos)
}

/// Number of moves legal under the ordinary rules (`ordinary_legal_moves(pos).len()`),
/// counting without listing where no mechanic adds moves of its own.
pub fn count_ordinary(pos: &mut Position) -> usize {
    count_passing(pos, &mut super::Unfiltered)
}

/// Number of moves legal under the ordinary rules that `judge` passes, counting without
/// listing where no mechanic adds moves of its own (see [`LeafJudge`]).
#[inline]
pub fn count_passing<J: LeafJudge>(pos: &mut Position, judge: &mut J) -> usize {
    // a mechanic's own moves: counted by the mechanic when they are distinct from all others
    // and nothing filters; otherwise listed (and merged by effect)
    let mover = pos.mechanics().mover();
    let own_count = J::ALL && mover.is_some_and(|m| m.moves_are_distinct());
    if mover.is_some() && !own_count {
        let mut list = MoveList::new();
        ordinary_legal_moves(pos, &mut list);
        if J::ALL {
            return list.len();
        }
        return list.iter().filter(|&&m| judge.passes(pos, m)).count();
    }
    let lg = Legality::new(pos);
    let mut n = count_data_passing(pos, judge, &lg);
    if let Some(mover) = mover {
        n += count_own_moves(pos, mover, &lg);
    }
    n
}

/// Number of the legal moves of the kinds the data describes that `judge` passes, counted
/// without listing where the shortcut allows.
#[inline]
fn count_data_passing<J: LeafJudge>(pos: &mut Position, judge: &mut J, lg: &Legality) -> usize {
    let masks = lg.masks();
    let mut counter = Counter {
        legal: 0,
        test_from: masks.test_from,
        test_to: masks.test_to,
        target: masks.target,
        to_test: MoveList::new(),
        king: lg.king(),
        enemy_types: lg.enemy_types(),
        judge,
    };
    generate_pseudo(pos, &mut counter);
    // (the counter is not taken apart: that would copy its list)
    let mut n = counter.legal;
    for &m in counter.to_test.iter() {
        if !exposes(pos, m, lg) && (J::ALL || counter.judge.passes(pos, m)) {
            n += 1;
        }
    }
    n
}

/// Number of the legal moves of a mechanic whose moves are distinct from all others: its own
/// count, or its moves generated and tested one by one.
#[inline(never)]
fn count_own_moves(pos: &mut Position, mover: &dyn Mechanic, lg: &Legality) -> usize {
    if let Some(n) = mover.count_moves(pos, lg) {
        return n;
    }
    let mut own = MoveList::new();
    mover.generate(pos, &mut own);
    own.iter().filter(|&&m| !exposes(pos, m, lg)).count()
}

/// Keeps one move per resulting position: the canonical spelling (fewest legs, then ASCII).
fn merge_same_effect(pos: &mut Position, list: &mut MoveList) {
    let n = list.len();
    // not zero-filled: this runs at every node of a special-move variant and only `n` entries are used
    let mut buf = [std::mem::MaybeUninit::<(u64, Move)>::uninit(); MoveList::CAPACITY];
    for (slot, &m) in buf.iter_mut().zip(list.iter()) {
        pos.make(m);
        slot.write((pos.key(), m));
        pos.unmake();
    }
    // SAFETY: the loop above initialised the first `n` entries.
    let keys = unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr() as *mut (u64, Move), n) };
    keys.sort_unstable_by_key(|k| k.0);
    let mut dup = false;
    for w in keys.windows(2) {
        if w[0].0 == w[1].0 {
            dup = true;
            break;
        }
    }
    if !dup {
        return;
    }
    list.clear();
    let mut i = 0;
    while i < n {
        let mut best = keys[i].1;
        let mut j = i + 1;
        while j < n && keys[j].0 == keys[i].0 {
            if canonical_before(pos, keys[j].1, best) {
                best = keys[j].1;
            }
            j += 1;
        }
        list.push(best);
        i = j;
    }
}

fn canonical_before(pos: &Position, a: Move, b: Move) -> bool {
    let sa = crate::movegen::move_to_string(pos, a);
    let sb = crate::movegen::move_to_string(pos, b);
    (sa.legs(), sa.as_str()) < (sb.legs(), sb.as_str())
}

/// Whether a move captures (a man of the other colour disappears).
pub fn is_capture(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::EnPassant => true,
        MoveKind::Castling => false,
        MoveKind::Normal => pos.piece_at(m.to()).is_some(),
        MoveKind::Special => {
            // the mechanic's word, when it says what the move changes (enemy men removed)
            if let Some(c) = pos.mechanics().mover().and_then(|own| own.change(pos, m)) {
                return c.captured.any();
            }
            // by net effect: fewer men of the other colour once all edits are done (a man of
            // theirs moved by the edits, or swapped with one of ours, is not captured)
            let edits = pos.edits_of(m);
            let them = pos.side_to_move().flip();
            let theirs = |p: crate::piece::Piece| (p.is_some() && p.color() == them) as i32;
            let mut delta = 0;
            for (i, e) in edits.as_slice().iter().enumerate() {
                // a square edited twice counts once, from its first content to its last
                if edits.as_slice()[..i].iter().any(|x| x.sq == e.sq) {
                    continue;
                }
                let last = edits
                    .as_slice()
                    .iter()
                    .rev()
                    .find(|x| x.sq == e.sq)
                    .expect("e");
                delta += theirs(last.after) - theirs(pos.piece_at(e.sq));
            }
            delta < 0
        }
    }
}
