//! The hand-tuned legal generator for variants whose compiled rules are exactly orthodox chess
//! (`Rules::orthodox`): six orthodox piece types on an 8x8 board, no regions, no special moves.
//!
//! Guarantees:
//! * [`legal_moves`] produces exactly the move set of [`super::generic::legal_moves`] (order
//!   aside) for every position of such a variant; [`count_legal`] returns its size without
//!   building the list, and [`is_attacked`] agrees with [`super::generic::is_attacked`].
//! * Legality is decided without playing moves: a checkers mask, pin masks (a pinned man moves
//!   only along the line through its king and its pinner), king steps tested against attacks
//!   computed with the king lifted off the board, and an exact occupancy test for the rare
//!   moves that change two squares of a line at once (en passant, castling).
//! * Nothing allocates; one generator body serves both listing and counting (a `Sink`).
//!
//! Castling follows the generic generator's rules for X-FEN/Chess960 rook squares: the right's
//! rook, the king's and the rook's paths empty except for the two castling men (the geometry is
//! fixed at set-up, [`Position::castle_path`]), the king not in check, no square strictly
//! between the king and its destination attacked in the current position, and the king not
//! attacked after the move.
//!
//! Positions these assumptions do not cover (a side without exactly one king, possible only
//! through an odd promotion set) are handed to the generic generator.

use super::LeafJudge;
use crate::geometry::attacks::{sliders, SliderTables, Tables, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::PieceType;
use crate::position::{CastlePath, Position};

/// Rank 3 (the rank a White pawn reaches by its first single step).
const RANK_3: Bitboard = Bitboard(0xFF << 16);
/// Rank 6 (the same for Black).
const RANK_6: Bitboard = Bitboard(0xFF << 40);
/// Rank 8 (White's promotion rank).
const RANK_8: Bitboard = Bitboard(0xFF << 56);
/// Rank 1 (Black's promotion rank).
const RANK_1: Bitboard = Bitboard(0xFF);

/// A position with the attack tables at hand (fetched once: each global table access checks
/// that the table is built).
#[derive(Clone, Copy)]
struct Board<'a> {
    pos: &'a Position,
    t: &'static Tables,
    s: &'static SliderTables,
}

impl<'a> Board<'a> {
    #[inline(always)]
    fn new(pos: &'a Position) -> Board<'a> {
        Board {
            pos,
            t: &TABLES,
            s: sliders(),
        }
    }

    /// Men of type `t`, both colours.
    #[inline(always)]
    fn kind(&self, t: PieceType) -> Bitboard {
        self.pos.kind(t)
    }

    /// The men of `by` that attack `sq` when the board's occupancy is `occ` (the attackers are
    /// the men of `by` on the board; `occ` only decides what blocks the sliders).
    #[inline(always)]
    fn attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let (t, i) = (self.t, sq.index());
        let queens = self.kind(PieceType::QUEEN);
        let hits = (t.pawn[by.flip().index()][i] & self.kind(PieceType::PAWN))
            | (t.knight[i] & self.kind(PieceType::KNIGHT))
            | (t.king[i] & self.kind(PieceType::KING))
            | (self.s.bishop(sq, occ) & (self.kind(PieceType::BISHOP) | queens))
            | (self.s.rook(sq, occ) & (self.kind(PieceType::ROOK) | queens));
        hits & self.pos.pieces(by)
    }

    /// Whether some man of `by` attacks `sq` given occupancy `occ`.
    #[inline(always)]
    fn attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        self.attackers(sq, by, occ).any()
    }
}

/// Whether `sq` is attacked by a man of `by`.
#[inline]
pub fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    Board::new(pos).attacked(sq, by, pos.occupied())
}

/// The unpinned pawns' moves of one kind, as target sets: single steps `one` (each from
/// `to - up`), double steps `two` (from `to - 2 * up`), captures towards file a `west` (from
/// `to - up_west`) and towards file h `east` (from `to - up_east`).
///
/// `one` and `two` are empty squares and the captures enemy men, and a square reached by a
/// single step cannot be reached by a double step (that needs the square before it empty), so
/// only `west` and `east` may overlap.
struct PawnSets {
    one: Bitboard,
    two: Bitboard,
    west: Bitboard,
    east: Bitboard,
    up: i8,
    up_west: i8,
    up_east: i8,
}

impl PawnSets {
    /// Number of moves in the sets.
    #[inline(always)]
    fn count(&self) -> usize {
        let both = self.west & self.east;
        let n = (self.one | self.two | (self.west ^ self.east)).count() as usize;
        if both.any() {
            n + 2 * both.count() as usize
        } else {
            n
        }
    }

    /// Each move as (from, to).
    #[inline(always)]
    fn for_each(&self, mut f: impl FnMut(Square, Square)) {
        for (set, delta) in [
            (self.one, self.up),
            (self.two, 2 * self.up),
            (self.west, self.up_west),
            (self.east, self.up_east),
        ] {
            for to in set {
                f(Square::new((to.raw() as i8 - delta) as u8), to);
            }
        }
    }
}

/// Where the generator puts what it finds: a move list, or a counter.
trait Sink {
    /// Plain moves (no promotion) of the man on `from` to each of `targets`.
    fn moves_from(&mut self, from: Square, targets: Bitboard);
    /// The pawn moves in `sets`, none of them promoting.
    fn pawn_moves(&mut self, sets: &PawnSets);
    /// The pawn moves in `sets`, each promoting to every type of `types`.
    fn promotions(&mut self, sets: &PawnSets, types: &[PieceType]);
    /// Moves of one pawn from `from`: plain to `tos`, promoting to every type of `types` to
    /// `promo_tos`.
    fn pawn_from(&mut self, from: Square, tos: Bitboard, promo_tos: Bitboard, types: &[PieceType]);
    /// One move.
    fn single(&mut self, m: Move);
}

/// Pushes every move onto a list.
struct ListSink<'a>(&'a mut MoveList);

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn moves_from(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.0.push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, sets: &PawnSets) {
        sets.for_each(|from, to| self.0.push(Move::normal(from, to)));
    }

    #[inline(always)]
    fn promotions(&mut self, sets: &PawnSets, types: &[PieceType]) {
        sets.for_each(|from, to| {
            for &t in types {
                self.0.push(Move::promotion(from, to, t));
            }
        });
    }

    #[inline(always)]
    fn pawn_from(&mut self, from: Square, tos: Bitboard, promo_tos: Bitboard, types: &[PieceType]) {
        self.moves_from(from, tos);
        for to in promo_tos {
            for &t in types {
                self.0.push(Move::promotion(from, to, t));
            }
        }
    }

    #[inline(always)]
    fn single(&mut self, m: Move) {
        self.0.push(m);
    }
}

/// Counts the moves without listing them.
struct CountSink(usize);

impl Sink for CountSink {
    #[inline(always)]
    fn moves_from(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }

    #[inline(always)]
    fn pawn_moves(&mut self, sets: &PawnSets) {
        self.0 += sets.count();
    }

    #[inline(always)]
    fn promotions(&mut self, sets: &PawnSets, types: &[PieceType]) {
        self.0 += sets.count() * types.len();
    }

    #[inline(always)]
    fn pawn_from(
        &mut self,
        _from: Square,
        tos: Bitboard,
        promo_tos: Bitboard,
        types: &[PieceType],
    ) {
        self.0 += tos.count() as usize + promo_tos.count() as usize * types.len();
    }

    #[inline(always)]
    fn single(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Hands the moves to a filter's judge: groups at once, promotions and the single moves kept
/// for [`LeafJudge::passes`] after generation (it may play them).
struct JudgeSink<'p, 'j, J: LeafJudge> {
    pos: &'p Position,
    judge: &'j mut J,
    passed: usize,
    singles: &'j mut MoveList,
}

impl<J: LeafJudge> Sink for JudgeSink<'_, '_, J> {
    #[inline(always)]
    fn moves_from(&mut self, from: Square, targets: Bitboard) {
        if targets.any() {
            self.passed += self.judge.count(self.pos, from, targets);
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, sets: &PawnSets) {
        for (set, delta) in [
            (sets.one, sets.up),
            (sets.two, 2 * sets.up),
            (sets.west, sets.up_west),
            (sets.east, sets.up_east),
        ] {
            if set.any() {
                self.passed += self.judge.count_pawns(self.pos, set, delta);
            }
        }
    }

    #[inline(always)]
    fn promotions(&mut self, sets: &PawnSets, types: &[PieceType]) {
        ListSink(self.singles).promotions(sets, types);
    }

    #[inline(always)]
    fn pawn_from(&mut self, from: Square, tos: Bitboard, promo_tos: Bitboard, types: &[PieceType]) {
        self.moves_from(from, tos);
        ListSink(self.singles).pawn_from(from, Bitboard::EMPTY, promo_tos, types);
    }

    #[inline(always)]
    fn single(&mut self, m: Move) {
        self.singles.push(m);
    }
}

/// Counts the legal moves and, among them, those that land on `onto` (squares holding enemy
/// men: captures there) and those made from `marked` that do not: the counts 007 Detente's
/// third ply needs (DET-1, DET-2), without listing.
struct SplitCountSink {
    total: usize,
    landing: usize,
    from_marked: usize,
    onto: Bitboard,
    marked: Bitboard,
}

impl SplitCountSink {
    #[inline(always)]
    fn add(&mut self, from: Square, tos: Bitboard, times: usize) {
        self.total += tos.count() as usize * times;
        self.landing += (tos & self.onto).count() as usize * times;
        if self.marked.has(from) {
            self.from_marked += (tos & !self.onto).count() as usize * times;
        }
    }

    #[inline(always)]
    fn add_sets(&mut self, sets: &PawnSets, times: usize) {
        for (set, delta) in [
            (sets.one, sets.up),
            (sets.two, 2 * sets.up),
            (sets.west, sets.up_west),
            (sets.east, sets.up_east),
        ] {
            self.total += set.count() as usize * times;
            self.landing += (set & self.onto).count() as usize * times;
            let from_marked = self.marked.shift(delta);
            self.from_marked += (set & !self.onto & from_marked).count() as usize * times;
        }
    }
}

impl Sink for SplitCountSink {
    #[inline(always)]
    fn moves_from(&mut self, from: Square, targets: Bitboard) {
        self.add(from, targets, 1);
    }

    #[inline(always)]
    fn pawn_moves(&mut self, sets: &PawnSets) {
        self.add_sets(sets, 1);
    }

    #[inline(always)]
    fn promotions(&mut self, sets: &PawnSets, types: &[PieceType]) {
        self.add_sets(sets, types.len());
    }

    #[inline(always)]
    fn pawn_from(&mut self, from: Square, tos: Bitboard, promo_tos: Bitboard, types: &[PieceType]) {
        self.add(from, tos, 1);
        self.add(from, promo_tos, types.len());
    }

    #[inline(always)]
    fn single(&mut self, m: Move) {
        self.total += 1;
        let (from, to) = (m.from(), m.to());
        let lands = match m.kind() {
            // the man taken en passant stands beside the capturer
            MoveKind::EnPassant => {
                Square::from_coords(to.file(), from.rank()).is_some_and(|v| self.onto.has(v))
            }
            _ => false,
        };
        if lands {
            self.landing += 1;
        } else if self.marked.has(from)
            || (m.kind() == MoveKind::Castling && self.marked.has(m.rook_from()))
        {
            self.from_marked += 1;
        }
    }
}

/// Legal moves split for 007 Detente: `(all, landing on or taking en passant a man on
/// `onto`, made from `marked` and not counted in the second)`; `None` when the side to move
/// does not have exactly one king.
pub fn count_split(
    pos: &Position,
    onto: Bitboard,
    marked: Bitboard,
) -> Option<(usize, usize, usize)> {
    let mut sink = SplitCountSink {
        total: 0,
        landing: 0,
        from_marked: 0,
        onto,
        marked,
    };
    generate(pos, &mut sink).then_some((sink.total, sink.landing, sink.from_marked))
}

/// Legal moves, appended to `list`.
pub fn legal_moves(pos: &mut Position, list: &mut MoveList) {
    if !generate(pos, &mut ListSink(list)) {
        super::generic::legal_moves(pos, list);
    }
}

/// Number of legal moves (what [`legal_moves`] would append), without building the list.
pub fn count_legal(pos: &mut Position) -> usize {
    let mut sink = CountSink(0);
    if generate(pos, &mut sink) {
        sink.0
    } else {
        let mut list = MoveList::new();
        super::generic::legal_moves(pos, &mut list);
        list.len()
    }
}

/// Number of legal moves that `judge` passes (see [`super::count_passing`]).
pub fn count_passing<J: LeafJudge>(pos: &mut Position, judge: &mut J) -> usize {
    let mut singles = MoveList::new();
    let mut sink = JudgeSink {
        pos,
        judge,
        passed: 0,
        singles: &mut singles,
    };
    if !generate(pos, &mut sink) {
        return super::generic::count_passing(pos, judge);
    }
    let mut n = sink.passed;
    for &m in singles.iter() {
        if judge.passes(pos, m) {
            n += 1;
        }
    }
    n
}

/// The generator. Returns false, having emitted nothing, when the side to move does not have
/// exactly one king (the caller then uses the generic generator).
#[inline(always)]
fn generate<S: Sink>(pos: &Position, sink: &mut S) -> bool {
    let us = pos.side_to_move();
    let them = us.flip();
    let our_king = pos.kind(PieceType::KING) & pos.pieces(us);
    if our_king.is_empty() || our_king.more_than_one() {
        return false;
    }
    let b = Board::new(pos);
    let (t, s) = (b.t, b.s);
    let ksq = our_king.lsb();
    let occ = pos.occupied();
    let ours = pos.pieces(us);
    let theirs = pos.pieces(them);
    let checkers = b.attackers(ksq, them, occ);

    // King steps: a destination must be safe with the king lifted off its square, so a slider
    // checking along the line cannot be escaped along that same line.
    let lifted = occ ^ ksq.bb();
    let mut safe = Bitboard::EMPTY;
    for to in t.king[ksq.index()] & !ours {
        if !b.attacked(to, them, lifted) {
            safe |= to.bb();
        }
    }
    sink.moves_from(ksq, safe);
    if checkers.more_than_one() {
        return true;
    }

    // Other men must capture the checker or block its line when in check.
    let target = if checkers.any() {
        checkers | t.between[ksq.index()][checkers.lsb().index()]
    } else {
        !ours
    };

    // Pins: our single man between the king and an enemy slider on a line it slides along.
    let queens = pos.kind(PieceType::QUEEN);
    let snipers = ((s.rook(ksq, theirs) & (pos.kind(PieceType::ROOK) | queens))
        | (s.bishop(ksq, theirs) & (pos.kind(PieceType::BISHOP) | queens)))
        & theirs;
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let between = t.between[ksq.index()][sniper.index()] & occ;
        if !between.more_than_one() {
            pinned |= between & ours;
        }
    }
    let pin_line = |from: Square| t.line[ksq.index()][from.index()];

    // Knights: a pinned knight never stays on its line.
    for from in pos.kind(PieceType::KNIGHT) & ours & !pinned {
        sink.moves_from(from, t.knight[from.index()] & target);
    }
    // Sliders (queens in both groups; the two target sets are disjoint).
    for from in (pos.kind(PieceType::BISHOP) | queens) & ours {
        let mut to = s.bishop(from, occ) & target;
        if pinned.has(from) {
            to &= pin_line(from);
        }
        sink.moves_from(from, to);
    }
    for from in (pos.kind(PieceType::ROOK) | queens) & ours {
        let mut to = s.rook(from, occ) & target;
        if pinned.has(from) {
            to &= pin_line(from);
        }
        sink.moves_from(from, to);
    }

    pawn_moves(&b, sink, us, ksq, target, pinned);
    if let Some(ep) = pos.ep_square() {
        en_passant(&b, sink, us, ksq, ep);
    }
    let rights = pos.castling_rights() >> (2 * us.index()) & 3;
    if rights != 0 && checkers.is_empty() {
        castling(&b, sink, us, rights);
    }
    true
}

/// Pawn steps, double steps, captures and promotions (en passant aside).
#[inline(always)]
fn pawn_moves<S: Sink>(
    b: &Board,
    sink: &mut S,
    us: Color,
    ksq: Square,
    target: Bitboard,
    pinned: Bitboard,
) {
    let pos = b.pos;
    let pawns = pos.kind(PieceType::PAWN) & pos.pieces(us);
    if pawns.is_empty() {
        return;
    }
    let empty = !pos.occupied();
    let theirs = pos.pieces(us.flip());
    // (step, capture towards file a, capture towards file h, double-step rank, promotion rank)
    let (up, up_west, up_east, third, last) = match us {
        Color::White => (8i8, 7i8, 9i8, RANK_3, RANK_8),
        Color::Black => (-8, -9, -7, RANK_6, RANK_1),
    };

    // Unpinned pawns, all at once.
    let free = pawns & !pinned;
    let one = free.shift(up) & empty;
    let two = (one & third).shift(up) & empty & target;
    let one = one & target;
    let west = (free & !Bitboard::FILE_A).shift(up_west) & theirs & target;
    let east = (free & !Bitboard::FILE_H).shift(up_east) & theirs & target;
    sink.pawn_moves(&PawnSets {
        one: one & !last,
        two,
        west: west & !last,
        east: east & !last,
        up,
        up_west,
        up_east,
    });
    if ((one | west | east) & last).any() {
        let promos = pos.rules().promotion_types.as_slice();
        sink.promotions(
            &PawnSets {
                one: one & last,
                two: Bitboard::EMPTY,
                west: west & last,
                east: east & last,
                up,
                up_west,
                up_east,
            },
            promos,
        );
    }

    // Pinned pawns, one by one, along their pin lines.
    for from in pawns & pinned {
        let allowed = b.t.line[ksq.index()][from.index()] & target;
        let one = from.bb().shift(up) & empty;
        let two = (one & third).shift(up) & empty;
        let caps = b.t.pawn[us.index()][from.index()] & theirs;
        let tos = (one | two | caps) & allowed;
        let promos = pos.rules().promotion_types.as_slice();
        sink.pawn_from(from, tos & !last, tos & last, promos);
    }
}

/// En-passant captures onto `ep`, each checked exactly: the capture empties two squares and
/// fills one, which can uncover the king along a rank (both pawns leave it) or a diagonal.
#[inline(never)]
fn en_passant<S: Sink>(b: &Board, sink: &mut S, us: Color, ksq: Square, ep: Square) {
    let pos = b.pos;
    let them = us.flip();
    let victim = Square::new((ep.raw() as i8 - 8 * us.forward()) as u8);
    let capturers = b.t.pawn[them.index()][ep.index()] & pos.kind(PieceType::PAWN) & pos.pieces(us);
    for from in capturers {
        let occ = (pos.occupied() ^ from.bb() ^ victim.bb()) | ep.bb();
        if (b.attackers(ksq, them, occ) & !victim.bb()).is_empty() {
            sink.single(Move::en_passant(from, ep));
        }
    }
}

/// Castling moves (the king is known not to be in check), from the geometry fixed at set-up
/// ([`Position::castle_path`]): the same conditions as the generic generator.
#[inline(always)]
fn castling<S: Sink>(b: &Board, sink: &mut S, us: Color, rights: u8) {
    let occ = b.pos.occupied();
    for side in 0..2 {
        if rights >> side & 1 == 0 {
            continue;
        }
        let Some(path) = b.pos.castle_path(2 * us.index() + side) else {
            continue;
        };
        if (path.clear & occ).any() {
            continue;
        }
        castle_if_safe(b, sink, us.flip(), path);
    }
}

/// The attack tests of a castling move whose path is clear.
#[inline(never)]
fn castle_if_safe<S: Sink>(b: &Board, sink: &mut S, them: Color, path: &CastlePath) {
    let occ = b.pos.occupied();
    if path.king_path.iter().any(|s| b.attacked(s, them, occ)) {
        return;
    }
    let m = path.mv;
    let (king, kto) = (m.from(), m.to());
    let after = (occ ^ king.bb() ^ m.rook_from().bb()) | kto.bb() | m.rook_to().bb();
    if !b.attacked(kto, them, after) {
        sink.single(m);
    }
}

#[cfg(test)]
mod tests {
    use crate::perft::perft;
    use crate::position::Position;
    use crate::rules::builtin_variants;

    fn perft_of(fen: &str, depth: u32) -> u64 {
        let rules = builtin_variants().get("chess").expect("chess is built in");
        assert!(rules.orthodox);
        let mut pos = Position::from_fen(rules, fen).expect("valid FEN");
        perft(&mut pos, depth)
    }

    #[test]
    fn perft_start_position() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(perft_of(fen, 5), 4_865_609);
    }

    #[test]
    fn perft_kiwipete() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(perft_of(fen, 4), 4_085_603);
    }

    #[test]
    fn perft_position_3() {
        assert_eq!(
            perft_of("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
            674_624
        );
    }

    #[test]
    fn perft_position_4() {
        let fen = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
        assert_eq!(perft_of(fen, 4), 422_333);
    }

    #[test]
    fn perft_position_5() {
        let fen = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
        assert_eq!(perft_of(fen, 4), 2_103_487);
    }

    #[test]
    fn perft_position_6() {
        let fen = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
        assert_eq!(perft_of(fen, 4), 3_894_594);
    }
}
