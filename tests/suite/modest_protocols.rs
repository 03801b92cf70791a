//! The Modest Proposals movement variants with multi-leg moves (the relocation variants of issue
//! 11; the continuation and drop variants of issue 12) and with powers that depend on the
//! position (issue 13) over both protocols: each is offered in
//! `UCI_Variant` and in XBoard's `variants` feature, XBoard is sent the `setup` line that draws
//! its start position (with holdings where the variant has them), a multi-leg move or a drop
//! travels as one comma-separated token both ways, and a leg list that is not a legal move is
//! refused while the engine keeps serving.

use crate::driver;
use driver::Engine;

/// Each variant, a position (None: its start) and a legal multi-leg move there (from the rules
/// files' test vectors).
const CASES: [(&str, Option<&str>, &str); 29] = [
    ("bump", None, "d1d2,d2c3"),
    ("carom", None, "b1d2,d2b3"),
    ("cascade", None, "d1d2,d2d5"),
    (
        "castlemania",
        Some("k7/3N3P/8/8/P5R1/3B3K/8/3Q4 w - - 0 1"),
        "d1b3,a4c2",
    ),
    ("catalyst", None, "d1f1,f1d1"),
    ("displacement", None, "d1e1,e1d1"),
    ("launch", None, "d1d2,d2b4"),
    ("redeployment", None, "b1c1,c1b1,c1b3"),
    ("trailer", None, "d2d4,d1d3"),
    (
        "triangulation",
        Some("4k3/8/8/8/8/8/3PN3/3QK3 w - - 0 1"),
        "d1e1,e1e2,e2d1",
    ),
    ("dominion", None, "b1c3,c3c4"),
    (
        "dominion",
        Some("7k/8/8/8/p7/n7/8/R6K w - - 0 1"),
        "a1a3,a3a4",
    ),
    ("summit", None, "e2e4,e4f4"),
    ("crater", None, "g1f3,f3e3"),
    ("ridge", None, "e2e3,e3f3"),
    ("valley", None, "b1c3,c3d3"),
    ("explorer", None, "b1a3,a3a4"),
    ("wonderland", None, "g1f3,f3c3"),
    (
        "emissary",
        Some("4k3/8/8/8/8/8/3P1P2/3QK3[N] w - - 0 1"),
        "d1a4,N@d1",
    ),
    ("emissary", None, "e1d2"),
    (
        "explorer",
        Some("4k3/8/8/8/8/8/1P6/R3K3 w - - 0 1"),
        "a1a2,a2b2",
    ),
    // issue 13: one-leg moves that orthodox chess does not have
    ("camouflage", None, "d1e3"),
    (
        "coercion",
        Some("1n5k/2pp4/8/8/8/8/8/1R4K1 w - - 0 1"),
        "b8c6",
    ),
    (
        "countermove",
        Some("7k/8/1b6/4p3/3N4/n7/2P5/7K w - - 0 1"),
        "d4g1",
    ),
    (
        "reflective",
        Some("4k3/rP6/8/8/8/8/8/4K3 w - - 0 1"),
        "b7b1",
    ),
    (
        "rolemodel",
        Some("3qk3/8/8/8/8/8/3N4/4K3 w - - 0 1"),
        "d2h6",
    ),
    // through a link (f8 to h6), Black's castling from d8, a clockwise rotation
    ("cloverleaf", Some("k7/8/8/5R2/8/8/8/7K w - - 0 1"), "f5a6"),
    (
        "cloverleaf",
        Some("r2k3r/pppppppp/8/8/8/8/8/4K3 b kq - 0 1"),
        "d8f8",
    ),
    ("rotary", Some("8/8/8/8/K3P2k/4B3/8/8 w - - 0 1"), "e3a8"),
];

/// Moves each variant refuses with a clear message, by the issues' lists of bad input: a drop
/// with nothing held, a slide the variant does not allow, a Wonderland move spelled to its
/// unmirrored square, powers a man does not have in its position, a coerced move of a defended
/// man, a Cloverleaf move through two joined corners, and (as a position) holdings in a variant
/// without them.
const REFUSED: [(&str, Option<&str>, &str); 10] = [
    ("emissary", None, "d1a4,N@d1"),
    ("summit", None, "e2e4,e4e5"),
    ("valley", None, "d2d4,d4c4"),
    ("wonderland", None, "g1f3"),
    // issue 13: a power the man does not have there (an unwatched Knight borrowing a slide; a
    // Bishop leaping from the wrong shade; a Knight on its King's rank, which moves as a King),
    // and a Coercion move of a defended enemy man
    ("countermove", None, "g1g3"),
    ("camouflage", None, "c1d3"),
    ("rolemodel", None, "b1c3"),
    ("coercion", None, "b8c6"),
    // a Rook path through two links (f8-h6, then a6-c8), and Rotary's rotation in Cloverleaf
    ("cloverleaf", Some("k7/8/8/5R2/8/8/8/7K w - - 0 1"), "f5c7"),
    (
        "cloverleaf",
        Some("8/8/8/8/K3P2k/4B3/8/8 w - - 0 1"),
        "e3a8",
    ),
];

/// A leg list that is no legal move in any of these positions.
const NONSENSE: &str = "a1a2,a2a1,a1a2";

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.expect(10, |l| l == "uciok");
    e
}

fn xboard() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.expect(10, |l| l == "feature done=1");
    e
}

fn position_command(fen: Option<&str>, moves: &str) -> String {
    let start = match fen {
        Some(f) => format!("position fen {f}"),
        None => "position startpos".to_string(),
    };
    format!("{start} moves {moves}")
}

#[test]
fn uci_offers_each_variant_and_passes_comma_moves_both_ways() {
    let mut e = uci();
    let combo = e
        .seen
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant"))
        .cloned()
        .expect("UCI_Variant option");
    for (variant, fen, mv) in CASES {
        assert!(
            combo.contains(&format!(" var {variant} "))
                || combo.ends_with(&format!(" var {variant}")),
            "{variant} missing from {combo}"
        );
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        // the board line a GUI reads: holdings (a pocket) where the variant has them
        let pocket = if variant == "emissary" { 5 } else { 0 };
        e.expect(10, |l| {
            l.starts_with(&format!("info string variant {variant} "))
                && l.contains(&format!(" pocket {pocket} "))
        });
        e.send(&position_command(fen, mv));
        e.send("d");
        let after = e.expect(10, |l| l.starts_with("FEN: "));
        e.send(&position_command(fen, ""));
        e.send("d");
        let before = e.expect(10, |l| l.starts_with("FEN: "));
        assert_ne!(after, before, "{variant}: {mv} was not played");
        // the engine's own answer is one token, legal when sent back
        e.send("go depth 2");
        let best = e.expect(30, |l| l.starts_with("bestmove "));
        let reply = best.split_whitespace().nth(1).expect("a move").to_string();
        e.send(&position_command(fen, &reply));
        e.send("isready");
        e.expect(10, |l| l == "readyok");
        assert!(
            !e.seen.iter().rev().take(3).any(|l| l.contains("error")),
            "{variant}: own move {reply} refused: {:?}",
            e.seen.iter().rev().take(3).collect::<Vec<_>>()
        );
        // a leg list that is no move of this position: refused, the engine serves on
        e.send(&position_command(fen, NONSENSE));
        e.expect(10, |l| l.starts_with("info string") && l.contains(NONSENSE));
        e.send("isready");
        e.expect(10, |l| l == "readyok");
    }
    assert!(e.quit());
}

#[test]
fn xboard_sets_up_each_variant_and_passes_comma_moves_both_ways() {
    let mut e = xboard();
    let features = e.seen.join("\n");
    for (variant, fen, mv) in CASES {
        assert!(
            features.contains(&format!(",{variant},"))
                || features.contains(&format!(",{variant}\"")),
            "{variant} missing from the variants feature"
        );
        e.send("new");
        e.send(&format!("variant {variant}"));
        e.expect(10, |l| {
            let holdings = if variant == "emissary" { "+5" } else { "+0" };
            l.starts_with("setup ") && l.contains(&format!(" 8x8{holdings}_fairy "))
        });
        e.send("force");
        if let Some(f) = fen {
            e.send(&format!("setboard {f}"));
        }
        e.send(&format!("usermove {NONSENSE}"));
        e.expect(10, |l| l == format!("Illegal move: {NONSENSE}"));
        let before = e.seen.len();
        e.send(&format!("usermove {mv}"));
        e.send("ping 1");
        e.expect(10, |l| l == "pong 1");
        assert!(
            !e.seen[before..].iter().any(|l| l.starts_with("Illegal")),
            "{variant}: {mv} refused"
        );
        // the engine answers with one token, which it accepts back as a move
        e.send("sd 2");
        e.send("go");
        let answer = e.expect(30, |l| l.starts_with("move "));
        let reply = answer.trim_start_matches("move ").to_string();
        e.send("force");
        e.send("undo");
        let before = e.seen.len();
        e.send(&format!("usermove {reply}"));
        e.send("ping 2");
        e.expect(10, |l| l == "pong 2");
        assert!(
            !e.seen[before..].iter().any(|l| l.starts_with("Illegal")),
            "{variant}: own move {reply} refused"
        );
    }
    assert!(e.quit());
}

#[test]
fn bad_moves_and_holdings_are_refused_over_both_protocols() {
    let mut e = uci();
    for (variant, fen, mv) in REFUSED {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send(&position_command(fen, mv));
        e.expect(10, |l| l.starts_with("info string") && l.contains(mv));
        e.send("isready");
        e.expect(10, |l| l == "readyok");
    }
    e.send("setoption name UCI_Variant value chess");
    e.send("position fen 4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    e.expect(10, |l| {
        l.starts_with("info string") && l.contains("holdings")
    });
    e.send("isready");
    e.expect(10, |l| l == "readyok");
    assert!(e.quit());

    let mut e = xboard();
    for (variant, fen, mv) in REFUSED {
        e.send("new");
        e.send(&format!("variant {variant}"));
        e.send("force");
        if let Some(f) = fen {
            e.send(&format!("setboard {f}"));
        }
        e.send(&format!("usermove {mv}"));
        e.expect(10, |l| l == format!("Illegal move: {mv}"));
    }
    e.send("new");
    e.send("variant chess");
    e.send("setboard 4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    e.expect(10, |l| l.starts_with("Error") && l.contains("holdings"));
    e.send("ping 3");
    e.expect(10, |l| l == "pong 3");
    assert!(e.quit());
}
