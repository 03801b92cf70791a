//! Switching variants mid-session over both protocols: every move played afterwards is a legal
//! move of the new variant, after searches in the old one filled the transposition table
//! (which `Engine::set_variant` clears: chess and Hippophobic share their positions' keys; the
//! unit test in src/engine.rs checks the table itself).

use crate::driver;
use chimera::movegen::parse_move;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use driver::Engine;

/// Asserts that `mv` is legal in `variant` from its start position.
#[track_caller]
fn assert_legal_at_start(variant: &str, mv: &str) {
    assert_legal_in(&builtin_variants(), variant, mv);
}

/// Asserts that `mv` is legal in `variant` of `set` from its start position.
#[track_caller]
fn assert_legal_in(set: &chimera::rules::VariantSet, variant: &str, mv: &str) {
    let mut pos = Position::startpos(set.get(variant).expect("known"));
    assert!(
        parse_move(&mut pos, mv).is_ok(),
        "'{mv}' is not a legal first move of {variant}"
    );
}

#[test]
fn uci_plays_the_new_variant_after_a_switch() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect(10, |l| l == "uciok");
    e.send("setoption name Hash value 1");
    e.send("position startpos");
    e.send("go depth 9");
    e.expect(60, |l| l.starts_with("bestmove "));
    for variant in ["palace", "espionage", "007detente", "chess"] {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("position startpos");
        e.send("go depth 1");
        let best = e.expect(30, |l| l.starts_with("bestmove "));
        let mv = best.split_whitespace().nth(1).expect("a move");
        assert_legal_at_start(variant, mv);
        e.send("go depth 5");
        let best = e.expect(60, |l| l.starts_with("bestmove "));
        assert_legal_at_start(variant, best.split_whitespace().nth(1).expect("a move"));
    }
    assert!(e.quit());
}

#[test]
fn xboard_plays_the_new_variant_after_a_switch() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.expect(10, |l| l.contains("done=1"));
    for variant in ["normal", "espionage", "palace", "007detente"] {
        e.send("new");
        if variant != "normal" {
            e.send(&format!("variant {variant}"));
        }
        e.send("sd 4");
        e.send("go");
        let mv = e.expect(60, |l| l.starts_with("move "));
        let name = if variant == "normal" {
            "chess"
        } else {
            variant
        };
        assert_legal_at_start(name, mv.trim_start_matches("move "));
        e.send("force");
    }
    assert!(e.quit());
}

#[test]
fn a_variants_file_loaded_mid_session_is_played_by_its_own_rules() {
    // two new variants, one built on palace (the variant in play) with its knights on the
    // rooks' corners
    let ini = std::env::temp_dir().join(format!("chimera-switch-{}.ini", std::process::id()));
    std::fs::write(
        &ini,
        "[cornerless:chess]\nstartFen = 1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBN1 w - - 0 1\n\n\
         [cornerpalace:palace]\nstartFen = n1bqkb1n/pppppppp/8/8/8/8/PPPPPPPP/N1BQKB1N w - - 0 1\n",
    )
    .unwrap();
    let mut set = builtin_variants();
    set.load_file(ini.to_str().unwrap()).expect("a valid file");
    let mut e = Engine::start();
    e.send("uci");
    e.expect(10, |l| l == "uciok");
    e.send("setoption name Hash value 1");
    e.send("setoption name UCI_Variant value palace");
    e.send("position startpos");
    e.send("go depth 8");
    e.expect(60, |l| l.starts_with("bestmove "));
    e.send(&format!(
        "setoption name VariantPath value {}",
        ini.display()
    ));
    for (variant, start) in [
        ("cornerpalace", "n1bqkb1n/"),
        ("cornerless", "1nbqkbn1/"),
        ("palace", "rnbqkbnr/"),
    ] {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        let announced = e.expect(10, |l| l.starts_with("info string variant"));
        assert!(announced.contains(start), "{variant}: {announced}");
        for depth in [1, 6] {
            e.send("position startpos");
            e.send(&format!("go depth {depth}"));
            let best = e.expect(60, |l| l.starts_with("bestmove "));
            assert_legal_in(
                &set,
                variant,
                best.split_whitespace().nth(1).expect("a move"),
            );
        }
    }
    assert!(e.quit());
    let _ = std::fs::remove_file(ini);
}
