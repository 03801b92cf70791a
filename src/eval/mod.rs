//! Evaluation: tapered material and piece-square tables, derived from the variant's rules.
//!
//! Orthodox pieces have fixed values. A fairy piece is valued from its average mobility on the
//! empty board, interpolated on the curve the orthodox pieces draw (knight, bishop, rook,
//! queen); its square table rewards squares where it has more moves (with every power the
//! compiled tables hold, such as Camouflage's shade leaps). Powers that depend on the position
//! come from the mechanics that give them (`Hooks::MOBILITY`): each target square gained or
//! lost is worth [`MOBILITY_CP`]. The positional terms (`terms.rs`: mobility, king safety,
//! pawn structure, open files, threats) read what a man is from its move tables; their weights
//! live in `weights.rs`, fitted by `chimera tune`. Nothing here knows a variant by name:
//! everything comes from `Rules`.
//!
//! Where the variant has a net (`nnueFile`, or one loaded with `EvalFile`), the search
//! evaluates with it instead ([`nnue`]); the tables here still value men for move ordering,
//! pruning and the exchange evaluation.

pub mod cache;
pub mod nnue;
pub mod terms;
pub mod weights;

use terms::{Sink, Terms};

/// `EvalFile`'s value for the variant's own net (`nnueFile`), where it has one.
pub const EVAL_FILE_DEFAULT: &str = "<default>";
/// `EvalFile`'s value for the rules-derived evaluation without a net.
pub const EVAL_FILE_NONE: &str = "<none>";
use weights::{FEATURES, WEIGHTS};

use crate::geometry::{Bitboard, Color, Square};
use crate::piece::{PieceType, MAX_PIECE_TYPES};
use crate::position::Variant;
use crate::position::{Hooks, Position};
use crate::variant::Rules;

/// Value of one target square that a mechanic gives a man beyond its own definition: about
/// what the square tables give a knight or bishop for one more move on the empty board (3 per
/// move above the average) plus the centralisation that comes with it.
pub const MOBILITY_CP: i32 = 4;

/// Middle-game / end-game pair of values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score2 {
    /// Middle game.
    pub mg: i32,
    /// End game.
    pub eg: i32,
}

/// Orthodox piece values (centipawns), indexed by type P N B R Q K.
const ORTHODOX_VALUES: [(i32, i32); 6] = [
    (85, 105),
    (320, 300),
    (335, 315),
    (480, 530),
    (960, 950),
    (0, 0),
];
/// The Betza definitions of the orthodox types P N B R Q K: a type so defined gets the
/// orthodox values (and a pawn so defined its attacks by shifts).
pub(crate) const ORTHODOX_BETZA: [&str; 6] = ["fmWfcF", "N", "B", "R", "Q", "K"];
/// Game-phase weight of each orthodox type.
const ORTHODOX_PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Evaluation tables for one variant.
#[derive(Clone)]
pub struct EvalParams {
    /// `psqt[piece.index()][square]`: value plus square bonus, from White's point of view
    /// (positive for White pieces, negative for Black ones).
    psqt: Vec<[Score2; 64]>,
    /// Phase weight per type.
    phase: [i32; MAX_PIECE_TYPES],
    /// Phase of the start position (full middle game).
    max_phase: i32,
    /// Material value (middle game) per type, for move ordering and pruning.
    pub value: [i32; MAX_PIECE_TYPES],
    terms: Terms,
    /// The net the search evaluates with, if any.
    net: Option<nnue::LoadedNet>,
    /// Foreign Policy's three-player net, where that game is played with one.
    three: Option<std::sync::Arc<nnue::three::ThreeNet>>,
}

/// Adds each feature's weighted count to a tapered score.
struct Scorer(Score2);

impl Sink for Scorer {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        self.0.mg += WEIGHTS[feature].mg * count;
        self.0.eg += WEIGHTS[feature].eg * count;
    }
}

/// One position's evaluation taken apart for the tuner: everything the weights do not touch
/// (material, square tables, held men, the mechanics' mobility), the phase, and the count of
/// every feature (all from White's point of view).
#[derive(Clone, Debug)]
pub struct EvalTrace {
    /// The part outside the tuned weights.
    pub base: Score2,
    /// Game phase, 0 (end game) ..= `max_phase` (middle game).
    pub phase: i32,
    /// The phase of the start position.
    pub max_phase: i32,
    /// Count of each feature.
    pub counts: [i32; FEATURES],
}

impl Sink for EvalTrace {
    fn add(&mut self, feature: usize, count: i32) {
        self.counts[feature] += count;
    }
}

impl EvalTrace {
    /// The evaluation (White's point of view) with `weights` in place of the built-in ones.
    pub fn score(&self, weights: &[Score2; FEATURES]) -> i32 {
        let mut s = self.base;
        for (c, w) in self.counts.iter().zip(weights) {
            s.mg += c * w.mg;
            s.eg += c * w.eg;
        }
        (s.mg * self.phase + s.eg * (self.max_phase - self.phase)) / self.max_phase
    }
}

fn empty_board_mobility(rules: &Rules, t: PieceType, sq: Square) -> f64 {
    let Some(def) = rules.piece(t) else {
        return 0.0;
    };
    let quiet = def
        .moves
        .quiet_targets(Color::White, sq, Bitboard::EMPTY, rules.board);
    let caps = def
        .moves
        .capture_targets(Color::White, sq, Bitboard::EMPTY, rules.board);
    (quiet.count() + caps.count()) as f64 / 2.0
}

/// Value of a piece with the given average mobility, on the orthodox curve.
fn value_from_mobility(m: f64) -> f64 {
    const CURVE: [(f64, f64); 5] = [
        (0.0, 0.0),
        (5.25, 320.0),
        (8.75, 330.0),
        (14.0, 490.0),
        (22.75, 950.0),
    ];
    for w in CURVE.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if m <= x1 {
            return y0 + (y1 - y0) * (m - x0) / (x1 - x0);
        }
    }
    let (x0, y0) = CURVE[3];
    let (x1, y1) = CURVE[4];
    y1 + (y1 - y0) * (m - x1) / (x1 - x0)
}

impl EvalParams {
    /// The evaluation of a variant: the tables, and the variant's own net (`nnueFile`) where
    /// it has one that loads (one that does not is logged and left out: see
    /// [`EvalParams::variant_net`]).
    pub fn new(rules: &'static Variant) -> EvalParams {
        let mut params = EvalParams::classical(rules);
        match EvalParams::variant_net(rules) {
            Some(Ok(net)) => params.net = Some(net),
            Some(Err(e)) => log::warn!("{}: {e}; evaluating without a net", rules.name),
            None => {}
        }
        params
    }

    /// The evaluation `EvalFile = value` gives `rules` ([`EVAL_FILE_DEFAULT`],
    /// [`EVAL_FILE_NONE`], or a net: a built-in name or a file), or why the net it names cannot
    /// be used there.
    pub fn from_eval_file(rules: &'static Variant, value: &str) -> Result<EvalParams, String> {
        let net = match value {
            EVAL_FILE_DEFAULT => EvalParams::variant_net(rules).transpose()?,
            EVAL_FILE_NONE => None,
            path => Some(nnue::embedded::load_for(rules, path, path.as_ref())?),
        };
        let mut eval = EvalParams::classical(rules);
        eval.set_net(net);
        Ok(eval)
    }

    /// The net `nnueFile` names for `rules`, loaded, if the variant names one.
    pub fn variant_net(rules: &Variant) -> Option<Result<nnue::LoadedNet, String>> {
        let f = rules.nnue_file.as_ref()?;
        Some(nnue::embedded::load_for(rules, &f.name, &f.path))
    }

    /// Foreign Policy's evaluation: the three-player net where one is set, else the
    /// rules-derived utilities; each player's utility in centipawns.
    #[inline]
    pub fn three_utilities(&self, pos: &crate::foreignpolicy::FpPosition) -> [i32; 3] {
        match &self.three {
            Some(net) => net.utilities(pos),
            None => crate::foreignpolicy::eval::utilities(pos),
        }
    }

    /// The three-player net in use, if any.
    pub fn three_net(&self) -> Option<&std::sync::Arc<nnue::three::ThreeNet>> {
        self.three.as_ref()
    }

    /// Evaluates Foreign Policy with `net` from now on (`None`: the rules-derived utilities).
    pub fn set_three_net(&mut self, net: Option<std::sync::Arc<nnue::three::ThreeNet>>) {
        self.three = net;
    }

    /// The net in use, if any.
    pub fn net(&self) -> Option<&nnue::LoadedNet> {
        self.net.as_ref()
    }

    /// Evaluates with `net` from now on (`None`: with the tables alone).
    pub fn set_net(&mut self, net: Option<nnue::LoadedNet>) {
        self.net = net;
    }

    /// The evaluation the search uses, computed from scratch (the net's where there is one),
    /// from the side to move's point of view.
    pub fn evaluate_static(&self, pos: &Position) -> i32 {
        match &self.net {
            Some(net) => net.evaluate_fresh(pos),
            None => self.evaluate(pos),
        }
    }

    /// The tables alone, without a net.
    pub fn classical(rules: &'static Variant) -> EvalParams {
        let mut psqt = vec![[Score2::default(); 64]; 2 * MAX_PIECE_TYPES];
        let mut phase = [0; MAX_PIECE_TYPES];
        let mut value = [0; MAX_PIECE_TYPES];
        let mut avg_mobility = [0.0; MAX_PIECE_TYPES];
        let board = rules.board;
        let squares: Vec<Square> = board.iter().collect();
        let files = rules.shape.files as f64;
        let ranks = rules.shape.ranks as f64;
        let center_dist = |sq: Square| -> f64 {
            let df = (sq.file() as f64 - (files - 1.0) / 2.0).abs();
            let dr = (sq.rank() as f64 - (ranks - 1.0) / 2.0).abs();
            df.max(dr)
        };
        for t in rules.piece_types() {
            let def = rules.piece(t).expect("type in use");
            let is_orthodox = t.index() < 6 && def.betza == ORTHODOX_BETZA[t.index()];
            let mobility: Vec<f64> = squares
                .iter()
                .map(|&s| empty_board_mobility(rules, t, s))
                .collect();
            let avg = mobility.iter().sum::<f64>() / mobility.len().max(1) as f64;
            avg_mobility[t.index()] = avg;
            let (mg, eg) = if let (Some(mg), Some(eg)) = (
                rules.piece_value[0][t.index()],
                rules.piece_value[1][t.index()],
            ) {
                (mg, eg)
            } else if let Some(v) =
                rules.piece_value[0][t.index()].or(rules.piece_value[1][t.index()])
            {
                (v, v)
            } else if is_orthodox {
                ORTHODOX_VALUES[t.index()]
            } else if Some(t) == rules.royal {
                (0, 0)
            } else {
                let v = value_from_mobility(avg);
                (v as i32, v as i32)
            };
            value[t.index()] = mg.max(if Some(t) == rules.royal { 0 } else { 50 });
            phase[t.index()] = if is_orthodox {
                ORTHODOX_PHASE[t.index()]
            } else if t == PieceType::PAWN || Some(t) == rules.royal {
                0
            } else {
                ((mg + 160) / 320).clamp(1, 6)
            };
            for (i, &sq) in squares.iter().enumerate() {
                let bonus = if t == PieceType::PAWN {
                    let adv = sq.rank() as f64 - 1.0;
                    let file_center = 1.5 - (sq.file() as f64 - (files - 1.0) / 2.0).abs().min(1.5);
                    Score2 {
                        mg: (adv * 4.0 + file_center * adv.min(3.0) * 4.0) as i32,
                        eg: (adv * adv * 3.0) as i32,
                    }
                } else if Some(t) == rules.royal {
                    let back = if sq.rank() == 0 {
                        15.0
                    } else {
                        -12.0 * sq.rank() as f64
                    };
                    let side = (sq.file() as f64 - (files - 1.0) / 2.0).abs() * 4.0;
                    Score2 {
                        mg: (back + side) as i32,
                        eg: (-(center_dist(sq)) * 12.0) as i32,
                    }
                } else {
                    let m = (mobility[i] - avg) * 3.0;
                    let c = -center_dist(sq) * 3.0;
                    Score2 {
                        mg: (m + c) as i32,
                        eg: (m + c) as i32,
                    }
                };
                for color in Color::ALL {
                    let piece = crate::piece::Piece::new(color, t);
                    // mirror the square for Black
                    let rel = match color {
                        Color::White => sq,
                        Color::Black => {
                            Square::from_coords(sq.file(), rules.shape.ranks as i8 - 1 - sq.rank())
                                .expect("on board")
                        }
                    };
                    let sign = if color == Color::White { 1 } else { -1 };
                    psqt[piece.index()][rel.index()] = Score2 {
                        mg: sign * (mg + bonus.mg),
                        eg: sign * (eg + bonus.eg),
                    };
                }
            }
        }
        // full phase = the start position's
        let mut max_phase = 0;
        if let Ok(p) = Position::from_fen(rules, &rules.start_fen) {
            for t in rules.piece_types() {
                max_phase += phase[t.index()] * p.kind(t).count() as i32;
            }
        }
        EvalParams {
            psqt,
            phase,
            max_phase: max_phase.max(1),
            value,
            terms: Terms::new(rules, &value, &avg_mobility),
            net: None,
            three: None,
        }
    }

    /// The value of the men held off the board (White's minus Black's): a held man can come
    /// back, so it counts at its full value.
    #[cold]
    fn held_value(&self, pos: &Position) -> i32 {
        let mut total = 0;
        for holder in pos.rules().mechanics.with_hook(Hooks::HOLDINGS) {
            for (color, sign) in [(Color::White, 1), (Color::Black, -1)] {
                let held = holder.held(pos, color);
                for (t, &n) in held.iter().enumerate() {
                    total += sign * n as i32 * self.value[t];
                }
            }
        }
        total
    }

    /// The mechanics' position-dependent mobility (Hooks::MOBILITY), White's minus Black's, in
    /// centipawns.
    #[cold]
    fn mechanic_mobility(&self, pos: &Position) -> i32 {
        let mut squares = 0;
        for m in pos.rules().mechanics.with_hook(Hooks::MOBILITY) {
            squares += m.mobility(pos, Color::White) - m.mobility(pos, Color::Black);
        }
        MOBILITY_CP * squares
    }

    /// Material and square tables (White's point of view) and the game phase.
    #[inline(always)]
    fn material(&self, pos: &Position) -> (Score2, i32) {
        let mut s = Score2::default();
        let mut phase = 0;
        for t in pos.rules().piece_types() {
            let men = pos.kind(t);
            if men.is_empty() {
                continue;
            }
            phase += self.phase[t.index()] * men.count() as i32;
            for sq in men {
                let v = self.psqt[pos.piece_at(sq).index()][sq.index()];
                s.mg += v.mg;
                s.eg += v.eg;
            }
        }
        if pos.rules().mechanics.uses(Hooks::HOLDINGS) {
            let held = self.held_value(pos);
            s.mg += held;
            s.eg += held;
        }
        if pos.rules().mechanics.uses(Hooks::MOBILITY) {
            let mobility = self.mechanic_mobility(pos);
            s.mg += mobility;
            s.eg += mobility;
        }
        (s, phase.min(self.max_phase))
    }

    /// Static evaluation by the tables (never the net) from the side to move's point of view,
    /// in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let (base, phase) = self.material(pos);
        let mut scorer = Scorer(base);
        terms::features(&self.terms, pos, &mut scorer);
        let s = scorer.0;
        let score = (s.mg * phase + s.eg * (self.max_phase - phase)) / self.max_phase;
        match pos.side_to_move() {
            Color::White => score,
            Color::Black => -score,
        }
    }

    /// The evaluation of `pos` taken apart (see [`EvalTrace`]).
    pub fn trace(&self, pos: &Position) -> EvalTrace {
        let (base, phase) = self.material(pos);
        let mut trace = EvalTrace {
            base,
            phase,
            max_phase: self.max_phase,
            counts: [0; FEATURES],
        };
        terms::features(&self.terms, pos, &mut trace);
        trace
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    #[test]
    fn start_position_is_balanced_and_material_counts() {
        let set = builtin_variants();
        for name in set.names() {
            let rules = set.get(name).expect("listed");
            let params = EvalParams::new(rules);
            let pos = Position::startpos(rules);
            let e = params.evaluate(&pos);
            assert!(e.abs() <= 40, "{name}: start eval {e}");
        }
        let chess = set.get("chess").expect("chess");
        let params = EvalParams::new(chess);
        let up_a_queen = Position::from_fen(
            chess,
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .expect("fen");
        assert!(params.evaluate(&up_a_queen) > 800);
    }

    #[test]
    fn variants_ini_values_override_derived_ones() {
        let mut set = builtin_variants();
        let ini = "[valued:chess]\ncustomPiece1 = a:BN\npieceValueMg = a:700 n:100\npieceValueEg = a:800\n\
                   startFen = 4k3/8/8/8/8/8/8/A3K3 w - - 0 1\n[derived:valued]\npieceValueMg = -\n";
        assert!(
            set.load_str("t.ini", ini).is_err(),
            "'-' is not a letter:value pair"
        );
        set.load_str("t.ini", "[valued:chess]\ncustomPiece1 = a:BN\npieceValueMg = a:700 n:100\npieceValueEg = a:800\n")
            .expect("loads");
        let rules = set.get("valued").expect("loaded");
        let a = rules.type_of_letter('a').expect("a");
        let params = EvalParams::new(rules);
        assert_eq!(params.value[a.index()], 700);
        assert_eq!(params.value[PieceType::KNIGHT.index()], 100);
        let err = set
            .load_str("u.ini", "[bad:chess]\npieceValueMg = z:5\n")
            .expect_err("no z");
        assert_eq!(err.key.as_deref(), Some("pieceValueMg"));
    }

    #[test]
    fn trace_with_the_built_in_weights_is_the_evaluation() {
        let set = builtin_variants();
        for name in set.names() {
            let rules = set.get(name).expect("listed");
            let params = EvalParams::new(rules);
            // a few plies of a fixed walk, so pieces stand off their home squares
            crate::movegen::walk(rules, 12, |ply, pos| {
                let trace = params.trace(pos);
                let white = match pos.side_to_move() {
                    Color::White => params.evaluate(pos),
                    Color::Black => -params.evaluate(pos),
                };
                assert_eq!(trace.score(&WEIGHTS), white, "{name} ply {ply}");
            });
        }
    }

    #[test]
    fn terms_see_structure() {
        let chess = builtin_variants().get("chess").expect("chess");
        let params = EvalParams::new(chess);
        let counts = |fen: &str| {
            params
                .trace(&Position::from_fen(chess, fen).expect("fen"))
                .counts
        };
        // White's e-pawn is passed three ranks from promotion; Black's a- and b-pawns are
        // doubled and isolated on the a-file
        let c = counts("4k3/p7/p7/4P3/8/8/8/4K3 w - - 0 1");
        assert_eq!(c[weights::PASSED + 2], 1);
        assert_eq!(c[weights::DOUBLED], -1);
        assert_eq!(c[weights::ISOLATED], 1 - 2);
        // a rook on an open file, a bishop pair for Black, a knight attacked by a pawn
        let c = counts("2b1kb2/8/8/3n4/4P3/8/8/R3K3 w - - 0 1");
        assert_eq!(c[weights::ROOK_OPEN], 1);
        assert_eq!(c[weights::BISHOP_PAIR], -1);
        assert_eq!(c[weights::THREAT_BY_PAWN], 1);
        assert_eq!(c[weights::TEMPO], 1);
    }

    #[test]
    fn a_cannon_is_classed_by_its_hopping_captures() {
        let espionage = builtin_variants().get("espionage").expect("espionage");
        let params = EvalParams::new(espionage);
        // White's cannon on the open c-file, no rooks: not a rook on an open file
        let pos = Position::from_fen(espionage, "1k5/7/7/7/7/7/2C2K1 w - - 0 1 -").expect("fen");
        let c = params.trace(&pos).counts;
        assert_eq!(c[weights::ROOK_OPEN], 0);
        assert_eq!(c[weights::ROOK_SEMI_OPEN], 0);
        // its moves count as a rider's, not an orthogonal slider's
        assert_ne!(c[weights::MOBILITY + weights::CLASS_RIDER], 0);
        assert_eq!(c[weights::MOBILITY + weights::CLASS_ORTHOGONAL], 0);
    }

    #[test]
    fn an_immune_man_is_no_target_of_threats() {
        let espionage = builtin_variants().get("espionage").expect("espionage");
        let params = EvalParams::new(espionage);
        let threat = |fen: &str| {
            let pos = Position::from_fen(espionage, fen).expect("fen");
            params.trace(&pos).counts[weights::THREAT_BY_PAWN]
        };
        // the pawn on c3 attacks the spy on d4: no threat while the spy is immune, one when
        // it has just captured and may be taken
        assert_eq!(threat("1k5/7/7/3s3/2P4/7/5K1 w - - 0 1 -"), 0);
        assert_eq!(threat("1k5/7/7/3s3/2P4/7/5K1 w - - 0 1 d4"), 1);
    }

    #[test]
    fn fairy_values_follow_mobility() {
        assert!((value_from_mobility(5.25) - 320.0).abs() < 1e-9);
        assert!(value_from_mobility(12.0) > value_from_mobility(8.75));
        assert!(value_from_mobility(30.0) > 950.0);
    }
}
