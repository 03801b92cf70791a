//! The evaluation's weights, all in one place: one middle-game / end-game pair per feature of
//! [`super::terms`]. Each weight multiplies a count (White's minus Black's), so the evaluation
//! is linear in them and `chimera tune` fits them by least squares on game results
//! (docs/strength.md gives the method, the data and its size).

use super::Score2;

const fn s(mg: i32, eg: i32) -> Score2 {
    Score2 { mg, eg }
}

/// Mobility classes: how a man moves, read from its compiled move tables.
pub const CLASSES: usize = 5;
/// Leaps only (knight, and fairy leapers).
pub const CLASS_LEAPER: usize = 0;
/// Slides diagonally only (bishop).
pub const CLASS_DIAGONAL: usize = 1;
/// Slides orthogonally only (rook).
pub const CLASS_ORTHOGONAL: usize = 2;
/// Slides both ways (queen).
pub const CLASS_BOTH: usize = 3;
/// Rides or hops along other lines (nightrider, cannon).
pub const CLASS_RIDER: usize = 4;

/// Passed pawns are told apart by their distance to the promotion region, up to this many ranks.
pub const PASSED_RANGE: usize = 6;

// Feature indices: each names the count its weight multiplies.

/// Safe squares a man reaches, above its type's baseline, per class.
pub const MOBILITY: usize = 0;
/// King-zone squares the enemy attacks, per attacker class (weighs against the king's owner).
pub const KING_ZONE_ATTACKS: usize = MOBILITY + CLASSES;
/// Pairs among the enemy men attacking the king zone (attacks add up).
pub const KING_ATTACKER_PAIRS: usize = KING_ZONE_ATTACKS + CLASSES;
/// Own pawns on the three files around the king, one rank ahead of it.
pub const SHIELD_NEAR: usize = KING_ATTACKER_PAIRS + 1;
/// The same, two ranks ahead.
pub const SHIELD_FAR: usize = SHIELD_NEAR + 1;
/// Files next to and under the king without own pawns (but with enemy ones).
pub const KING_SEMI_OPEN: usize = SHIELD_FAR + 1;
/// Files next to and under the king without any pawn.
pub const KING_OPEN: usize = KING_SEMI_OPEN + 1;
/// Passed pawns, by ranks left to the promotion region (1..=PASSED_RANGE).
pub const PASSED: usize = KING_OPEN + 1;
/// A passed pawn's stop square: the enemy king's distance minus the own king's (end game).
pub const PASSED_KING_RACE: usize = PASSED + PASSED_RANGE;
/// A passed pawn whose stop square is empty.
pub const PASSED_FREE: usize = PASSED_KING_RACE + 1;
/// Pawns with an own pawn ahead on the same file.
pub const DOUBLED: usize = PASSED_FREE + 1;
/// Pawns without own pawns on the adjacent files.
pub const ISOLATED: usize = DOUBLED + 1;
/// Pawns that no own pawn can support and whose stop square an enemy pawn attacks.
pub const BACKWARD: usize = ISOLATED + 1;
/// Pawns defended by an own pawn.
pub const SUPPORTED: usize = BACKWARD + 1;
/// Pawns with an own pawn beside them.
pub const PHALANX: usize = SUPPORTED + 1;
/// Orthogonal sliders on a file without pawns.
pub const ROOK_OPEN: usize = PHALANX + 1;
/// Orthogonal sliders on a file without own pawns.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// Queens (both-way sliders) on a file without pawns.
pub const QUEEN_OPEN: usize = ROOK_SEMI_OPEN + 1;
/// Two or more diagonal sliders.
pub const BISHOP_PAIR: usize = QUEEN_OPEN + 1;
/// Enemy men (not pawns) attacked by an own pawn.
pub const THREAT_BY_PAWN: usize = BISHOP_PAIR + 1;
/// Enemy men worth more than a minor attacked by an own minor.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// Enemy men worth more than a rook attacked by an own rook-valued man.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 1;
/// Enemy men (not pawns) attacked and not defended.
pub const HANGING: usize = THREAT_BY_ROOK + 1;
/// The side to move's bonus.
pub const TEMPO: usize = HANGING + 1;
/// Number of features.
pub const FEATURES: usize = TEMPO + 1;

/// Names of the features, for the tuner's output.
pub fn feature_name(f: usize) -> String {
    const CLASS: [&str; CLASSES] = ["leaper", "diagonal", "orthogonal", "both", "rider"];
    match f {
        _ if f < KING_ZONE_ATTACKS => format!("mobility {}", CLASS[f - MOBILITY]),
        _ if f < KING_ATTACKER_PAIRS => {
            format!("king zone attacks {}", CLASS[f - KING_ZONE_ATTACKS])
        }
        _ if (PASSED..PASSED + PASSED_RANGE).contains(&f) => format!("passed {}", f - PASSED + 1),
        KING_ATTACKER_PAIRS => "king attacker pairs".into(),
        SHIELD_NEAR => "shield near".into(),
        SHIELD_FAR => "shield far".into(),
        KING_SEMI_OPEN => "king semi-open file".into(),
        KING_OPEN => "king open file".into(),
        PASSED_KING_RACE => "passed king race".into(),
        PASSED_FREE => "passed free".into(),
        DOUBLED => "doubled".into(),
        ISOLATED => "isolated".into(),
        BACKWARD => "backward".into(),
        SUPPORTED => "supported".into(),
        PHALANX => "phalanx".into(),
        ROOK_OPEN => "rook open file".into(),
        ROOK_SEMI_OPEN => "rook semi-open file".into(),
        QUEEN_OPEN => "queen open file".into(),
        BISHOP_PAIR => "bishop pair".into(),
        THREAT_BY_PAWN => "threat by pawn".into(),
        THREAT_BY_MINOR => "threat by minor".into(),
        THREAT_BY_ROOK => "threat by rook".into(),
        HANGING => "hanging".into(),
        TEMPO => "tempo".into(),
        _ => format!("feature {f}"),
    }
}

/// The weights, indexed by feature: one line per feature with its name, as `chimera tune
/// --write` writes them.
pub const WEIGHTS: [Score2; FEATURES] = [
    // tuned: 1155237 positions of chess-9c.txt, lambda 0.5, l2 2.5e-8, best validation error 0.026985 at epoch 21 (train 0.027688)
    s(8, -2),    // mobility leaper
    s(6, 0),     // mobility diagonal
    s(4, 4),     // mobility orthogonal
    s(1, 1),     // mobility both
    s(3, 3),     // mobility rider
    s(-17, 4),   // king zone attacks leaper
    s(-3, -1),   // king zone attacks diagonal
    s(-5, 1),    // king zone attacks orthogonal
    s(-7, -15),  // king zone attacks both
    s(-6, -2),   // king zone attacks rider
    s(-20, -18), // king attacker pairs
    s(11, -3),   // shield near
    s(3, -11),   // shield far
    s(-13, 13),  // king semi-open file
    s(-15, -10), // king open file
    s(64, 126),  // passed 1
    s(41, 77),   // passed 2
    s(17, 50),   // passed 3
    s(6, 23),    // passed 4
    s(-5, 4),    // passed 5
    s(-4, -4),   // passed 6
    s(-9, 18),   // passed king race
    s(3, 20),    // passed free
    s(-13, -22), // doubled
    s(-10, -12), // isolated
    s(-6, -9),   // backward
    s(10, 2),    // supported
    s(7, 3),     // phalanx
    s(38, 3),    // rook open file
    s(14, 17),   // rook semi-open file
    s(1, 7),     // queen open file
    s(35, 50),   // bishop pair
    s(47, 32),   // threat by pawn
    s(35, 30),   // threat by minor
    s(35, 20),   // threat by rook
    s(20, 14),   // hanging
    s(16, 4),    // tempo
];
