//! Criterion benchmark: perft on orthodox chess (fast path) and on data-driven variants (generic path).

use chimera::perft::perft;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use criterion::{criterion_group, criterion_main, Criterion};

fn bench_perft(c: &mut Criterion) {
    let set = builtin_variants();
    let cases = [
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
        ),
        (
            "chess",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
        ),
        (
            "palace",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
        ),
        (
            "missingfile",
            "1rnqkbnr/1ppppppp/8/8/8/8/1PPPPPPP/1RNQKBNR w KQkq - 0 1",
            4,
        ),
    ];
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (variant, fen, depth) in cases {
        let rules = set.get(variant).expect("built-in variant");
        let pos = Position::from_fen(rules, fen).expect("valid FEN");
        group.bench_function(format!("{variant} d{depth} {}", &fen[..12]), |b| {
            b.iter(|| perft(&mut pos.clone(), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
