//! What the search needs of a game, as a trait: the alpha-beta worker is generic over it, so a
//! game is searched by implementing [`Game`], and orthodox chess gets a path of its own.
//!
//! The search is two-sided negamax over *deciders*: the value of a node is from the point of
//! view of the player who chooses its next ply, and the sign flips only where the decider
//! changes. Where players alternate and move their own men, every ply flips it; under a turn
//! schedule (the 007 family) a player chooses several plies in a row, moving men of both
//! colours; a multi-player game searched paranoid-style (the root player against the rest)
//! maps its players to two sides the same way. Static values are per player: the evaluation
//! is a [`Utility`] (a score for each player) and a game end an [`Outcomes`] (a result for
//! each player); the search reads the decider's entry.
//!
//! Two implementations exist: [`OrthodoxGame`] for variants played exactly like chess, whose
//! every method goes straight to the hand-tuned orthodox generator with no mechanic in sight
//! (the worker is monomorphised for it), and [`VariantGame`] for every other variant, which
//! asks the variant's mechanics through the position.

use super::MAX_PLY;
use crate::eval::cache::EvalCache;
use crate::eval::nnue::AccumulatorStack;
use crate::eval::EvalParams;
use crate::geometry::Color;
use crate::movegen::generic::is_capture;
use crate::movegen::{
    in_check, judge_late, legal_moves, move_to_string, moves_to_judge, orthodox, see,
};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::{Piece, PieceType, MAX_PIECE_TYPES};
use crate::position::{Hooks, LateJudgement, Position, Variant};
use crate::rules::outcome::{dead_material, extinction, move_rule_draw, no_move_value};
use crate::variant::GameValue;

/// A player of a game: in a two-colour game, the colour's index (`Color::index`).
pub type Player = usize;

/// Most players a game may have (Foreign Policy Chess has three).
pub const MAX_PLAYERS: usize = 3;

/// A score for each player (entries past the game's players are 0).
pub type Utility = [i32; MAX_PLAYERS];

/// A result for each player (entries past the game's players are draws).
pub type Outcomes = [GameValue; MAX_PLAYERS];

/// The utility of a two-colour game where the side `mover` scores `score`: the other side
/// scores its negation.
#[inline(always)]
pub fn zero_sum(mover: Player, score: i32) -> Utility {
    let mut u = [0; MAX_PLAYERS];
    u[mover] = score;
    u[1 - mover] = -score;
    u
}

/// The outcomes of a two-colour game where the side `mover` gets `value`: the other side the
/// opposite.
#[inline(always)]
pub fn zero_sum_outcome(mover: Player, value: GameValue) -> Outcomes {
    let mut o = [GameValue::Draw; MAX_PLAYERS];
    o[mover] = value;
    o[1 - mover] = match value {
        GameValue::Win => GameValue::Loss,
        GameValue::Loss => GameValue::Win,
        GameValue::Draw => GameValue::Draw,
    };
    o
}

/// A game the search can play.
pub trait Game: Clone + Send + Sync {
    /// The notation of `m`, a legal move here (for reports).
    fn move_text(&self, m: Move) -> String;

    /// What a score means here (for `wdl` in reports).
    fn wdl_model(&self) -> crate::variant::WdlModel {
        crate::variant::WdlModel::DEFAULT
    }

    /// The colour whose clock runs while the next ply is chosen (the chooser's; a game of
    /// more players than UCI's two clocks reports its player to move's time as White's).
    fn clock(&self) -> Color;

    /// Zobrist key of the whole state.
    fn key(&self) -> u64;

    /// All legal moves.
    fn legal_moves(&mut self, list: &mut MoveList);

    /// The moves the main search tries: all legal moves and [`LateJudgement::NONE`], or, where
    /// a legality filter judges moves one at a time, the moves before that judgement and what
    /// is left to judge of each ([`Game::judge`], called only for the moves the search plays).
    fn moves_to_judge(&mut self, list: &mut MoveList) -> LateJudgement {
        self.legal_moves(list);
        LateJudgement::NONE
    }

    /// Whether `m`, listed by [`Game::moves_to_judge`] with `late`, is legal.
    fn judge(&mut self, _m: Move, _late: LateJudgement) -> bool {
        true
    }

    /// The legal moves that capture or promote (those quiescence searches), in the order of
    /// [`Game::legal_moves`]; returns whether the side has any legal move at all.
    fn noisy_moves(&mut self, list: &mut MoveList) -> bool {
        noisy_of_legal(self, list)
    }

    /// Whether the main search lists a node's captures and promotions first
    /// ([`Game::noisy_moves_only`]) and the other moves only when none of those cuts: where
    /// the noisy moves are generated apart at a fraction of the cost of all moves.
    fn stages_quiets(&self) -> bool {
        false
    }

    /// The legal moves that capture or promote, in the order of [`Game::legal_moves`], where
    /// [`Game::stages_quiets`].
    fn noisy_moves_only(&mut self, list: &mut MoveList) {
        noisy_of_legal(self, list);
    }

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
    fn decider(&self) -> Player;

    /// The side whose man moves next.
    fn mover(&self) -> Player;

    /// Whether the side to move's royal man is attacked.
    fn in_check(&self) -> bool;

    /// Each player's result when the game has ended by the position alone (extinction).
    fn ended(&self) -> Option<Outcomes>;

    /// Whether the position is drawn by repetition of an earlier one.
    fn is_repetition(&self) -> bool;

    /// Whether the position is a dead draw by the rules (insufficient material).
    fn is_dead(&self) -> bool;

    /// Whether the move rule has drawn the game.
    fn move_rule_draw(&self) -> bool;

    /// Each player's result when the side to move has no legal move (`checked`: in check).
    fn no_move_outcome(&mut self, checked: bool) -> Outcomes;

    /// Static evaluation for each player.
    fn evaluation(&mut self, eval: &EvalParams) -> Utility;

    /// A hash of the pawns of both sides (0 where the game keeps none): the static
    /// evaluation's error is learnt per pawn structure (`search::history`).
    fn pawn_key(&self) -> u64 {
        0
    }

    /// A hash of how many men of each type and colour stand on the board (0 where the game
    /// keeps none): the static evaluation's error is learnt per material too.
    fn material_key(&self) -> u64 {
        0
    }

    /// Gets ready to evaluate with `eval` from the current position on (a search thread calls
    /// it once before its first move): a game that evaluates with a net sets up its
    /// accumulators here.
    fn prepare_eval(&mut self, _eval: &EvalParams) {}

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

    /// Whether `m` wins at least `threshold` by static exchange, with the piece values of
    /// `eval`. A game whose captures the piece tables alone do not decide (this default)
    /// answers optimistically: whether the victim, with a promotion's gain, is worth the
    /// threshold, the most an exchange can win. So it never prunes or demotes a move an exact
    /// exchange would keep; it only loses the gain of pruning the losing ones.
    fn see_ge(&self, m: Move, threshold: i32, eval: &EvalParams) -> bool {
        optimistic_see(self.captured(m), m, threshold, eval)
    }
}

/// The fallback of [`Game::see_ge`]: whether the capture's victim and the promotion's gain
/// together reach `threshold` (an upper bound of the exchange).
#[inline]
fn optimistic_see(victim: Option<PieceType>, m: Move, threshold: i32, eval: &EvalParams) -> bool {
    if victim == Some(PieceType::KING) {
        return true;
    }
    let taken = victim.map_or(0, |t| eval.value[t.index()]);
    let promoted = m.promotion_type().map_or(0, |t| {
        eval.value[t.index()] - eval.value[PieceType::PAWN.index()]
    });
    taken + promoted >= threshold
}

/// Hooks that change what captures what or who answers a capture: where a variant's
/// mechanics use one, [`Game::see_ge`] falls back to [`optimistic_see`]. Own moves and
/// immune men (MOVES, IMMUNE), legality filters (compulsory or barred captures), an attack or
/// check relation of their own, state changed after a move (explosions, transformations),
/// position-dependent powers, and turn schedules (the recapture is not the opponent's).
const SEE_UNSOUND: Hooks = Hooks::MOVES
    .with(Hooks::IMMUNE)
    .with(Hooks::FILTER)
    .with(Hooks::ATTACK)
    .with(Hooks::CHECK)
    .with(Hooks::AFTER_MOVE)
    .with(Hooks::MOBILITY)
    .with(Hooks::TURNS);

/// [`Game::noisy_moves`] by the whole legal list, filtered in place: whether it had any move.
fn noisy_of_legal<G: Game>(game: &mut G, list: &mut MoveList) -> bool {
    game.legal_moves(list);
    let any = !list.is_empty();
    crate::rules::retain(list, |m| {
        m.promotion_type().is_some() || game.captured(m).is_some()
    });
    any
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

/// The net's accumulators along the searched line, where the evaluation has a net: pushed on
/// every make, popped on every unmake. Without a net, a cache of the rules-derived evaluation.
#[derive(Clone, Default)]
struct NetLine(Option<Box<AccumulatorStack>>, Option<EvalCache>);

impl NetLine {
    /// Accumulators for `eval`'s net (none without one), based at the current position; a cache
    /// of the tables' evaluation where there is no net.
    fn prepare(&mut self, eval: &EvalParams) {
        match eval.net() {
            Some(net) => {
                self.1 = None;
                match &mut self.0 {
                    Some(stack) if stack.hidden() == net.net.hidden => stack.reset(),
                    _ => {
                        self.0 = Some(Box::new(AccumulatorStack::new(
                            net.net.hidden,
                            MAX_PLY + 16,
                        )))
                    }
                }
            }
            None => {
                self.0 = None;
                // a new cache: one kept from another evaluation's search would answer for it
                self.1 = Some(EvalCache::new());
            }
        }
    }

    #[inline(always)]
    fn push(&mut self, pos: &Position) {
        if let Some(stack) = &mut self.0 {
            stack.push(pos);
        }
    }

    #[inline(always)]
    fn pop(&mut self) {
        if let Some(stack) = &mut self.0 {
            stack.pop();
        }
    }

    /// The side to move's evaluation: the net's where both a net and accumulators are there,
    /// else the tables'.
    #[inline(always)]
    fn evaluate(&mut self, eval: &EvalParams, pos: &Position) -> i32 {
        match (&mut self.0, eval.net(), &mut self.1) {
            (Some(stack), Some(net), _) => stack.evaluate(net, pos),
            (_, None, Some(cache)) => cache.get_or_insert(pos.key(), || eval.evaluate(pos)),
            _ => eval.evaluate(pos),
        }
    }
}

/// A variant played exactly like orthodox chess: the orthodox generator, no mechanics, checks,
/// alternating turns, the default game ends.
#[derive(Clone)]
pub struct OrthodoxGame(Position, NetLine);

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
        OrthodoxGame(pos, NetLine::default())
    }
}

impl Game for OrthodoxGame {
    #[inline(always)]
    fn pawn_key(&self) -> u64 {
        pawn_hash(&self.0)
    }
    #[inline(always)]
    fn material_key(&self) -> u64 {
        material_hash(&self.0)
    }
    fn move_text(&self, m: Move) -> String {
        move_to_string(&self.0, m).to_string()
    }
    fn wdl_model(&self) -> crate::variant::WdlModel {
        self.0.rules().wdl
    }
    fn clock(&self) -> Color {
        self.0.chooser()
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
        self.1.push(&self.0);
    }
    #[inline(always)]
    fn unmake(&mut self) {
        self.0.unmake();
        self.1.pop();
    }
    #[inline(always)]
    fn make_null(&mut self) {
        self.0.make_null();
        self.1.push(&self.0);
    }
    #[inline(always)]
    fn unmake_null(&mut self) {
        self.0.unmake_null();
        self.1.pop();
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
    fn decider(&self) -> Player {
        self.0.side_to_move().index()
    }
    #[inline(always)]
    fn mover(&self) -> Player {
        self.0.side_to_move().index()
    }
    #[inline(always)]
    fn in_check(&self) -> bool {
        let us = self.0.side_to_move();
        self.0
            .king_square(us)
            .is_some_and(|k| orthodox::is_attacked(&self.0, k, us.flip()))
    }
    #[inline(always)]
    fn ended(&self) -> Option<Outcomes> {
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
    fn no_move_outcome(&mut self, checked: bool) -> Outcomes {
        let value = if checked {
            GameValue::Loss
        } else {
            GameValue::Draw
        };
        zero_sum_outcome(self.mover(), value)
    }
    #[inline(always)]
    fn evaluation(&mut self, eval: &EvalParams) -> Utility {
        zero_sum(self.mover(), self.1.evaluate(eval, &self.0))
    }
    fn prepare_eval(&mut self, eval: &EvalParams) {
        self.1.prepare(eval);
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
    #[inline]
    fn see_ge(&self, m: Move, threshold: i32, eval: &EvalParams) -> bool {
        see::see_ge(&self.0, m, threshold, &eval.value)
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
    /// Captures are the piece tables' alone, so the static exchange is exact (no hook of
    /// [`SEE_UNSOUND`]).
    exact_see: bool,
    /// Quiescence's moves are generated by stages (only captures and promotions judged).
    staged_noisy: bool,
    /// The main search lists captures and promotions before the rest: where moves are
    /// staged and a mechanic adds moves of its own, whose listing is what staging saves
    /// (the data's moves alone are cheap to list at once).
    staged_search: bool,
    net: NetLine,
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
        let exact_see = !mechanics.uses(SEE_UNSOUND);
        let staged_noisy = crate::movegen::generic::noisy_is_staged(&pos);
        let staged_search = staged_noisy && mechanics.mover().is_some();
        VariantGame {
            pos,
            null_move,
            turns,
            exact_see,
            staged_noisy,
            staged_search,
            net: NetLine::default(),
        }
    }
}

impl Game for VariantGame {
    #[inline(always)]
    fn pawn_key(&self) -> u64 {
        pawn_hash(&self.pos)
    }
    #[inline(always)]
    fn material_key(&self) -> u64 {
        material_hash(&self.pos)
    }
    fn move_text(&self, m: Move) -> String {
        move_to_string(&self.pos, m).to_string()
    }
    fn wdl_model(&self) -> crate::variant::WdlModel {
        self.pos.rules().wdl
    }
    fn clock(&self) -> Color {
        self.pos.chooser()
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
    fn moves_to_judge(&mut self, list: &mut MoveList) -> LateJudgement {
        moves_to_judge(&mut self.pos, list)
    }
    #[inline(always)]
    fn judge(&mut self, m: Move, late: LateJudgement) -> bool {
        judge_late(&mut self.pos, m, late)
    }
    #[inline(always)]
    fn stages_quiets(&self) -> bool {
        self.staged_search
    }
    fn noisy_moves_only(&mut self, list: &mut MoveList) {
        crate::movegen::generic::noisy_legal_moves_only(&mut self.pos, list);
    }
    fn noisy_moves(&mut self, list: &mut MoveList) -> bool {
        if !self.staged_noisy {
            if let Some(any) = crate::movegen::filtered_noisy_moves(&mut self.pos, list) {
                return any;
            }
            return noisy_of_legal(self, list);
        }
        crate::movegen::generic::noisy_legal_moves(&mut self.pos, list)
    }
    #[inline(always)]
    fn make(&mut self, m: Move) {
        self.pos.make(m);
        self.net.push(&self.pos);
    }
    #[inline(always)]
    fn unmake(&mut self) {
        self.pos.unmake();
        self.net.pop();
    }
    #[inline(always)]
    fn make_null(&mut self) {
        self.pos.make_null();
        self.net.push(&self.pos);
    }
    #[inline(always)]
    fn unmake_null(&mut self) {
        self.pos.unmake_null();
        self.net.pop();
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
    fn decider(&self) -> Player {
        self.pos.chooser().index()
    }
    #[inline(always)]
    fn mover(&self) -> Player {
        self.pos.side_to_move().index()
    }
    #[inline(always)]
    fn in_check(&self) -> bool {
        in_check(&self.pos)
    }
    #[inline(always)]
    fn ended(&self) -> Option<Outcomes> {
        extinction(&self.pos).map(|v| zero_sum_outcome(self.mover(), v))
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
    fn no_move_outcome(&mut self, checked: bool) -> Outcomes {
        zero_sum_outcome(self.mover(), no_move_value(&mut self.pos, checked).0)
    }
    #[inline(always)]
    fn evaluation(&mut self, eval: &EvalParams) -> Utility {
        zero_sum(self.mover(), self.net.evaluate(eval, &self.pos))
    }
    fn prepare_eval(&mut self, eval: &EvalParams) {
        self.net.prepare(eval);
    }
    #[inline]
    fn owner_picks(&self, m: Move) -> bool {
        self.turns && self.pos.owner_picks_promotion(m)
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
    #[inline]
    fn see_ge(&self, m: Move, threshold: i32, eval: &EvalParams) -> bool {
        if self.exact_see {
            see::see_ge(&self.pos, m, threshold, &eval.value)
        } else {
            optimistic_see(self.captured(m), m, threshold, eval)
        }
    }
}

/// A hash of both sides' pawns (multiplicative: cheap, and well spread in its high bits).
#[inline(always)]
fn pawn_hash(pos: &Position) -> u64 {
    let white = pos.pieces_of(Color::White, PieceType::PAWN).0;
    let black = pos.pieces_of(Color::Black, PieceType::PAWN).0;
    (white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
        .rotate_left(17)
        .wrapping_mul(0xFF51_AFD7_ED55_8CCD)
}

/// A hash of the number of men of each type and colour (the material correction's key): each
/// (type, colour, count) gives a mixed word of its own, and the words are xored, as Zobrist
/// keys are.
fn material_hash(pos: &Position) -> u64 {
    let mut h = 0u64;
    for t in 0..MAX_PIECE_TYPES {
        let kind = pos.kind(PieceType(t as u8));
        if kind.0 == 0 {
            continue;
        }
        for color in [Color::White, Color::Black] {
            let count = (kind & pos.pieces(color)).0.count_ones() as u64;
            if count > 0 {
                h ^= mix(((2 * t + color.index()) as u64) << 8 | count);
            }
        }
    }
    h
}

/// SplitMix64's finaliser: a word whose every bit depends on every bit of `x`.
#[inline(always)]
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    #[test]
    fn the_material_key_depends_on_the_counts_alone() {
        let chess = builtin_variants().get("chess").expect("built in");
        let key = |fen: &str| material_hash(&Position::from_fen(chess, fen).expect("valid"));
        let start = key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let moved = key("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        assert_eq!(start, moved, "the same men elsewhere");
        let rook_for_knight = "4k3/8/8/8/8/8/8/R3K1n1 w - - 0 1";
        let knight_for_rook = "4k1r1/8/8/8/8/8/8/N3K3 w - - 0 1";
        assert_ne!(key(rook_for_knight), key(knight_for_rook), "colours apart");
        assert_ne!(
            key("4k3/pp6/8/8/8/8/P7/4K3 w - - 0 1"),
            key("4k3/p7/8/8/8/8/PP6/4K3 w - - 0 1"),
            "counts apart"
        );
    }

    /// The orthodox path must answer every question as the general one does, in chess.
    #[test]
    fn orthodox_game_answers_as_the_variant_game() {
        let chess = builtin_variants().get("chess").expect("built in");
        assert!(OrthodoxGame::fits(chess));
        let eval = EvalParams::new(chess);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut compared = 0;
        for _game in 0..20 {
            let mut fast = OrthodoxGame::new(Position::startpos(chess));
            let mut general = VariantGame::new(Position::startpos(chess));
            for _ply in 0..150 {
                let (mut a, mut b) = (MoveList::new(), MoveList::new());
                fast.legal_moves(&mut a);
                general.legal_moves(&mut b);
                let mut sa: Vec<u32> = a.iter().map(|m| m.0).collect();
                let mut sb: Vec<u32> = b.iter().map(|m| m.0).collect();
                sa.sort_unstable();
                sb.sort_unstable();
                assert_eq!(sa, sb, "{}", fast.0.fen());
                assert_eq!(fast.key(), general.key());
                assert_eq!(fast.decider(), general.decider());
                assert_eq!(fast.in_check(), general.in_check());
                assert_eq!(fast.evaluation(&eval), general.evaluation(&eval));
                assert_eq!(fast.null_move_sound(), general.null_move_sound());
                assert_eq!(fast.alternates(), general.alternates());
                assert_eq!(fast.move_rule_draw(), general.move_rule_draw());
                assert_eq!(fast.is_repetition(), general.is_repetition());
                assert_eq!(fast.ended(), general.ended());
                compared += 1;
                if a.is_empty() {
                    let checked = fast.in_check();
                    assert_eq!(
                        fast.no_move_outcome(checked),
                        general.no_move_outcome(checked)
                    );
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = a[(seed % a.len() as u64) as usize];
                fast.make(m);
                general.make(m);
            }
        }
        assert!(compared > 1000);
    }

    #[test]
    fn zero_sum_values_mirror() {
        assert_eq!(zero_sum(0, 35), [35, -35, 0]);
        assert_eq!(zero_sum(1, 35), [-35, 35, 0]);
        assert_eq!(
            zero_sum_outcome(1, GameValue::Loss),
            [GameValue::Win, GameValue::Loss, GameValue::Draw]
        );
    }
}
