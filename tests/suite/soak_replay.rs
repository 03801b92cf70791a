//! Soak games replayed through the independent models (issue 46, point 3): every position of
//! every game whose variant has a model of its own in tests/suite/common is cross-checked
//! (the engine's moves and the model's, two plies deep) and every played move must be legal.
//! `CHIMERA_SOAK_DIR` names a folder of PGN files written by `chimera match`
//! (tools/soak.sh); the test of the replayer itself runs on games played here.

use crate::common::borrow::{COUNTERMOVE, REFLECTIVE};
use crate::common::slide::Geo;
use crate::common::wonderland::RULINGS;
use crate::common::{cross_check, random_index, Rule};
use chimera::engine::pgn::{parse_pgn_move, pgn_move, read_games};
use chimera::movegen::legal_moves;
use chimera::moves::{MoveKind, MoveList};
use chimera::position::Position;
use chimera::rules::builtin_variants;

/// The model's reading of each built-in variant's default rules (variants.ini), for the
/// variants that have one. Each pair is one an existing test already cross-checks from the
/// variant's start position and along random games with the built-in rules (restriction_model,
/// bracket, eviction, bump, carom, cascade, castlemania, catalyst, displacement, launch,
/// redeployment, trailer, triangulation, emissary, wonderland, explorer, slide, camouflage,
/// rolemodel, countermove, reflective, coercion, cloverleaf), so the reading is known to match.
const MAPPED: &[(&str, Rule)] = &[
    ("chess", Rule::Plain),
    ("bracket", Rule::Bracket),
    ("eviction", Rule::Eviction),
    ("torpedo-paletta", Rule::Torpedo),
    ("hippophobic", Rule::Hippophobic),
    ("garrison", Rule::Garrison),
    ("kaleidoscope", Rule::Kaleidoscope),
    ("nonlinear", Rule::Nonlinear),
    ("bump", Rule::Bump),
    ("carom", Rule::Carom),
    // cascadeInitiator's default, ruling H2 (the push train)
    ("cascade", Rule::Cascade),
    ("castlemania", Rule::Castlemania),
    ("catalyst", Rule::Catalyst),
    ("displacement", Rule::Displacement),
    ("launch", Rule::Launch),
    ("redeployment", Rule::Redeployment),
    // trailerPull's default, TR-R1 (any man behind with a clear path)
    ("trailer", Rule::Trailer),
    // triangulationReversal's default, TG-R4 (reversals allowed)
    ("triangulation", Rule::Triangulation),
    ("emissary", Rule::Emissary),
    // wonderlandDisplaced = destination, wonderlandPass = illegal
    ("wonderland", Rule::Wonderland(RULINGS)),
    // explorerCaptureContinues = false
    ("explorer", Rule::Explorer),
    ("dominion", Rule::Slide(Geo::Domino)),
    ("summit", Rule::Slide(Geo::Summit)),
    ("crater", Rule::Slide(Geo::Crater)),
    // Ridge and Valley: no slide after moves to ranks 1 and 8 (SU-R3's default)
    ("ridge", Rule::Slide(Geo::Ridge(false))),
    ("valley", Rule::Slide(Geo::Valley(false))),
    ("camouflage", Rule::Camouflage),
    ("rolemodel", Rule::RoleModel),
    ("countermove", Rule::Borrow(COUNTERMOVE)),
    ("reflective", Rule::Borrow(REFLECTIVE)),
    ("coercion", Rule::Coercion),
    // cloverleafRotation = ccw
    ("cloverleaf", Rule::Cloverleaf(false)),
    // cloverleafRotation = cw
    ("rotary", Rule::Cloverleaf(true)),
];

/// The built-in variants left without a model, and why:
/// - fischerandom: the model has only orthodox castling from e1/e8 with Rooks on a/h
///   (Chess960 castling and its king-takes-rook moves are not modelled), and no test
///   cross-checks it;
/// - haven, interior, periphery, palace, missingfile: the model has no mobility regions, no
///   Palace pieces (R, B, Q of one or two squares) or facing Kings, no Archbishop (their
///   perft suites in tests/perft hold Fairy-Stockfish's counts instead);
/// - jadoube: its independent model (tests/suite/jadoube_model.rs) is a perft counter of its
///   own, not a reading of the model in tests/suite/common;
/// - espionage: a 7x7 board with spies and cannons; its model (tests/suite/espionage_model.rs)
///   lives outside tests/suite/common;
/// - the 007 family (007, 007detente, balanced007, balanced007detente, progressive007 and
///   their -kingcapture forms): turns of several moves, Detente and turn completion are
///   modelled only in tests/suite/family007.rs on top of `Rule::Plain` and
///   `Rule::KingCapture`, whose moves alone are not the variants' legal moves.
const WITHOUT_MODEL: &[&str] = &[
    "fischerandom",
    "haven",
    "interior",
    "periphery",
    "palace",
    "missingfile",
    "jadoube",
    "espionage",
    "007",
    "007detente",
    "balanced007",
    "balanced007detente",
    "progressive007",
    "007-kingcapture",
    "007detente-kingcapture",
    "balanced007-kingcapture",
    "balanced007detente-kingcapture",
    "progressive007-kingcapture",
];

/// The model's reading of `variant`'s default rules, if it has one (see [`MAPPED`]).
fn model_rule(variant: &str) -> Option<Rule> {
    MAPPED
        .iter()
        .find(|(name, _)| *name == variant)
        .map(|&(_, rule)| rule)
}

/// Replays the games of `text` whose variant has a model; the number of positions checked.
fn replay(text: &str, source: &str) -> usize {
    let mut checked = 0;
    for (n, game) in read_games(text).iter().enumerate() {
        let variant = game.tag("Variant").unwrap_or("chess").to_ascii_lowercase();
        let Some(rule) = model_rule(&variant) else {
            continue;
        };
        let rules = builtin_variants().get(&variant).expect("built in");
        let mut p = match game.tag("FEN") {
            Some(fen) => Position::from_fen(rules, fen)
                .unwrap_or_else(|e| panic!("{source}, game {}: FEN {fen}: {e}", n + 1)),
            None => Position::startpos(rules),
        };
        for (ply, token) in game.moves.iter().enumerate() {
            cross_check(&variant, rule, &p.fen());
            checked += 1;
            let mv = parse_pgn_move(&mut p, token).unwrap_or_else(|| {
                panic!(
                    "{source}, game {}: ply {} {token} is not legal in {}",
                    n + 1,
                    ply + 1,
                    p.fen()
                )
            });
            p.make(mv);
        }
    }
    checked
}

/// A random game of `variant` written as PGN movetext with the engine's own spellings; two
/// moves in three are special moves when there are some, so their spellings are replayed.
fn random_game_pgn(variant: &str, plies: usize, mut seed: u64) -> String {
    let rules = builtin_variants().get(variant).expect("built in");
    let mut p = Position::startpos(rules);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mut list = MoveList::new();
        legal_moves(&mut p, &mut list);
        if list.is_empty() {
            break;
        }
        let specials: Vec<_> = list
            .iter()
            .copied()
            .filter(|m| m.kind() == MoveKind::Special)
            .collect();
        let mv = if !specials.is_empty() && random_index(&mut seed, 3) != 0 {
            specials[random_index(&mut seed, specials.len())]
        } else {
            list[random_index(&mut seed, list.len())]
        };
        moves.push(pgn_move(&mut p, mv));
        p.make(mv);
    }
    format!(
        "[Variant \"{variant}\"]\n[Result \"*\"]\n\n{} *\n\n",
        moves.join(" ")
    )
}

#[test]
fn every_built_in_variant_is_mapped_or_listed_without_a_model() {
    let set = builtin_variants();
    let names = set.names();
    for name in names {
        let mapped = model_rule(name).is_some();
        let without = WITHOUT_MODEL.contains(&name.as_str());
        assert!(
            mapped != without,
            "{name}: mapped {mapped}, listed without a model {without}"
        );
    }
    for (name, _) in MAPPED {
        assert!(names.iter().any(|n| n == name), "{name} is not built in");
    }
    for name in WITHOUT_MODEL {
        assert!(names.iter().any(|n| n == name), "{name} is not built in");
    }
    assert_eq!(MAPPED.len() + WITHOUT_MODEL.len(), names.len());
}

#[test]
fn the_replayer_checks_every_position_of_games_with_a_model() {
    const GAMES: usize = 2;
    const PLIES: usize = 6;
    let text: String = MAPPED
        .iter()
        .enumerate()
        .flat_map(|(i, (v, _))| {
            (0..GAMES).map(move |g| random_game_pgn(v, PLIES, 7 + (GAMES * i + g) as u64))
        })
        .collect();
    // a game of a variant without a model is passed over
    let other = "[Variant \"espionage\"]\n[Result \"*\"]\n\n*\n\n";
    let checked = replay(&format!("{text}{other}"), "random games");
    assert!(
        checked >= MAPPED.len() * GAMES * PLIES / 2,
        "{checked} positions checked"
    );
}

#[test]
#[should_panic(expected = "is not legal")]
fn an_illegal_move_in_a_soak_game_fails_the_replay() {
    replay("[Variant \"chess\"]\n\n1. e4 e5 2. Ke3 *\n", "a bad game");
}

/// The soak's games: `CHIMERA_SOAK_DIR=DIR cargo test --release soak_games -- --ignored`.
#[test]
#[ignore]
fn soak_games_agree_with_the_models() {
    let dir = std::env::var("CHIMERA_SOAK_DIR").expect("CHIMERA_SOAK_DIR names the PGN folder");
    let mut total = 0;
    for entry in std::fs::read_dir(&dir).expect("the soak folder") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "pgn") {
            let text = std::fs::read_to_string(&path).expect("a PGN file");
            let n = replay(&text, &path.display().to_string());
            println!("{}: {n} positions checked", path.display());
            total += n;
        }
    }
    println!("{total} positions checked against the models");
}
