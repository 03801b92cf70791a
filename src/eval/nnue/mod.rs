//! An efficiently updated neural evaluation (NNUE), one implementation for every two-colour
//! variant.
//!
//! The net is a perspective network `(2 * T * 64 -> H) x 2 -> 1`: an input for each
//! (colour relative to the perspective, man type, square), the square mirrored top to bottom
//! for Black's perspective so both sides see their own men rising; one accumulator of `H`
//! values per perspective; a squared clipped ReLU; one output from the side to move's
//! accumulator followed by the other's. Weights are quantised: the accumulator in i16 at
//! scale [`QA`], the output weights in i16 within ±127 at scale [`QB`].
//!
//! The accumulators follow the game through the same edit lists `make` records
//! ([`AccumulatorStack`]): every man a move removes or places, whatever mechanic made the move
//! (relocations, compound moves, drops, a 007 ply of the other colour), so no variant needs a
//! case of its own. Where the variant has holdings (Emissary) a net may also have inputs for
//! the held men: `M` per colour and type, the `k`-th on while at least `k` such men are held;
//! their rows are added when an evaluation is asked for (few men are ever held), so the
//! accumulators and every other variant pay nothing for them. A mechanic's other state is not
//! an input. Where a turn has phases (the 007 family) a net may have an output bucket per
//! phase, chosen by [`Position::turn_phase`]; any net may instead have output buckets by the
//! men on the board ([`men_bucket`]).
//!
//! A net may also have input buckets by its perspective's king ([`KingBuckets`]): a block of
//! board inputs per bucket of the own king's square, and with mirroring the board seen
//! reflected left to right whenever that king stands on the right half, so a king on g1 and
//! one on b1 share their weights. A perspective whose king changes bucket or half is computed
//! afresh at the top of the line ([`AccumulatorStack`] keeps which context each entry was
//! computed in).

mod accumulator;
pub mod embedded;
pub mod file;
pub mod simd;
pub mod three;

pub use accumulator::AccumulatorStack;
pub use file::NetError;

use crate::geometry::{Color, Square};
use crate::piece::{Piece, MAX_PIECE_TYPES};
use crate::position::{Hooks, Position, Variant};

/// Accumulator scale: a feature weight of 1.0 is stored as 255, and the activation clips there.
pub const QA: i32 = 255;
/// Output weight scale.
pub const QB: i32 = 64;
/// A slot number meaning "no input for this type".
const NO_SLOT: u8 = u8::MAX;

/// A quantised net and what it was made for.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The variant it was trained for.
    pub variant: String,
    /// The man types' letters in input order.
    pub letters: String,
    /// Board files.
    pub files: u8,
    /// Board ranks.
    pub ranks: u8,
    /// Accumulator size per perspective.
    pub hidden: usize,
    /// Centipawns per unit of output.
    pub scale: i32,
    /// Feature weights, `inputs * hidden`, input-major.
    pub ft_weights: Vec<i16>,
    /// Feature biases, `hidden`.
    pub ft_bias: Vec<i16>,
    /// Output buckets: 1, the variant's turn phases ([`Position::turn_phase`] picks one), or
    /// bands of the men on the board ([`men_bucket`]), as `bucket_by` says.
    pub buckets: usize,
    /// What picks the output bucket where there are several.
    pub bucket_by: BucketBy,
    /// Inputs per colour and man type for the men held off the board (0: none).
    pub held_inputs: u8,
    /// Input buckets by the perspective's king (one bucket, no mirror: none).
    pub kings: KingBuckets,
    /// Output weights, `buckets * 2 * hidden`: per bucket, the side to move's half first.
    pub out_weights: Vec<i16>,
    /// Output biases, one per bucket, at scale `QA * QB`.
    pub out_bias: Vec<i32>,
}

/// What chooses a net's output bucket when it has several.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BucketBy {
    /// The phase of the turn (the 007 family's Detente slots).
    #[default]
    TurnPhase,
    /// The men on the board, in equal bands up to the start position's count.
    Men,
}

/// Most input buckets by the king a net may have.
pub const MAX_KING_BUCKETS: usize = 16;

/// A net's input buckets by its perspective's king: which bucket each square of the king
/// gives (seen from the perspective, ranks counted from its own side, and after the mirror),
/// and whether the board is mirrored left to right while that king stands on the right half.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    /// Buckets (1..=[`MAX_KING_BUCKETS`]).
    pub count: u8,
    /// Whether a king on the right half mirrors its perspective's board.
    pub mirror: bool,
    /// The bucket of each king square (8-stride board index), each below `count`.
    pub map: [u8; 64],
}

impl Default for KingBuckets {
    fn default() -> Self {
        KingBuckets {
            count: 1,
            mirror: false,
            map: [0; 64],
        }
    }
}

impl KingBuckets {
    /// Whether these are no buckets at all (one bucket, no mirror): a net as before them.
    pub fn is_plain(&self) -> bool {
        self.count == 1 && !self.mirror
    }

    /// A layout of `count` buckets (1, 2, 4 or 8), by the king's rank from its own side and
    /// its distance from the nearer edge file on a board of `files` files: 2 parts the first
    /// rank from the rest; 4 the first rank's corners (two files from each edge), the rest of
    /// it, the second rank, and beyond; 8 the first rank's files each (four from each edge),
    /// the second rank's corners and centre, the third and fourth ranks, and beyond.
    pub fn preset(count: u8, mirror: bool, files: u8) -> Result<KingBuckets, String> {
        let mut map = [0u8; 64];
        for (sq, bucket) in map.iter_mut().enumerate() {
            let (rank, file) = (sq / 8, (sq % 8) as u8);
            let edge = file
                .min(files.saturating_sub(1).saturating_sub(file))
                .min(3);
            *bucket = match count {
                1 => 0,
                2 => (rank > 0) as u8,
                4 => match rank {
                    0 => (edge >= 2) as u8,
                    1 => 2,
                    _ => 3,
                },
                8 => match rank {
                    0 => edge,
                    1 => 4 + (edge >= 2) as u8,
                    2 | 3 => 6,
                    _ => 7,
                },
                _ => return Err(format!("{count} king buckets (1, 2, 4 or 8)")),
            };
        }
        Ok(KingBuckets { count, mirror, map })
    }

    /// The context of a perspective whose king (in its own view: ranks from its side) stands
    /// on `king`, on a board of `files` files: its bucket and whether its board is mirrored.
    #[inline(always)]
    pub fn context(&self, king: Option<Square>, files: i8, board_inputs: usize) -> KingContext {
        let Some(k) = king else {
            return KingContext::default();
        };
        let mirror = self.mirror && 2 * k.file() >= files;
        let file = if mirror {
            files - 1 - k.file()
        } else {
            k.file()
        };
        let bucket = self.map[k.rank() as usize * 8 + file as usize] as usize;
        KingContext {
            offset: bucket * board_inputs,
            mirror,
            key: (bucket * 2 + mirror as usize) as u8,
        }
    }
}

/// Where a perspective's board inputs start and whether they are mirrored, from its king.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingContext {
    /// The first board input of the king's bucket.
    pub offset: usize,
    /// Whether files are read right to left.
    pub mirror: bool,
    /// Bucket and mirror in one number (below 2 * [`MAX_KING_BUCKETS`]).
    pub key: u8,
}

/// The output bucket of a position with `men` men on the board, in a variant that starts with
/// `start_men`, for a net of `buckets` buckets by men: equal bands, the fullest boards (and
/// any beyond the start's count, as drops may make) in the last.
#[inline(always)]
pub fn men_bucket(men: usize, start_men: usize, buckets: usize) -> usize {
    (men.saturating_sub(1) * buckets / start_men.max(1)).min(buckets - 1)
}

/// The men of `rules`' start position: the letters of its FEN's board field.
pub fn start_men(rules: &Variant) -> usize {
    let board = rules.start_fen.split([' ', '[']).next().unwrap_or("");
    board.chars().filter(|c| c.is_ascii_alphabetic()).count()
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({}, {}, {}x{}, {} -> {} x 2 -> {} x 1)",
            self.variant,
            self.letters,
            self.files,
            self.ranks,
            self.inputs(),
            self.hidden,
            self.buckets
        )
    }
}

impl Network {
    /// Number of inputs per perspective.
    pub fn inputs(&self) -> usize {
        input_count(self.letters.len(), self.held_inputs, self.kings.count)
    }

    /// The weight row of one input.
    #[inline(always)]
    fn row(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The output in centipawns for the side to move, from the two accumulators, through
    /// output bucket `bucket`.
    #[inline]
    fn output(
        &self,
        us: &[i16],
        them: &[i16],
        bucket: usize,
        dot: fn(&[i16], &[i16]) -> i64,
    ) -> i32 {
        let h = self.hidden;
        let weights = &self.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        let (w_us, w_them) = weights.split_at(h);
        let sum = dot(us, w_us) + dot(them, w_them);
        let raw = sum / QA as i64 + self.out_bias[bucket] as i64;
        (raw * self.scale as i64 / (QA * QB) as i64) as i32
    }

    /// Whether this net was made for `rules`' variant, or for the one it accepts nets of
    /// (`nnueVariant`).
    pub fn is_for(&self, rules: &Variant) -> bool {
        self.variant == rules.name || rules.nnue_variant.as_ref() == Some(&self.variant)
    }

    /// Whether this net fits `rules`: the same board and the same man types (matched by letter),
    /// made for that variant. The error says what differs.
    pub fn check_fits(&self, rules: &Variant) -> Result<(), NetError> {
        if !self.is_for(rules) {
            return Err(NetError::Mismatch(format!(
                "the net is for '{}', the variant is '{}'",
                self.variant, rules.name
            )));
        }
        self.check_inputs(rules)?;
        let phases = rules.mechanics.turn_phases();
        if self.buckets != 1 && self.bucket_by == BucketBy::TurnPhase && self.buckets != phases {
            return Err(NetError::Mismatch(format!(
                "the net has {} output buckets, the variant's turns {phases} phases",
                self.buckets
            )));
        }
        Ok(())
    }

    /// Whether this net's inputs are `rules`' (the same board and man types, matched by
    /// letter), whatever variant it was made for: a net another variant can start training
    /// from. The error says what differs.
    pub fn check_inputs(&self, rules: &Variant) -> Result<(), NetError> {
        if (self.files, self.ranks) != (rules.shape.files, rules.shape.ranks) {
            return Err(NetError::Mismatch(format!(
                "the net's board is {}x{}, the variant's {}x{}",
                self.files, self.ranks, rules.shape.files, rules.shape.ranks
            )));
        }
        let mut theirs: Vec<char> = rules.piece_types().map(|t| rules.letter(t)).collect();
        let mut ours: Vec<char> = self.letters.chars().collect();
        theirs.sort_unstable();
        ours.sort_unstable();
        if theirs != ours {
            return Err(NetError::Mismatch(format!(
                "the net's men are '{}', the variant's '{}'",
                self.letters,
                theirs.iter().collect::<String>()
            )));
        }
        Ok(())
    }
}

/// The inputs per perspective of a net of `types` man types with `held_inputs` held-man
/// inputs per colour and type and `king_buckets` input buckets: the board's `2 * types * 64`
/// for each bucket, then the held men's.
pub fn input_count(types: usize, held_inputs: u8, king_buckets: u8) -> usize {
    king_buckets.max(1) as usize * 2 * types * 64 + 2 * types * held_inputs as usize
}

/// Where each man goes among a net's inputs in one variant: the input slot of each type and
/// the board's ranks for the mirror.
#[derive(Clone, Copy, Debug)]
pub struct InputMap {
    slot: [u8; MAX_PIECE_TYPES],
    types: usize,
    files: i8,
    ranks: i8,
    held_inputs: u8,
    kings: KingBuckets,
}

impl InputMap {
    /// The map of `net`'s inputs for `rules` (which [`Network::check_fits`] accepted).
    pub fn new(net: &Network, rules: &Variant) -> InputMap {
        let mut slot = [NO_SLOT; MAX_PIECE_TYPES];
        for t in rules.piece_types() {
            if let Some(i) = net.letters.find(rules.letter(t)) {
                slot[t.index()] = i as u8;
            }
        }
        InputMap {
            slot,
            types: net.letters.len(),
            files: rules.shape.files as i8,
            ranks: rules.shape.ranks as i8,
            held_inputs: net.held_inputs,
            kings: net.kings,
        }
    }

    /// The square `sq` as `perspective` sees it: ranks counted from its own side.
    #[inline(always)]
    fn relative(&self, perspective: Color, sq: Square) -> Square {
        match perspective {
            Color::White => sq,
            Color::Black => Square::new(((self.ranks - 1 - sq.rank()) * 8 + sq.file()) as u8),
        }
    }

    /// The king context of `perspective` in `pos`: plain for a net without king buckets.
    #[inline(always)]
    pub fn context(&self, pos: &Position, perspective: Color) -> KingContext {
        if self.kings.is_plain() {
            return KingContext::default();
        }
        let king = pos
            .king_square(perspective)
            .map(|k| self.relative(perspective, k));
        self.kings.context(king, self.files, 2 * self.types * 64)
    }

    /// The `k`-th input (from 0) of `colour`'s held men of `piece`'s type seen from
    /// `perspective`: on while `colour` holds more than `k` of them.
    #[inline]
    pub fn held_feature(&self, perspective: Color, piece: Piece, k: usize) -> usize {
        let theirs = (piece.color() != perspective) as usize;
        let block = theirs * self.types + self.slot[piece.kind().index()] as usize;
        self.kings.count as usize * 2 * self.types * 64 + block * self.held_inputs as usize + k
    }

    /// The input of `piece` on `sq` seen from `perspective`, whose king gives `ctx`.
    #[inline(always)]
    pub fn feature(&self, perspective: Color, ctx: KingContext, piece: Piece, sq: Square) -> usize {
        let theirs = (piece.color() != perspective) as usize;
        let rank = match perspective {
            Color::White => sq.rank(),
            Color::Black => self.ranks - 1 - sq.rank(),
        } as usize;
        let file = if ctx.mirror {
            self.files - 1 - sq.file()
        } else {
            sq.file()
        } as usize;
        ctx.offset
            + (theirs * self.types + self.slot[piece.kind().index()] as usize) * 64
            + rank * 8
            + file
    }
}

/// A net ready to evaluate one variant's positions.
#[derive(Clone, Debug)]
pub struct LoadedNet {
    /// The net.
    pub net: std::sync::Arc<Network>,
    /// Its inputs in this variant.
    pub map: InputMap,
    /// Where it came from (a file path, or the name of an embedded net), for messages.
    pub source: String,
    /// Whether the net has held-man inputs and the variant holdings to fill them.
    pub sees_held: bool,
    /// The men of the variant's start position (for output buckets by men).
    pub start_men: usize,
}

impl LoadedNet {
    /// `net` for `rules`, if it fits.
    pub fn new(
        net: std::sync::Arc<Network>,
        rules: &Variant,
        source: &str,
    ) -> Result<LoadedNet, NetError> {
        net.check_fits(rules)?;
        let map = InputMap::new(&net, rules);
        Ok(LoadedNet {
            sees_held: net.held_inputs > 0 && rules.has_holdings(),
            start_men: start_men(rules),
            net,
            map,
            source: source.to_string(),
        })
    }

    /// Adds the rows of the men held off the board to `acc`, the accumulator of `perspective`
    /// (only for a net that [`sees_held`](Self::sees_held)).
    pub fn add_held(&self, pos: &Position, perspective: Color, acc: &mut [i16]) {
        let most = self.net.held_inputs as usize;
        for holder in pos.rules().mechanics.with_hook(Hooks::HOLDINGS) {
            for color in Color::ALL {
                let held = holder.held(pos, color);
                for t in pos.rules().piece_types() {
                    if self.map.slot[t.index()] == NO_SLOT {
                        continue;
                    }
                    let piece = Piece::new(color, t);
                    for k in 0..(held[t.index()] as usize).min(most) {
                        let row = self.net.row(self.map.held_feature(perspective, piece, k));
                        for (o, w) in acc.iter_mut().zip(row) {
                            *o = o.wrapping_add(*w);
                        }
                    }
                }
            }
        }
    }

    /// The output bucket of `pos`: its turn's phase where the net has a bucket per phase, its
    /// band of men where it has buckets by men.
    #[inline(always)]
    pub fn bucket(&self, pos: &Position) -> usize {
        if self.net.buckets == 1 {
            return 0;
        }
        match self.net.bucket_by {
            BucketBy::TurnPhase => pos.turn_phase(),
            BucketBy::Men => men_bucket(
                pos.occupied().count() as usize,
                self.start_men,
                self.net.buckets,
            ),
        }
    }

    /// The accumulator of `perspective` computed from scratch.
    pub fn refresh(&self, pos: &Position, perspective: Color, out: &mut [i16]) {
        out.copy_from_slice(&self.net.ft_bias);
        let ctx = self.map.context(pos, perspective);
        for sq in pos.occupied() {
            let f = self.map.feature(perspective, ctx, pos.piece_at(sq), sq);
            for (o, w) in out.iter_mut().zip(self.net.row(f)) {
                *o = o.wrapping_add(*w);
            }
        }
    }

    /// The evaluation of `pos` from scratch (centipawns, side to move's view), with the
    /// scalar kernels: the reference the incremental and SIMD paths must equal.
    pub fn evaluate_fresh(&self, pos: &Position) -> i32 {
        let h = self.net.hidden;
        let (mut us, mut them) = (vec![0i16; h], vec![0i16; h]);
        let stm = pos.side_to_move();
        self.refresh(pos, stm, &mut us);
        self.refresh(pos, stm.flip(), &mut them);
        if self.sees_held {
            self.add_held(pos, stm, &mut us);
            self.add_held(pos, stm.flip(), &mut them);
        }
        self.net
            .output(&us, &them, self.bucket(pos), simd::screlu_dot_scalar)
    }
}

#[cfg(test)]
mod tests;
