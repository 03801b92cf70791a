//! Soak games replayed through the independent models (issue 46, point 3): every position of
//! every game whose variant has a model of its own in tests/suite/common is cross-checked
//! (the engine's moves and the model's, two plies deep) and every played move must be legal.
//! `CHIMERA_SOAK_DIR` names a folder of PGN files written by `chimera match`
//! (tools/soak.sh); the test of the replayer itself runs on games played here.

use crate::common::slide::Geo;
use crate::common::{cross_check, random_index, Rule};
use chimera::engine::pgn::{parse_pgn_move, pgn_move, read_games};
use chimera::movegen::legal_moves;
use chimera::moves::MoveList;
use chimera::position::Position;
use chimera::rules::builtin_variants;

/// The model's reading of each variant's default rules, for the variants that have one.
fn model_rule(variant: &str) -> Option<Rule> {
    Some(match variant {
        "chess" => Rule::Plain,
        "bracket" => Rule::Bracket,
        "eviction" => Rule::Eviction,
        "torpedo-paletta" => Rule::Torpedo,
        "hippophobic" => Rule::Hippophobic,
        "garrison" => Rule::Garrison,
        "kaleidoscope" => Rule::Kaleidoscope,
        "nonlinear" => Rule::Nonlinear,
        "dominion" => Rule::Slide(Geo::Domino),
        "summit" => Rule::Slide(Geo::Summit),
        _ => return None,
    })
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

/// A random game of `variant` written as PGN movetext with the engine's own spellings.
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
        let mv = list[random_index(&mut seed, list.len())];
        moves.push(pgn_move(&mut p, mv));
        p.make(mv);
    }
    format!(
        "[Variant \"{variant}\"]\n[Result \"*\"]\n\n{} *\n\n",
        moves.join(" ")
    )
}

#[test]
fn the_replayer_checks_every_position_of_games_with_a_model() {
    let variants = [
        "chess",
        "hippophobic",
        "nonlinear",
        "torpedo-paletta",
        "dominion",
    ];
    let text: String = variants
        .iter()
        .enumerate()
        .map(|(i, v)| random_game_pgn(v, 24, 7 + i as u64))
        .collect();
    // a game of a variant without a model is passed over
    let other = "[Variant \"espionage\"]\n[Result \"*\"]\n\n*\n\n";
    let checked = replay(&format!("{text}{other}"), "random games");
    assert!(
        checked >= variants.len() * 12,
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
