//! The generic generator's shortcut (moves accepted without make / test / unmake) against
//! testing every move: the same list and the same count at every node of random games, in every
//! built-in variant and in test variants with hoppers, irregular riders, distant leapers
//! (whose checks cannot be blocked), the flying general,
//! king capture and promotion to the king type (where the shortcut must stand aside), pawns that
//! may not capture, optional promotion and a small board.

use chimera::movegen::{generic, move_to_string};
use chimera::moves::MoveList;
use chimera::position::{legal_when_played, Change, Legality, Position};
use chimera::rules::builtin_variants;

const TEST_VARIANTS: &str = "
[cannons:chess]
customPiece1 = c:mRcpR
startFen = rnbqkbnr/pppppppp/2c2c2/8/8/2C2C2/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[shortcannons:chess]
customPiece1 = c:mR4cpR4
startFen = rnbqkbnr/pppppppp/2c2c2/8/8/2C2C2/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[nightriders:chess]
customPiece1 = x:NN
knight = -
startFen = rxbqkbxr/pppppppp/8/8/8/8/PPPPPPPP/RXBQKBXR w KQkq - 0 1

[jumpers:chess]
customPiece1 = d:DA
startFen = rndqkdnr/pppppppp/8/8/8/8/PPPPPPPP/RNDQKDNR w KQkq - 0 1

[flying:chess]
flyingGeneral = true

[kingcapture:chess]
checking = false

[kingpromotion:chess]
checking = false
promotionPieceTypes = qk

[pawnjadoube:chess]
noAdjacentCapture = p

[optionalpromotion:chess]
mandatoryPawnPromotion = false

[small:chess]
maxFile = 6
maxRank = 6
castling = false
startFen = rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1
";

/// Compound-move mechanics beside hoppers, irregular riders and the flying general: the
/// judge's mask tier must stand aside for them.
const MECHANIC_TEST_VARIANTS: &str = "
[bracketcannons:bracket]
customPiece1 = c:mRcpR
startFen = rnbqkbnr/pppppppp/2c2c2/8/8/2C2C2/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[evictionnightriders:eviction]
customPiece1 = x:NN
knight = -
startFen = rxbqkbxr/pppppppp/8/8/8/8/PPPPPPPP/RXBQKBXR w KQkq - 0 1

[cascadeflying:cascade]
flyingGeneral = true

[relocatecannons:bump]
customPiece1 = c:mRcpR
startFen = rnbqkbnr/pppppppp/2c2c2/8/8/2C2C2/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[trailershortcannons:trailer]
customPiece1 = c:mR4cpR4
startFen = rnbqkbnr/pppppppp/2c2c2/8/8/2C2C2/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[caromjadoube:carom]
noAdjacentCapture = p
";

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[test]
fn shortcut_matches_testing_every_move() {
    let mut set = builtin_variants();
    set.load_str("test variants", TEST_VARIANTS)
        .expect("test variants load");
    set.load_str("mechanic test variants", MECHANIC_TEST_VARIANTS)
        .expect("mechanic test variants load");
    let mut rng = Rng(0xC0FF_EE15_600D_F00D);
    let (mut nodes, mut staged) = (0, 0);
    let names: Vec<String> = set.names().to_vec();
    for name in &names {
        let rules = set.get(name).expect("loaded");
        for _game in 0..40 {
            let mut pos = Position::startpos(rules);
            for _ply in 0..160 {
                let mut fast = MoveList::new();
                generic::legal_moves(&mut pos, &mut fast);
                let mut reference = MoveList::new();
                generic::legal_moves_by_testing(&mut pos, &mut reference);
                assert_eq!(
                    fast.as_slice(),
                    reference.as_slice(),
                    "[{name}] {}",
                    pos.fen()
                );
                assert_eq!(
                    generic::count_legal(&mut pos),
                    reference.len(),
                    "[{name}] count in {}",
                    pos.fen()
                );
                if generic::noisy_is_staged(&pos) {
                    // quiescence's staged moves: the captures and promotions of the list, in
                    // order, and whether there is any move at all
                    let mut noisy = MoveList::new();
                    let any = generic::noisy_legal_moves(&mut pos, &mut noisy);
                    let expected: Vec<_> = reference
                        .iter()
                        .copied()
                        .filter(|&m| generic::is_noisy(&pos, m))
                        .collect();
                    assert_eq!(
                        noisy.as_slice(),
                        expected,
                        "[{name}] noisy in {}",
                        pos.fen()
                    );
                    assert_eq!(any, !reference.is_empty(), "[{name}] {}", pos.fen());
                    staged += 1;
                }
                for sq in (0..64).map(chimera::geometry::Square::new) {
                    for by in chimera::geometry::Color::ALL {
                        assert_eq!(
                            generic::attacked_with(&pos, sq, by, pos.occupied()),
                            generic::is_attacked(&pos, sq, by),
                            "[{name}] {sq} by {by:?} in {}",
                            pos.fen()
                        );
                    }
                }
                nodes += 1;
                if reference.is_empty() {
                    break;
                }
                let m = reference[(rng.next() % reference.len() as u64) as usize];
                pos.make(m);
            }
        }
    }
    assert!(nodes > 50_000, "only {nodes} nodes compared");
    assert!(
        staged > 20_000,
        "only {staged} nodes' staged moves compared"
    );
}

/// The legality judge against playing: at every node of random games, in every built-in variant
/// and the test variants, every pseudo-legal move of any kind whose change the judge can read
/// (`Change::of_edits`) is judged as playing it judges, and judged at all wherever the node's
/// facts say they decide; and a mechanic's own word for what its move changes
/// (`Mechanic::change`) is what the move's edits do.
#[test]
fn judge_agrees_with_playing() {
    let mut set = builtin_variants();
    set.load_str("test variants", TEST_VARIANTS)
        .expect("test variants load");
    set.load_str("mechanic test variants", MECHANIC_TEST_VARIANTS)
        .expect("mechanic test variants load");
    let mut rng = Rng(0x5EED_0F1E_6A11_7E57);
    let (mut judged, mut special, mut told_moves) = (0u64, 0u64, 0u64);
    let mut told_captures = 0u64;
    let names: Vec<String> = set.names().to_vec();
    for name in &names {
        let rules = set.get(name).expect("loaded");
        for _game in 0..30 {
            let mut pos = Position::startpos(rules);
            for _ply in 0..300 {
                let lg = Legality::new(&pos);
                let mut pseudo = MoveList::new();
                generic::pseudo_moves(&pos, &mut pseudo);
                if let Some(mover) = pos.mechanics().mover() {
                    mover.generate(&pos, &mut pseudo);
                }
                for &m in pseudo.iter() {
                    let at = |pos: &Position| {
                        format!("[{name}] {} in {}", move_to_string(pos, m), pos.fen())
                    };
                    let from_edits = Change::of_edits(&pos, &pos.edits_of(m));
                    // a move's change read without its edits (a normal move's two squares, a
                    // mechanic's own word for its move) is what its edits do
                    let told = Change::of_move(&pos, m);
                    if told.is_some() {
                        assert_eq!(told, from_edits, "{}", at(&pos));
                    }
                    // a mechanic's word on whether its move captures is what its edits do
                    if let Some(said) = (m.kind() == chimera::moves::MoveKind::Special)
                        .then(|| pos.mechanics().mover())
                        .flatten()
                        .and_then(|own| own.captures(&pos, m))
                    {
                        assert_eq!(said, enemy_men_lost(&pos, m), "captures: {}", at(&pos));
                        told_captures += 1;
                    }
                    let by_mechanic = m.kind() == chimera::moves::MoveKind::Special
                        && pos
                            .mechanics()
                            .mover()
                            .and_then(|own| own.change(&pos, m))
                            .is_some();
                    told_moves += by_mechanic as u64;
                    let Some(c) = from_edits else {
                        continue;
                    };
                    let verdict = lg.judge(&pos, &c);
                    assert_eq!(verdict.is_some(), lg.decides(), "[{name}] {}", pos.fen());
                    if let Some(legal) = verdict {
                        let played = legal_when_played(&mut pos, m);
                        assert_eq!(legal, played, "{}", at(&pos));
                        judged += 1;
                        special += (m.kind() == chimera::moves::MoveKind::Special) as u64;
                    }
                }
                let mut legal = MoveList::new();
                generic::legal_moves(&mut pos, &mut legal);
                if legal.is_empty() {
                    break;
                }
                let m = legal[(rng.next() % legal.len() as u64) as usize];
                pos.make(m);
            }
        }
    }
    assert!(judged > 1_000_000, "only {judged} moves judged");
    assert!(special > 100_000, "only {special} compound moves judged");
    assert!(
        told_moves > 100_000,
        "only {told_moves} changes told by mechanics"
    );
    assert!(
        told_captures > 100_000,
        "only {told_captures} captures told by mechanics"
    );
}

/// Whether playing `m` leaves the side not to move with fewer men, read from its edits (a
/// square edited several times counts from its first content to its last).
fn enemy_men_lost(pos: &Position, m: chimera::moves::Move) -> bool {
    let edits = pos.edits_of(m);
    let all = edits.as_slice();
    let them = pos.side_to_move().flip();
    let theirs = |p: chimera::piece::Piece| (p.is_some() && p.color() == them) as i32;
    let mut delta = 0;
    for (i, e) in all.iter().enumerate() {
        if all[..i].iter().any(|x| x.sq == e.sq) {
            continue;
        }
        let last = all.iter().rev().find(|x| x.sq == e.sq).expect("e").after;
        delta += theirs(last) - theirs(pos.piece_at(e.sq));
    }
    delta < 0
}
