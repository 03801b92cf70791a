//! What the search needs of a game, as a trait: the alpha-beta worker is generic over it, so a
//! game is searched by implementing [`Game`], and orthodox chess gets a path of its own.
//!
//! The search is two-sided negamax over *deciders*: the value of a node is from the point of
//! view of the player who chooses its next ply, and the sign flips only where the decider
//! changes. Where players alternate and move their own men, every ply flips it; under a turn
//! schedule (the 007 family) a player chooses several plies in a row, moving men of both
//! colours; a multi-player game searched paranoid-style (the root player against the rest)
//! maps its players to two deciders the same way. Static values (evaluation, game ends) are
//! given for the side whose man moves next ([`Game::mover`]) and turned to the decider's view
//! by the search.
//!
//! Two implementations exist: [`OrthodoxGame`] for variants played exactly like chess, whose
//! every method goes straight to the hand-tuned orthodox generator with no mechanic in sight
//! (the worker is monomorphised for it), and [`VariantGame`] for every other variant, which
//! asks the variant's mechanics through the position.

use crate::eval::EvalParams;
use crate::geometry::Color;
use crate::movegen::generic::is_capture;
use crate::movegen::{in_check, legal_moves, orthodox};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::{Piece, PieceType};
use crate::position::{Hooks, Position, Variant};
use crate::rules::outcome::{dead_material, extinction, move_rule_draw, no_move_value};
use crate::variant::GameValue;

/// A game the search can play.
pub trait Game: Clone + Send {
    /// The position as the engine knows it (for notation and reporting).
    fn position(&self) -> &Position;

    /// Zobrist key of the whole state.
    fn key(&self) -> u64;

    /// All legal moves.
    fn legal_moves(&mut self, list: &mut MoveList);

    /// Plays a legal move.
    fn make(&mut self, m: Move);

    /// Takes the last move back.
    fn unmake(&mut self);

    /// Passes (the null move); only called where [`Game::null_move_sound`] holds.
    fn make_null(&mut self);

    /// Takes a pass back.
    fn unmake_null(&mut self);

    /// Whether passing is a sound lower bound in this game (no zugzwang-decided ends, players
    /// alternate, no rule depends on the last move).
    fn null_move_sound(&self) -> bool;

    /// Whether a null move may be tried here: the last ply was a move, and the side to move
    /// has men besides pawns and its king (so zugzwang is unlikely).
    fn null_move_here(&self) -> bool;

    /// Whether every ply is chosen by the side whose man moves, so the decider changes every
    /// ply (false under a turn schedule).
    fn alternates(&self) -> bool;

    /// The player who chooses the next ply.
    fn decider(&self) -> Color;

    /// The side whose man moves next (static values are from its point of view).
    fn mover(&self) -> Color;

    /// Whether the side to move's royal man is attacked.
    fn in_check(&self) -> bool;

    /// The value for the mover when the game has ended by the position alone (extinction).
    fn ended(&self) -> Option<GameValue>;

    /// Whether the position is drawn by repetition of an earlier one.
    fn is_repetition(&self) -> bool;

    /// Whether the position is a dead draw by the rules (insufficient material).
    fn is_dead(&self) -> bool;

    /// Whether the move rule has drawn the game.
    fn move_rule_draw(&self) -> bool;

    /// The value for the mover of having no legal move (`checked`: in check).
    fn no_move_value(&mut self, checked: bool) -> GameValue;

    /// Static evaluation for the mover.
    fn evaluate(&self, eval: &EvalParams) -> i32;

    /// Whether the piece of the promotion `m` is picked by the pawn's owner rather than by the
    /// decider (007's `promotionChooser = owner` on an enemy ply): the search then values the
    /// move at the owner's choice.
    fn owner_picks(&self, m: Move) -> bool;

    /// The types a pawn may promote to.
    fn promotion_types(&self) -> &[PieceType];

    /// What stands on a square (move ordering).
    fn piece_at(&self, sq: crate::geometry::Square) -> Piece;

    /// The type of the man `m` captures, if it captures (a compound capture counts as a pawn).
    fn captured(&self, m: Move) -> Option<PieceType>;
}

/// The type of the man `m` captures on `pos`, if any.
#[inline]
fn captured_on(pos: &Position, m: Move) -> Option<PieceType> {
    match m.kind() {
        MoveKind::Normal => {
            let v = pos.piece_at(m.to());
            v.is_some().then(|| v.kind())
        }
        MoveKind::EnPassant => Some(PieceType::PAWN),
        MoveKind::Castling => None,
        MoveKind::Special => is_capture(pos, m).then_some(PieceType::PAWN),
    }
}

/// Whether the side to move has men besides pawns and kings.
#[inline]
fn has_pieces(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let pawns_and_kings = pos.pieces_of(us, PieceType::PAWN) | pos.pieces_of(us, PieceType::KING);
    (pos.pieces(us) & !pawns_and_kings).any()
}

/// Whether the position's key occurred before, back to the last irreversible move.
#[inline]
fn repeated(pos: &Position) -> bool {
    let key = pos.key();
    pos.previous_keys().any(|k| k == key)
}

/// A variant played exactly like orthodox chess: the orthodox generator, no mechanics, checks,
/// alternating turns, the default game ends.
#[derive(Clone)]
pub struct OrthodoxGame(Position);

impl OrthodoxGame {
    /// Whether positions of `variant` may be searched as an [`OrthodoxGame`].
    pub fn fits(variant: &Variant) -> bool {
        variant.orthodox
            && variant.mechanics.is_empty()
            && variant.stalemate_value == GameValue::Draw
            && variant.checkmate_value == GameValue::Loss
    }

    /// `pos` as an orthodox game (`fits` must hold for its variant).
    pub fn new(pos: Position) -> OrthodoxGame {
        debug_assert!(OrthodoxGame::fits(pos.rules()));
        OrthodoxGame(pos)
    }
}

impl Game for OrthodoxGame {
    #[inline(always)]
    fn position(&self) -> &Position {
        &self.0
    }
    #[inline(always)]
    fn key(&self) -> u64 {
        self.0.key()
    }
    #[inline(always)]
    fn legal_moves(&mut self, list: &mut MoveList) {
        list.clear();
        orthodox::legal_moves(&mut self.0, list);
    }
    #[inline(always)]
    fn make(&mut self, m: Move) {
        self.0.make(m);
    }
    #[inline(always)]
    fn unmake(&mut self) {
        self.0.unmake();
    }
    #[inline(always)]
    fn make_null(&mut self) {
        self.0.make_null();
    }
    #[inline(always)]
    fn unmake_null(&mut self) {
        self.0.unmake_null();
    }
    #[inline(always)]
    fn null_move_sound(&self) -> bool {
        true
    }
    #[inline(always)]
    fn null_move_here(&self) -> bool {
        self.0.last_move().is_some_and(|m| !m.is_none()) && has_pieces(&self.0)
    }
    #[inline(always)]
    fn alternates(&self) -> bool {
        true
    }
    #[inline(always)]
    fn decider(&self) -> Color {
        self.0.side_to_move()
    }
    #[inline(always)]
    fn mover(&self) -> Color {
        self.0.side_to_move()
    }
    #[inline(always)]
    fn in_check(&self) -> bool {
        let us = self.0.side_to_move();
        self.0
            .king_square(us)
            .is_some_and(|k| orthodox::is_attacked(&self.0, k, us.flip()))
    }
    #[inline(always)]
    fn ended(&self) -> Option<GameValue> {
        None
    }
    #[inline(always)]
    fn is_repetition(&self) -> bool {
        repeated(&self.0)
    }
    #[inline(always)]
    fn is_dead(&self) -> bool {
        false
    }
    #[inline(always)]
    fn move_rule_draw(&self) -> bool {
        move_rule_draw(&self.0)
    }
    #[inline(always)]
    fn no_move_value(&mut self, checked: bool) -> GameValue {
        if checked {
            GameValue::Loss
        } else {
            GameValue::Draw
        }
    }
    #[inline(always)]
    fn evaluate(&self, eval: &EvalParams) -> i32 {
        eval.evaluate(&self.0)
    }
    #[inline(always)]
    fn owner_picks(&self, _m: Move) -> bool {
        false
    }
    #[inline(always)]
    fn promotion_types(&self) -> &[PieceType] {
        &self.0.rules().promotion_types
    }
    #[inline(always)]
    fn piece_at(&self, sq: crate::geometry::Square) -> Piece {
        self.0.piece_at(sq)
    }
    #[inline(always)]
    fn captured(&self, m: Move) -> Option<PieceType> {
        captured_on(&self.0, m)
    }
}

/// Any variant: the position with its mechanics, and what the search may assume about it,
/// derived once from the rules.
#[derive(Clone)]
pub struct VariantGame {
    pos: Position,
    /// Passing is a sound bound.
    null_move: bool,
    /// A mechanic separates the decider from the mover (a turn schedule).
    turns: bool,
}

impl VariantGame {
    /// `pos` with the traits of its variant.
    pub fn new(pos: Position) -> VariantGame {
        let variant = pos.rules();
        let mechanics = &variant.mechanics;
        let turns = mechanics.uses(Hooks::TURNS);
        // Passing is a sound bound only when being unable to move is no worse than a draw for
        // the side to move and turns alternate; mechanics keep it unless they say otherwise.
        // A filter that makes "every move barred" a loss (Torpedo) or depends on the
        // opponent's last move (Nonlinear) makes passing meaningless too.
        let null_move = variant.stalemate_value == GameValue::Draw
            && variant.barred_value == GameValue::Draw
            && mechanics.passing_is_sound()
            && variant.checking
            && !turns;
        VariantGame {
            pos,
            null_move,
            turns,
        }
    }
}

impl Game for VariantGame {
    #[inline(always)]
    fn position(&self) -> &Position {
        &self.pos
    }
    #[inline(always)]
    fn key(&self) -> u64 {
        self.pos.key()
    }
    #[inline(always)]
    fn legal_moves(&mut self, list: &mut MoveList) {
        legal_moves(&mut self.pos, list);
    }
    #[inline(always)]
    fn make(&mut self, m: Move) {
        self.pos.make(m);
    }
    #[inline(always)]
    fn unmake(&mut self) {
        self.pos.unmake();
    }
    #[inline(always)]
    fn make_null(&mut self) {
        self.pos.make_null();
    }
    #[inline(always)]
    fn unmake_null(&mut self) {
        self.pos.unmake_null();
    }
    #[inline(always)]
    fn null_move_sound(&self) -> bool {
        self.null_move
    }
    #[inline(always)]
    fn null_move_here(&self) -> bool {
        self.pos.last_move().is_some_and(|m| !m.is_none()) && has_pieces(&self.pos)
    }
    #[inline(always)]
    fn alternates(&self) -> bool {
        !self.turns
    }
    #[inline(always)]
    fn decider(&self) -> Color {
        self.pos.chooser()
    }
    #[inline(always)]
    fn mover(&self) -> Color {
        self.pos.side_to_move()
    }
    #[inline(always)]
    fn in_check(&self) -> bool {
        in_check(&self.pos)
    }
    #[inline(always)]
    fn ended(&self) -> Option<GameValue> {
        extinction(&self.pos)
    }
    #[inline(always)]
    fn is_repetition(&self) -> bool {
        repeated(&self.pos)
    }
    #[inline(always)]
    fn is_dead(&self) -> bool {
        dead_material(&self.pos)
    }
    #[inline(always)]
    fn move_rule_draw(&self) -> bool {
        move_rule_draw(&self.pos)
    }
    #[inline(always)]
    fn no_move_value(&mut self, checked: bool) -> GameValue {
        no_move_value(&mut self.pos, checked).0
    }
    #[inline(always)]
    fn evaluate(&self, eval: &EvalParams) -> i32 {
        eval.evaluate(&self.pos)
    }
    #[inline]
    fn owner_picks(&self, m: Move) -> bool {
        self.turns
            && m.promotion_type().is_some()
            && self
                .pos
                .mechanics()
                .with_hook(Hooks::TURNS)
                .any(|t| t.owner_picks_promotion(&self.pos, m))
    }
    #[inline(always)]
    fn promotion_types(&self) -> &[PieceType] {
        &self.pos.rules().promotion_types
    }
    #[inline(always)]
    fn piece_at(&self, sq: crate::geometry::Square) -> Piece {
        self.pos.piece_at(sq)
    }
    #[inline(always)]
    fn captured(&self, m: Move) -> Option<PieceType> {
        captured_on(&self.pos, m)
    }
}
