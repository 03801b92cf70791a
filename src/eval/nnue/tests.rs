//! Tests of inference: the file format's refusals, the SIMD and scalar kernels' agreement,
//! and the incremental accumulators against a computation from scratch in every variant.

use super::*;
use crate::moves::MoveList;
use crate::rules::builtin_variants;
use std::sync::Arc;

/// A small generator for weights and walks.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % (hi - lo + 1) as u64) as i32
    }
}

/// A net of random weights for `rules` with `hidden` values per perspective, and an output
/// bucket for each phase of the variant's turns.
pub(crate) fn random_net(rules: &Variant, hidden: usize, seed: u64) -> Network {
    let mut rng = Rng(seed | 1);
    let letters: String = rules.piece_types().map(|t| rules.letter(t)).collect();
    let held_inputs = if rules.has_holdings() { 2 } else { 0 };
    let inputs = super::input_count(letters.len(), held_inputs, 1);
    let buckets = rules.mechanics.turn_phases();
    Network {
        variant: rules.name.clone(),
        letters,
        files: rules.shape.files,
        ranks: rules.shape.ranks,
        hidden,
        scale: 400,
        ft_weights: (0..inputs * hidden)
            .map(|_| rng.range(-40, 40) as i16)
            .collect(),
        ft_bias: (0..hidden).map(|_| rng.range(-20, 120) as i16).collect(),
        buckets,
        bucket_by: Default::default(),
        held_inputs,
        kings: KingBuckets::default(),
        out_weights: (0..buckets * 2 * hidden)
            .map(|_| rng.range(-127, 127) as i16)
            .collect(),
        out_bias: (0..buckets).map(|_| rng.range(-5000, 5000)).collect(),
    }
}

/// [`random_net`] with input buckets by the king: `count` of them, mirrored or not.
pub(crate) fn random_king_net(
    rules: &Variant,
    hidden: usize,
    seed: u64,
    count: u8,
    mirror: bool,
) -> Network {
    let mut net = random_net(rules, hidden, seed);
    net.kings = KingBuckets::preset(count, mirror, rules.shape.files).expect("a preset");
    let mut rng = Rng(seed.wrapping_mul(31) | 1);
    net.ft_weights = (0..net.inputs() * hidden)
        .map(|_| rng.range(-40, 40) as i16)
        .collect();
    net
}

/// King buckets: every preset gives each square a bucket below its count, corners and
/// centre apart; a bucketed net survives its file as version 5, and a bad count, mirror or
/// map is refused by name.
#[test]
fn king_buckets_survive_their_file_and_bad_ones_are_refused() {
    for count in [1u8, 2, 4, 8] {
        let k = KingBuckets::preset(count, true, 8).expect("preset");
        assert!(k.map.iter().all(|&b| b < count));
        assert_eq!(
            k.map.iter().copied().max().unwrap_or(0) + 1,
            count,
            "{count} buckets used"
        );
        // the map is symmetric left to right, so mirrored or not it reads the same
        for sq in 0..64 {
            assert_eq!(k.map[sq], k.map[sq / 8 * 8 + 7 - sq % 8]);
        }
    }
    assert!(KingBuckets::preset(3, false, 8).is_err());
    let chess = builtin_variants().get("chess").expect("chess");
    let net = random_king_net(chess, 32, 5, 4, true);
    let bytes = file::serialize(&net);
    assert_eq!(bytes[8], 5, "format version 5");
    assert_eq!(file::parse(&bytes).expect("parses"), net);
    // the king fields follow the header: count, mirror, then the 64-square map
    let at = bytes.len()
        - 8
        - 4 * net.buckets
        - 2 * net.buckets * 2 * 32
        - 2 * 32
        - 2 * net.inputs() * 32
        - 66;
    assert_eq!((bytes[at], bytes[at + 1]), (4, 1));
    let refused = |at: usize, value: u8, needle: &str| {
        let mut b = bytes.clone();
        b[at] = value;
        let n = b.len() - 8;
        let hash = file::fnv1a(&b[..n]);
        b[n..].copy_from_slice(&hash.to_le_bytes());
        let e = file::parse(&b).expect_err("refused").to_string();
        assert!(e.contains(needle), "{e}");
    };
    refused(at, 0, "0 king buckets (1 to 16)");
    refused(at, 17, "17 king buckets");
    refused(at + 1, 2, "king mirror 2 (0 or 1)");
    refused(at + 2 + 9, 4, "king square 9 in bucket 4, of 4");
}

/// With mirroring, a position and its reflection left to right (both kings on the other
/// half) evaluate alike; without it they do not.
#[test]
fn a_mirrored_net_sees_a_reflected_position_alike() {
    let chess = builtin_variants().get("chess").expect("chess");
    let right =
        Position::from_fen(chess, "6k1/5pp1/7p/3n4/8/2B4P/5PP1/6K1 w - - 0 1").expect("fen");
    let left = Position::from_fen(chess, "1k6/1pp5/p7/4n3/8/P4B2/1PP5/1K6 w - - 0 1").expect("fen");
    let eval = |net: Network, pos: &Position| {
        LoadedNet::new(Arc::new(net), chess, "test")
            .expect("fits")
            .evaluate_fresh(pos)
    };
    let mirrored = random_king_net(chess, 32, 9, 4, true);
    assert_eq!(eval(mirrored.clone(), &right), eval(mirrored, &left));
    let plain = random_king_net(chess, 32, 9, 4, false);
    assert_ne!(eval(plain.clone(), &right), eval(plain, &left));
}

#[test]
fn a_net_survives_its_file() {
    let chess = builtin_variants().get("chess").expect("chess");
    let net = random_net(chess, 32, 7);
    let bytes = file::serialize(&net);
    assert_eq!(file::parse(&bytes).expect("parses"), net);
    // one bucket is written as version 1, several as version 2
    assert_eq!(bytes[8], 1);
    let detente = builtin_variants().get("007detente").expect("007detente");
    let phased = random_net(detente, 32, 8);
    assert_eq!(phased.buckets, 3);
    let bytes = file::serialize(&phased);
    assert_eq!(bytes[8], 2);
    assert_eq!(file::parse(&bytes).expect("parses"), phased);
    // held-man inputs are written as version 3
    let emissary = builtin_variants().get("emissary").expect("emissary");
    let holding = random_net(emissary, 32, 9);
    assert_eq!(holding.held_inputs, 2);
    assert_eq!(holding.inputs(), 2 * 6 * 64 + 2 * 6 * 2);
    let bytes = file::serialize(&holding);
    assert_eq!(bytes[8], 3);
    assert_eq!(file::parse(&bytes).expect("parses"), holding);
}

/// A held man is an input of its own: a net whose held-knight rows are the rows of a knight
/// on e4 evaluates a position with a knight held as the same position with that knight on e4;
/// a second held-man input is on only with two held; and a net without held-man inputs sees
/// the held knight as no man at all.
#[test]
fn held_men_reach_the_net_through_their_own_inputs() {
    let emissary = builtin_variants().get("emissary").expect("emissary");
    let mut net = random_net(emissary, 32, 21);
    let map = InputMap::new(&net, emissary);
    // a held knight weighs what a knight on e4 does; e5 is made to weigh the same, since
    // Black's view of e4 is e5 and the held rows are the same for both views
    let (e4, e5) = (Square::new(28), Square::new(36));
    let h = net.hidden;
    let knight = |c| {
        Piece::new(
            c,
            emissary
                .piece_types()
                .find(|&t| emissary.letter(t) == 'n')
                .unwrap(),
        )
    };
    for color in Color::ALL {
        let plain = KingContext::default();
        let on_e4 = map.feature(Color::White, plain, knight(color), e4);
        let row: Vec<i16> = net.ft_weights[on_e4 * h..(on_e4 + 1) * h].to_vec();
        for target in [
            map.feature(Color::White, plain, knight(color), e5),
            map.held_feature(Color::White, knight(color), 0),
        ] {
            net.ft_weights[target * h..(target + 1) * h].copy_from_slice(&row);
        }
    }
    let loaded = LoadedNet::new(Arc::new(net.clone()), emissary, "test").expect("fits");
    assert!(loaded.sees_held);
    let held = Position::from_fen(
        emissary,
        "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Nn] w KQkq - 0 1",
    )
    .expect("a legal FEN with a knight held by each side");
    let placed = Position::from_fen(
        emissary,
        "r1bqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/R1BQKBNR[n] w KQkq - 0 1",
    )
    .expect("the white knight on e4, Black's still held");
    let mut stack = AccumulatorStack::new(h, 4);
    stack.reset();
    assert_eq!(loaded.evaluate_fresh(&held), loaded.evaluate_fresh(&placed));
    assert_eq!(
        stack.evaluate(&loaded, &held),
        loaded.evaluate_fresh(&placed)
    );
    // without held-man inputs the held knights are not seen: the position without them
    let mut blind = net.clone();
    blind.held_inputs = 0;
    blind.ft_weights.truncate(blind.inputs() * h);
    let blind = LoadedNet::new(Arc::new(blind), emissary, "test").expect("fits");
    assert!(!blind.sees_held);
    let none = Position::from_fen(
        emissary,
        "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1",
    )
    .expect("no knights");
    assert_eq!(blind.evaluate_fresh(&held), blind.evaluate_fresh(&none));
    assert_ne!(loaded.evaluate_fresh(&held), loaded.evaluate_fresh(&none));
}

/// A net of buckets by men reads the men on the board, in any variant (a 007 position's
/// phase does not matter to it), and is written as version 4.
#[test]
fn the_output_bucket_follows_the_men_on_the_board() {
    let set = builtin_variants();
    let chess = set.get("chess").expect("chess");
    let mut net = random_net(chess, 32, 6);
    net.buckets = 4;
    net.bucket_by = super::BucketBy::Men;
    net.out_weights = vec![0; 4 * 2 * 32];
    // no output weights, a bias per bucket: the evaluation names the bucket
    net.out_bias = (0..4).map(|b| b * 255 * 64 * 10).collect();
    let bytes = file::serialize(&net);
    assert_eq!(bytes[8], 4);
    assert_eq!(file::parse(&bytes).expect("parses"), net);
    let loaded = LoadedNet::new(Arc::new(net.clone()), chess, "test").expect("fits");
    let eval = |fen: &str| loaded.evaluate_fresh(&Position::from_fen(chess, fen).expect("fen"));
    assert_eq!(
        eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        3 * 4000
    );
    assert_eq!(eval("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1"), 4000);
    assert_eq!(eval("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0);
    // a net made for 007detente by men loads though its turns have three phases
    let detente = set.get("007detente").expect("007detente");
    let mut by_men = random_net(detente, 32, 7);
    by_men.buckets = 4;
    by_men.bucket_by = super::BucketBy::Men;
    by_men.out_weights = vec![0; 4 * 2 * 32];
    by_men.out_bias = vec![0; 4];
    assert!(LoadedNet::new(Arc::new(by_men.clone()), detente, "test").is_ok());
    by_men.bucket_by = super::BucketBy::TurnPhase;
    assert!(LoadedNet::new(Arc::new(by_men), detente, "test").is_err());
    // a bucket choice this engine does not know is refused
    let mut bytes = file::serialize(&net);
    let at = bytes.len() - 8 - (2 * 768 * 32 + 2 * 32 + 4 * 2 * 2 * 32 + 4 * 4) - 1;
    assert_eq!(bytes[at], 1);
    bytes[at] = 2;
    let body = bytes.len() - 8;
    let hash = file::fnv1a(&bytes[..body]);
    bytes[body..].copy_from_slice(&hash.to_le_bytes());
    let err = file::parse(&bytes).expect_err("unknown choice").to_string();
    assert!(err.contains("bucket choice 2"), "{err}");
}

/// A net of turn-phase buckets reads the phase of the position: the three plies of a 007
/// turn go through three different output weights, and a chess position through the only one.
#[test]
fn the_output_bucket_follows_the_turn_phase() {
    let set = builtin_variants();
    let detente = set.get("007detente").expect("007detente");
    let mut net = random_net(detente, 32, 5);
    // no output weights, a bias per bucket: the evaluation names the bucket
    net.out_weights.fill(0);
    net.out_bias = vec![0, 255 * 64 * 10, 255 * 64 * 20];
    let loaded = LoadedNet::new(Arc::new(net), detente, "test").expect("fits");
    let mut pos = Position::startpos(detente);
    let mut seen = Vec::new();
    for _ in 0..7 {
        seen.push((pos.turn_phase(), loaded.evaluate_fresh(&pos)));
        let mut list = MoveList::new();
        crate::movegen::legal_moves(&mut pos, &mut list);
        pos.make(list[0]);
    }
    assert_eq!(
        seen,
        [
            (0, 0),
            (1, 4000),
            (2, 8000),
            (0, 0),
            (1, 4000),
            (2, 8000),
            (0, 0)
        ]
    );
    // a three-bucket net does not fit chess, whose players alternate
    let chess = set.get("chess").expect("chess");
    let mut foreign = random_net(detente, 32, 5);
    foreign.variant = "chess".into();
    let e = foreign.check_fits(chess).expect_err("buckets");
    assert!(e.to_string().contains("3 output buckets"), "{e}");
}

#[test]
fn damaged_and_foreign_files_are_refused() {
    let set = builtin_variants();
    let chess = set.get("chess").expect("chess");
    let net = random_net(chess, 32, 7);
    let bytes = file::serialize(&net);
    assert_eq!(file::parse(b"not a net at all"), Err(NetError::NotANet));
    assert_eq!(file::parse(&[]), Err(NetError::NotANet));
    for cut in [9, 20, 40, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            matches!(file::parse(&bytes[..cut]), Err(NetError::Truncated(_))),
            "cut at {cut}: {:?}",
            file::parse(&bytes[..cut])
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(file::parse(&longer), Err(NetError::TrailingBytes(1)));
    let mut flipped = bytes.clone();
    let mid = bytes.len() / 2;
    flipped[mid] ^= 0x40;
    assert_eq!(file::parse(&flipped), Err(NetError::Checksum));
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(file::parse(&version), Err(NetError::Version(9)));
    let mut odd = net.clone();
    odd.hidden = 24;
    assert!(matches!(
        file::parse(&file::serialize(&odd)),
        Err(NetError::Header(_))
    ));
    let mut loud = net.clone();
    loud.out_weights[3] = 300;
    let e = file::parse(&file::serialize(&loud)).expect_err("weight too large");
    assert!(e.to_string().contains("300"), "{e}");
    // another variant's net: refused by name, board or men
    let espionage = set.get("espionage").expect("espionage");
    let e = net
        .check_fits(espionage)
        .expect_err("chess net in espionage");
    assert!(e.to_string().contains("'chess'"), "{e}");
    let mut renamed = random_net(espionage, 32, 3);
    renamed.variant = "chess".into();
    let e = renamed.check_fits(chess).expect_err("7x7 board");
    assert!(e.to_string().contains("7x7"), "{e}");
    let mut fewer = net.clone();
    fewer.letters = "pnbrk".into();
    let e = fewer.check_fits(chess).expect_err("no queen");
    assert!(e.to_string().contains("pnbrk"), "{e}");
}

#[test]
fn simd_and_scalar_kernels_agree() {
    let mut rng = Rng(99);
    for hidden in [16, 64, 256, 1024, 2048] {
        let acc: Vec<i16> = (0..hidden).map(|_| rng.range(-600, 600) as i16).collect();
        let w: Vec<i16> = (0..hidden).map(|_| rng.range(-127, 127) as i16).collect();
        assert_eq!(
            simd::screlu_dot(&acc, &w),
            simd::screlu_dot_scalar(&acc, &w),
            "hidden {hidden}"
        );
        // the largest sums the kernel can meet: every activation clipped, every weight extreme
        let full = vec![i16::MAX; hidden];
        for extreme in [127i16, -127] {
            let w = vec![extreme; hidden];
            assert_eq!(
                simd::screlu_dot(&full, &w),
                simd::screlu_dot_scalar(&full, &w)
            );
            assert_eq!(
                simd::screlu_dot_scalar(&full, &w),
                255 * 255 * extreme as i64 * hidden as i64
            );
        }
        let rows: Vec<Vec<i16>> = (0..6)
            .map(|_| (0..hidden).map(|_| rng.next() as i16).collect())
            .collect();
        let (mut a, mut b) = (vec![0; hidden], vec![0; hidden]);
        let adds = [&rows[1][..], &rows[2][..], &rows[3][..]];
        let subs = [&rows[4][..], &rows[5][..]];
        simd::update(&mut a, &rows[0], &adds, &subs);
        simd::update_scalar(&mut b, &rows[0], &adds, &subs);
        assert_eq!(a, b, "hidden {hidden}");
    }
    eprintln!("AVX2 on this machine: {}", *simd::HAS_AVX2);
}

/// Walks random games in every two-colour variant with a random net, checking at every ply
/// that the incremental evaluation (lazy, with the null move and unmake in between) equals
/// the evaluation from scratch: every mechanic's moves reach the accumulators through the
/// edit lists.
#[test]
fn incremental_accumulators_equal_a_fresh_computation_in_every_variant() {
    incremental_equals_fresh(|rules| random_net(rules, 32, 11));
}

/// The same with input buckets by the king, mirrored: a king changing bucket or half makes
/// its perspective computed afresh, and nothing else does.
#[test]
fn incremental_accumulators_with_king_buckets_equal_a_fresh_computation() {
    incremental_equals_fresh(|rules| random_king_net(rules, 32, 11, 8, true));
}

fn incremental_equals_fresh(make: impl Fn(&Variant) -> Network) {
    let set = builtin_variants();
    let mut rng = Rng(12345);
    for name in set.names() {
        let rules = set.get(name).expect("listed");
        let net =
            LoadedNet::new(Arc::new(make(rules)), rules, "test").expect("fits its own variant");
        for game in 0..3 {
            let mut pos = Position::startpos(rules);
            let mut stack = AccumulatorStack::new(32, 4);
            stack.reset();
            for ply in 0..60 {
                let lazy = rng.next().is_multiple_of(3);
                if !lazy {
                    assert_eq!(
                        stack.evaluate(&net, &pos),
                        net.evaluate_fresh(&pos),
                        "{name} game {game} ply {ply}: {}",
                        pos.fen()
                    );
                }
                let mut list = MoveList::new();
                crate::movegen::legal_moves(&mut pos, &mut list);
                if list.is_empty() || crate::rules::outcome::verdict(&mut pos).is_some() {
                    break;
                }
                // a move tried and taken back, as the search does
                let tried = list[(rng.next() % list.len() as u64) as usize];
                pos.make(tried);
                stack.push(&pos);
                assert_eq!(stack.evaluate(&net, &pos), net.evaluate_fresh(&pos));
                pos.unmake();
                stack.pop();
                if rng.next().is_multiple_of(5) {
                    pos.make_null();
                    stack.push(&pos);
                    assert_eq!(stack.evaluate(&net, &pos), net.evaluate_fresh(&pos));
                    pos.unmake_null();
                    stack.pop();
                }
                let m = list[(rng.next() % list.len() as u64) as usize];
                pos.make(m);
                stack.push(&pos);
            }
        }
    }
}

/// Every net the built-in variants name loads and fits its variant, and chess has one: a
/// fresh clone plays chess with its net.
#[test]
fn built_in_nets_load_for_their_variants() {
    let set = builtin_variants();
    let mut with_net = Vec::new();
    for name in set.names() {
        let rules = set.get(name).expect("listed");
        if let Some(net) = crate::eval::EvalParams::variant_net(rules) {
            let net = net.unwrap_or_else(|e| panic!("{name}: {e}"));
            // made for the variant, or for the one it names (fischerandom plays chess's)
            let made_for = Some(&net.net.variant);
            assert!(
                made_for == Some(&rules.name) || made_for == rules.nnue_variant.as_ref(),
                "{name}: a net for {}",
                net.net.variant
            );
            with_net.push(name.to_string());
        }
    }
    assert!(with_net.contains(&"chess".to_string()), "{with_net:?}");
    for variant in [
        "fischerandom",
        "garrison",
        "periphery",
        "bracket",
        "triangulation",
    ] {
        assert!(with_net.contains(&variant.to_string()), "{with_net:?}");
    }
    // every file of nets/ is built in, byte for byte
    let mut files: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/nets"))
        .expect("nets/")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    files.sort();
    let mut built_in: Vec<&str> = embedded::built_in_names()
        .chain(embedded::built_in_three_names())
        .collect();
    built_in.sort();
    assert_eq!(files, built_in);
    for name in embedded::built_in_names() {
        let bytes = embedded::built_in_bytes(name).expect("built in");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/").to_string() + name;
        assert!(bytes == std::fs::read(&path).expect("nets/ file"), "{name}");
        assert!(file::parse(&bytes).is_ok(), "{name}");
    }
}
