//! The null move: the side to move passes. Only search uses it, and only where the variant's
//! traits say passing is a sound bound.

use super::zobrist::ZOBRIST;
use super::{EditList, Position, Undo};
use crate::moves::Move;

impl Position {
    /// Passes the move (clears en passant, flips the side to move).
    pub fn make_null(&mut self) {
        let undo = Undo {
            state: self.state,
            mv: Move::NONE,
            before: EditList::new(),
        };
        let z = &ZOBRIST;
        if self.state.ep < 64 {
            self.state.key ^= z.ep_file[(self.state.ep & 7) as usize];
            self.state.ep = 64;
        }
        self.state.key ^= z.black_to_move;
        self.state.halfmove = self.state.halfmove.saturating_add(1);
        self.state.ply += 1;
        self.stm = self.stm.flip();
        self.history.push(undo);
        if self.mechanics().uses(super::Hooks::AFTER_MOVE) {
            // a pass is a ply without a move: mechanics update their state as for any ply
            self.after_move_hooks(Move::NONE);
        }
    }

    /// Takes a null move back (the same as `unmake`).
    pub fn unmake_null(&mut self) {
        self.unmake();
    }
}
