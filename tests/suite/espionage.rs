//! Espionage Chess (shared/rules/007-espionage-foreignpolicy.md Part B): every test vector of
//! B.4 as the exact legal move set or verdict, the spy window in FEN, key and unmake, the option
//! `spyExposure = untilQuietMove`, dead positions, bad input, and the search.
//!
//! B.4 writes moves as `d1xd4`, `c5-c6=B`; the engine's spelling is `d1d4`, `c5c6b`.

use crate::common;

use chimera::engine::Engine;
use chimera::geometry::Color;
use chimera::movegen::{in_check, legal_moves, move_to_string, parse_move};
use chimera::moves::MoveList;
use chimera::position::{FenError, Position};
use chimera::rules::outcome::{dead_material, verdict, Outcome};
use chimera::rules::{builtin_variants, VariantSet};
use chimera::search::MATE_BOUND;
use common::move_strings;

fn espionage() -> &'static chimera::position::Variant {
    chimera::geometry::attacks::init();
    builtin_variants().get("espionage").expect("built in")
}

fn position(fen: &str) -> Position {
    Position::from_fen(espionage(), fen).unwrap_or_else(|e| panic!("bad FEN '{fen}': {e}"))
}

/// B.4's move list in the engine's spelling, sorted: `x` and `-` dropped, `=X` as a letter.
fn b4(moves: &str) -> Vec<String> {
    let mut v: Vec<String> = moves
        .split_whitespace()
        .flat_map(|m| {
            let m = m.replace(['x', '-'], "");
            match m.split_once('=') {
                Some((base, promos)) => promos
                    .split('/')
                    .map(|p| format!("{base}{}", p.to_ascii_lowercase()))
                    .collect::<Vec<_>>(),
                None => vec![m],
            }
        })
        .collect();
    v.sort();
    v
}

fn exact(id: &str, fen: &str, check: bool, count: usize, moves: &str) {
    let mut pos = position(fen);
    assert_eq!(in_check(&pos), check, "{id}: in check");
    let expected = b4(moves);
    assert_eq!(expected.len(), count, "{id}: the vector itself");
    assert_eq!(move_strings(&mut pos), expected, "{id}: legal moves");
}

fn play(pos: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = parse_move(pos, m).unwrap_or_else(|e| panic!("{m} in {}: {e}", pos.fen()));
        pos.make(mv);
    }
}

#[test]
fn te_start_the_21_first_moves_and_blacks_mirror() {
    exact(
        "TE-Start",
        "1k1cbc1/rnsqbnr/1pppppp/7/PPPPPP1/RNBQSNR/1CBC1K1 w - - 0 1 -",
        false,
        21,
        "a2-a1 a3-a4 b1-a1 b2-a4 b2-c4 b3-b4 c3-c4 d1-e1 d2-e1 d3-d4 e2-e1 e3-e4 f1-e1 \
         f1-g1 f2-e4 f2-g4 f3-f4 g2-g1 g2-g3 g2-g4 g2xg5",
    );
    let mut start = Position::startpos(espionage());
    assert_eq!(
        start.fen(),
        "1k1cbc1/rnsqbnr/1pppppp/7/PPPPPP1/RNBQSNR/1CBC1K1 w - - 0 1 -"
    );
    // Black's 21 are the point reflection of White's (about d4)
    let mut black = position("1k1cbc1/rnsqbnr/1pppppp/7/PPPPPP1/RNBQSNR/1CBC1K1 b - - 0 1 -");
    let reflect = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                'a'..='g' => (b'g' - (c as u8 - b'a')) as char,
                '1'..='7' => (b'7' - (c as u8 - b'1')) as char,
                _ => c,
            })
            .collect()
    };
    let mut mirrored: Vec<String> = move_strings(&mut start)
        .iter()
        .map(|m| reflect(m))
        .collect();
    mirrored.sort();
    assert_eq!(move_strings(&mut black), mirrored);
}

#[test]
fn te_s1_the_capture_window() {
    let mut pos = position("3r2k/7/7/3n3/7/7/K2S3 w - - 0 1 -");
    play(&mut pos, "d1d4");
    assert_eq!(pos.fen(), "3r2k/7/7/3S3/7/7/K6 b - - 0 1 d4");
    assert!(in_check(&pos), "the spy checks g7 along the diagonal");
    assert_eq!(move_strings(&mut pos), b4("d7xd4 g7-f7 g7-g6"));
    play(&mut pos, "g7g6 a1a2");
    assert_eq!(pos.fen(), "3r3/6k/7/3S3/7/K6/7 b - - 2 2 -");
    let after = move_strings(&mut pos);
    assert_eq!(
        after,
        b4("d7-a7 d7-b7 d7-c7 d7-d5 d7-d6 d7-e7 d7-f7 d7-g7 g6-f5 g6-f7 g6-g5")
    );
    assert!(!after.contains(&"d7d4".to_string()));
    // the same from the FEN given in B.4
    let mut from_fen = position("3r3/6k/7/3S3/7/K6/7 b - - 2 2 -");
    assert_eq!(move_strings(&mut from_fen), after);
    // unmake restores the window, its key and its moves
    pos.unmake();
    pos.unmake();
    assert_eq!(pos.fen(), "3r2k/7/7/3S3/7/7/K6 b - - 0 1 d4");
    assert_eq!(pos.key(), pos.compute_key());
    assert!(move_strings(&mut pos).contains(&"d7d4".to_string()));
    play(&mut pos, "d7d4");
    assert_eq!(pos.fen(), "6k/7/7/3r3/7/7/K6 w - - 0 2 -");
}

#[test]
fn te_c1_to_c5_the_cannon() {
    exact(
        "TE-C1",
        "3r2k/7/3p3/n2CPP1/7/3P3/K2n3 w - - 0 1 -",
        false,
        11,
        "a1-a2 a1-b1 d2-d3 d4-b4 d4-c4 d4-d3 d4xd1 d4xd7 e4-e5 e4xd5 f4-f5",
    );
    exact(
        "TE-C2",
        "6k/7/7/r6/p6/P5K/Cs1n3 w - - 0 1 -",
        false,
        6,
        "a1xa3 a1xd1 g2-f1 g2-f3 g2-g1 g2-g3",
    );
    exact(
        "TE-C3",
        "6k/7/7/s6/7/P5K/CN3r1 w - - 0 1 -",
        false,
        6,
        "a2-a3 b1-a3 b1-c3 b1-d2 g2-g3 g2xf1",
    );
    exact(
        "TE-C3b",
        "6k/7/7/s6/7/P5K/CN3r1 w - - 0 1 a4",
        false,
        7,
        "a1xa4 a2-a3 b1-a3 b1-c3 b1-d2 g2-g3 g2xf1",
    );
    exact(
        "TE-C4",
        "6k/7/7/3c3/3P3/R6/3K3 w - - 0 1 -",
        true,
        5,
        "a2-d2 d1-c1 d1-c2 d1-e1 d1-e2",
    );
    exact(
        "TE-C5",
        "6k/7/7/3c3/7/1N5/3K3 w - - 0 1 -",
        false,
        7,
        "b2-a4 b2-c4 d1-c1 d1-c2 d1-d2 d1-e1 d1-e2",
    );
}

#[test]
fn te_s2_s3_mate_by_an_immune_spy_and_the_vulnerable_one() {
    let mut mate = position("6k/7/7/7/7/1s5/K6 w - - 0 1 -");
    assert!(in_check(&mate));
    assert!(move_strings(&mut mate).is_empty());
    let v = verdict(&mut mate).expect("game over");
    assert_eq!(v.outcome, Outcome::Win(Color::Black));
    assert_eq!(v.reason, "checkmate");
    exact("TE-S3", "6k/7/7/7/7/1s5/K6 w - - 0 1 b2", true, 1, "a1xb2");
    // after the capture only kings are left: a dead position
    let mut pos = position("6k/7/7/7/7/1s5/K6 w - - 0 1 b2");
    play(&mut pos, "a1b2");
    assert!(dead_material(&pos));
    assert_eq!(verdict(&mut pos).map(|v| v.outcome), Some(Outcome::Draw));
}

#[test]
fn te_p1_p2_promotion() {
    exact(
        "TE-P1",
        "3k3/1n5/2P4/7/7/7/3K3 w - - 0 1 -",
        false,
        17,
        "c5-c6=B/C/N/Q/R/S c5xb6=B/C/N/Q/R/S d1-c1 d1-c2 d1-d2 d1-e1 d1-e2",
    );
    exact(
        "TE-P2",
        "3k3/7/7/7/2p4/7/5K1 b - - 0 1 -",
        false,
        11,
        "c3-c2=B/C/N/Q/R/S d7-c6 d7-c7 d7-d6 d7-e6 d7-e7",
    );
}

#[test]
fn r_esp_3_a_spy_promoted_by_a_capture_is_not_capturable() {
    let mut pos = position("3k3/1n5/2P4/7/7/7/3K3 w - - 0 1 -");
    play(&mut pos, "c5b6s");
    assert_eq!(pos.fen(), "3k3/1S5/7/7/7/7/3K3 b - - 0 1 -");
    // the new spy checks nothing here; the king may not take it
    assert!(!move_strings(&mut pos).contains(&"d7b6".to_string()));
}

#[test]
fn a_spy_capturing_a_spy_and_a_king_taking_a_defended_spy() {
    // White spy takes the exposed Black spy (which checks g1): now the White spy is exposed
    let mut pos = position("k6/7/7/3s3/7/7/3S2K w - - 0 1 d4");
    play(&mut pos, "d1d4");
    assert_eq!(pos.fen(), "k6/7/7/3S3/7/7/6K b - - 0 1 d4");
    // R-ESP-5: a vulnerable spy next to the king, not defended: the king may take it
    let mut free = position("7/7/7/7/1R5/1S4n/K5k w - - 0 1 -");
    play(&mut free, "b2g2");
    assert_eq!(free.fen(), "7/7/7/7/1R5/6S/K5k b - - 0 1 g2");
    assert!(in_check(&free));
    assert_eq!(move_strings(&mut free), b4("g1xg2"));
    // defended by the rook on g4: the king cannot take it, and has nowhere to go
    let mut guarded = position("7/7/7/6R/7/1S4n/K5k w - - 0 1 -");
    play(&mut guarded, "b2g2");
    assert!(move_strings(&mut guarded).is_empty());
    assert_eq!(
        verdict(&mut guarded).map(|v| v.outcome),
        Some(Outcome::Win(Color::White))
    );
}

#[test]
fn the_window_is_part_of_the_key_and_of_repetition() {
    let open = position("3r3/6k/7/3S3/7/K6/7 b - - 2 2 d4");
    let shut = position("3r3/6k/7/3S3/7/K6/7 b - - 2 2 -");
    assert_ne!(open.key(), shut.key());
    assert_eq!(open.key(), open.compute_key());
    // placement and side repeat, but the first occurrence had the spy capturable: no repetition
    let mut pos = position("3r3/6k/7/3S3/7/K6/7 b - - 2 2 d4");
    let first = pos.key();
    play(&mut pos, "g6g5 a2a1 g5g6 a1a2");
    assert_eq!(pos.fen(), "3r3/6k/7/3S3/7/K6/7 b - - 6 4 -");
    assert_ne!(pos.key(), first);
    assert_eq!(chimera::rules::outcome::repetitions(&pos), 0);
    play(&mut pos, "g6g5 a2a1 g5g6 a1a2");
    assert_eq!(chimera::rules::outcome::repetitions(&pos), 1);
}

#[test]
fn null_move_closes_the_window() {
    let mut pos = position("3r2k/7/7/3S3/7/7/K6 b - - 0 1 d4");
    let before = pos.key();
    pos.make_null();
    assert_eq!(pos.fen(), "3r2k/7/7/3S3/7/7/K6 w - - 1 2 -");
    assert_eq!(pos.key(), pos.compute_key());
    pos.unmake_null();
    assert_eq!(pos.key(), before);
    assert_eq!(pos.fen(), "3r2k/7/7/3S3/7/7/K6 b - - 0 1 d4");
}

fn variant_set_with(ini: &str) -> VariantSet {
    let mut set = builtin_variants();
    set.load_str("test.ini", ini).expect("loads");
    set
}

#[test]
fn option_until_quiet_move() {
    let set = variant_set_with("[espb:espionage]\nspyExposure = untilQuietMove\n");
    let rules = set.get("espb").expect("loaded");
    let mut pos = Position::from_fen(rules, "3r2k/7/7/3n3/7/7/K2S3 w - - 0 1 -").expect("fen");
    play(&mut pos, "d1d4 g7g6 a1a2");
    // (b): the spy captured and has not moved quietly since: still capturable
    assert_eq!(pos.fen(), "3r3/6k/7/3S3/7/K6/7 b - - 2 2 d4");
    assert!(move_strings(&mut pos).contains(&"d7d4".to_string()));
    // a quiet spy move ends the exposure
    let mut quiet = Position::from_fen(rules, "3r3/6k/7/3S3/7/K6/7 w - - 2 2 d4")
        .expect("an exposed spy of the side to move is fine under (b)");
    play(&mut quiet, "d4c4");
    assert_eq!(quiet.fen(), "3r3/6k/7/2S4/7/K6/7 b - - 3 2 -");
    // two exposed spies at once
    let two =
        Position::from_fen(rules, "3r3/6k/2s4/3S3/7/K6/7 b - - 2 2 c5,d4").expect("a set of spies");
    // written in square order (rank by rank from a1)
    assert_eq!(two.fen(), "3r3/6k/2s4/3S3/7/K6/7 b - - 2 2 d4,c5");
    // the ruling's variant rejects both
    for fen in [
        "3r3/6k/7/3S3/7/K6/7 w - - 2 2 d4",
        "3r3/6k/2s4/3S3/7/K6/7 b - - 2 2 c5,d4",
    ] {
        assert!(matches!(
            Position::from_fen(espionage(), fen),
            Err(FenError::Extension(_))
        ));
    }
}

#[test]
fn dead_positions_are_exactly_the_ruled_ones() {
    for fen in [
        "6k/7/7/7/7/7/K6 w - - 0 1 -",
        "6k/7/7/7/7/7/KB5 w - - 0 1 -",
        "6k/5n1/7/7/7/7/K6 w - - 0 1 -",
        "6k/4b2/7/7/7/7/K6 b - - 0 1 -",
    ] {
        let mut pos = position(fen);
        assert!(dead_material(&pos), "{fen}");
        assert_eq!(verdict(&mut pos).map(|v| v.outcome), Some(Outcome::Draw));
    }
    for fen in [
        "6k/7/7/7/7/7/KC5 w - - 0 1 -",
        "6k/7/7/7/7/7/KNN4 w - - 0 1 -",
        "6k/5b1/7/7/7/7/KB5 w - - 0 1 -",
        "6k/7/7/7/7/P6/K6 w - - 0 1 -",
        "6k/7/7/7/7/7/KS5 w - - 0 1 -",
    ] {
        let mut pos = position(fen);
        assert!(!dead_material(&pos), "{fen}");
        assert!(verdict(&mut pos).is_none(), "{fen}");
    }
    // orthodox chess adjudicates nothing
    let chess = builtin_variants().get("chess").expect("chess");
    let kk = Position::from_fen(chess, "7k/8/8/8/8/8/8/K7 w - - 0 1").expect("fen");
    assert!(!dead_material(&kk));
}

#[test]
fn bad_input_is_a_clear_error() {
    let err = |fen: &str| Position::from_fen(espionage(), fen).err();
    // an orthodox FEN on the 7x7 board
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
        Some(FenError::RankCount {
            found: 8,
            expected: 7
        })
    ));
    assert!(matches!(
        err("1k1cbc1/rnsqbnr/1pppppp/7/PPPPPP1/RNBQSNR/1CBC1K1/7 w - - 0 1 -"),
        Some(FenError::RankCount { .. })
    ));
    assert!(matches!(
        err("1k1cbc1/rnsqbnr/1pppppp/8/PPPPPP1/RNBQSNR/1CBC1K1 w - - 0 1 -"),
        Some(FenError::RankWidth { .. })
    ));
    for (fen, words) in [
        ("3r3/6k/7/3S3/7/K6/7 b - - 2 2 d5", "no spy stands on d5"),
        (
            "3r3/6k/7/3S3/7/K6/7 b - - 2 2 h8",
            "not a square of this 7x7",
        ),
        ("3r3/6k/7/3S3/7/K6/7 b - - 2 2 a0", "not a square"),
        ("3r3/6k/7/3S3/7/K6/7 b - - 2 2 d4,d4", "twice"),
        ("3r3/6k/7/3S3/7/K6/7 b - - 2 2 ,", "not a square"),
        ("3r3/6k/7/3S3/7/K6/7 b - - 2 2 d1", "no spy stands on d1"),
        ("3r3/6k/7/3S3/7/K6/7 w - - 2 2 d4", "side that just moved"),
    ] {
        match err(fen) {
            Some(e @ FenError::Extension(_)) => {
                assert!(e.to_string().contains(words), "{fen}: {e}")
            }
            other => panic!("{fen}: {other:?}"),
        }
    }
    // castling and en passant do not exist
    assert!(matches!(
        err("3r2k/7/7/3n3/7/7/K2S3 w K - 0 1 -"),
        Some(FenError::Castling(_))
    ));
    assert!(matches!(
        err("3r2k/7/7/3n3/7/7/K2S3 w - c3 0 1 -"),
        Some(FenError::EnPassant(_))
    ));
    assert!(matches!(
        err("3r2k/7/7/3n3/7/7/K2S3 w - - 0 1 - extra"),
        Some(FenError::FieldCount(8))
    ));
    // a pawn on its promotion ranks cannot stand there
    assert!(matches!(
        err("3k3/2P4/7/7/7/7/3K3 w - - 0 1 -"),
        Some(FenError::Illegal(_))
    ));
    // variants without a state module still take six fields only
    let chess = builtin_variants().get("chess").expect("chess");
    assert_eq!(
        Position::from_fen(chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -").err(),
        Some(FenError::FieldCount(7))
    );
}

#[test]
fn variants_ini_keys_are_checked() {
    let load = |ini: &str| {
        let mut set = builtin_variants();
        set.load_str("t.ini", ini).expect_err("rejected")
    };
    let e = load("[x:espionage]\nspyExposure = sometimes\n");
    assert_eq!(e.key.as_deref(), Some("spyExposure"));
    assert!(e.message.contains("untilQuietMove"), "{e}");
    let e = load("[x:chess]\nspyExposure = nextPly\n");
    assert_eq!(e.key.as_deref(), Some("spyExposure"));
    let e = load("[x:chess]\nspyPieceTypes = k\n");
    assert!(e.message.contains("cannot be a spy"), "{e}");
    let e = load("[x:chess]\nspyPieceTypes = z\n");
    assert_eq!(e.key.as_deref(), Some("spyPieceTypes"));
    for bad in ["k", "k:z", "kb:kb:k", "b:k", "kk:k"] {
        let e = load(&format!("[x:chess]\ndeadMaterial = {bad}\n"));
        assert_eq!(e.key.as_deref(), Some("deadMaterial"), "{bad}: {e}");
    }
    // a chess variant with a spy queen-mover: the module works on 8x8 too
    let set = variant_set_with(
        "[spychess:chess]\ncustomPiece1 = s:Q\nspyPieceTypes = s\n\
         startFen = 4k3/8/8/3n4/8/8/8/3SK3 w - - 0 1 -\n",
    );
    let mut pos = Position::startpos(set.get("spychess").expect("loaded"));
    play(&mut pos, "d1d5");
    assert_eq!(pos.fen(), "4k3/8/8/3S4/8/8/8/4K3 b - - 0 1 d5");
}

#[test]
fn random_games_keep_key_fen_and_unmake_consistent() {
    let rules = espionage();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut windows = 0;
    for _game in 0..40 {
        let mut pos = Position::startpos(rules);
        for _ply in 0..160 {
            let mut list = MoveList::new();
            legal_moves(&mut pos, &mut list);
            if list.is_empty() || verdict(&mut pos).is_some() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = list[(seed % list.len() as u64) as usize];
            let fen_before = pos.fen();
            let key_before = pos.key();
            pos.make(m);
            assert_eq!(pos.key(), pos.compute_key(), "after {}", pos.fen());
            let fen = pos.fen();
            if !fen.ends_with(" -") {
                windows += 1;
            }
            let again = Position::from_fen(rules, &fen).expect("own FEN parses");
            assert_eq!(again.fen(), fen);
            assert_eq!(again.key(), pos.key(), "{fen}");
            pos.unmake();
            assert_eq!(pos.fen(), fen_before);
            assert_eq!(pos.key(), key_before);
            pos.make(m);
        }
    }
    assert!(windows > 20, "random games opened only {windows} windows");
}

fn engine_at(fen: &str) -> Engine {
    chimera::geometry::attacks::init();
    let mut e = Engine::new();
    e.set_variant("espionage").expect("espionage");
    e.set_position(Some(fen), &[]).expect("fen");
    e
}

#[test]
fn search_captures_the_exposed_spy_and_sees_spy_mates() {
    // TE-S1 after d1xd4: the rook takes the exposed spy
    let mut e = engine_at("3r2k/7/7/3S3/7/7/K6 b - - 0 1 d4");
    let r = e.best_move_at_depth(4);
    assert_eq!(move_to_string(e.position(), r.best).to_string(), "d7d4");
    // the same placement with the window shut: taking is illegal, the search must not try it
    let mut e = engine_at("3r3/6k/7/3S3/7/K6/7 b - - 2 2 -");
    let r = e.best_move_at_depth(4);
    assert_ne!(move_to_string(e.position(), r.best).to_string(), "d7d4");
    // White mates with the immune spy: Sb2 is protected by nothing, yet the king cannot take it
    let mut e = engine_at("k6/7/2K4/7/7/7/1S5 w - - 0 1 -");
    let r = e.best_move_at_depth(4);
    assert!(r.score >= MATE_BOUND, "score {} for {:?}", r.score, r.pv);
    // a mated side scores the loss
    let mut e = engine_at("6k/7/7/7/7/1s5/K6 w - - 0 1 -");
    let r = e.best_move_at_depth(3);
    assert!(r.best.is_none());
    // K+B v K is a dead draw: the search scores it 0 at once
    let mut e = engine_at("6k/7/7/7/7/7/KB5 w - - 0 1 -");
    assert_eq!(e.best_move_at_depth(5).score, 0);
}

#[test]
fn self_play_from_the_start_is_legal_to_the_end_of_a_few_plies() {
    let mut e = engine_at("1k1cbc1/rnsqbnr/1pppppp/7/PPPPPP1/RNBQSNR/1CBC1K1 w - - 0 1 -");
    for _ in 0..12 {
        let mut pos = e.position().clone();
        if verdict(&mut pos).is_some() {
            break;
        }
        let r = e.best_move_at_depth(3);
        let text = move_to_string(e.position(), r.best).to_string();
        let mut list = MoveList::new();
        legal_moves(&mut pos, &mut list);
        assert!(
            list.iter().any(|&m| m == r.best),
            "{text} is not legal in {}",
            pos.fen()
        );
        e.play(&text).expect("legal");
    }
    assert_eq!(e.position().moves_played(), 12);
}

use crate::driver;

#[test]
fn uci_announces_the_board_and_survives_bad_fens() {
    let mut e = driver::Engine::start();
    e.send("uci");
    e.expect(10, |l| l == "uciok");
    e.send("setoption name UCI_Variant value espionage");
    let l = e.expect(10, |l| l.starts_with("info string variant"));
    assert_eq!(
        l,
        "info string variant espionage files 7 ranks 7 pocket 0 template fairy startpos \
         1k1cbc1/rnsqbnr/1pppppp/7/PPPPPP1/RNBQSNR/1CBC1K1 w - - 0 1"
    );
    for bad in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "3r3/6k/7/3S3/7/K6/7 b - - 2 2 d5",
        "3r3/6k/7/3S3/7/K6/7 b - - 2 2 z9",
    ] {
        e.send(&format!("position fen {bad}"));
        let l = e.expect(10, |l| l.starts_with("info string error"));
        assert!(l.contains("FEN"), "{l}");
        e.send("isready");
        e.expect(10, |l| l == "readyok");
    }
    e.send("position fen 3r2k/7/7/3n3/7/7/K2S3 w - - 0 1 - moves d1d4");
    e.send("d");
    let fen = e.expect(10, |l| l.starts_with("FEN: "));
    assert_eq!(fen, "FEN: 3r2k/7/7/3S3/7/7/K6 b - - 0 1 d4");
    e.send("go depth 3");
    e.expect(30, |l| {
        l == "bestmove d7d4" || l.starts_with("bestmove d7d4 ")
    });
    assert!(e.quit());
}

#[test]
fn xboard_gets_setup_and_piece_lines() {
    let mut e = driver::Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let f = e.expect(10, |l| l.contains("variants="));
    assert!(f.contains("espionage"), "{f}");
    e.expect(10, |l| l == "feature done=1");
    e.send("new");
    e.send("variant espionage");
    let l = e.expect(10, |l| l.starts_with("setup "));
    assert_eq!(
        l,
        "setup (PNBRQSC..............Kpnbrqsc..............k) 7x7+0_fairy \
         1k1cbc1/rnsqbnr/1pppppp/7/PPPPPP1/RNBQSNR/1CBC1K1 w - - 0 1"
    );
    e.expect(10, |l| l == "piece S& Q");
    e.expect(10, |l| l == "piece C& mR4cpR4");
    e.send("force");
    e.send("setboard 3r3/6k/7/3S3/7/K6/7 b - - 2 2 -");
    e.send("usermove d7d4");
    e.expect(10, |l| l == "Illegal move: d7d4");
    e.send("setboard 6k/7/7/7/7/1s5/K6 w - - 0 1 b9");
    e.expect(10, |l| l.starts_with("Error ("));
    e.send("ping 1");
    e.expect(10, |l| l == "pong 1");
    assert!(e.quit());
}

#[test]
fn self_play_at_low_depth_reaches_a_verdict() {
    // depth 2 from the start until the rules end the game (or 400 plies): every move legal,
    // and the verdict agrees with the search's view of the final position
    let mut e = engine_at("1k1cbc1/rnsqbnr/1pppppp/7/PPPPPP1/RNBQSNR/1CBC1K1 w - - 0 1 -");
    let mut ended = None;
    for _ in 0..400 {
        let mut pos = e.position().clone();
        if let Some(v) = verdict(&mut pos) {
            ended = Some(v);
            break;
        }
        let r = e.best_move_at_depth(2);
        assert!(!r.best.is_none(), "no move but no verdict in {}", pos.fen());
        let text = move_to_string(e.position(), r.best).to_string();
        e.play(&text).expect("the search's move is legal");
    }
    eprintln!(
        "self-play: {} plies, {:?}, final {}",
        e.position().moves_played(),
        ended.as_ref().map(|v| (v.outcome, v.reason.clone())),
        e.position().fen()
    );
    if let Some(v) = ended {
        let mut pos = e.position().clone();
        let mut list = MoveList::new();
        legal_moves(&mut pos, &mut list);
        match v.reason.as_str() {
            "checkmate" => assert!(list.is_empty() && in_check(&pos)),
            "stalemate" => assert!(list.is_empty() && !in_check(&pos)),
            _ => assert_eq!(v.outcome, Outcome::Draw, "{}", v.reason),
        }
    }
}
