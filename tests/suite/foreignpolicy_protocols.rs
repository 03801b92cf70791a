//! Foreign Policy over both protocols (rules file C.5): UCI `UCI_Variant foreignpolicy`,
//! `position startpos|fen <FP-FEN> moves ...`, `go` answering for whichever player is to move
//! with its per-player utilities; XBoard `variant foreignpolicy`, `setboard`, force mode, `go`
//! moving once for the player to move; the three-colour text board; and the bad input
//! (four owners, a rank not summing to 8, a player to move not alive, men of a removed player,
//! a Peacekeeper pawn promoting to a queen), each refused while the engine keeps serving.

use crate::driver;
use driver::Engine;

const START_AFTER_3: &str = "nR,nN,nK,nB,nP,3/1,nP,nP,nP,3,pN/nP,5,pP,pB/6,pP,pK/6,sB,pQ/\
5,pP,1,pB/sP,sP,sP,sP,3,pN/sR,sN,sK,1,sP,3 s snp - 0 2";
const TF3: &str = "nK,7/8/8/8/8/3,nP,4/8/sK,3,sP,2,pK s snp - 0 1";
const TF4: &str = "nK,7/8/8/sR,7/1,pP,6/8/8/sK,6,pK p snp - 0 1";
const TF6: &str = "nK,7/8/8/8/8/8/8/sR,6,pK s snp - 0 1";

/// FP-FENs the engine must refuse, with a word its message must contain.
const BAD_FENS: [(&str, &str); 4] = [
    // a fourth owner
    ("nK,7/8/8/8/8/8/8/sK,5,xK,pK s snp - 0 1", "three players"),
    // a rank of nine squares
    ("nK,8/8/8/8/8/8/8/sK,6,pK s snp - 0 1", "rank 8"),
    // South to move but not alive
    ("nK,7/8/8/8/8/8/8/7,pK s np - 0 1", "not alive"),
    // men of the removed Peacekeeper
    ("nK,7/8/8/8/8/8/8/sK,6,pK s sn - 0 1", "not alive"),
];

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.expect(10, |l| l == "uciok");
    e.send("setoption name UCI_Variant value foreignpolicy");
    e.expect(10, |l| {
        l.starts_with("info string variant foreignpolicy players 3 ")
    });
    e
}

#[test]
fn uci_plays_for_whoever_is_to_move() {
    let mut e = uci();
    assert!(e
        .seen
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant") && l.contains(" var foreignpolicy")));
    e.send("position startpos moves d1g4 a7a6 g3f3");
    e.send("d");
    e.expect(10, |l| l == format!("FP-FEN: {START_AFTER_3}"));
    // South to move: it answers for South, with the utilities of its line
    e.send("go depth 3");
    e.expect(30, |l| l.starts_with("info string utilities s="));
    let best = e.expect(30, |l| l.starts_with("bestmove "));
    let mv = best.split_whitespace().nth(1).expect("a move").to_string();
    // the answer is a legal move of South: sent back, accepted
    e.send(&format!("position startpos moves d1g4 a7a6 g3f3 {mv}"));
    e.send("isready");
    e.expect(10, |l| l == "readyok");
    assert!(
        !e.seen.iter().rev().take(3).any(|l| l.contains("error")),
        "{mv} refused"
    );
    // then North is to move, and `go` answers for North
    e.send("go depth 2");
    e.expect(10, |l| l.starts_with("info string North to move"));
    e.expect(30, |l| l.starts_with("bestmove "));
    // TF-6: South takes North's king and wins
    e.send(&format!("position fen {TF6}"));
    e.send("go depth 2");
    e.expect(30, |l| {
        l == "bestmove a1a8" || l.starts_with("bestmove a1a8 ")
    });
    // and so with max-n search
    assert!(e
        .seen
        .iter()
        .any(|l| l.starts_with("option name MultiPlayerSearch type combo default paranoid")));
    e.send("setoption name MultiPlayerSearch value maxn");
    e.send("go depth 2");
    e.expect(30, |l| {
        l == "bestmove a1a8" || l.starts_with("bestmove a1a8 ")
    });
    e.send("setoption name MultiPlayerSearch value bogus");
    e.expect(10, |l| {
        l.starts_with("info string") && l.contains("paranoid or maxn")
    });
    assert!(e.quit());
}

#[test]
fn uci_refuses_bad_fp_fens_and_moves_and_keeps_serving() {
    let mut e = uci();
    for (fen, word) in BAD_FENS {
        e.send(&format!("position fen {fen}"));
        let line = e.expect(10, |l| l.starts_with("info string"));
        assert!(
            line.contains("FP-FEN") && line.contains(word),
            "{fen}: {line}"
        );
        e.send("isready");
        e.expect(10, |l| l == "readyok");
    }
    // a Peacekeeper pawn may not become a queen (TF-4)
    e.send(&format!("position fen {TF4}"));
    e.send(&format!("position fen {TF4} moves b4a4q"));
    let line = e.expect(10, |l| l.starts_with("info string"));
    assert!(line.contains("queen"), "{line}");
    // a move of a removed player: after South takes the Peacekeeper's king (TF-2's line), the
    // Peacekeeper's queen on h4 has left the board with its army
    e.send("position startpos moves d1g4 a7a6 g3f3 g4h5 h4h1");
    let line = e.expect(10, |l| l.starts_with("info string"));
    assert!(line.contains("h4h1") && line.contains("North"), "{line}");
    e.send("isready");
    e.expect(10, |l| l == "readyok");
    // the position is unchanged by a refused list: still TF-4, the Peacekeeper to move
    e.send("d");
    e.expect(10, |l| l == format!("FP-FEN: {TF4}"));
    assert!(e.quit());
}

#[test]
fn xboard_plays_in_force_mode_and_go_moves_once() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.expect(10, |l| l.contains("done=1"));
    let features = e.seen.join("\n");
    assert!(features.contains("foreignpolicy"), "{features}");
    e.send("new");
    e.send("variant foreignpolicy");
    e.expect(10, |l| l.starts_with("# foreignpolicy: three players"));
    e.send("force");
    e.send(&format!("setboard {TF3}"));
    // TF-3: e1-e3, then North takes en passant on e2
    e.send("usermove e1e3");
    e.send("usermove d3e2");
    e.send("d");
    e.expect(10, |l| {
        l.starts_with("# FP-FEN: nK,7/8/8/8/8/8/4,nP,3/sK,6,pK p snp - 0 1")
    });
    // an illegal move gets a reason
    e.send("usermove h1h3");
    e.expect(10, |l| {
        l.starts_with("Illegal move (") && l.ends_with(": h1h3")
    });
    // go: one move for the Peacekeeper, then back to force mode
    e.send("sd 2");
    e.send("go");
    e.expect(30, |l| l.starts_with("move "));
    let before = e.seen.len();
    e.send("usermove a1a2");
    e.send("ping 7");
    e.expect(10, |l| l == "pong 7");
    let after = &e.seen[before..];
    assert!(
        !after
            .iter()
            .any(|l| l.starts_with("move ") || l.starts_with("Illegal")),
        "the engine moved again or refused South's move: {after:?}"
    );
    // TF-4 in XBoard: the queen promotion refused with its reason
    e.send(&format!("setboard {TF4}"));
    e.send("usermove b4a4q");
    e.expect(10, |l| {
        l.starts_with("Illegal move (") && l.contains("queen")
    });
    e.send(&format!("setboard {}", BAD_FENS[0].0));
    e.expect(10, |l| {
        l.starts_with("Error") && l.contains("three players")
    });
    e.send("ping 8");
    e.expect(10, |l| l == "pong 8");
    assert!(e.quit());
}
