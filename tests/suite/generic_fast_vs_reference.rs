//! The generic generator's shortcut (moves accepted without make / test / unmake) against
//! testing every move: the same list and the same count at every node of random games, in every
//! built-in variant and in test variants with hoppers, irregular riders, distant leapers
//! (whose checks cannot be blocked), the flying general,
//! king capture and promotion to the king type (where the shortcut must stand aside), pawns that
//! may not capture, optional promotion and a small board.

use chimera::movegen::generic;
use chimera::moves::MoveList;
use chimera::position::Position;
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
    let mut rng = Rng(0xC0FF_EE15_600D_F00D);
    let mut nodes = 0;
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
}
