//! Chess960 (`fischerandom`): start positions by number, castling spelled king-takes-rook
//! (UCI_Chess960) and O-O / O-O-O (XBoard), the chess net. The published perft table is the
//! suite tests/perft/fischerandom.epd.

use crate::driver::Engine as Driver;
use chimera::engine::Engine;
use chimera::perft::perft;
use chimera::position::chess960::start_fen;
use chimera::position::Position;
use chimera::rules::builtin_variants;

/// Start 518 is the orthodox array (chess's counts), and the numbered starts are positions the
/// generator reads with their four Shredder-FEN rights; no first move castles (men stand
/// between king and rooks), so each has the pawns' sixteen moves and a few knight jumps.
#[test]
fn numbered_starts_set_up_and_count() {
    let set = builtin_variants();
    let rules = set.get("fischerandom").expect("fischerandom");
    let mut orthodox = Position::from_fen(rules, &start_fen(518, 518).expect("518")).expect("fen");
    assert_eq!([1, 2, 3].map(|d| perft(&mut orthodox, d)), [20, 400, 8902]);
    for n in [0, 1, 100, 517, 959] {
        let fen = start_fen(n, n).expect("in range");
        let mut pos = Position::from_fen(rules, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        // the four Shredder-FEN rights read, written back as X-FEN (the outer rooks)
        let placement = fen.split(' ').next().expect("placement");
        assert_eq!(pos.fen(), format!("{placement} w KQkq - 0 1"));
        let moves = perft(&mut pos, 1);
        assert!((18..=21).contains(&moves), "{fen}: {moves} first moves");
    }
    // double Chess960: each side its own array
    let fen = start_fen(0, 959).expect("in range");
    assert!(Position::from_fen(rules, &fen).is_ok(), "{fen}");
}

/// UCI: `UCI_Chess960` turns chess into fischerandom, castling is written king-takes-rook and
/// read in both spellings; switching it off gives chess back.
#[test]
fn uci_chess960_spells_castling_king_takes_rook() {
    let mut e = Driver::start();
    e.send("uci");
    e.expect(10, |l| l == "uciok");
    assert!(e
        .seen
        .iter()
        .any(|l| l == "option name UCI_Chess960 type check default false"));
    // chess first: castling is the king's two-file step
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    e.send("go depth 1 searchmoves e1h1");
    e.expect(10, |l| l == "bestmove e1g1");
    e.send("setoption name UCI_Chess960 value true");
    e.expect(10, |l| l.contains("variant fischerandom"));
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    for asked in ["e1h1", "e1g1"] {
        e.send(&format!("go depth 1 searchmoves {asked}"));
        e.expect(10, |l| l == "bestmove e1h1");
    }
    e.send("position fen 1r2k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1h1");
    e.send("d");
    e.expect(10, |l| l == "FEN: 1r2k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // Black's queenside castling from b8 with the rook on a8: king to c8, rook to d8
    e.send("position fen rk5r/8/8/8/8/8/8/RK5R b HAha - 0 1 moves b8a8");
    e.send("d");
    e.expect(10, |l| l == "FEN: 2kr3r/8/8/8/8/8/8/RK5R w KQ - 1 2");
    e.send("setoption name UCI_Chess960 value false");
    e.expect(10, |l| l.contains("variant chess "));
    assert!(e.quit());
}

/// XBoard: `variant fischerandom` takes O-O and O-O-O (CECP's FischerRandom castling) and the
/// engine sends its castling so; other moves and chess keep their spelling.
#[test]
fn xboard_castles_with_o_o() {
    let mut engine = Engine::new();
    engine.set_variant("fischerandom").expect("known");
    engine
        .set_position(Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), &[])
        .expect("fen");
    // SAN's zeros and check mark read too (an XBoard engine may send them)
    let short = engine.play("0-0+").expect("O-O is legal");
    assert_eq!(engine.xboard_move_text(short, "e1h1"), "O-O");
    let long = engine.play("O-O-O").expect("O-O-O is legal");
    assert_eq!(engine.xboard_move_text(long, "e8a8"), "O-O-O");
    let rook = engine.play("f1f5").expect("the castled rook");
    assert_eq!(engine.xboard_move_text(rook, "f1f5"), "f1f5");
    assert!(engine.play("O-O").is_err(), "no castling right left");
    engine.set_variant("chess").expect("known");
    engine
        .set_position(Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), &[])
        .expect("fen");
    let castle = engine.play("e1g1").expect("legal");
    assert_eq!(engine.xboard_move_text(castle, "e1g1"), "e1g1");
    // over the protocol: the variant is offered and O-O is read
    let mut e = Driver::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.expect(10, |l| l.contains("variants="));
    assert!(features.contains("fischerandom"), "{features}");
    e.send("variant fischerandom");
    e.send("setboard r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    e.send("usermove O-O");
    e.send("usermove O-O-O");
    e.send("ping 7");
    e.expect(10, |l| l == "pong 7");
    assert!(
        !e.seen
            .iter()
            .any(|l| l.starts_with("Illegal") || l.starts_with("Error")),
        "{:?}",
        e.seen
    );
    assert!(e.quit());
}
