//! Pseudo-legal move generation (FP-2..FP-6, FP-8: any move may leave a king capturable) and
//! the pass of FP-10, plus the attack test the search needs ("can Y take X's king now").

use super::player::Player;
use super::position::{FpPosition, PASS};
use crate::geometry::attacks::{bishop_attacks, queen_attacks, rook_attacks, TABLES};
use crate::geometry::{Bitboard, Square};
use crate::moves::{Move, MoveList};
use crate::piece::PieceType;

/// The squares a pawn of each player on each square captures on, stepping by `steps` (file,
/// rank) deltas; `sign` -1 gives the reverse relation (where the capturing pawns stand).
const fn pawn_table(sign: i8) -> [[Bitboard; 64]; 3] {
    let mut out = [[Bitboard::EMPTY; 64]; 3];
    let mut p = 0;
    while p < 3 {
        let steps = Player::from_index(p).capture_steps();
        let mut sq = 0;
        while sq < 64 {
            let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
            let mut i = 0;
            while i < 2 {
                let (nf, nr) = (f + sign * steps[i].0, r + sign * steps[i].1);
                if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    out[p][sq].0 |= 1u64 << (nr * 8 + nf);
                }
                i += 1;
            }
            sq += 1;
        }
        p += 1;
    }
    out
}

/// `PAWN_CAPTURES[player][sq]`: where a pawn of `player` on `sq` captures.
static PAWN_CAPTURES: [[Bitboard; 64]; 3] = pawn_table(1);

/// `PAWN_ATTACKERS[player][sq]`: where a pawn of `player` captures onto `sq` from.
static PAWN_ATTACKERS: [[Bitboard; 64]; 3] = pawn_table(-1);

/// Pushes one move per promotion choice, or the plain move.
#[inline(always)]
fn push_pawn_move(list: &mut MoveList, me: Player, from: Square, to: Square) {
    if me.promotion_row().has(to) {
        for &t in me.promotions() {
            list.push(Move::promotion(from, to, t));
        }
    } else {
        list.push(Move::normal(from, to));
    }
}

/// An e.p. capture, promoting when it lands on the promotion row: a Peacekeeper pawn on the
/// b-file taking North's a7-a5 on a6 reaches the a-file (FP-5 with FP-6). The promotion
/// piece is stored in the e.p. move as in a normal promotion (same bits; `promotion` with
/// the same squares only adds them).
#[inline(always)]
fn push_en_passant(list: &mut MoveList, me: Player, from: Square, to: Square) {
    let ep = Move::en_passant(from, to);
    if me.promotion_row().has(to) {
        for &t in me.promotions() {
            list.push(Move(ep.0 | Move::promotion(from, to, t).0));
        }
    } else {
        list.push(ep);
    }
}

impl FpPosition {
    /// The moves of the player to move: every pseudo-legal move (FP-8), or the pass alone when
    /// there is none (FP-10); nothing once the game is over.
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        if self.end.is_some() {
            return;
        }
        self.generate(list);
        if list.is_empty() {
            list.push(PASS);
        }
    }

    /// The number of [`FpPosition::legal_moves`] (perft's last ply).
    pub fn count_moves(&self) -> u64 {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.len() as u64
    }

    /// Every pseudo-legal move of the player to move (no pass).
    fn generate(&self, list: &mut MoveList) {
        let me = self.to_move;
        let own = self.by_player[me.index()];
        let occ = self.occupied();
        let targets = !own;
        self.pawn_moves(list, me, occ);
        let mut push_all = |from: Square, dests: Bitboard| {
            for to in (dests & targets).iter() {
                list.push(Move::normal(from, to));
            }
        };
        for from in self.pieces(me, PieceType::KNIGHT).iter() {
            push_all(from, TABLES.knight[from.index()]);
        }
        for from in self.pieces(me, PieceType::BISHOP).iter() {
            push_all(from, bishop_attacks(from, occ));
        }
        for from in self.pieces(me, PieceType::ROOK).iter() {
            push_all(from, rook_attacks(from, occ));
        }
        for from in self.pieces(me, PieceType::QUEEN).iter() {
            push_all(from, queen_attacks(from, occ));
        }
        for from in self.pieces(me, PieceType::KING).iter() {
            push_all(from, TABLES.king[from.index()]);
        }
    }

    /// Pawn steps, double steps from the home squares, captures of either opponent's men,
    /// e.p. onto the square crossed on the previous ply, promotions (FP-3..FP-6).
    fn pawn_moves(&self, list: &mut MoveList, me: Player, occ: Bitboard) {
        let enemies = occ & !self.by_player[me.index()];
        let home = me.double_step_squares();
        for from in self.pieces(me, PieceType::PAWN).iter() {
            if let Some(one) = me.step(from).filter(|s| !occ.has(*s)) {
                push_pawn_move(list, me, from, one);
                if home.has(from) {
                    if let Some(two) = me.step(one).filter(|s| !occ.has(*s)) {
                        list.push(Move::normal(from, two));
                    }
                }
            }
            let caps = PAWN_CAPTURES[me.index()][from.index()];
            for to in (caps & enemies).iter() {
                push_pawn_move(list, me, from, to);
            }
            if let Some(ep) = self.ep.filter(|ep| caps.has(*ep)) {
                push_en_passant(list, me, from, ep);
            }
        }
    }

    /// The men of `by` that could capture on `target` now.
    pub fn attackers(&self, target: Square, by: Player) -> Bitboard {
        let occ = self.occupied();
        let men = self.by_player[by.index()];
        let t = &self.by_type;
        let diag = t[PieceType::BISHOP.index()] | t[PieceType::QUEEN.index()];
        let orth = t[PieceType::ROOK.index()] | t[PieceType::QUEEN.index()];
        let i = target.index();
        men & ((TABLES.knight[i] & t[PieceType::KNIGHT.index()])
            | (TABLES.king[i] & t[PieceType::KING.index()])
            | (PAWN_ATTACKERS[by.index()][i] & t[PieceType::PAWN.index()])
            | (bishop_attacks(target, occ) & diag)
            | (rook_attacks(target, occ) & orth))
    }

    /// Whether `by` could capture `victim`'s king if it were `by`'s turn now.
    pub fn king_capturable(&self, victim: Player, by: Player) -> bool {
        victim != by
            && self.alive.has(by)
            && self
                .king_square(victim)
                .is_some_and(|k| self.attackers(k, by).any())
    }
}
