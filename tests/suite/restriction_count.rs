//! The restriction variants' leaf counts (`Mechanic::count_legal`, which counts the moves a
//! filter passes in bulk, `movegen::count_passing`) against the length of the filtered list
//! (`legal_moves`) and against the rule modules' plain per-move tests (`faces_after`,
//! `allows`, the last move's lines) on the ordinarily legal moves, at every node of random games and at every child of those nodes, in the
//! four filter variants and their options (`facingColors = opposite`,
//! `hippophobicAdjacencyIsCheck`, `hippophobicCastling = path`, `garrisonKings = false`), from
//! the start positions and from every position of their perft suites. The games also count how
//! often the cases the bulk counts treat apart occur, so the test fails if they are not reached.

use chimera::movegen::{count_legal, legal_moves, ordinary_legal_moves};
use chimera::moves::{Move, MoveKind, MoveList};
use chimera::piece::PieceType;
use chimera::position::{Position, Variant};
use chimera::rules::builtin_variants;
use chimera::rules::facing::Facing;
use chimera::rules::garrison::{self, Garrison};
use chimera::rules::hippophobic::Hippophobic;
use chimera::rules::nonlinear::{barred_lines, Nonlinear};

/// The option variants, on top of the built-in set.
const OPTIONS: &str = "\
[torpedo-opp:torpedo-paletta]
facingColors = opposite

[hippo-check:hippophobic]
hippophobicAdjacencyIsCheck = true

[hippo-path:hippophobic]
hippophobicCastling = path

[hippo-both:hippophobic]
hippophobicAdjacencyIsCheck = true
hippophobicCastling = path

[garrison-nokings:garrison]
garrisonKings = false
";

/// (variant, its perft suite)
const VARIANTS: [(&str, &str); 9] = [
    ("torpedo-paletta", "torpedo-paletta"),
    ("torpedo-opp", "torpedo-paletta"),
    ("hippophobic", "hippophobic"),
    ("hippo-check", "hippophobic"),
    ("hippo-path", "hippophobic"),
    ("hippo-both", "hippophobic"),
    ("garrison", "garrison"),
    ("garrison-nokings", "garrison"),
    ("nonlinear", "nonlinear"),
];

/// How often the special cases of the bulk counts came up.
#[derive(Default, Debug)]
struct Seen {
    nodes: usize,
    /// Some ordinarily legal move was barred.
    barred: usize,
    /// Every ordinarily legal move barred (the filter leaves none).
    all_barred: usize,
    /// Promotions among the legal moves.
    promotions: usize,
    /// Castling among the ordinarily legal moves.
    castling: usize,
    /// En passant among the ordinarily legal moves.
    en_passant: usize,
    /// Hippophobic: the side to move's King next to a Knight.
    king_by_knight: usize,
    /// Nonlinear: restricted moves allowed because no unrestricted one exists.
    fallback: usize,
}

/// The number of legal moves by the rule modules' plain per-move tests on the ordinarily legal
/// moves (not the mechanics' filters or counts).
fn reference_count(p: &mut Position, ordinary: &MoveList) -> usize {
    let moves: Vec<Move> = ordinary.iter().copied().collect();
    let mechanics = p.mechanics();
    if let Some(f) = mechanics.find::<Facing>() {
        return moves.iter().filter(|&&m| !f.faces_after(p, m)).count();
    }
    if let Some(h) = mechanics.find::<Hippophobic>() {
        return moves.iter().filter(|&&m| h.allows(p, m)).count();
    }
    if mechanics.find::<Garrison>().is_some() {
        let kings = !p.rules().name.contains("nokings");
        return moves
            .iter()
            .filter(|&&m| garrison::allows(p, m, kings))
            .count();
    }
    let nl = mechanics.find::<Nonlinear>().expect("a restriction");
    let Some((f, t)) = nl.last_move(p) else {
        return moves.len();
    };
    let barred = barred_lines(p, f, t);
    match moves
        .iter()
        .filter(|m| !barred.has(m.from()) && !barred.has(m.to()))
        .count()
    {
        0 => moves.len(),
        n => n,
    }
}

fn check_node(p: &mut Position, seen: &mut Seen) {
    let mut list = MoveList::new();
    legal_moves(p, &mut list);
    let n = count_legal(p);
    assert_eq!(
        n,
        list.len(),
        "[{}] count_legal vs legal_moves in {}",
        p.rules().name,
        p.fen()
    );
    let mut ordinary = MoveList::new();
    ordinary_legal_moves(p, &mut ordinary);
    assert_eq!(
        reference_count(p, &ordinary),
        n,
        "[{}] count_legal vs the per-move tests in {}",
        p.rules().name,
        p.fen()
    );
    seen.nodes += 1;
    if list.len() < ordinary.len() {
        seen.barred += 1;
    }
    if list.is_empty() && !ordinary.is_empty() {
        seen.all_barred += 1;
    }
    if list.iter().any(|m| m.promotion_type().is_some()) {
        seen.promotions += 1;
    }
    if ordinary.iter().any(|m| m.kind() == MoveKind::Castling) {
        seen.castling += 1;
    }
    if ordinary.iter().any(|m| m.kind() == MoveKind::EnPassant) {
        seen.en_passant += 1;
    }
    let us = p.side_to_move();
    if let Some(k) = p.king_square(us) {
        let knights = p.kind(PieceType::KNIGHT);
        let near = knights.iter().any(|n| {
            let (df, dr) = (n.file() - k.file(), n.rank() - k.rank());
            df.abs() <= 1 && dr.abs() <= 1
        });
        if near {
            seen.king_by_knight += 1;
        }
    }
    if let Some(nl) = p.mechanics().find::<Nonlinear>() {
        if let Some((f, t)) = nl.last_move(p) {
            let barred = barred_lines(p, f, t);
            let free = |m: &chimera::moves::Move| !barred.has(m.from()) && !barred.has(m.to());
            if !list.is_empty() && !list.iter().any(free) {
                seen.fallback += 1;
            }
        }
    }
}

/// Random games from `fen`: every node and every child of it checked.
fn games_from(p: &mut Position, games: usize, plies: usize, rng: &mut u64, seen: &mut Seen) {
    let mut next = || {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng
    };
    for _ in 0..games {
        let mut played = 0;
        for _ in 0..plies {
            check_node(p, seen);
            let mut list = MoveList::new();
            legal_moves(p, &mut list);
            for &m in list.iter() {
                p.make(m);
                check_node(p, seen);
                p.unmake();
            }
            if list.is_empty() {
                break;
            }
            p.make(list[(next() % list.len() as u64) as usize]);
            played += 1;
        }
        for _ in 0..played {
            p.unmake();
        }
    }
}

fn variant(set: &chimera::rules::VariantSet, name: &str) -> &'static Variant {
    set.get(name).unwrap_or_else(|| panic!("{name} is loaded"))
}

fn suite_fens(suite: &str) -> Vec<String> {
    let path = format!("{}/tests/perft/{suite}.epd", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
        .collect()
}

#[test]
fn bulk_counts_equal_the_filtered_lists() {
    let mut set = builtin_variants();
    set.load_str("options", OPTIONS).expect("the options load");
    for (i, (name, suite)) in VARIANTS.iter().enumerate() {
        let rules = variant(&set, name);
        let mut seen = Seen::default();
        let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ ((i as u64 + 1) * 0x1000_0001);
        games_from(&mut Position::startpos(rules), 12, 80, &mut rng, &mut seen);
        for fen in suite_fens(suite) {
            let mut p = Position::from_fen(rules, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            games_from(&mut p, 4, 60, &mut rng, &mut seen);
        }
        eprintln!("[{name}] {seen:?}");
        // the cases the bulk counts treat apart were reached
        assert!(seen.nodes > 20_000, "[{name}] {seen:?}");
        assert!(seen.barred > 1_000, "[{name}] {seen:?}");
        assert!(seen.promotions > 50, "[{name}] {seen:?}");
        if rules.castling {
            assert!(seen.castling > 50, "[{name}] {seen:?}");
        }
        assert!(seen.en_passant > 10, "[{name}] {seen:?}");
        if name.starts_with("hippo") {
            assert!(seen.king_by_knight > 100, "[{name}] {seen:?}");
        }
        if *name == "nonlinear" {
            assert!(seen.fallback > 20, "[{name}] {seen:?}");
        }
        if name.starts_with("garrison") || name.starts_with("torpedo") {
            assert!(seen.all_barred > 0, "[{name}] {seen:?}");
        }
    }
}

#[test]
fn bulk_counts_in_chosen_positions() {
    // positions where the bulk counts take their other branches: a King between Knights, a
    // Knight next to the King that moves away, a Queen next to a Knight; a monarch screened
    // by a pawn and by a piece; a King that is no friend (garrisonKings = false)
    let mut set = builtin_variants();
    set.load_str("options", OPTIONS).expect("the options load");
    let cases: &[(&str, &str)] = &[
        ("hippophobic", "4k3/8/8/8/8/2n1n3/3K4/8 w - - 0 1"),
        ("hippophobic", "4k3/8/8/8/8/3N4/3K4/8 w - - 0 1"),
        ("hippophobic", "4k3/8/8/8/8/3n4/3KN3/7Q w - - 0 1"),
        ("hippophobic", "4k3/8/8/3n4/8/5Q2/8/R3K2R w KQ - 0 1"),
        ("hippo-both", "4k3/8/8/8/8/8/2n2n2/R3K2R w KQ - 0 1"),
        ("torpedo-paletta", "5k2/8/8/5P2/8/8/5B2/5K2 w - - 0 1"),
        ("torpedo-paletta", "5k2/8/8/5P2/8/8/8/5K2 w - - 0 1"),
        ("torpedo-paletta", "4k3/8/8/8/7q/8/8/Q1N2K2 w - - 0 1"),
        ("torpedo-opp", "4k3/8/8/8/7q/8/8/Q1N2K2 w - - 0 1"),
        ("torpedo-paletta", "7k/1P6/8/8/8/8/6p1/2Q1BK2 w - - 0 1"),
        ("garrison-nokings", "4k3/8/8/8/8/8/4P3/4K2R w - - 0 1"),
        ("garrison", "4k3/8/8/8/8/8/4P3/4K2R w - - 0 1"),
        ("nonlinear", "1k5R/8/8/8/8/8/8/K7 b - - 1 1 lm=h1h8"),
    ];
    for &(name, fen) in cases {
        let rules = variant(&set, name);
        let mut p = Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut seen = Seen::default();
        let mut rng = 0x2545_F491_4F6C_DD1D;
        games_from(&mut p, 6, 40, &mut rng, &mut seen);
    }
}
