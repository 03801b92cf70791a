//! Foreign Policy Chess: three players on an 8x8 board, king capture, no check
//! (docs/variants/foreignpolicy.md; rules authority: rules file 007, Part C).
//!
//! **The game as implemented.** South (`s`, moves first) and North (`n`) are the Foreigns on
//! the a1 and a8 sides; the Peacekeeper (`p`) sits on the h-file side. Turns go S, N, P,
//! skipping eliminated players (FP-1, R-FP-10). Men move as in orthodox chess and may capture
//! men of either other player (FP-2). Pawns go toward rank 8 (S), rank 1 (N) or the a-file
//! (P) and capture diagonally forward (FP-3, R-FP-1); Foreign pawns double-step from their
//! home squares a2-d2, e1 / a7-d7, e8 (FP-4, R-FP-3, square-based); e.p. for the next ply
//! only (FP-5, R-FP-4 (a); option (b) is not built); promotion is compulsory on the last
//! row, Foreigns to Q/R/B/N, the Peacekeeper to R/B/N (FP-6, R-FP-2); no castling (FP-7).
//! Every pseudo-legal move is legal; taking a king removes that whole army at once (FP-8);
//! FP-9 decides the game ([`outcome`]); a player without a move passes ([`PASS`], FP-10);
//! repetition and the move rule per remaining player draw (FP-11); points per FP-12.
//!
//! **Representation.** [`FpPosition`]: a bitboard per player and per piece type, a mailbox,
//! the state (player to move, alive set, e.p. square, half-move clock, round, the result once
//! a king capture decided it) and a Zobrist key over men, player to move, alive set and e.p.
//! square, kept incrementally. Moves are [`crate::moves::Move`]s (normal, promotion, e.p.;
//! the pass is a special-kind constant), so tables and the search can store them; make and
//! unmake keep an undo stack inside the position, preallocated, so that neither allocates.
//!
//! Modules: [`player`] (players, alive set, pawn geometry), [`position`] (state, make,
//! unmake, queries), [`fen`] (FP-FEN), [`movegen`] (moves, attacks), [`notation`],
//! [`outcome`] (FP-9, FP-11, FP-12), [`perft`].

pub mod eval;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod player;
pub mod position;
mod zobrist;

pub use fen::FenError;
pub use notation::{move_to_string, MoveError};
pub use outcome::Results;
pub use player::{Alive, Player};
pub use position::{FpPosition, PASS};

use crate::geometry::Square;

/// The variant's name on the command line and in protocols.
pub const NAME: &str = "foreignpolicy";

/// The start position (C.1).
pub const START_FEN: &str = "nR,nN,nK,nB,nP,3/nP,nP,nP,nP,3,pN/6,pP,pB/6,pP,pK/6,pP,pQ/6,pP,pB/\
                             sP,sP,sP,sP,3,pN/sR,sN,sK,sB,sP,3 s snp - 0 1";

impl FpPosition {
    /// A plain-text board for the `d` command: ranks 8 to 1, one line each, a man as its
    /// owner's letter and its piece letter (`sK`, `pQ`), an empty square as `..`; then the
    /// player to move, the alive set and the FP-FEN.
    pub fn board_text(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..8 {
                let sq = Square::from_coords(file, rank).expect("inside the board");
                let token = match self.piece_at(sq) {
                    Some((p, t)) => format!("{}{}", p.letter(), fen::letter_of(t)),
                    None => "..".into(),
                };
                out.push(' ');
                out.push_str(&token);
            }
            out.push('\n');
        }
        out.push_str("   a  b  c  d  e  f  g  h\n");
        out.push_str(&format!(
            "to move: {}  alive: {}\nFP-FEN: {}\n",
            self.to_move.name(),
            self.alive
                .iter()
                .map(Player::name)
                .collect::<Vec<_>>()
                .join(" "),
            self.to_fen()
        ));
        out
    }
}
