//! XBoard (CECP v2) transcripts against the built binary.

use crate::driver;
use driver::Engine;

fn xboard() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.expect(10, |l| l == "feature done=1");
    e
}

#[test]
fn features_name_every_variant() {
    let mut e = xboard();
    let all = e.seen.join("\n");
    for f in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "colors=0",
        "analyze=1",
        "myname=\"Chimera",
        "variants=\"normal,",
    ] {
        assert!(all.contains(f), "missing {f}:\n{all}");
    }
    assert!(
        all.contains("palace") && all.contains("missingfile"),
        "{all}"
    );
    e.send("ping 7");
    e.expect(10, |l| l == "pong 7");
    assert!(e.quit());
}

#[test]
fn plays_as_black_after_new() {
    let mut e = xboard();
    e.send("new");
    e.send("sd 3");
    e.send("usermove e2e4");
    let reply = e.expect(30, |l| l.starts_with("move "));
    let mv = reply.trim_start_matches("move ");
    assert_eq!(mv.len(), 4, "{mv}");
    e.send("usermove e2e5");
    e.expect(10, |l| l == "Illegal move: e2e5");
    e.send("frobnicate");
    e.expect(10, |l| l == "Error (unknown command): frobnicate");
    assert!(e.quit());
}

#[test]
fn force_go_undo_and_setboard() {
    let mut e = xboard();
    e.send("new");
    e.send("force");
    e.send("usermove e2e4");
    e.send("usermove e7e5");
    e.send("undo");
    e.send("sd 2");
    e.send("go");
    // Black to move after the undo; the engine now plays Black
    let reply = e.expect(30, |l| l.starts_with("move "));
    assert_ne!(reply, "move e7e5xx");
    e.send("force");
    e.send("setboard 8/8/8/8/8/8/8/8 w - - 0 1");
    let l = e.expect(10, |l| l.starts_with("Error ("));
    assert!(l.contains("setboard"), "{l}");
    e.send("setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("sd 3");
    e.send("go");
    e.expect(30, |l| l == "move d1d8");
    e.expect(10, |l| l.starts_with("1-0 {White wins by checkmate"));
    assert!(e.quit());
}

#[test]
fn variant_setup_and_thinking_output() {
    let mut e = xboard();
    e.send("new");
    e.send("variant missingfile");
    let l = e.expect(10, |l| l.starts_with("setup "));
    assert!(
        l.ends_with("1rnqkbnr/1ppppppp/8/8/8/8/1PPPPPPP/1RNQKBNR w KQkq - 0 1"),
        "{l}"
    );
    e.expect(10, |l| l == "piece B& BN");
    e.send("post");
    e.send("sd 3");
    e.send("go");
    e.expect(30, |l| l.starts_with("move "));
    // thinking lines: depth score time nodes pv
    assert!(
        e.seen
            .iter()
            .any(|l| l.starts_with("3 ") && l.split_whitespace().count() >= 5),
        "{:?}",
        e.seen
    );
    e.send("variant nosuch");
    e.expect(10, |l| l.starts_with("Error (unknown variant 'nosuch')"));
    assert!(e.quit());
}

#[test]
fn analyze_mode() {
    let mut e = xboard();
    e.send("new");
    e.send("force");
    e.send("post");
    e.send("analyze");
    e.expect(10, |l| l.starts_with("4 "));
    e.send("usermove e2e4");
    e.expect(10, |l| l.starts_with("4 "));
    e.send("exit");
    e.send("ping 3");
    e.expect(10, |l| l == "pong 3");
    assert!(e.quit());
}

#[test]
fn where_xboard_cannot_judge_the_winner_does_not_claim_and_the_loser_resigns() {
    // Espionage (a spy XBoard cannot know): Ra1 mates
    let mate_in_one = "k6/2K4/7/7/7/7/6R w - - 0 1";
    let mut e = xboard();
    e.send("new");
    e.send("variant espionage");
    e.send("force");
    e.send(&format!("setboard {mate_in_one}"));
    e.send("sd 3");
    e.send("go");
    e.expect(30, |l| l == "move g1a1");
    let said = e.expect(10, |l| l.starts_with('#') && l.contains("checkmate"));
    assert!(said.contains("1-0"), "{said}");
    e.send("ping 1");
    e.expect(10, |l| l == "pong 1");
    let claims: Vec<&String> = e.seen.iter().filter(|l| l.starts_with("1-0")).collect();
    assert!(
        claims.is_empty(),
        "a claim XBoard would judge by its rules: {claims:?}"
    );
    // the engine on the losing side resigns
    e.send("force");
    e.send(&format!("setboard {mate_in_one}"));
    e.send("playother");
    e.send("usermove g1a1");
    e.expect(10, |l| l == "resign");
    assert!(e.quit());
}

/// The popups of one kind (`telluser` or `tellusererror`) among the lines seen, for
/// `ping n` sent now.
fn popups_until_pong(e: &mut Engine, n: u32, kind: &str) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let pong = format!("pong {n}");
    e.expect(10, |l| l == pong);
    let kind = format!("{kind} ");
    let popups = e.seen.iter().filter(|l| l.starts_with(&kind));
    let popups = popups.cloned().collect();
    e.seen.clear();
    popups
}

#[test]
fn the_user_is_told_once_where_xboard_cannot_referee_two_engines() {
    let mut e = xboard();
    e.send("new");
    // 007: a ply chosen by the colour that does not move; Bracket: moves of two men
    for (n, (variant, why)) in [("007detente", "chooses"), ("bracket", "several men")]
        .into_iter()
        .enumerate()
    {
        e.send(&format!("variant {variant}"));
        let told = popups_until_pong(&mut e, n as u32, "telluser");
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(
            told[0].contains(variant) && told[0].contains(why),
            "{}",
            told[0]
        );
    }
    // again the same variant, and variants XBoard can referee: nothing more
    for variant in [
        "007detente",
        "espionage",
        "garrison",
        "countermove",
        "normal",
    ] {
        e.send(&format!("variant {variant}"));
    }
    let told = popups_until_pong(&mut e, 9, "telluser");
    assert!(told.is_empty(), "{told:?}");
    assert!(e.quit());
}

#[test]
fn the_user_is_told_to_turn_legality_testing_off_where_xboard_refuses_a_promotion() {
    let mut e = xboard();
    e.send("new");
    // Espionage promotes on its last two ranks, Haven on its seventh: XBoard only on the last
    for (n, variant) in ["espionage", "haven"].into_iter().enumerate() {
        e.send(&format!("variant {variant}"));
        let told = popups_until_pong(&mut e, n as u32, "tellusererror");
        assert_eq!(told.len(), 1, "{told:?}");
        for part in [
            variant,
            "promotion before the last rank",
            "-testLegality false",
        ] {
            assert!(told[0].contains(part), "{part}: {}", told[0]);
        }
    }
    // once a variant; nothing where XBoard's pawns are ours, nor where it cannot referee at all
    for variant in [
        "espionage",
        "normal",
        "garrison",
        "interior",
        "periphery",
        "007detente",
    ] {
        e.send(&format!("variant {variant}"));
    }
    let told = popups_until_pong(&mut e, 9, "tellusererror");
    assert!(told.is_empty(), "{told:?}");
    assert!(e.quit());
}

/// XBoard knows a man's moves only from the Betza text of `setup`'s `piece` lines and judges
/// checks by them: a variant whose men have more powers (by the square, the position, a
/// mirror leap) or whose checks follow rules of their own is refused or misjudged with
/// legality testing on (a camouflage game forfeited on a shade move, f3e4, in XBoard 4.9).
#[test]
fn the_user_is_told_to_turn_legality_testing_off_where_xboard_does_not_know_the_men() {
    let mut e = xboard();
    e.send("new");
    let cases = [
        ("camouflage", "powers that depend on the square"),
        ("kaleidoscope", "mirror leaps"),
        ("rolemodel", "moves that depend on the position"),
        ("countermove", "moves that depend on the position"),
        ("cloverleaf", "moves that depend on the position"),
        ("hippophobic", "checks judged by rules of its own"),
        ("jadoube", "cannot capture next to them"),
    ];
    for (n, (variant, why)) in cases.into_iter().enumerate() {
        e.send(&format!("variant {variant}"));
        let told = popups_until_pong(&mut e, n as u32, "tellusererror");
        assert_eq!(told.len(), 1, "{variant}: {told:?}");
        for part in [variant, why, "-testLegality false"] {
            assert!(told[0].contains(part), "{part}: {}", told[0]);
        }
    }
    // men XBoard knows from their Betza text: nothing to say
    for variant in [
        "palace",
        "missingfile",
        "garrison",
        "nonlinear",
        "torpedo-paletta",
    ] {
        e.send(&format!("variant {variant}"));
    }
    let told = popups_until_pong(&mut e, 99, "tellusererror");
    assert!(told.is_empty(), "{told:?}");
    assert!(e.quit());
}

/// The move the engine ponders on, from its `# ponder MOVE` line after `move ...`.
fn ponder_line(e: &mut Engine) -> String {
    e.expect(30, |l| l.starts_with("move "));
    let l = e.expect(10, |l| l.starts_with("# ponder "));
    l.trim_start_matches("# ponder ").to_string()
}

#[test]
fn hard_ponders_on_the_expected_reply_and_takes_a_wrong_guess_back() {
    let mut e = xboard();
    e.send("new");
    e.send("hard");
    e.send("sd 3");
    e.send("usermove e2e4");
    let guess = ponder_line(&mut e);
    // "move now" is not ours to obey while pondering, and ping is answered at once
    e.send("?");
    e.send("ping 1");
    e.expect(10, |l| l == "pong 1");
    assert!(!e.seen.iter().rev().take(2).any(|l| l.starts_with("move ")));
    // a miss: the guess is taken back, the real move played (a2a3 and h2h3 are legal after
    // any first reply), and the engine thinks anew
    let miss = if guess == "a2a3" { "h2h3" } else { "a2a3" };
    e.send(&format!("usermove {miss}"));
    let guess = ponder_line(&mut e);
    assert!(
        !e.seen.iter().any(|l| l.starts_with("Illegal move")),
        "{:?}",
        e.seen
    );
    e.send("hint");
    e.expect(10, |l| l == format!("Hint: {guess}"));
    // a hit: the ponder search goes on and answers
    e.send(&format!("usermove {guess}"));
    let before = e.seen.len();
    let guess = ponder_line(&mut e);
    assert!(
        !e.seen[before..]
            .iter()
            .any(|l| l.starts_with("Illegal move")),
        "{:?}",
        e.seen
    );
    // force while pondering takes the guess back: it is White's move again
    e.send("force");
    e.send(&format!("usermove {guess}"));
    e.send("ping 2");
    e.expect(10, |l| l == "pong 2");
    assert!(
        !e.seen.iter().any(|l| l.starts_with("Illegal move")),
        "{:?}",
        e.seen
    );
    // easy: no pondering after the next move
    e.send("easy");
    e.send("go");
    e.expect(30, |l| l.starts_with("move "));
    let after = e.drain(300);
    assert!(
        !after.iter().any(|l| l.starts_with("# ponder")),
        "{after:?}"
    );
    assert!(e.quit());
}
