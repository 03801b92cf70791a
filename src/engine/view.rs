//! What a board needs to draw the current game, in plain data: the squares and their men,
//! the holdings, whose decision the next ply is, the legal moves in our notation, the FEN and
//! the result. It is the facade's answer for front ends that are not a protocol (the web
//! board of `chimera serve`), so they never reach the position's internals.

use super::{wrong_colour, Engine};
use crate::foreignpolicy::{self, Player};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::{legal_move_names, move_to_string, parse_move};
use crate::piece::PieceType;
use crate::position::Hooks;
use crate::rules::outcome::{verdict, Outcome};
use crate::variant::{data_is_orthodox, GameValue};

/// One man on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManView {
    /// Its square, as in move notation (`e4`).
    pub square: String,
    /// Its FEN letter, upper case.
    pub letter: char,
    /// Its type's key name in variants.ini (`knight`, `customPiece1`, ...).
    pub kind: String,
    /// Index of its owner in [`BoardView::players`].
    pub owner: usize,
}

/// Men held off the board (drops).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldView {
    /// Index of the holder in [`BoardView::players`].
    pub owner: usize,
    /// The FEN letter, upper case (a drop is spelled `N@d1` whatever the colour).
    pub letter: char,
    /// The type's key name.
    pub kind: String,
    /// How many.
    pub count: u8,
}

/// The current game as a board shows it.
#[derive(Clone, Debug)]
pub struct BoardView {
    /// The variant's name.
    pub variant: String,
    /// Files and ranks.
    pub files: u8,
    /// Ranks.
    pub ranks: u8,
    /// Squares of the frame that are not on this variant's board.
    pub holes: Vec<String>,
    /// The players in turn order (`White`, `Black`; or South, North, Peacekeeper).
    pub players: Vec<&'static str>,
    /// The men on the board.
    pub men: Vec<ManView>,
    /// The holdings.
    pub held: Vec<HeldView>,
    /// Index of the colour (player) whose man the next ply moves.
    pub to_move: usize,
    /// Index of the player who chooses the next ply (differs from `to_move` in the 007
    /// family, where one player chooses a ply of the opponent's men).
    pub chooser: usize,
    /// The mechanic's sentence about the turn (which ply of a 007 turn), if any.
    pub turn: Option<String>,
    /// The position in FEN (007-FEN, FP-FEN where those apply).
    pub fen: String,
    /// The legal moves, canonical spelling, in ASCII order.
    pub legal: Vec<String>,
    /// The result once the game is over: PGN result and the reason.
    pub result: Option<(String, String)>,
    /// Number of plies played since the position was set.
    pub plies: usize,
}

/// A game someone else is playing (a match game shown on the web board): its variant,
/// players, opening and moves in canonical spelling, and the result once over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveGame {
    /// The game's number in the match (from 1).
    pub number: usize,
    /// The variant.
    pub variant: String,
    /// The players' names by seat (White, Black; or South, North, Peacekeeper).
    pub players: Vec<String>,
    /// The opening position (`None`: the variant's start).
    pub start_fen: Option<String>,
    /// Moves played, canonical spelling (opening moves included).
    pub moves: Vec<String>,
    /// The PGN result and the reason, once the game is over.
    pub result: Option<String>,
}

impl Engine {
    /// The current game as a board shows it.
    pub fn board_view(&self) -> BoardView {
        match &self.three {
            Some(p) => three_view(p),
            None => self.two_view(),
        }
    }

    /// The result once the game is over by the rules (the PGN result and the reason), without
    /// building the whole view.
    pub fn result(&self) -> Option<(String, String)> {
        match &self.three {
            Some(p) => three_result(p),
            None => two_result(&self.position),
        }
    }

    /// The legal moves of the current position, canonical spelling, in ASCII order.
    pub fn legal_moves(&self) -> Vec<String> {
        if let Some(p) = &self.three {
            return p.legal_move_names();
        }
        legal_move_names(&mut self.position.clone())
    }

    /// Plays one move given in any valid spelling and returns its canonical spelling; a
    /// move that is not legal here is refused with the reason (the 007 family names the
    /// colour whose man the ply must move).
    pub fn play_move(&mut self, text: &str) -> Result<String, String> {
        if let Some(p) = self.three.as_mut() {
            let m = p.parse_move(text).map_err(|e| format!("'{text}': {e}"))?;
            let canonical = foreignpolicy::move_to_string(m);
            p.make(m);
            return Ok(canonical);
        }
        let pos = &mut self.position;
        let m = parse_move(pos, text).map_err(|e| match wrong_colour(pos, text) {
            Some(why) => format!("'{text}' rejected: {why}"),
            None => format!("'{text}': {e}"),
        })?;
        let canonical = move_to_string(pos, m).to_string();
        pos.make(m);
        Ok(canonical)
    }

    /// Whether a chess GUI can judge this game's results by its own rules: orthodox chess's
    /// data (board, men, pawns, castling, check), no mechanic, and its game values (mate
    /// loses, stalemate draws, 50 moves, three-fold repetition). Elsewhere (a spy, a 007
    /// turn, a compound move, a restriction, a mobility region, three players) XBoard would
    /// judge a claim by other rules, so the protocol does not claim a win (docs/protocols.md).
    pub fn gui_can_judge(&self) -> bool {
        if self.three.is_some() {
            return false;
        }
        let r = self.rules;
        data_is_orthodox(r)
            && r.mechanics.is_empty()
            && r.checkmate_value == GameValue::Loss
            && r.stalemate_value == GameValue::Draw
            && r.extinction_value.is_none()
            && r.n_move_rule == 50
            && r.n_fold_rule == 3
    }

    /// Why a chess GUI such as XBoard cannot referee this game between two engines, if it
    /// cannot. XBoard gives each move to the engine of the colour that moves, accepts only a
    /// move of that colour's men, and records a move as one man going from one square to
    /// another (castling, drops and captures on passed squares aside): three players, a ply
    /// chosen by the other colour (007) or a move of several men are beyond it
    /// (docs/protocols.md).
    pub fn gui_cannot_referee(&self) -> Option<&'static str> {
        if self.three.is_some() {
            return Some("three players");
        }
        let mechanics = &self.rules.mechanics;
        if mechanics.uses(Hooks::TURNS) {
            return Some("a player chooses some plies of the other colour");
        }
        if !mechanics.moves_fit_chess_guis() {
            return Some("moves of several men or legs");
        }
        None
    }

    /// Which of this game's legal moves XBoard refuses while it tests legality by its own
    /// rules (its default), if any. XBoard 4.9 (`moves.c`: `GenPseudoLegal` and
    /// `LegalityTest`) knows a man's moves from its Betza text alone (the `piece` lines of
    /// `setup`) and judges checks by them, so moves of a mechanic's own, an attack relation of
    /// its own, or powers a mechanic adds to the tables at load are refused or misjudged. It
    /// lets a pawn of a `fairy` variant promote only on reaching the last rank (a promotion
    /// letter on any other move is an illegal move, and the engine forfeits), and double-step
    /// only from its first two ranks, the lower half of the board's. A game it cannot referee
    /// at all ([`Engine::gui_cannot_referee`]) is not asked.
    pub fn gui_legality_refuses(&self) -> Option<&'static str> {
        if self.three.is_some() || self.gui_cannot_referee().is_some() {
            return None;
        }
        let r = self.rules;
        if let Some(why) = powers_beyond_betza(r) {
            return Some(why);
        }
        // only pawns are refused
        r.pieces[PieceType::PAWN.index()].as_ref()?;
        let shape = r.shape;
        let top = shape.ranks as i8 - 1;
        let last = [shape.rank_bb(top), shape.rank_bb(0)];
        if !r.promotion_types.is_empty()
            && (0..2).any(|c| (r.promotion_region[c] & r.board & !last[c]).any())
        {
            return Some("a pawn's promotion before the last rank");
        }
        // a pawn may stay one on the last rank; XBoard would make it a queen
        if !r.mandatory_promotion && (0..2).any(|c| (r.promotion_region[c] & last[c]).any()) {
            return Some("a pawn's move to the last rank without promotion");
        }
        // XBoard double-steps a White pawn from its ranks 1 to ranks/2 - 2, a Black one alike
        let mut allowed = [Bitboard::EMPTY; 2];
        for k in 0..=shape.ranks as i8 / 2 - 3 {
            allowed[0] |= shape.rank_bb(k);
            allowed[1] |= shape.rank_bb(top - k);
        }
        if r.double_step && (0..2).any(|c| (r.double_step_region[c] & r.board & !allowed[c]).any())
        {
            return Some("a pawn's double step from beyond its first two ranks");
        }
        None
    }

    /// The current position's FEN (007-FEN, FP-FEN where those apply).
    pub fn fen(&self) -> String {
        match &self.three {
            Some(p) => p.to_fen(),
            None => self.position.fen(),
        }
    }

    fn two_view(&self) -> BoardView {
        let pos = &self.position;
        let rules = pos.rules();
        let shape = rules.shape;
        let kind_name = |t| rules.piece(t).map_or(String::new(), |d| d.name.clone());
        let mut men = Vec::new();
        let mut holes = Vec::new();
        for sq in frame(shape.files, shape.ranks) {
            if !rules.board.has(sq) {
                holes.push(sq.to_string());
                continue;
            }
            let p = pos.piece_at(sq);
            if p.is_some() {
                men.push(ManView {
                    square: sq.to_string(),
                    letter: rules.letter(p.kind()).to_ascii_uppercase(),
                    kind: kind_name(p.kind()),
                    owner: p.color().index(),
                });
            }
        }
        let mut held = Vec::new();
        for holder in pos.mechanics().with_hook(Hooks::HOLDINGS) {
            for color in [Color::White, Color::Black] {
                for t in rules.piece_types() {
                    let count = holder.held(pos, color)[t.index()];
                    if count > 0 {
                        held.push(HeldView {
                            owner: color.index(),
                            letter: rules.letter(t).to_ascii_uppercase(),
                            kind: kind_name(t),
                            count,
                        });
                    }
                }
            }
        }
        let result = two_result(pos);
        BoardView {
            variant: rules.name.clone(),
            files: shape.files,
            ranks: shape.ranks,
            holes,
            players: vec![Color::White.name(), Color::Black.name()],
            men,
            held,
            to_move: pos.side_to_move().index(),
            chooser: pos.chooser().index(),
            turn: self.turn_description(),
            fen: pos.fen(),
            legal: if result.is_some() {
                Vec::new()
            } else {
                self.legal_moves()
            },
            result,
            plies: pos.moves_played(),
        }
    }
}

/// A two-player game's result: `("0-1", "Black wins by checkmate")`.
fn two_result(pos: &crate::position::Position) -> Option<(String, String)> {
    verdict(&mut pos.clone()).map(|v| {
        let who = match v.outcome {
            Outcome::Win(c) => format!("{} wins", c.name()),
            Outcome::Draw => "Draw".to_string(),
        };
        (
            v.outcome.pgn().to_string(),
            format!("{who} by {}", v.reason),
        )
    })
}

/// Foreign Policy's result: the three players' points (`1.00-0.00-0.00`) and the words.
fn three_result(p: &foreignpolicy::FpPosition) -> Option<(String, String)> {
    p.outcome().map(|r| {
        let points = foreignpolicy::outcome::points(&r);
        let pgn: Vec<String> = points.iter().map(|x| format!("{x:.2}")).collect();
        (pgn.join("-"), three_result_words(&r))
    })
}

/// The squares of a files x ranks frame, rank 1 first.
fn frame(files: u8, ranks: u8) -> impl Iterator<Item = Square> {
    (0..ranks as i8)
        .flat_map(move |r| (0..files as i8).filter_map(move |f| Square::from_coords(f, r)))
}

fn three_view(p: &foreignpolicy::FpPosition) -> BoardView {
    const KINDS: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    let men = frame(8, 8)
        .filter_map(|sq| {
            let (owner, t) = p.piece_at(sq)?;
            Some(ManView {
                square: sq.to_string(),
                letter: b"PNBRQK"[t.index()] as char,
                kind: KINDS[t.index()].to_string(),
                owner: owner.index(),
            })
        })
        .collect();
    let result = three_result(p);
    let mover = p.side_to_move();
    BoardView {
        variant: foreignpolicy::NAME.to_string(),
        files: 8,
        ranks: 8,
        holes: Vec::new(),
        players: Player::ALL.iter().map(|pl| pl.name()).collect(),
        men,
        held: Vec::new(),
        to_move: mover.index(),
        chooser: mover.index(),
        turn: Some(format!(
            "{} to move (players in the game: {})",
            mover.name(),
            p.alive().to_letters()
        )),
        fen: p.to_fen(),
        legal: if result.is_some() {
            Vec::new()
        } else {
            p.legal_move_names()
        },
        result,
        plies: p.plies(),
    }
}

/// Each player's result and points: `South Win 1.00, North Loss 0.00, ...`.
pub(super) fn three_result_words(r: &foreignpolicy::Results) -> String {
    let points = foreignpolicy::outcome::points(r);
    let words: Vec<String> = Player::ALL
        .iter()
        .map(|pl| {
            format!(
                "{} {:?} {:.2}",
                pl.name(),
                r[pl.index()],
                points[pl.index()]
            )
        })
        .collect();
    words.join(", ")
}

/// Powers of the men beyond their Betza text, or an attack relation of the rules' own, which a
/// GUI that tests moves by the Betza text refuses or misjudges.
fn powers_beyond_betza(r: &crate::position::Variant) -> Option<&'static str> {
    let mechanics = &r.mechanics;
    if mechanics.uses(Hooks::MOVES) {
        return Some("moves that depend on the position");
    }
    if mechanics.uses(Hooks::ATTACK) || mechanics.uses(Hooks::CHECK) {
        return Some("checks judged by rules of its own");
    }
    let defs = || r.pieces.iter().flatten();
    if defs().any(|d| d.moves.mirror_leap) {
        return Some("mirror leaps");
    }
    if defs().any(|d| d.moves.added_leaps) {
        return Some("powers that depend on the square");
    }
    if defs().any(|d| d.moves.no_adjacent_capture) {
        return Some("men that cannot capture next to them, and so do not check there");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_start_shows_32_men_and_20_moves_for_white() {
        let engine = Engine::new();
        let v = engine.board_view();
        assert_eq!((v.files, v.ranks), (8, 8));
        assert_eq!(v.men.len(), 32);
        assert_eq!(v.legal.len(), 20);
        assert!(v.legal.contains(&"g1f3".to_string()));
        let e1 = v
            .men
            .iter()
            .find(|m| m.square == "e1")
            .expect("a man on e1");
        assert_eq!((e1.letter, e1.kind.as_str(), e1.owner), ('K', "king", 0));
        assert_eq!((v.to_move, v.chooser), (0, 0));
        assert!(v.result.is_none() && v.holes.is_empty());
    }

    #[test]
    fn fools_mate_ends_the_game_with_no_legal_move() {
        let mut engine = Engine::new();
        engine
            .set_position(None, &["f2f3", "e7e5", "g2g4", "d8h4"])
            .expect("legal");
        let v = engine.board_view();
        assert_eq!(
            v.result,
            Some(("0-1".into(), "Black wins by checkmate".into()))
        );
        assert!(v.legal.is_empty());
        assert_eq!(v.plies, 4);
    }

    #[test]
    fn a_move_is_played_in_canonical_spelling_and_an_illegal_one_is_refused() {
        let mut engine = Engine::new();
        assert_eq!(engine.play_move("e2e4"), Ok("e2e4".to_string()));
        let refused = engine.play_move("e2e4").expect_err("no man on e2");
        assert!(refused.contains("e2e4"), "{refused}");
        assert!(engine.play_move("e7e5x").is_err());
        assert_eq!(engine.board_view().plies, 1);
    }

    #[test]
    fn only_orthodox_chess_is_left_to_a_guis_judgement() {
        let mut engine = Engine::new();
        assert!(engine.gui_can_judge());
        for other in [
            "espionage",
            "007detente",
            "eviction",
            "garrison",
            "missingfile",
        ] {
            engine.set_variant(other).expect("built in");
            assert!(!engine.gui_can_judge(), "{other}");
        }
        engine.set_variant(foreignpolicy::NAME).expect("built in");
        assert!(!engine.gui_can_judge());
    }

    #[test]
    fn gui_referee_limits_follow_the_rules() {
        let mut engine = Engine::new();
        for fits in [
            "chess",
            "espionage",
            "garrison",
            "countermove",
            "rolemodel",
            "cloverleaf",
        ] {
            engine.set_variant(fits).expect("built in");
            assert_eq!(engine.gui_cannot_referee(), None, "{fits}");
        }
        for (name, why) in [
            ("007detente", "chooses"),
            ("progressive007", "chooses"),
            ("bracket", "several men"),
            ("eviction", "several men"),
            ("emissary", "several men"),
            ("coercion", "several men"),
        ] {
            engine.set_variant(name).expect("built in");
            let reason = engine.gui_cannot_referee().expect(name);
            assert!(reason.contains(why), "{name}: {reason}");
        }
        engine.set_variant(foreignpolicy::NAME).expect("built in");
        assert!(engine
            .gui_cannot_referee()
            .expect("three")
            .contains("three"));
    }

    #[test]
    fn gui_legality_limits_follow_the_pawns() {
        let mut engine = Engine::new();
        for (name, why) in [
            ("espionage", Some("promotion before the last rank")),
            ("haven", Some("promotion before the last rank")),
            ("chess", None),
            ("interior", None),
            ("garrison", None),
            ("periphery", None),
            // beyond XBoard whatever it tests
            ("007detente", None),
        ] {
            engine.set_variant(name).expect("built in");
            let said = engine.gui_legality_refuses();
            assert_eq!(said.is_some(), why.is_some(), "{name}: {said:?}");
            if let (Some(said), Some(why)) = (said, why) {
                assert!(said.contains(why), "{name}: {said}");
            }
        }
        let user = "[deep:chess]\ndoubleStepRegionWhite = *2 *3\ndoubleStepRegionBlack = *7 *6\n\
                    [stay:chess]\nmandatoryPawnPromotion = false\n";
        let path = std::env::temp_dir().join(format!("gui-limits-{}.ini", std::process::id()));
        std::fs::write(&path, user).expect("temp file");
        engine
            .load_variants(path.to_str().expect("utf-8"))
            .expect("valid");
        let _ = std::fs::remove_file(&path);
        engine.set_variant("deep").expect("loaded");
        let said = engine.gui_legality_refuses().expect("deep");
        assert!(said.contains("double step"), "{said}");
        engine.set_variant("stay").expect("loaded");
        let said = engine.gui_legality_refuses().expect("stay");
        assert!(said.contains("without promotion"), "{said}");
    }

    #[test]
    fn espionage_is_seven_by_seven() {
        let mut engine = Engine::new();
        engine.set_variant("espionage").expect("built in");
        let v = engine.board_view();
        assert_eq!((v.files, v.ranks), (7, 7));
        assert!(v.men.iter().all(|m| m.square.as_bytes()[0] <= b'g'));
    }

    #[test]
    fn in_007detente_the_second_ply_is_whites_choice_of_a_black_move() {
        let mut engine = Engine::new();
        engine.set_variant("007detente").expect("built in");
        let first = engine.board_view().legal[0].clone();
        engine.set_position(None, &[&first]).expect("legal");
        let v = engine.board_view();
        assert_eq!((v.to_move, v.chooser), (1, 0));
        assert!(v.turn.is_some());
    }

    #[test]
    fn foreign_policy_has_three_players() {
        let mut engine = Engine::new();
        engine.set_variant(foreignpolicy::NAME).expect("built in");
        let v = engine.board_view();
        assert_eq!(v.players, vec!["South", "North", "Peacekeeper"]);
        assert!(v.men.iter().any(|m| m.owner == 2 && m.letter == 'Q'));
        assert_eq!(v.fen, foreignpolicy::START_FEN);
        assert!(!v.legal.is_empty());
    }
}
