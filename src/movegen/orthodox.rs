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
//! * Nothing allocates; one generator body serves both listing and counting (a [`Sink`]).
//!
//! Castling follows the generic generator's rules for X-FEN/Chess960 rook squares: the right's
//! rook, the king's and the rook's paths empty except for the two castling men (the geometry is
//! fixed at set-up, [`Position::castle_path`]), the king not in check, no square strictly
//! between the king and its destination attacked in the current position, and the king not
//! attacked after the move.
//!
//! Positions these assumptions do not cover (a side without exactly one king, possible only
//! through an odd promotion set) are handed to the generic generator.

use crate::geometry::attacks::{between, bishop_attacks, line, rook_attacks, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveList};
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

/// Shifts every square by `delta` indices (positive: towards rank 8); the caller masks files.
#[inline(always)]
fn shift(b: Bitboard, delta: i8) -> Bitboard {
    if delta >= 0 {
        Bitboard(b.0 << delta)
    } else {
        Bitboard(b.0 >> -delta)
    }
}

/// The men of `by` that attack `sq` when the board's occupancy is `occ`.
#[inline(always)]
fn attackers(pos: &Position, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
    let t = &*TABLES;
    let i = sq.index();
    let queens = pos.kind(PieceType::QUEEN);
    let diag = pos.kind(PieceType::BISHOP) | queens;
    let orth = pos.kind(PieceType::ROOK) | queens;
    let hits = (t.pawn[by.flip().index()][i] & pos.kind(PieceType::PAWN))
        | (t.knight[i] & pos.kind(PieceType::KNIGHT))
        | (t.king[i] & pos.kind(PieceType::KING))
        | (bishop_attacks(sq, occ) & diag)
        | (rook_attacks(sq, occ) & orth);
    hits & pos.pieces(by)
}

/// Whether some man of `by` attacks `sq` given occupancy `occ` (the attackers are the men of
/// `by` on the board; `occ` only decides what blocks the sliders).
#[inline(always)]
fn attacked_with(pos: &Position, sq: Square, by: Color, occ: Bitboard) -> bool {
    attackers(pos, sq, by, occ).any()
}

/// Whether `sq` is attacked by a man of `by`.
#[inline]
pub fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    attacked_with(pos, sq, by, pos.occupied())
}

/// Where the generator puts what it finds: a move list, or a counter.
trait Sink {
    /// Plain moves (no promotion) of the man on `from` to each of `targets`.
    fn moves_from(&mut self, from: Square, targets: Bitboard);
    /// Pawn steps or captures landing on `tos`, each coming from `to - delta`, not promoting.
    fn pawn_moves(&mut self, tos: Bitboard, delta: i8);
    /// Pawn steps or captures landing on `tos` from `to - delta`, one move per promotion type.
    fn promotions(&mut self, tos: Bitboard, delta: i8, types: &[PieceType]);
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
    fn pawn_moves(&mut self, tos: Bitboard, delta: i8) {
        for to in tos {
            let from = Square::new((to.raw() as i8 - delta) as u8);
            self.0.push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, tos: Bitboard, delta: i8, types: &[PieceType]) {
        for to in tos {
            let from = Square::new((to.raw() as i8 - delta) as u8);
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
    fn pawn_moves(&mut self, tos: Bitboard, _delta: i8) {
        self.0 += tos.count() as usize;
    }

    #[inline(always)]
    fn promotions(&mut self, tos: Bitboard, _delta: i8, types: &[PieceType]) {
        self.0 += tos.count() as usize * types.len();
    }

    #[inline(always)]
    fn single(&mut self, _m: Move) {
        self.0 += 1;
    }
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
    let t = &*TABLES;
    let ksq = our_king.lsb();
    let occ = pos.occupied();
    let ours = pos.pieces(us);
    let theirs = pos.pieces(them);
    let checkers = attackers(pos, ksq, them, occ);

    // King steps: a destination must be safe with the king lifted off its square, so a slider
    // checking along the line cannot be escaped along that same line.
    let lifted = occ ^ ksq.bb();
    let mut safe = Bitboard::EMPTY;
    for to in t.king[ksq.index()] & !ours {
        if !attacked_with(pos, to, them, lifted) {
            safe |= to.bb();
        }
    }
    sink.moves_from(ksq, safe);
    if checkers.more_than_one() {
        return true;
    }

    // Other men must capture the checker or block its line when in check.
    let target = if checkers.any() {
        checkers | between(ksq, checkers.lsb())
    } else {
        !ours
    };

    // Pins: our single man between the king and an enemy slider on a line it slides along.
    let queens = pos.kind(PieceType::QUEEN);
    let snipers = ((rook_attacks(ksq, theirs) & (pos.kind(PieceType::ROOK) | queens))
        | (bishop_attacks(ksq, theirs) & (pos.kind(PieceType::BISHOP) | queens)))
        & theirs;
    let mut pinned = Bitboard::EMPTY;
    for s in snipers {
        let b = between(ksq, s) & occ;
        if b.any() && !b.more_than_one() {
            pinned |= b & ours;
        }
    }

    // Knights: a pinned knight never stays on its line.
    for from in pos.kind(PieceType::KNIGHT) & ours & !pinned {
        sink.moves_from(from, t.knight[from.index()] & target);
    }
    // Sliders (queens in both groups; the two target sets are disjoint).
    for from in (pos.kind(PieceType::BISHOP) | queens) & ours {
        let mut to = bishop_attacks(from, occ) & target;
        if pinned.has(from) {
            to &= line(ksq, from);
        }
        sink.moves_from(from, to);
    }
    for from in (pos.kind(PieceType::ROOK) | queens) & ours {
        let mut to = rook_attacks(from, occ) & target;
        if pinned.has(from) {
            to &= line(ksq, from);
        }
        sink.moves_from(from, to);
    }

    pawn_moves(pos, sink, us, ksq, target, pinned);
    if let Some(ep) = pos.ep_square() {
        en_passant(pos, sink, us, ksq, ep);
    }
    let rights = pos.castling_rights() >> (2 * us.index()) & 3;
    if rights != 0 && checkers.is_empty() {
        castling(pos, sink, us, rights);
    }
    true
}

/// Pawn steps, double steps, captures and promotions (en passant aside).
#[inline(always)]
fn pawn_moves<S: Sink>(
    pos: &Position,
    sink: &mut S,
    us: Color,
    ksq: Square,
    target: Bitboard,
    pinned: Bitboard,
) {
    let pawns = pos.kind(PieceType::PAWN) & pos.pieces(us);
    if pawns.is_empty() {
        return;
    }
    let promos = pos.rules().promotion_types.as_slice();
    let empty = !pos.occupied();
    let theirs = pos.pieces(us.flip());
    // (step, capture towards file a, capture towards file h, double-step rank, promotion rank)
    let (up, up_west, up_east, third, last) = match us {
        Color::White => (8i8, 7i8, 9i8, RANK_3, RANK_8),
        Color::Black => (-8, -9, -7, RANK_6, RANK_1),
    };

    // Unpinned pawns, all at once.
    let free = pawns & !pinned;
    let one = shift(free, up) & empty;
    let two = shift(one & third, up) & empty & target;
    let one = one & target;
    let west = shift(free & !Bitboard::FILE_A, up_west) & theirs & target;
    let east = shift(free & !Bitboard::FILE_H, up_east) & theirs & target;
    sink.pawn_moves(one & !last, up);
    sink.pawn_moves(two, 2 * up);
    sink.pawn_moves(west & !last, up_west);
    sink.pawn_moves(east & !last, up_east);
    if ((one | west | east) & last).any() {
        sink.promotions(one & last, up, promos);
        sink.promotions(west & last, up_west, promos);
        sink.promotions(east & last, up_east, promos);
    }

    // Pinned pawns, one by one, along their pin lines.
    for from in pawns & pinned {
        let allowed = line(ksq, from) & target;
        let fb = from.bb();
        let one = shift(fb, up) & empty;
        let two = shift(one & third, up) & empty;
        let caps = TABLES.pawn[us.index()][from.index()] & theirs;
        let tos = (one | two | caps) & allowed;
        emit_from(sink, from, tos & !last, &[]);
        emit_from(sink, from, tos & last, promos);
    }
}

/// Moves of one pawn from `from` to each of `tos`: plain when `promos` is empty, else one per
/// promotion type.
#[inline(always)]
fn emit_from<S: Sink>(sink: &mut S, from: Square, tos: Bitboard, promos: &[PieceType]) {
    for to in tos {
        let delta = to.raw() as i8 - from.raw() as i8;
        if promos.is_empty() {
            sink.pawn_moves(to.bb(), delta);
        } else {
            sink.promotions(to.bb(), delta, promos);
        }
    }
}

/// En-passant captures onto `ep`, each checked exactly: the capture empties two squares and
/// fills one, which can uncover the king along a rank (both pawns leave it) or a diagonal.
#[inline(never)]
fn en_passant<S: Sink>(pos: &Position, sink: &mut S, us: Color, ksq: Square, ep: Square) {
    let them = us.flip();
    let victim = Square::new((ep.raw() as i8 - 8 * us.forward()) as u8);
    let capturers =
        TABLES.pawn[them.index()][ep.index()] & pos.kind(PieceType::PAWN) & pos.pieces(us);
    for from in capturers {
        let occ = (pos.occupied() ^ from.bb() ^ victim.bb()) | ep.bb();
        if (attackers(pos, ksq, them, occ) & !victim.bb()).is_empty() {
            sink.single(Move::en_passant(from, ep));
        }
    }
}

/// Castling moves (the king is known not to be in check), from the geometry fixed at set-up
/// ([`Position::castle_path`]): the same conditions as the generic generator.
#[inline(always)]
fn castling<S: Sink>(pos: &Position, sink: &mut S, us: Color, rights: u8) {
    let them = us.flip();
    let occ = pos.occupied();
    for side in 0..2 {
        if rights >> side & 1 == 0 {
            continue;
        }
        let Some(path) = pos.castle_path(2 * us.index() + side) else {
            continue;
        };
        if (path.clear & occ).any() {
            continue;
        }
        castle_if_safe(pos, sink, them, path);
    }
}

/// The attack tests of a castling move whose path is clear.
#[inline(never)]
fn castle_if_safe<S: Sink>(pos: &Position, sink: &mut S, them: Color, path: &CastlePath) {
    let occ = pos.occupied();
    if path
        .king_path
        .iter()
        .any(|s| attacked_with(pos, s, them, occ))
    {
        return;
    }
    let m = path.mv;
    let (king, kto) = (m.from(), m.to());
    let after = (occ ^ king.bb() ^ m.rook_from().bb()) | kto.bb() | m.rook_to().bb();
    if !attacked_with(pos, kto, them, after) {
        sink.single(m);
    }
}

#[cfg(test)]
mod tests {
    use crate::perft::perft;
    use crate::position::Position;
    use crate::variant::builtin_variants;

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
