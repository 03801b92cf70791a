//! Foreign Policy Chess (rules file 007, Part C): every test vector of C.4, FP-FEN in and out,
//! bad input refused with its message, random games checking keys, FEN round trips and
//! unmake, and perft against an independent model (tests/suite/fp_model).

use crate::fp_model;

use chimera::foreignpolicy::perft::{divide, perft};
use chimera::foreignpolicy::{
    move_to_string, outcome::points, FpPosition, MoveError, Player, PASS, START_FEN,
};
use chimera::moves::MoveList;
use chimera::variant::GameValue::{Draw, Loss, Win};

/// The rules file's notation (`a2-a3`, `d1xg4`, `b4-a4=B`, `d3xe2 e.p.`) in ours.
fn ours(tf: &str) -> String {
    tf.replace(" e.p.", "")
        .chars()
        .filter(|c| !matches!(c, '-' | 'x' | '='))
        .collect::<String>()
        .to_lowercase()
}

fn names(tf: &str) -> Vec<String> {
    let mut v: Vec<String> = tf.split_whitespace().map(ours).collect();
    v.sort();
    v
}

fn pos(fen: &str) -> FpPosition {
    chimera::geometry::attacks::init();
    FpPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(p: &mut FpPosition, moves: &str) {
    for m in moves.split_whitespace() {
        let text = ours(m);
        let mv = p
            .parse_move(&text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.to_fen()));
        p.make(mv);
    }
}

fn with_to_move(fen: &str, who: char) -> String {
    let mut f: Vec<&str> = fen.split(' ').collect();
    let w = who.to_string();
    f[1] = &w;
    f.join(" ").to_string()
}

#[test]
fn tf1_first_moves_of_each_player() {
    let south = "a2-a3 a2-a4 b1-a3 b1-c3 b2-b3 b2-b4 c2-c3 c2-c4 d1-e2 d1-f3 d1xg4 d2-d3 d2-d4 \
                 e1-e2 e1-e3";
    let north = "a7-a5 a7-a6 b7-b5 b7-b6 b8-a6 b8-c6 c7-c5 c7-c6 d7-d5 d7-d6 d8-e7 d8-f6 d8xg5 \
                 e8-e6 e8-e7";
    let peace = "g3-f3 g4-f4 g5-f5 g6-f6 h2-f1 h2-f3 h3-f1 h3-g2 h6-f8 h6-g7 h7-f6 h7-f8";
    for (who, list, n) in [('s', south, 15), ('n', north, 15), ('p', peace, 12)] {
        let p = pos(&with_to_move(START_FEN, who));
        assert_eq!(p.legal_move_names(), names(list), "{who}");
        assert_eq!(p.legal_move_names().len(), n);
    }
}

#[test]
fn start_fen_round_trip() {
    let p = FpPosition::startpos();
    assert_eq!(p.to_fen(), START_FEN);
    assert_eq!(p.side_to_move(), Player::South);
    assert_eq!(p.alive().count(), 3);
    assert_eq!(p.key(), p.compute_key());
    assert_eq!(pos(START_FEN).key(), p.key());
}

#[test]
fn tf2_south_removes_the_peacekeeper() {
    let mut p = FpPosition::startpos();
    play(&mut p, "d1xg4 a7-a6 g3-f3 g4xh5");
    assert_eq!(
        p.to_fen(),
        "nR,nN,nK,nB,nP,3/1,nP,nP,nP,4/nP,7/7,sB/8/8/sP,sP,sP,sP,4/sR,sN,sK,1,sP,3 n sn - 0 2"
    );
    assert_eq!(p.end(), None);
    let moves = p.legal_move_names();
    assert_eq!(moves.len(), 15, "{moves:?}");
    assert!(moves.contains(&"d8g5".into()) && moves.contains(&"d8h4".into()));
    assert_eq!(p.key(), p.compute_key());
}

#[test]
fn tf3_double_step_from_e1_and_en_passant() {
    let mut p = pos("nK,7/8/8/8/8/3,nP,4/8/sK,3,sP,2,pK s snp - 0 1");
    play(&mut p, "e1-e3");
    assert_eq!(p.to_fen(), "nK,7/8/8/8/8/3,nP,sP,3/8/sK,6,pK n snp e2 0 1");
    assert_eq!(p.legal_move_names(), names("a8-a7 a8-b7 a8-b8 d3-d2 d3xe2"));
    play(&mut p, "d3xe2");
    assert_eq!(p.to_fen(), "nK,7/8/8/8/8/8/4,nP,3/sK,6,pK p snp - 0 1");
    assert_eq!(p.key(), p.compute_key());
}

#[test]
fn tf3b_the_right_expires() {
    let mut p = pos("nK,7/8/8/8/8/3,nP,1,pP,2/8/sK,3,sP,2,pK s snp - 0 1");
    play(&mut p, "e1-e3 a8-b8");
    assert_eq!(p.side_to_move(), Player::Peacekeeper);
    assert_eq!(p.ep_square(), None);
    assert_eq!(p.legal_move_names(), names("h1-g1 h1-g2 h1-h2"));
}

#[test]
fn tf4_peacekeeper_promotion() {
    let p = pos("nK,7/8/8/sR,7/1,pP,6/8/8/sK,6,pK p snp - 0 1");
    assert_eq!(
        p.legal_move_names(),
        names("b4-a4=B b4-a4=N b4-a4=R b4xa5=B b4xa5=N b4xa5=R h1-g1 h1-g2 h1-h2")
    );
    let err = p.parse_move("b4a4q").unwrap_err();
    assert_eq!(err, MoveError::PeacekeeperQueen("b4a4q".into()));
    assert!(
        err.to_string().contains("may not promote to a queen"),
        "{err}"
    );
    assert!(p.parse_move("b4a5q").is_err());
}

#[test]
fn tf5_peacekeeper_destroys_north_then_south_draws() {
    let mut p = pos("nK,7/8/8/8/8/8/pQ,6,sR/sK,6,pK p snp - 0 1");
    play(&mut p, "a2xa8");
    assert_eq!(p.to_fen(), "pQ,7/8/8/8/8/8/7,sR/sK,6,pK s sp - 0 2");
    assert_eq!(p.end(), None);
    play(&mut p, "h2xh1");
    assert_eq!(p.end(), Some([Draw, Loss, Draw]));
    assert_eq!(p.outcome(), Some([Draw, Loss, Draw]));
    assert_eq!(points(&p.outcome().unwrap()), [0.5, 0.0, 0.5]);
    assert_eq!(p.legal_move_names(), Vec::<String>::new());
    assert!(matches!(p.parse_move("a1a2"), Err(MoveError::GameOver(_))));
}

#[test]
fn tf6_a_foreign_takes_the_other_king() {
    let mut p = pos("nK,7/8/8/8/8/8/8/sR,6,pK s snp - 0 1");
    play(&mut p, "a1xa8");
    assert_eq!(p.outcome(), Some([Win, Loss, Loss]));
    assert!(p.is_over());
    assert_eq!(p.count_moves(), 0);
}

#[test]
fn tf7_peacekeeper_takes_both_kings() {
    let mut p = pos("nK,7/8/8/8/8/8/8/sK,5,pQ,pK p snp - 0 1");
    play(&mut p, "g1xa1");
    assert_eq!(p.side_to_move(), Player::North);
    assert_eq!(p.end(), None);
    play(&mut p, "a8-a7 a1xa7");
    assert_eq!(p.outcome(), Some([Loss, Loss, Win]));
    assert_eq!(points(&p.outcome().unwrap()), [0.0, 0.0, 1.0]);
}

#[test]
fn duel_after_the_peacekeeper_falls_and_the_move_rule() {
    // a Foreign takes the Peacekeeper's king with the other Foreign in: a duel follows
    let mut p = pos("nK,7/8/8/8/8/8/8/sR,6,pK s snp - 0 1");
    play(&mut p, "a1h1");
    assert_eq!(p.end(), None);
    assert_eq!(p.alive().to_letters(), "sn");
    assert_eq!(p.side_to_move(), Player::North);
    // 100 plies with two players is the move rule's limit; 99 is not
    let q = pos("nK,7/8/8/8/8/8/8/sR,7 s sn - 99 60");
    assert!(!q.move_rule_draw());
    let q = pos("nK,7/8/8/8/8/8/8/sR,7 s sn - 100 60");
    assert_eq!(q.outcome(), Some([Draw, Draw, Loss]));
    let q = pos("nK,7/8/8/8/8/8/8/sR,6,pK s snp - 149 60");
    assert!(!q.move_rule_draw());
}

#[test]
fn threefold_repetition_draws_among_the_remaining() {
    let mut p = pos("nK,7/8/8/8/8/8/8/sK,6,pK s snp - 0 1");
    let cycle = "a1a2 a8a7 h1h2 a2a1 a7a8 h2h1";
    play(&mut p, cycle);
    assert_eq!(p.repetitions(), 1);
    assert!(p.outcome().is_none());
    play(&mut p, cycle);
    assert!(p.threefold());
    assert_eq!(p.outcome(), Some([Draw, Draw, Draw]));
    let third: f64 = points(&p.outcome().unwrap()).iter().sum();
    assert!((third - 1.0).abs() < 1e-12);
}

/// The Peacekeeper boxed in: king a8, bishops a7..a1, pawns b8..b1 (each pawn's step and
/// captures land on its own men), so it has no move at all.
const BOXED: &str = "pK,pP,5,nK/pB,pP,6/pB,pP,6/pB,pP,6/pB,pP,6/pB,pP,6/pB,pP,6/pB,pP,5,sK \
                     p snp - 3 1";

#[test]
fn a_player_without_a_move_passes() {
    let mut b = pos(BOXED);
    assert_eq!(b.legal_move_names(), vec!["0000".to_string()]);
    assert_eq!(perft(&mut b, 1), 1);
    let key = b.key();
    let mv = b.parse_move("0000").unwrap();
    assert_eq!(mv, PASS);
    assert_eq!(b.parse_move("pass").unwrap(), PASS);
    b.make(mv);
    assert_eq!(b.side_to_move(), Player::South);
    assert_eq!(b.halfmove_clock(), 4);
    assert_eq!(b.round(), 2);
    assert_eq!(b.key(), b.compute_key());
    assert_eq!(move_to_string(PASS), "0000");
    b.unmake();
    assert_eq!(b.key(), key);
    assert_eq!(
        b.to_fen(),
        BOXED.split_whitespace().collect::<Vec<_>>().join(" ")
    );
}

#[test]
fn bad_fens_are_refused_with_a_clear_message() {
    chimera::geometry::attacks::init();
    let ok = "nK,7/8/8/8/8/8/8/sK,6,pK s snp - 0 1";
    assert!(FpPosition::from_fen(ok).is_ok());
    let cases: &[(&str, &str)] = &[
        ("", "expected 6 fields"),
        ("nK,7/8/8/8/8/8/8/sK,6,pK s snp - 0", "expected 6 fields"),
        ("nK,7/8/8/8/8/8/sK,6,pK s snp - 0 1", "expected 8 ranks"),
        (
            "nK,6/8/8/8/8/8/8/sK,6,pK s snp - 0 1",
            "rank 8 covers 7 squares",
        ),
        (
            "nK,8/8/8/8/8/8/8/sK,6,pK s snp - 0 1",
            "rank 8 covers 9 squares",
        ),
        (
            "nK,7/8/8/8/8/8/8/sK,6,yK s snp - 0 1",
            "unknown owner letter in 'yK'",
        ),
        (
            "nK,7/8/8/8/8/8/8/sK,6,pX s snp - 0 1",
            "unknown piece letter in 'pX'",
        ),
        ("nK,7/8/8/8/8/8/8/sK,6,K s snp - 0 1", "bad token 'K'"),
        ("nK,7/8/8/8/8/8/8/sK,,6,pK s snp - 0 1", "bad token ''"),
        ("nK,7/8/8/8/8/8/8/sK,0,7 s snp - 0 1", "bad token '0'"),
        (
            "nK,7/8/8/8/8/8/8/sK,6,pK w snp - 0 1",
            "bad player to move 'w'",
        ),
        (
            "nK,7/8/8/8/8/8/8/sK,6,pK s snpg - 0 1",
            "bad alive field 'snpg'",
        ),
        (
            "nK,7/8/8/8/8/8/8/sK,6,pK s nsp - 0 1",
            "bad alive field 'nsp'",
        ),
        (
            "nK,7/8/8/8/8/8/8/sK,6,pK s ssp - 0 1",
            "bad alive field 'ssp'",
        ),
        ("8/8/8/8/8/8/8/sK,7 s s - 0 1", "the game is over"),
        (
            "nK,7/8/8/8/8/8/8/sK,7 p sn - 0 1",
            "the player to move, Peacekeeper, is not alive",
        ),
        (
            "nK,7/8/8/8/8/8/8/sK,6,pK s sn - 0 1",
            "Peacekeeper is not alive but has a man on h1",
        ),
        (
            "nK,nK,6/8/8/8/8/8/8/sK,6,pK s snp - 0 1",
            "North is alive with 2 kings",
        ),
        (
            "nK,7/8/8/8/8/8/8/sK,pP,5,pK s snp - 0 1",
            "Peacekeeper on b1, its promotion row? no",
        ),
        (
            "nK,7/8/8/8/8/8/8/pP,sK,5,pK s snp - 0 1",
            "a pawn of Peacekeeper on a1",
        ),
        (
            "nK,sP,6/8/8/8/8/8/8/sK,6,pK s snp - 0 1",
            "a pawn of South on b8",
        ),
        (
            "nK,7/8/8/8/8/8/8/sK,nP,5,pK s snp - 0 1",
            "a pawn of North on b1",
        ),
        (
            "nK,7/8/8/8/8/8/8/sK,6,pK s snp e9 0 1",
            "bad e.p. field 'e9'",
        ),
        (
            "nK,7/8/8/8/8/8/8/sK,6,pK n snp e3 0 1",
            "e.p. square e3 does not follow",
        ),
        (
            "nK,7/8/8/8/8/8/8/sK,6,pK s snp - x 1",
            "bad half-move clock 'x'",
        ),
        ("nK,7/8/8/8/8/8/8/sK,6,pK s snp - 0 0", "bad round '0'"),
        (
            "nK,7/8/8/8/8/8/8/sK,6,pK s snp - 0 1 extra",
            "expected 6 fields",
        ),
        ("nK,7/8/8/8/8/8/8/sK,6,pKé s snp - 0 1", "bad token"),
    ];
    for (fen, msg) in cases {
        if msg.ends_with("? no") {
            // a Peacekeeper pawn on b1 is legal: its promotion row is the a-file
            assert!(FpPosition::from_fen(fen).is_ok(), "{fen}");
            continue;
        }
        match FpPosition::from_fen(fen) {
            Ok(_) => panic!("accepted: {fen}"),
            Err(e) => assert!(e.to_string().contains(msg), "{fen}: '{e}' lacks '{msg}'"),
        }
    }
    // the consistent e.p. square of TF-3 is accepted
    assert!(FpPosition::from_fen("nK,7/8/8/8/8/3,nP,sP,3/8/sK,6,pK n snp e2 0 1").is_ok());
}

#[test]
fn bad_moves_are_refused_with_a_clear_message() {
    let p = FpPosition::startpos();
    for (text, msg) in [
        ("", "cannot read move"),
        ("e1", "cannot read move"),
        ("e1e9", "cannot read move"),
        ("e1e3x", "cannot read move"),
        ("e1e3qq", "cannot read move"),
        ("é1e3", "cannot read move"),
        ("e1e4", "not a legal move of South"),
        ("a8a7", "not a legal move of South"),
        ("0000", "not a legal move of South"),
        ("e1e3q", "not a legal move of South"),
    ] {
        let e = p.parse_move(text).expect_err(text);
        assert!(e.to_string().contains(msg), "{text}: '{e}' lacks '{msg}'");
    }
}

/// A small deterministic generator (xorshift64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn random_games_keep_keys_fens_and_unmake_exact() {
    chimera::geometry::attacks::init();
    let mut rng = Rng(0x5EED_F00D_1234_5678);
    let (mut plies, mut king_captures, mut removals, mut passes, mut ends) = (0, 0, 0, 0, 0);
    let mut games = 0;
    let mut list = MoveList::new();
    let starts = [
        START_FEN,
        // sparse positions make passes and game ends come quickly
        BOXED,
        "nK,7/8/8/8/8/8/pQ,6,sR/sK,6,pK p snp - 0 1",
        "nK,7/8/2,pP,5/8/8/8/8/sK,5,pQ,pK s snp - 0 1",
    ];
    while plies < 600 || ends < 8 {
        let mut p = pos(starts[games % starts.len()]);
        games += 1;
        for _ in 0..300 {
            p.legal_moves(&mut list);
            if list.is_empty() {
                assert!(p.is_over());
                ends += 1;
                break;
            }
            let m = list[(rng.next() % list.len() as u64) as usize];
            let before = (p.to_fen(), p.key(), p.alive());
            p.make(m);
            plies += 1;
            passes += usize::from(m == PASS);
            if p.alive() != before.2 {
                removals += 1;
                king_captures += 1;
            }
            assert_eq!(p.key(), p.compute_key(), "after {}", move_to_string(m));
            if !p.is_over() {
                let again = FpPosition::from_fen(&p.to_fen()).expect("own FEN reads");
                assert_eq!(again.to_fen(), p.to_fen());
                assert_eq!(again.key(), p.key());
            }
            p.unmake();
            assert_eq!((p.to_fen(), p.key(), p.alive()), before);
            p.make(m);
            if p.outcome().is_some() && !p.is_over() {
                break;
            }
        }
        assert!(games < 2000, "games do not end");
    }
    assert!(
        king_captures > 0 && removals > 0 && passes > 0 && ends > 0,
        "captures {king_captures} removals {removals} passes {passes} ends {ends}"
    );
}

#[test]
fn king_capturable_reports_attackers_per_player() {
    let p = pos("nK,7/8/8/8/8/8/8/sR,6,pK s snp - 0 1");
    assert!(p.king_capturable(Player::North, Player::South));
    assert!(!p.king_capturable(Player::North, Player::Peacekeeper));
    assert!(p.king_capturable(Player::Peacekeeper, Player::South));
    assert!(!p.king_capturable(Player::South, Player::South));
    // a Peacekeeper pawn on f3 takes on e2 and e4
    let q = pos("nK,7/8/8/8/4,sK,3/5,pP,2/8/7,pK s snp - 0 1");
    assert!(q.king_capturable(Player::South, Player::Peacekeeper));
    let q = pos("nK,7/8/8/8/6,sK,1/5,pP,2/8/7,pK s snp - 0 1");
    assert!(!q.king_capturable(Player::South, Player::Peacekeeper));
}

#[test]
fn divide_sums_to_perft() {
    let mut p = FpPosition::startpos();
    let d = divide(&mut p, 3);
    assert_eq!(d.len(), 15);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), perft(&mut p, 3));
    assert_eq!(p.to_fen(), START_FEN);
}

/// The start position with each player to move, and every TF position (before and after its
/// moves) and the boxed Peacekeeper: the positions of tests/perft/foreignpolicy.epd.
const CROSS_CHECKED: [&str; 14] = [
    START_FEN,
    "nR,nN,nK,nB,nP,3/nP,nP,nP,nP,3,pN/6,pP,pB/6,pP,pK/6,pP,pQ/6,pP,pB/sP,sP,sP,sP,3,pN/sR,sN,sK,sB,sP,3 n snp - 0 1",
    "nR,nN,nK,nB,nP,3/nP,nP,nP,nP,3,pN/6,pP,pB/6,pP,pK/6,pP,pQ/6,pP,pB/sP,sP,sP,sP,3,pN/sR,sN,sK,sB,sP,3 p snp - 0 1",
    "nR,nN,nK,nB,nP,3/1,nP,nP,nP,4/nP,7/7,sB/8/8/sP,sP,sP,sP,4/sR,sN,sK,1,sP,3 n sn - 0 2",
    "nK,7/8/8/8/8/3,nP,4/8/sK,3,sP,2,pK s snp - 0 1",
    "nK,7/8/8/8/8/3,nP,sP,3/8/sK,6,pK n snp e2 0 1",
    "nK,7/8/8/8/8/3,nP,1,pP,2/8/sK,3,sP,2,pK s snp - 0 1",
    "nK,7/8/8/sR,7/1,pP,6/8/8/sK,6,pK p snp - 0 1",
    "nK,7/8/8/8/8/8/pQ,6,sR/sK,6,pK p snp - 0 1",
    "pQ,7/8/8/8/8/8/7,sR/sK,6,pK s sp - 0 2",
    "nK,7/8/8/8/8/8/8/sR,6,pK s snp - 0 1",
    "nK,7/8/8/8/8/8/8/sK,5,pQ,pK p snp - 0 1",
    BOXED,
    EP_PROMOTION,
];

/// North to move: after a7-a5 the Peacekeeper's b5 pawn takes e.p. on a6, its promotion row.
const EP_PROMOTION: &str = "nK,7/nP,7/8/1,pP,6/8/8/8/sK,6,pK n snp - 0 1";

#[test]
fn en_passant_onto_the_a_file_promotes() {
    let mut p = pos(EP_PROMOTION);
    play(&mut p, "a7-a5");
    assert_eq!(p.ep_square().map(|s| s.to_string()), Some("a6".into()));
    let names = p.legal_move_names();
    for m in ["b5a6r", "b5a6b", "b5a6n"] {
        assert!(names.contains(&m.to_string()), "{names:?}");
    }
    assert!(!names.contains(&"b5a6".to_string()));
    assert!(matches!(
        p.parse_move("b5a6q"),
        Err(MoveError::PeacekeeperQueen(_))
    ));
    let key = p.key();
    let fen = p.to_fen();
    play(&mut p, "b5a6n");
    assert_eq!(p.to_fen(), "nK,7/8/pN,7/8/8/8/8/sK,6,pK s snp - 0 2");
    assert_eq!(p.key(), p.compute_key());
    p.unmake();
    assert_eq!((p.to_fen(), p.key()), (fen, key));
}

/// Largest leaf count the model is asked for by default (`CHIMERA_FP_MODEL_BUDGET` widens
/// it; the model copies the position at every node, so it is slow).
fn model_budget() -> u64 {
    std::env::var("CHIMERA_FP_MODEL_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000)
}

#[test]
fn model_agrees_with_the_engine() {
    let budget = model_budget();
    for fen in CROSS_CHECKED {
        let mut p = pos(fen);
        let model = fp_model::Model::from_fen(fen);
        assert_eq!(p.legal_move_names(), model.move_names(), "{fen}");
        let mut depth = 1;
        // depths 1..3 always, deeper while the engine's count stays within the budget
        while depth <= 3 || (depth <= 8 && perft(&mut p, depth) <= budget) {
            assert_eq!(
                perft(&mut p, depth),
                model.perft(depth),
                "{fen} depth {depth}"
            );
            depth += 1;
        }
        eprintln!("model agrees to depth {}: {fen}", depth - 1);
        for depth in 1..=2 {
            let mut engine = Vec::new();
            leaf_fens(&mut p, depth, &mut engine);
            engine.sort();
            let mut expected = model.leaf_fens(depth);
            expected.sort();
            assert_eq!(engine, expected, "{fen} depth {depth}");
        }
    }
}

/// The FP-FEN of every leaf at `depth` (with the result of finished games appended).
fn leaf_fens(p: &mut FpPosition, depth: u32, out: &mut Vec<String>) {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    for &m in list.iter() {
        p.make(m);
        if depth == 1 {
            out.push(format!("{} {:?}", p.to_fen(), p.end()));
        } else {
            leaf_fens(p, depth - 1, out);
        }
        p.unmake();
    }
}

/// Runs `chimera` with `args`: (exit success, stdout, stderr).
fn chimera(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(args)
        .output()
        .expect("chimera runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn command_line_perft_divide_and_errors() {
    let (ok, out, _) = chimera(&["perft", "--variant", "foreignpolicy", "3"]);
    assert!(ok && out.contains("Nodes: 2790"), "{out}");
    let (ok, out, _) = chimera(&[
        "divide",
        "--variant",
        "foreignpolicy",
        "--moves",
        "d1g4",
        "a7a6",
        "g3f3",
        "2",
    ]);
    assert!(
        ok && out.contains("Moves: 19") && out.contains("g4h5: 15"),
        "{out}"
    );
    let tf4 = "nK,7/8/8/sR,7/1,pP,6/8/8/sK,6,pK p snp - 0 1";
    let (ok, out, _) = chimera(&["moves", "--variant", "foreignpolicy", "--fen", tf4]);
    assert!(
        ok && out.starts_with("b4a4b b4a4n b4a4r b4a5b") && out.contains("Moves: 9"),
        "{out}"
    );
    let (ok, out, _) = chimera(&["perft", "--variant", "foreignpolicy", "--fen", tf4, "1"]);
    assert!(ok && out.contains("Nodes: 9"), "{out}");
    for (args, msg) in [
        (vec!["--fen", "nK,7/8 s snp - 0 1"], "bad FP-FEN"),
        (
            vec!["--fen", tf4, "--moves", "b4a4q"],
            "may not promote to a queen",
        ),
        (vec!["--moves", "e1e4"], "not a legal move of South"),
        (vec!["--moves", "zz"], "cannot read move"),
        (vec![], "<DEPTH>"),
    ] {
        let mut all = vec!["perft", "--variant", "foreignpolicy"];
        all.extend(args.iter());
        if msg != "<DEPTH>" {
            all.push("1");
        }
        let (ok, _, err) = chimera(&all);
        assert!(!ok && err.contains(msg), "{all:?}: {err}");
    }
}

#[test]
fn text_board_shows_owner_and_piece() {
    let text = FpPosition::startpos().board_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "8  nR nN nK nB nP .. .. ..");
    assert_eq!(lines[7], "1  sR sN sK sB sP .. .. ..");
    assert_eq!(lines[8], "   a  b  c  d  e  f  g  h");
    assert_eq!(lines[9], "to move: South  alive: South North Peacekeeper");
    assert_eq!(lines[10], format!("FP-FEN: {START_FEN}"));
}

#[test]
fn a_copy_plays_on_independently() {
    let mut p = FpPosition::startpos();
    play(&mut p, "e1e3 e8e6");
    let mut q = p.clone();
    play(&mut q, "g3f3");
    assert_eq!(p.side_to_move(), Player::Peacekeeper);
    assert_eq!(q.side_to_move(), Player::South);
    q.unmake();
    q.unmake();
    assert_eq!(q.plies(), 1);
    assert_eq!(q.key(), q.compute_key());
    assert_eq!(p.plies(), 2);
    // unmake at the set-up position changes nothing
    let mut s = FpPosition::startpos();
    s.unmake();
    assert_eq!(
        (s.to_fen(), s.key()),
        (START_FEN.to_string(), s.compute_key())
    );
}

#[test]
fn garbled_fens_and_moves_never_panic() {
    chimera::geometry::attacks::init();
    let mut rng = Rng(0xBAD_1A9E7);
    let alphabet: Vec<char> = "snpKQRBNPx0123456789,/ -é".chars().collect();
    let mut accepted = 0;
    for _ in 0..20_000 {
        let mut s: Vec<char> = START_FEN.chars().collect();
        for _ in 0..1 + rng.next() % 4 {
            let i = (rng.next() % s.len() as u64) as usize;
            let c = alphabet[(rng.next() % alphabet.len() as u64) as usize];
            match rng.next() % 3 {
                0 => s[i] = c,
                1 => s.insert(i, c),
                _ => {
                    s.remove(i);
                }
            }
        }
        let fen: String = s.into_iter().collect();
        if let Ok(p) = FpPosition::from_fen(&fen) {
            accepted += 1;
            assert_eq!(FpPosition::from_fen(&p.to_fen()).unwrap().key(), p.key());
            let _ = p.parse_move(&fen[..fen.len().min(5)]);
        }
    }
    assert!(accepted > 0);
    let p = FpPosition::startpos();
    for text in [
        "",
        "é",
        "e1e3é",
        "a1a1",
        "h9h9",
        "0000x",
        "pass pass",
        "e1e3n\u{0}",
    ] {
        assert!(p.parse_move(text).is_err(), "{text}");
    }
}
