//! The incremental state is exact: in random games of every built-in variant the Zobrist key
//! kept by `make` equals the key computed from scratch, the FEN re-parses to the same key, and
//! `unmake` restores the previous FEN and key exactly. Transpositions give equal keys.

use chimera::movegen::{legal_moves, move_to_string, parse_move};
use chimera::moves::MoveList;
use chimera::position::Position;
use chimera::position::Variant;
use chimera::rules::{builtin_variants, VariantSet};

/// A small deterministic PRNG (splitmix64), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const GAMES: usize = 50;
const PLIES: usize = 80;

/// Plays `GAMES` random games of `PLIES` plies from `start`, checking every invariant after
/// every make and unmake. Returns the number of moves made.
fn random_games(rules: &'static Variant, start: &Position, seed: u64) -> usize {
    let name = &rules.name;
    let mut rng = Rng(seed);
    let mut made = 0;
    for game in 0..GAMES {
        let mut pos = start.clone();
        let mut line: Vec<String> = Vec::new();
        for _ in 0..PLIES {
            let mut list = MoveList::new();
            legal_moves(&mut pos, &mut list);
            if list.is_empty() {
                break;
            }
            let before_fen = pos.fen();
            let before_key = pos.key();
            let before_state = *pos.state();
            let m = list.as_slice()[rng.below(list.len())];
            let text = move_to_string(&pos, m).to_string();
            line.push(text.clone());
            let ctx = || format!("[{name}] game {game}, moves {}", line.join(" "));

            // the canonical spelling parses back to the same move
            assert_eq!(
                parse_move(&mut pos, &text),
                Ok(m),
                "{}: '{text}' does not parse back",
                ctx()
            );
            assert_eq!(
                pos.fen(),
                before_fen,
                "{}: parse_move changed the position",
                ctx()
            );

            pos.make(m);
            made += 1;
            assert_eq!(
                pos.key(),
                pos.compute_key(),
                "{}: incremental key drifted; FEN {}",
                ctx(),
                pos.fen()
            );
            let fen = pos.fen();
            let reparsed = Position::from_fen(rules, &fen)
                .unwrap_or_else(|e| panic!("{}: own FEN '{fen}' rejected: {e}", ctx()));
            assert_eq!(reparsed.fen(), fen, "{}: FEN does not round-trip", ctx());
            assert_eq!(
                reparsed.key(),
                pos.key(),
                "{}: re-parsed FEN '{fen}' has another key",
                ctx()
            );

            // unmake restores everything, and making the move again gives the same result
            pos.unmake();
            assert_eq!(
                pos.fen(),
                before_fen,
                "{}: unmake did not restore the FEN",
                ctx()
            );
            assert_eq!(
                pos.key(),
                before_key,
                "{}: unmake did not restore the key",
                ctx()
            );
            assert_eq!(
                *pos.state(),
                before_state,
                "{}: unmake did not restore the state",
                ctx()
            );
            pos.make(m);
            assert_eq!(pos.fen(), fen, "{}: remaking gives another FEN", ctx());
        }
        // unwinding the whole game returns to the start
        while pos.moves_played() > 0 {
            pos.unmake();
            assert_eq!(
                pos.key(),
                pos.compute_key(),
                "[{name}] game {game}: unwinding"
            );
        }
        assert_eq!(pos.fen(), start.fen(), "[{name}] game {game}: unwound FEN");
        assert_eq!(pos.key(), start.key(), "[{name}] game {game}: unwound key");
    }
    made
}

#[test]
fn random_games_keep_keys_and_undo_exact_in_every_builtin_variant() {
    let set = builtin_variants();
    assert!(!set.names().is_empty());
    for (i, name) in set.names().iter().enumerate() {
        let rules = set.get(name).expect("listed variant exists");
        let start = Position::startpos(rules);
        assert_eq!(start.key(), start.compute_key(), "[{name}] start key");
        let made = random_games(rules, &start, 0xC0FFEE + i as u64);
        // every built-in variant has moves from its start position
        assert!(made > GAMES, "[{name}] only {made} moves were played");
    }
}

/// Positions rich in castling, en passant and promotions, so those edits are exercised often.
#[test]
fn random_games_from_tactical_chess_positions() {
    let set = builtin_variants();
    let fens = [
        // kiwipete: castling both ways, pins, en passant chances
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        // promotions for both sides, under-promotion choices
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        // en passant available at once
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        // Shredder castling letters (inner rooks)
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
    ];
    for name in ["chess", "periphery", "jadoube", "bracket", "eviction"] {
        let Some(rules) = set.get(name) else {
            continue;
        };
        for (i, fen) in fens.iter().enumerate() {
            let start = match Position::from_fen(rules, fen) {
                Ok(p) => p,
                // a position may break a variant's own placement rules; that is fine here
                Err(_) if name != "chess" => continue,
                Err(e) => panic!("[{name}] '{fen}': {e}"),
            };
            random_games(rules, &start, 0xFEED + i as u64);
        }
    }
}

fn play(rules: &'static Variant, moves: &str) -> Position {
    let mut pos = Position::startpos(rules);
    for m in moves.split_whitespace() {
        let mv = parse_move(&mut pos, m).unwrap_or_else(|e| panic!("{moves}: {e}"));
        pos.make(mv);
    }
    pos
}

#[test]
fn transpositions_have_equal_keys() {
    let set = builtin_variants();
    let chess = set.get("chess").expect("chess");
    let pairs = [
        ("g1f3 g8f6 b1c3", "b1c3 g8f6 g1f3"),
        ("e2e3 e7e6 d2d3", "d2d3 e7e6 e2e3"),
        // knights out and back: the start position, but with Black to move... twice over
        ("g1f3 g8f6 f3g1 f6g8", ""),
        // castling reached by different move orders
        (
            "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1",
            "g1f3 b8c6 e2e4 e7e5 f1c4 f8c5 e1g1",
        ),
    ];
    for (a, b) in pairs {
        let pa = play(chess, a);
        let pb = play(chess, b);
        assert_eq!(pa.key(), pb.key(), "'{a}' vs '{b}'");
        assert_eq!(pa.key(), pa.compute_key());
        // same placement, side, rights and en passant: the FENs agree up to the clocks
        let head = |p: &Position| p.fen().rsplitn(3, ' ').last().unwrap_or("").to_string();
        assert_eq!(head(&pa), head(&pb));
    }

    // things that differ must give different keys
    let differ = [
        // side to move
        ("g1f3 g8f6 f3g1", "g1f3 g8f6 f3g1 f6g8"),
        // en passant square vs none: e2e4 directly against e2e3 ... e3e4
        ("e2e4 g8f6 g1f3 f6g8 f3g1", "e2e3 g8f6 e3e4 f6g8"),
        // castling rights lost by a king walk
        (
            "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8",
            "e2e4 e7e5 g1f3 g8f6 f3g1 f6g8",
        ),
    ];
    for (a, b) in differ {
        let pa = play(chess, a);
        let pb = play(chess, b);
        assert_ne!(pa.key(), pb.key(), "'{a}' vs '{b}' should differ");
    }

    // the same transposition in every 8x8 built-in variant that allows it
    for name in set.names() {
        let rules = set.get(name).expect("listed");
        let try_play = |moves: &str| -> Option<Position> {
            let mut pos = Position::startpos(rules);
            for m in moves.split_whitespace() {
                let mv = parse_move(&mut pos, m).ok()?;
                pos.make(mv);
            }
            Some(pos)
        };
        if let (Some(a), Some(b)) = (try_play("g1f3 g8f6 b1c3"), try_play("b1c3 g8f6 g1f3")) {
            assert_eq!(a.key(), b.key(), "[{name}]");
            assert_eq!(a.fen(), b.fen(), "[{name}]");
        }
    }
}

/// A user-defined variant on a smaller board keeps its keys too.
#[test]
fn random_games_on_a_user_defined_small_board() {
    let mut set: VariantSet = builtin_variants();
    set.load_str(
        "small.ini",
        "[small7:chess]\n\
         maxFile = 7\n\
         maxRank = 7\n\
         startFen = rnbqkbr/ppppppp/7/7/7/PPPPPPP/RNBQKBR w KQkq - 0 1\n\
         castlingKingsideFile = f\n\
         castlingQueensideFile = c\n\
         [wild6:chess]\n\
         maxFile = 6\n\
         maxRank = 6\n\
         startFen = rnckqr/pppppp/6/6/PPPPPP/RNCKQR w - - 0 1\n\
         castling = false\n\
         archbishop = c\n\
         bishop = -\n\
         promotionPieceTypes = qrcn\n\
         [six:chess]\n\
         maxFile = 6\n\
         startFen = rnqkbr/pppppp/6/6/6/6/PPPPPP/RNQKBR w KQkq - 0 1\n\
         castlingKingsideFile = e\n\
         castlingQueensideFile = b\n",
    )
    .expect("test variants load");
    for (i, name) in ["small7", "wild6", "six"].iter().enumerate() {
        let rules = set.get(name).expect("loaded");
        let start = Position::startpos(rules);
        random_games(rules, &start, 0xAB + i as u64);
    }
}

/// Castling where the king moves one file would share `e1f1` with the king step; it is spelled
/// king-takes-rook instead, and both castling spellings are accepted.
#[test]
fn one_file_castling_has_its_own_spelling() {
    let mut set = builtin_variants();
    set.load_str(
        "small.ini",
        "[small7:chess]\n\
         maxFile = 7\n\
         maxRank = 7\n\
         startFen = r3k1r/ppppppp/7/7/7/PPPPPPP/R3K1R w KQkq - 0 1\n\
         castlingKingsideFile = f\n\
         castlingQueensideFile = c\n",
    )
    .expect("loads");
    let rules = set.get("small7").expect("loaded");
    let mut pos = Position::startpos(rules);
    let mut list = MoveList::new();
    legal_moves(&mut pos, &mut list);
    let mut names: Vec<String> = list
        .iter()
        .map(|&m| move_to_string(&pos, m).to_string())
        .collect();
    names.sort();
    // the king step e1f1, kingside castling e1g1 (king to f1, rook to e1), queenside e1c1
    for want in ["e1f1", "e1g1", "e1c1"] {
        assert!(
            names.contains(&want.to_string()),
            "{want} missing: {names:?}"
        );
    }
    let step = parse_move(&mut pos, "e1f1").expect("king step");
    let castle = parse_move(&mut pos, "e1g1").expect("castling");
    assert_ne!(step, castle);
    // queenside castling moves the king two files: UCI spelling, and king-takes-rook also works
    assert_eq!(parse_move(&mut pos, "e1a1"), parse_move(&mut pos, "e1c1"));
    pos.make(castle);
    assert!(
        pos.fen()
            .starts_with("r3k1r/ppppppp/7/7/7/PPPPPPP/R3RK1 b kq "),
        "{}",
        pos.fen()
    );
}
