//! Foreign Policy Chess searched paranoid-style (C.5): the root player maximises its own
//! utility and both opponents are taken to minimise it, so the three players map onto the two
//! sides of the negamax worker (side 0 the root player, side 1 the coalition) and ordinary
//! alpha-beta pruning holds. The sign flips only where the side changes (North then the
//! Peacekeeper are one side for South's search).
//!
//! A game end for the root player ends the search's line: its king taken (it has lost,
//! whatever the others do next) or FP-9's result. The evaluation is the root player's entry of
//! [`EvalParams::three_utilities`] (the three-player net, else the rules-derived utilities).
//! Positions are keyed with the root player, since the same position has different values for
//! different roots.

use super::game::{Game, Outcomes, Player as Side, Utility, MAX_PLAYERS};
use crate::eval::EvalParams;
use crate::foreignpolicy::player::FOREIGN_PROMOTIONS;
use crate::foreignpolicy::{move_to_string, FpPosition, Player, PASS};
use crate::geometry::{Color, Square};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::{Piece, PieceType};
use crate::variant::GameValue;

/// Key terms for the root player (the same position is searched for each root differently).
const ROOT_KEYS: [u64; 3] = [
    0x5a1c_9d3e_77f0_2b41,
    0x93e4_06b8_c15d_7a2f,
    0x2f7b_e840_19c6_d553,
];

/// A Foreign Policy position searched for one root player against the other two.
#[derive(Clone)]
pub struct ParanoidGame {
    pos: FpPosition,
    root: Player,
}

impl ParanoidGame {
    /// `pos` searched for its player to move.
    pub fn new(pos: FpPosition) -> ParanoidGame {
        let root = pos.side_to_move();
        ParanoidGame { pos, root }
    }

    /// The side (0 the root player, 1 its opponents) of `p`.
    #[inline(always)]
    fn side_of(&self, p: Player) -> Side {
        usize::from(p != self.root)
    }

    /// The root player's result as the two sides' outcomes.
    fn outcomes(root_value: GameValue) -> Outcomes {
        let mut o = [GameValue::Draw; MAX_PLAYERS];
        o[0] = root_value;
        o[1] = match root_value {
            GameValue::Win => GameValue::Loss,
            GameValue::Loss => GameValue::Win,
            GameValue::Draw => GameValue::Draw,
        };
        o
    }
}

impl Game for ParanoidGame {
    fn move_text(&self, m: Move) -> String {
        move_to_string(m)
    }
    fn clock(&self) -> Color {
        Color::White
    }
    #[inline(always)]
    fn key(&self) -> u64 {
        self.pos.key() ^ ROOT_KEYS[self.root.index()]
    }
    #[inline(always)]
    fn legal_moves(&mut self, list: &mut MoveList) {
        self.pos.legal_moves(list);
    }
    #[inline(always)]
    fn make(&mut self, m: Move) {
        self.pos.make(m);
    }
    #[inline(always)]
    fn unmake(&mut self) {
        self.pos.unmake();
    }
    fn make_null(&mut self) {
        self.pos.make(PASS);
    }
    fn unmake_null(&mut self) {
        self.pos.unmake();
    }
    fn null_move_sound(&self) -> bool {
        false
    }
    fn null_move_here(&self) -> bool {
        false
    }
    fn alternates(&self) -> bool {
        false
    }
    #[inline(always)]
    fn decider(&self) -> Side {
        self.side_of(self.pos.side_to_move())
    }
    #[inline(always)]
    fn mover(&self) -> Side {
        self.decider()
    }
    fn in_check(&self) -> bool {
        false
    }
    fn ended(&self) -> Option<Outcomes> {
        if let Some(r) = self.pos.end() {
            return Some(Self::outcomes(r[self.root.index()]));
        }
        // the root player's king taken: lost for it, whatever follows
        (!self.pos.alive().has(self.root)).then(|| Self::outcomes(GameValue::Loss))
    }
    fn is_repetition(&self) -> bool {
        self.pos.repetitions() > 0
    }
    fn is_dead(&self) -> bool {
        false
    }
    fn move_rule_draw(&self) -> bool {
        self.pos.move_rule_draw()
    }
    fn no_move_outcome(&mut self, _checked: bool) -> Outcomes {
        // never asked: a player without a move passes (FP-10), and the pass is a move
        Self::outcomes(GameValue::Draw)
    }
    fn evaluation(&mut self, eval: &EvalParams) -> Utility {
        let s = eval.three_utilities(&self.pos)[self.root.index()];
        let mut u = [0; MAX_PLAYERS];
        u[0] = s;
        u[1] = -s;
        u
    }
    fn owner_picks(&self, _m: Move) -> bool {
        false
    }
    fn promotion_types(&self) -> &[PieceType] {
        &FOREIGN_PROMOTIONS
    }
    fn piece_at(&self, sq: Square) -> Piece {
        match self.pos.piece_at(sq) {
            // the history tables know two colours: the root's men and its opponents'
            Some((p, t)) => Piece::new(
                if p == self.root {
                    Color::White
                } else {
                    Color::Black
                },
                t,
            ),
            None => Piece::NONE,
        }
    }
    fn captured(&self, m: Move) -> Option<PieceType> {
        match m.kind() {
            MoveKind::EnPassant => Some(PieceType::PAWN),
            _ if m == PASS => None,
            _ => self.pos.piece_at(m.to()).map(|(_, t)| t),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{search_game, with_test_context, SearchLimits, SearchOptions, Silent};

    /// The best move of a search to `depth` for the player to move in `fen`.
    fn best(fen: &str, depth: u32) -> String {
        best_with(fen, depth, 1)
    }

    /// [`best`] with `threads` search threads (Lazy SMP sharing the table).
    fn best_with(fen: &str, depth: u32, threads: usize) -> String {
        let game = ParanoidGame::new(FpPosition::from_fen(fen).expect("FP-FEN"));
        let limits = SearchLimits {
            depth: Some(depth),
            ..Default::default()
        };
        let options = SearchOptions {
            threads,
            ..Default::default()
        };
        let r = with_test_context(|ctx| search_game(&game, &limits, &options, ctx, &Silent));
        move_to_string(r.best)
    }

    #[test]
    fn a_foreign_takes_the_other_foreigns_king() {
        // TF-6: South wins at once
        assert_eq!(best("nK,7/8/8/8/8/8/8/sR,6,pK s snp - 0 1", 4), "a1a8");
    }

    #[test]
    fn the_peacekeeper_goes_for_both_kings() {
        // TF-7: g1xa1 removes South; North cannot escape the queen on the a-file
        assert_eq!(best("nK,7/8/8/8/8/8/8/sK,5,pQ,pK p snp - 0 1", 5), "g1a1");
    }

    #[test]
    fn a_king_is_not_left_en_prise() {
        // North's king on a8 is attacked by South's rook; North must move it (a8b7/a8b8; a7
        // stays on the file)
        let m = best("nK,7/8/8/8/8/8/8/sR,5,pK,1 n snp - 0 1", 4);
        assert!(m == "a8b7" || m == "a8b8", "{m}");
    }

    #[test]
    fn lazy_smp_searches_it_too() {
        // two threads sharing the table find TF-7's g1xa1 as one does
        assert_eq!(
            best_with("nK,7/8/8/8/8/8/8/sK,5,pQ,pK p snp - 0 1", 8, 2),
            "g1a1"
        );
    }
}
