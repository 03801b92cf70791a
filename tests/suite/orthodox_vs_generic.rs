//! The orthodox fast path against the generic generator (and that against playing and testing
//! every pseudo-legal move), which stays the reference: the same
//! legal move set, the same count and the same attacked squares at every node of random games
//! and of small full trees, from the standard perft positions and some Chess960 (X-FEN)
//! positions whose rooks and kings stand on unusual squares.

use chimera::geometry::{Color, Square};
use chimera::movegen::{self, generic, orthodox};
use chimera::moves::{Move, MoveList};
use chimera::position::Position;
use chimera::rules::builtin_variants;

const FENS: [&str; 10] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    // Chess960 positions (Shredder castling letters)
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
];

/// xorshift64*: small, deterministic, good enough to pick moves.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn chess(fen: &str) -> Position {
    let rules = builtin_variants().get("chess").expect("chess is built in");
    assert!(rules.orthodox, "chess must use the orthodox fast path");
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sorted(list: &MoveList) -> Vec<u32> {
    let mut v: Vec<u32> = list.iter().map(|m| m.0).collect();
    v.sort_unstable();
    v
}

/// Compares the two generators on `pos`; returns the legal moves.
fn compare(pos: &mut Position) -> MoveList {
    let mut fast = MoveList::new();
    orthodox::legal_moves(pos, &mut fast);
    let mut reference = MoveList::new();
    generic::legal_moves(pos, &mut reference);
    let mut tested = MoveList::new();
    generic::legal_moves_by_testing(pos, &mut tested);
    assert_eq!(reference.as_slice(), tested.as_slice(), "{}", pos.fen());
    let (f, r) = (sorted(&fast), sorted(&reference));
    if f != r {
        let name = |v: &[u32]| -> Vec<String> {
            v.iter()
                .map(|&m| movegen::move_to_string(pos, Move(m)).to_string())
                .collect()
        };
        let extra: Vec<u32> = f.iter().filter(|m| !r.contains(m)).copied().collect();
        let missing: Vec<u32> = r.iter().filter(|m| !f.contains(m)).copied().collect();
        panic!(
            "move sets differ in {}\n  extra: {:?}\n  missing: {:?}",
            pos.fen(),
            name(&extra),
            name(&missing)
        );
    }
    let dup = f.windows(2).any(|w| w[0] == w[1]);
    assert!(!dup, "duplicate move in {}", pos.fen());
    assert_eq!(
        orthodox::count_legal(pos),
        fast.len(),
        "count in {}",
        pos.fen()
    );
    assert_eq!(movegen::count_legal(pos), fast.len());
    for sq in (0..64).map(Square::new) {
        for by in Color::ALL {
            assert_eq!(
                orthodox::is_attacked(pos, sq, by),
                generic::is_attacked(pos, sq, by),
                "is_attacked({sq}, {by:?}) in {}",
                pos.fen()
            );
        }
    }
    fast
}

#[test]
fn random_games_agree_at_every_node() {
    let mut rng = Rng(0x0DDB_A11C_0FFE_E123);
    let mut nodes = 0;
    for game in 0..400 {
        let fen = FENS[game % FENS.len()];
        let mut pos = chess(fen);
        for _ply in 0..250 {
            let list = compare(&mut pos);
            nodes += 1;
            if list.is_empty() {
                break;
            }
            let m = list[rng.below(list.len())];
            let (fen, key) = (pos.fen(), pos.key());
            pos.make(m);
            assert_eq!(pos.key(), pos.compute_key(), "key drift in {}", pos.fen());
            pos.unmake();
            assert_eq!((pos.fen(), pos.key()), (fen, key), "unmake of {m:?}");
            pos.make(m);
        }
    }
    assert!(nodes > 20_000, "only {nodes} nodes compared");
}

/// Walks the whole tree to `depth`, comparing at every node; returns the leaf count.
fn walk(pos: &mut Position, depth: u32) -> u64 {
    let list = compare(pos);
    if depth <= 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &m in list.iter() {
        pos.make(m);
        n += walk(pos, depth - 1);
        pos.unmake();
    }
    n
}

#[test]
fn full_trees_agree() {
    // depth 3 everywhere (depth 2 for the wide middle-game positions keeps it quick)
    let expected: [(u32, u64); 10] = [
        (3, 8902),
        (3, 97862),
        (3, 2812),
        (3, 9467),
        (3, 62379),
        (3, 89890),
        (3, 12189),
        (3, 18002),
        (3, 10471),
        (2, 0),
    ];
    for (fen, (depth, count)) in FENS.iter().zip(expected) {
        let mut pos = chess(fen);
        let n = walk(&mut pos, depth);
        if count != 0 {
            assert_eq!(n, count, "perft {depth} of {fen}");
        }
    }
}

#[test]
fn tricky_positions_agree() {
    // en passant along a rank with the king, en passant out of a pawn check, promotions with
    // captures, castling through attacked squares, a pinned pawn that may capture its pinner
    let fens = [
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
        "8/8/8/KpP4r/8/8/8/7k w - b6 0 2",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        "8/8/3k4/8/2pP4/8/8/K2B4 b - d3 0 1",
        "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K1qR w KQkq - 0 1",
        "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/b7/8/8/3P4/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/5p2/2K3R1 b - - 0 1",
        "4k3/8/2b5/8/4P3/8/8/4K3 w - - 0 1",
        "k7/8/8/3Pp3/8/8/8/7K w - e6 0 1",
        "7k/8/8/1b1Pp3/8/8/8/5K2 w - e6 0 1",
        "8/8/8/1k1Pp2R/8/8/8/4K3 b - - 0 1",
        // Chess960: the castling rook on b1 shields c1 from the rook on a1 until it moves
        "7k/8/8/8/8/8/8/rR2K3 w B - 0 1",
        "Rr2k3/8/8/8/8/8/8/7K b b - 0 1",
        "k7/8/8/8/8/8/8/4K1Rr w G - 0 1",
    ];
    for fen in fens {
        let mut pos = chess(fen);
        walk(&mut pos, 3);
    }
}

/// Compares the orthodox generator with the generic one's ordinarily legal moves (before any
/// filter mechanic) on `pos`, a position of a variant that is not chess but runs on the
/// orthodox generator; returns the legal moves after the filters, to play on.
fn compare_unfiltered(pos: &mut Position) -> MoveList {
    let mut fast = MoveList::new();
    orthodox::legal_moves(pos, &mut fast);
    let mut reference = MoveList::new();
    generic::ordinary_legal_moves(pos, &mut reference);
    assert_eq!(sorted(&fast), sorted(&reference), "{}", pos.fen());
    assert_eq!(orthodox::count_legal(pos), fast.len(), "{}", pos.fen());
    assert_eq!(movegen::ordinary_count(pos), fast.len(), "{}", pos.fen());
    for sq in (0..64).map(Square::new) {
        for by in Color::ALL {
            assert_eq!(
                orthodox::is_attacked(pos, sq, by),
                generic::is_attacked(pos, sq, by),
                "is_attacked({sq}, {by:?}) in {}",
                pos.fen()
            );
        }
    }
    let mut legal = MoveList::new();
    movegen::legal_moves(pos, &mut legal);
    legal
}

#[test]
fn other_castling_files_and_no_castling_agree() {
    // the orthodox generator castles from the geometry fixed at set-up, so it also plays
    // castling to other files (Torpedo's Kf1-h1 / Kf1-d1, the king landing on its rook's
    // square) and variants without castling (Nonlinear)
    let mut set = builtin_variants();
    set.load_str(
        "test",
        "[hd-castling:chess]\ncastlingKingsideFile = h\ncastlingQueensideFile = d\n\
         [b-castling:chess]\ncastlingKingsideFile = f\ncastlingQueensideFile = b\n\
         [no-castling:chess]\ncastling = false\n\
         startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n",
    )
    .expect("loads");
    let cases: [(&str, &[&str]); 5] = [
        (
            "torpedo-paletta",
            &[
                "rnqbbknr/pppppppp/8/8/8/8/PPPPPPPP/RNQBBKNR w KQkq - 0 1",
                "r4k1r/p4p1p/8/8/8/8/P4P1P/R4K1R w KQkq - 0 1",
                "rq2bk1r/1P3p1p/8/3Q4/8/8/P4P1P/R4K1R w KQ - 0 1",
            ],
        ),
        (
            "nonlinear",
            &[
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w - - 0 1 lm=b3a3",
            ],
        ),
        (
            "hd-castling",
            &[
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            ],
        ),
        ("b-castling", &["r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]),
        (
            "no-castling",
            &["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1"],
        ),
    ];
    let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
    let mut castlings = 0;
    for (name, fens) in cases {
        let rules = set.get(name).expect("loaded");
        assert!(rules.orthodox, "{name} runs on the orthodox generator");
        for fen in fens {
            for _game in 0..40 {
                let mut pos = Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{e}"));
                for _ply in 0..120 {
                    let list = compare_unfiltered(&mut pos);
                    if list.is_empty() {
                        break;
                    }
                    castlings += list
                        .iter()
                        .filter(|m| m.kind() == chimera::moves::MoveKind::Castling)
                        .count();
                    pos.make(list[rng.below(list.len())]);
                }
            }
        }
    }
    assert!(castlings > 500, "only {castlings} castling moves met");
}
