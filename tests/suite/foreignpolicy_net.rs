//! Foreign Policy's three-player net end to end through the binary: three-seat self-play
//! data, a net trained on it, the net chosen with `EvalFile` (before or after the variant)
//! and played; and the refusals (a two-colour net, two-colour options, damaged data).

use super::tune::{chimera, scratch, uci};

/// Data and a small net in a fresh folder: (folder, data file, net file).
fn data_and_net(name: &str) -> (std::path::PathBuf, String, String) {
    let dir = scratch(name);
    let data = dir.join("fp.txt").display().to_string();
    let net = dir.join("fp.nnue").display().to_string();
    let o = chimera(&[
        "datagen",
        "--variant",
        "foreignpolicy",
        "--games",
        "3",
        "--nodes",
        "300",
        "--threads",
        "2",
        "--seed",
        "3",
        "--out",
        &data,
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("datagen: 3 games"), "{err}");
    let o = chimera(&[
        "train",
        "--variant",
        "foreignpolicy",
        "--data",
        &data,
        "--out",
        &net,
        "--hidden",
        "16",
        "--epochs",
        "2",
        "--threads",
        "1",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("epoch 2/2") && err.contains("net written"),
        "{err}"
    );
    (dir, data, net)
}

#[test]
fn a_net_trained_on_three_seat_self_play_plays_foreign_policy() {
    let (dir, _, net) = data_and_net("fp-net");
    // chosen before the variant (as referees send it), it waits for Foreign Policy
    let text = uci(&format!(
        "uci\nsetoption name EvalFile value {net}\nsetoption name UCI_Variant value foreignpolicy\n\
         position startpos\ngo nodes 3000\n"
    ));
    assert!(
        text.contains(&format!("EvalFile {net} is a net for foreignpolicy")),
        "{text}"
    );
    assert!(text.contains("bestmove"), "{text}");
    // chosen in the variant, it says what it is, and <none> goes back to the rules
    let text = uci(&format!(
        "uci\nsetoption name UCI_Variant value foreignpolicy\nsetoption name EvalFile value {net}\n\
         setoption name EvalFile value <none>\nsetoption name EvalFile value {net}\n\
         position startpos moves b2b4\ngo nodes 3000\n"
    ));
    assert!(
        text.contains("foreignpolicy: NNUE evaluation with") && text.contains("-> 16 ->"),
        "{text}"
    );
    assert!(
        text.contains("foreignpolicy: rules-derived evaluation"),
        "{text}"
    );
    assert!(text.contains("bestmove"), "{text}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn wrong_nets_options_and_data_are_refused() {
    let (dir, data, net) = data_and_net("fp-refusals");
    // a two-colour net in Foreign Policy: the reason, and the evaluation stays
    let text = uci(
        "uci\nsetoption name UCI_Variant value foreignpolicy\nsetoption name EvalFile value chess.nnue\n\
         position startpos\ngo nodes 1000\n",
    );
    assert!(text.contains("a two-player net"), "{text}");
    assert!(text.contains("bestmove"), "{text}");
    // a three-player net in chess is kept for Foreign Policy, chess keeps its own net
    let text = uci(&format!(
        "uci\nsetoption name EvalFile value {net}\nposition startpos\ngo nodes 1000\n"
    ));
    assert!(text.contains("is a net for foreignpolicy"), "{text}");
    // options that only two colours have
    let o = chimera(&[
        "datagen",
        "--variant",
        "foreignpolicy",
        "--games",
        "1",
        "--book",
        "x.fen",
        "--out",
        "unused.txt",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--book is for two-colour variants"));
    let o = chimera(&[
        "train",
        "--variant",
        "foreignpolicy",
        "--data",
        &data,
        "--out",
        "unused.nnue",
        "--init",
        "chess.nnue",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--init is for two-colour variants"));
    // a damaged data line is named
    let bad = dir.join("bad.txt");
    let mut text = std::fs::read_to_string(&data).expect("data");
    text.push_str("garbage | 1 0 0 | 0 0 0\n");
    std::fs::write(&bad, &text).expect("written");
    let lines = text.lines().count();
    let o = chimera(&[
        "train",
        "--variant",
        "foreignpolicy",
        "--data",
        &bad.display().to_string(),
        "--out",
        "unused.nnue",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains(&format!("bad.txt, line {lines}: bad FP-FEN")),
        "{err}"
    );
    // a damaged net file
    let mut bytes = std::fs::read(&net).expect("net");
    bytes[40] ^= 0x10;
    let damaged = dir.join("damaged.nnue");
    std::fs::write(&damaged, bytes).expect("written");
    let text = uci(&format!(
        "uci\nsetoption name UCI_Variant value foreignpolicy\nsetoption name EvalFile value {}\n\
         position startpos\ngo nodes 1000\n",
        damaged.display()
    ));
    assert!(text.contains("damaged file"), "{text}");
    std::fs::remove_dir_all(dir).ok();
}
