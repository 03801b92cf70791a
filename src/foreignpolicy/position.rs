//! The Foreign Policy position: bitboards per player and per piece type, a mailbox, the state
//! (player to move, alive set, e.p. square, clocks, the result once decided), an incremental
//! Zobrist key, and make/unmake with an undo stack kept inside the position.

use super::outcome::Results;
use super::player::{Alive, Player};
use super::zobrist;
use crate::geometry::{Bitboard, Square};
use crate::moves::{Move, MoveKind};
use crate::piece::PieceType;

/// The pass (FP-10): a special move from a1 to a1 with payload 0, which no other move of
/// this game uses (Foreign Policy has no special moves otherwise). Distinct from
/// `Move::NONE`. Generated only when the player to move has no other move.
pub const PASS: Move = Move(3 << 12);

/// Plies of undo records preallocated, so that make never allocates in a search or perft.
const UNDO_CAPACITY: usize = 1024;

/// A square's content in the mailbox: `owner * 8 + piece type`, or `EMPTY`.
pub(super) type Cell = u8;

/// An empty square in the mailbox.
pub(super) const EMPTY: Cell = 0xFF;

/// What unmake needs to restore a ply.
#[derive(Clone, Copy)]
struct Undo {
    mv: Move,
    /// The man taken (on the destination, or beside it for e.p.).
    captured: Cell,
    /// The other men of an army removed by this ply (its king is `captured`), by type.
    removed: [Bitboard; 6],
    removed_owner: u8,
    key: u64,
    to_move: Player,
    alive: Alive,
    ep: Option<Square>,
    halfmove: u32,
    round: u32,
    end: Option<Results>,
}

/// A Foreign Policy Chess position with its history since set-up.
pub struct FpPosition {
    pub(super) by_player: [Bitboard; 3],
    pub(super) by_type: [Bitboard; 6],
    pub(super) board: [Cell; 64],
    pub(super) to_move: Player,
    pub(super) alive: Alive,
    pub(super) ep: Option<Square>,
    pub(super) halfmove: u32,
    pub(super) round: u32,
    pub(super) key: u64,
    /// The result, once a king capture has decided the game (FP-9).
    pub(super) end: Option<Results>,
    history: Vec<Undo>,
}

impl Clone for FpPosition {
    /// A copy with the undo stack's spare capacity kept (a derived clone would trim it, and
    /// the copy's first moves, a search thread's, would then allocate).
    fn clone(&self) -> FpPosition {
        let mut history = Vec::with_capacity(UNDO_CAPACITY.max(self.history.len() * 2));
        history.extend_from_slice(&self.history);
        FpPosition {
            by_player: self.by_player,
            by_type: self.by_type,
            board: self.board,
            to_move: self.to_move,
            alive: self.alive,
            ep: self.ep,
            halfmove: self.halfmove,
            round: self.round,
            key: self.key,
            end: self.end,
            history,
        }
    }
}

impl FpPosition {
    /// An empty board, South to move, everyone alive (set-up builds on it).
    pub(super) fn empty() -> FpPosition {
        let mut pos = FpPosition {
            by_player: [Bitboard::EMPTY; 3],
            by_type: [Bitboard::EMPTY; 6],
            board: [EMPTY; 64],
            to_move: Player::South,
            alive: Alive::ALL,
            ep: None,
            halfmove: 0,
            round: 1,
            key: 0,
            end: None,
            history: Vec::with_capacity(UNDO_CAPACITY),
        };
        pos.key = pos.compute_key();
        pos
    }

    /// The start position (C.1).
    pub fn startpos() -> FpPosition {
        FpPosition::from_fen(super::START_FEN).expect("the start FP-FEN is valid")
    }

    /// Puts a man on an empty square, updating the key.
    #[inline(always)]
    pub(super) fn put(&mut self, sq: Square, owner: Player, t: PieceType) {
        let b = sq.bb();
        self.by_player[owner.index()].0 |= b.0;
        self.by_type[t.index()].0 |= b.0;
        self.board[sq.index()] = (owner as u8) << 3 | t.0;
        self.key ^= zobrist::PIECE[owner.index()][t.index()][sq.index()];
    }

    /// Takes the man off `sq` (which must hold one), updating the key; returns its cell.
    #[inline(always)]
    fn take(&mut self, sq: Square) -> Cell {
        let c = self.board[sq.index()];
        let (owner, t) = (c >> 3, c & 7);
        let b = !sq.bb().0;
        self.by_player[owner as usize].0 &= b;
        self.by_type[t as usize].0 &= b;
        self.board[sq.index()] = EMPTY;
        self.key ^= zobrist::PIECE[owner as usize][t as usize][sq.index()];
        c
    }

    /// Puts back a man taken as `cell`.
    #[inline(always)]
    fn put_cell(&mut self, sq: Square, cell: Cell) {
        self.put(
            sq,
            Player::from_index((cell >> 3) as usize),
            PieceType(cell & 7),
        );
    }

    /// The Zobrist key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut k = zobrist::TO_MOVE[self.to_move.index()] ^ zobrist::ALIVE[self.alive.0 as usize];
        if let Some(ep) = self.ep {
            k ^= zobrist::EP[ep.index()];
        }
        for sq in Square::all() {
            if let Some((owner, t)) = self.piece_at(sq) {
                k ^= zobrist::PIECE[owner.index()][t.index()][sq.index()];
            }
        }
        k
    }

    /// The square of the pawn an e.p. capture onto `ep` takes: only Foreign pawns double-step,
    /// South's crossing rank 2 or 3 and North's rank 6 or 7, so the rank tells whose it was.
    #[inline(always)]
    pub(super) fn ep_victim(ep: Square) -> Square {
        if ep.rank() < 4 {
            Square::new(ep.raw() + 8)
        } else {
            Square::new(ep.raw() - 8)
        }
    }

    /// Plays `m`, which must be one of [`FpPosition::legal_moves`] (text from outside goes
    /// through [`FpPosition::parse_move`] first).
    pub fn make(&mut self, m: Move) {
        self.history.push(Undo {
            mv: m,
            captured: EMPTY,
            removed: [Bitboard::EMPTY; 6],
            removed_owner: 0,
            key: self.key,
            to_move: self.to_move,
            alive: self.alive,
            ep: self.ep,
            halfmove: self.halfmove,
            round: self.round,
            end: self.end,
        });
        let me = self.to_move;
        if let Some(ep) = self.ep.take() {
            self.key ^= zobrist::EP[ep.index()];
        }
        if m == PASS {
            self.halfmove += 1;
        } else {
            self.play(m, me);
        }
        let next = self.alive.next_after(me);
        self.key ^= zobrist::TO_MOVE[me.index()] ^ zobrist::TO_MOVE[next.index()];
        self.to_move = next;
        if next.index() <= me.index() {
            self.round += 1;
        }
    }

    /// The board part of a move by `me`.
    #[inline(always)]
    fn play(&mut self, m: Move, me: Player) {
        let (from, to) = (m.from(), m.to());
        let t = PieceType(self.board[from.index()] & 7);
        let victim_sq = if m.kind() == MoveKind::EnPassant {
            Self::ep_victim(to)
        } else {
            to
        };
        let captured = if self.board[victim_sq.index()] != EMPTY {
            self.take(victim_sq)
        } else {
            EMPTY
        };
        self.take(from);
        self.put(to, me, m.promotion_type().unwrap_or(t));
        if t == PieceType::PAWN || captured != EMPTY {
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        if t == PieceType::PAWN && (to.raw() as i8 - from.raw() as i8).abs() == 16 {
            let ep = Square::new((from.raw() + to.raw()) / 2);
            self.ep = Some(ep);
            self.key ^= zobrist::EP[ep.index()];
        }
        if captured != EMPTY {
            let u = self.history.last_mut().expect("pushed by make");
            u.captured = captured;
            if captured & 7 == PieceType::KING.0 {
                self.remove_army(me, Player::from_index((captured >> 3) as usize));
            }
        }
    }

    /// FP-8: `victim`'s king was taken by `capturer`; its other men leave the board, it leaves
    /// the alive set, and FP-9 may end the game.
    fn remove_army(&mut self, capturer: Player, victim: Player) {
        let mut removed = [Bitboard::EMPTY; 6];
        for (t, r) in removed.iter_mut().enumerate() {
            *r = self.by_player[victim.index()] & self.by_type[t];
            for sq in r.iter() {
                self.take(sq);
            }
        }
        let u = self.history.last_mut().expect("pushed by make");
        u.removed = removed;
        u.removed_owner = victim as u8;
        let before = self.alive;
        self.alive = before.without(victim);
        self.key ^= zobrist::ALIVE[before.0 as usize] ^ zobrist::ALIVE[self.alive.0 as usize];
        self.end = super::outcome::after_king_capture(before, capturer, victim);
    }

    /// Takes the last move back; does nothing at the set-up position (an undo typed at a
    /// protocol's prompt must not crash the engine).
    pub fn unmake(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        if u.mv != PASS {
            let (from, to) = (u.mv.from(), u.mv.to());
            let cell = self.take(to);
            let t = if u.mv.promotion_type().is_some() {
                PieceType::PAWN
            } else {
                PieceType(cell & 7)
            };
            self.put(from, Player::from_index((cell >> 3) as usize), t);
            if u.captured != EMPTY {
                let sq = if u.mv.kind() == MoveKind::EnPassant {
                    Self::ep_victim(to)
                } else {
                    to
                };
                self.put_cell(sq, u.captured);
            }
            let owner = Player::from_index(u.removed_owner as usize);
            for (t, r) in u.removed.iter().enumerate() {
                for sq in r.iter() {
                    self.put(sq, owner, PieceType(t as u8));
                }
            }
        }
        self.key = u.key;
        self.to_move = u.to_move;
        self.alive = u.alive;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.round = u.round;
        self.end = u.end;
    }

    /// The owner and type of the man on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<(Player, PieceType)> {
        let c = self.board[sq.index()];
        (c != EMPTY).then(|| (Player::from_index((c >> 3) as usize), PieceType(c & 7)))
    }

    /// The squares of `p`'s men.
    #[inline(always)]
    pub fn men(&self, p: Player) -> Bitboard {
        self.by_player[p.index()]
    }

    /// The squares of `p`'s men of type `t`.
    #[inline(always)]
    pub fn pieces(&self, p: Player, t: PieceType) -> Bitboard {
        self.by_player[p.index()] & self.by_type[t.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_player[0] | self.by_player[1] | self.by_player[2]
    }

    /// `p`'s men counted by type (index `PieceType::index`: pawn, knight, bishop, rook, queen,
    /// king).
    pub fn material(&self, p: Player) -> [u32; 6] {
        let mut out = [0; 6];
        for (t, n) in out.iter_mut().enumerate() {
            *n = (self.by_player[p.index()] & self.by_type[t]).count();
        }
        out
    }

    /// The square of `p`'s king, if `p` has one on the board.
    pub fn king_square(&self, p: Player) -> Option<Square> {
        let k = self.pieces(p, PieceType::KING);
        k.any().then(|| k.lsb())
    }

    /// The Zobrist key (men, player to move, alive set, e.p. square).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The player to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Player {
        self.to_move
    }

    /// The players still in the game.
    #[inline(always)]
    pub fn alive(&self) -> Alive {
        self.alive
    }

    /// The player who moves after the player to move (FP-1).
    #[inline(always)]
    pub fn next_player(&self) -> Player {
        self.alive.next_after(self.to_move)
    }

    /// The e.p. square (crossed by a double step on the previous ply), if any.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Plies since the last capture or pawn move (passes count).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The round: 1 at the start, +1 whenever play passes from a later to an earlier player.
    #[inline(always)]
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Plies played since set-up (the depth of the undo stack).
    #[inline(always)]
    pub fn plies(&self) -> usize {
        self.history.len()
    }

    /// The last move played since set-up, if any ([`PASS`] for a pass).
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// How often the current position (men, player to move, alive set, e.p. square) occurred
    /// before since set-up, looking back to the last capture or pawn move.
    pub fn repetitions(&self) -> usize {
        let back = (self.halfmove as usize).min(self.history.len());
        self.history[self.history.len() - back..]
            .iter()
            .filter(|u| u.key == self.key)
            .count()
    }
}

impl FpPosition {
    /// The result if a king capture has ended the game (FP-9); the position then has no moves.
    #[inline(always)]
    pub fn end(&self) -> Option<Results> {
        self.end
    }

    /// Whether the game is over by a king capture.
    #[inline(always)]
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// FP-11's move rule: 50 moves per remaining player without capture or pawn move.
    pub fn move_rule_draw(&self) -> bool {
        self.halfmove >= 50 * self.alive.count()
    }

    /// FP-11's repetition: the position (men, player to move, alive set, e.p.) occurs for the
    /// third time (within the plies played since set-up).
    pub fn threefold(&self) -> bool {
        self.repetitions() >= 2
    }

    /// Each player's result if the game is over: by a king capture (FP-9), else by a draw
    /// rule (FP-11: a draw among the remaining players); `None` while it goes on.
    pub fn outcome(&self) -> Option<Results> {
        self.end.or_else(|| {
            (self.move_rule_draw() || self.threefold())
                .then(|| super::outcome::shared_draw(self.alive))
        })
    }
}
