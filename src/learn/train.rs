//! `chimera train`: fits a net (`eval::nnue`) to packed self-play data on the CPU.
//!
//! The float net has the shape of the quantised one: `(2 * T * 64 [+ 2 * T * M] -> H) x 2 -> B x 1`
//! (`M` = [`HELD_INPUTS`] inputs per colour and type for held men where the variant has
//! holdings) with a squared clipped ReLU (clipped at 1.0), `B` output buckets chosen by the turn's phase (one
//! where players alternate; three in the 007 family, read from each record's ply number). Its output times [`OUTPUT_SCALE`] is centipawns for
//! the side to move; the prediction is `sigmoid(cp / K)`, fitted by mean squared error to
//! `lambda * sigmoid(score / K) + (1 - lambda) * result` (score and result from the side to
//! move's point of view; `K` fitted to the data's results unless given). Adam, a learning rate
//! falling geometrically over the epochs, a held-out share of the data (blocks of consecutive
//! records, so one game's positions rarely straddle the split) that picks the epoch whose
//! net is kept. Each batch is cut into [`CHUNKS`] fixed pieces whose gradients are summed in
//! order, so a run is the same bit for bit on any number of threads (on one kind of
//! processor).

use super::packed::{self, Layout, Record, RECORD_BYTES};
use crate::eval::nnue::file::{MAX_BUCKETS, MAX_OUTPUT_WEIGHT};
use crate::eval::nnue::{
    input_count, men_bucket, start_men, BucketBy, KingBuckets, Network, QA, QB,
};
use crate::geometry::Color;
use crate::position::{Mechanics, Position, Variant};
use rayon::prelude::*;
use std::time::Instant;

/// Centipawns per unit of the net's output.
pub const OUTPUT_SCALE: i32 = 400;
/// Pieces each batch is cut into (fixed, for reproducibility).
pub const CHUNKS: usize = 8;
/// Records per validation block (fewer in a small file, so it still splits).
const BLOCK: usize = 1024;
/// Largest float output weight: quantised at [`QB`] it stays within the SIMD kernel's ±127.
const MAX_OUT: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;
/// Largest float feature weight (quantised at [`QA`], 32 men sum safely in 16 bits).
const MAX_FT: f32 = 3.9;
/// Inputs per colour and man type for the men held off the board, in a variant with holdings:
/// the `k`-th is on while at least `k` are held (Emissary holds one; more than this many count
/// as this many).
pub const HELD_INPUTS: u8 = 4;
/// Most inputs on in one sample: the men on the board and each colour's held men.
const MAX_ON: usize = packed::MAX_MEN + 2 * HELD_INPUTS as usize;

/// The held-man inputs per colour and type of a net trained for `rules`.
pub fn held_inputs_for(rules: &Variant) -> u8 {
    if rules.has_holdings() {
        HELD_INPUTS
    } else {
        0
    }
}

/// What `chimera train` was asked for.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Hidden values per perspective (a multiple of 16).
    pub hidden: usize,
    /// Passes over the training data.
    pub epochs: usize,
    /// Positions per batch.
    pub batch: usize,
    /// Learning rate of the first epoch.
    pub rate: f32,
    /// The last epoch's rate as a share of the first's.
    pub final_rate: f32,
    /// Weight of the search score in the target (the rest is the game's result).
    pub lambda: f32,
    /// The sigmoid's scale in centipawns (`None`: fitted to the results).
    pub scale: Option<f32>,
    /// Share of the data held out.
    pub validation: f64,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Threads.
    pub threads: usize,
    /// Whether each position is also seen reflected left to right (half the time, chosen per
    /// epoch): sound where the rules are symmetric that way and the net does not see what
    /// breaks the symmetry (chess: castling rights are not inputs).
    pub mirror: bool,
    /// A net to start from instead of random weights (`--init`): one of the same inputs (men
    /// and board) and hidden size, possibly made for another variant, so a variant's net can
    /// begin with what a related game's net knows.
    pub init: Option<std::sync::Arc<Network>>,
    /// Whether the output has a bucket for each phase of the variant's turns (where it has
    /// more than one: the 007 family); a one-bucket net starts every bucket alike.
    pub turn_buckets: bool,
    /// Output buckets by the men on the board (`--men-buckets`; 0 or 1: none), for variants
    /// whose turns have no phases (or with `turn_buckets` off).
    pub men_buckets: usize,
    /// Input buckets by each perspective's king (`--king-buckets`, `--king-mirror`; plain:
    /// none). A net without them, given as `init`, starts every bucket with its weights.
    pub kings: KingBuckets,
    /// A file where the run's state is kept after every epoch (written whole, then renamed),
    /// and from which a stopped run with the same data and settings goes on.
    pub checkpoint: Option<std::path::PathBuf>,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 256,
            epochs: 20,
            batch: 16384,
            rate: 0.001,
            final_rate: 0.05,
            lambda: 0.5,
            scale: None,
            validation: 0.05,
            seed: 1,
            threads: 1,
            mirror: false,
            init: None,
            turn_buckets: true,
            men_buckets: 0,
            kings: KingBuckets::default(),
            checkpoint: None,
        }
    }
}

/// Training positions of one variant, packed.
pub struct Data {
    /// The variant.
    pub rules: &'static Variant,
    /// How the records number the men.
    pub layout: Layout,
    /// The records.
    pub records: Vec<Record>,
}

/// Reads a packed data file for `rules` (its header must name the same variant, board and
/// men); a record cut short at the end is dropped with a warning, a bad record is an error
/// that names it.
pub fn load_packed(path: &str, rules: &'static Variant) -> Result<Data, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let (variant, letters, files, ranks, start) =
        packed::read_header(&bytes).map_err(|e| format!("{path}: {e}"))?;
    let layout = Layout::new(rules).map_err(|e| format!("{path}: {e}"))?;
    if variant != layout.variant
        || letters != layout.letters
        || (files, ranks) != (layout.files, layout.ranks)
    {
        return Err(format!(
            "{path}: the data is for {variant} (men '{letters}', {files}x{ranks}), not for {} \
             (men '{}', {}x{})",
            layout.variant, layout.letters, layout.files, layout.ranks
        ));
    }
    let body = &bytes[start..];
    let whole = body.len() / RECORD_BYTES;
    if body.len() % RECORD_BYTES != 0 {
        eprintln!(
            "train: {path}: the last record is cut short ({} of {RECORD_BYTES} bytes); dropped",
            body.len() % RECORD_BYTES
        );
    }
    let types = layout.letters.len();
    let mut records = Vec::with_capacity(whole);
    for (i, chunk) in body.chunks_exact(RECORD_BYTES).enumerate() {
        let r: Record = chunk.try_into().expect("whole record");
        let u = packed::unpack(&r, types).map_err(|e| format!("{path}: record {}: {e}", i + 1))?;
        if u.men.iter().any(|&(sq, _, _)| !rules.board.has(sq)) {
            return Err(format!("{path}: record {}: a man off the board", i + 1));
        }
        records.push(r);
    }
    Ok(Data {
        rules,
        layout,
        records,
    })
}

/// Reads `FEN | RESULT | SCORE` lines (datagen's text format) and packs them; a last line cut
/// short is dropped, any other bad line is an error that names it.
pub fn load_text(path: &str, rules: &'static Variant) -> Result<Data, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let layout = Layout::new(rules).map_err(|e| format!("{path}: {e}"))?;
    let mut records = Vec::new();
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parsed = super::parse_line(line).and_then(|d| {
            let score = d.score.ok_or("no score")?;
            let pos = Position::from_fen(rules, d.fen).map_err(|e| e.to_string())?;
            packed::pack(&layout, &pos, score as i32, d.result)
        });
        match parsed {
            Ok(r) => records.push(r),
            Err(_) if i + 1 == lines.len() && !complete => {
                eprintln!("train: {path}: the last line is cut short; dropped");
            }
            Err(e) => return Err(format!("{path}:{}: {e}", i + 1)),
        }
    }
    Ok(Data {
        rules,
        layout,
        records,
    })
}

/// Reads a data file of either format (packed files start with their magic).
pub fn load(path: &str, rules: &'static Variant) -> Result<Data, String> {
    let mut head = [0u8; 8];
    let is_packed = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .map(|_| &head == packed::MAGIC)
        .unwrap_or(false);
    if is_packed {
        load_packed(path, rules)
    } else {
        load_text(path, rules)
    }
}

/// One position as the trainer sees it: the inputs of each perspective (the side to move's
/// first) and the target's parts from the side to move's point of view.
struct Sample {
    us: [u16; MAX_ON],
    them: [u16; MAX_ON],
    /// How many of `us` and `them` are inputs.
    on: usize,
    score: f32,
    result: f32,
    bucket: usize,
}

/// How a record's output bucket is chosen (as `eval::nnue::LoadedNet::bucket` chooses a
/// position's).
#[derive(Clone, Copy)]
enum Bucketing<'a> {
    /// One bucket.
    One,
    /// The turn's phase at the record's ply.
    Phases(&'a Mechanics),
    /// The band of the men on the board, of `buckets`, for a variant that starts with `start`.
    Men { start: usize, buckets: usize },
}

impl Bucketing<'_> {
    /// How many buckets.
    fn count(&self) -> usize {
        match self {
            Bucketing::One => 1,
            Bucketing::Phases(m) => m.turn_phases(),
            Bucketing::Men { buckets, .. } => *buckets,
        }
    }

    /// The bucket of an unpacked record.
    fn of(&self, u: &packed::Unpacked) -> usize {
        match self {
            Bucketing::One => 0,
            Bucketing::Phases(m) => m.turn_phase(u.ply as u32),
            Bucketing::Men { start, buckets } => men_bucket(u.men.len(), *start, *buckets),
        }
    }

    /// What the net file says picks the bucket.
    fn by(&self) -> BucketBy {
        match self {
            Bucketing::Men { .. } => BucketBy::Men,
            _ => BucketBy::TurnPhase,
        }
    }
}

/// How a record's men become a net's inputs: the man types, the board, the held-man inputs
/// per colour and type, and the input buckets by the king (with the king's slot, if the
/// variant has one).
#[derive(Clone, Copy)]
struct Shape {
    types: usize,
    files: i8,
    ranks: i8,
    held: u8,
    kings: KingBuckets,
    king_slot: Option<u8>,
}

impl Shape {
    /// The shape of the nets trained on `layout`'s records for `rules`.
    fn new(layout: &Layout, rules: &Variant, held: u8, kings: KingBuckets) -> Shape {
        let king = rules.letter(crate::piece::PieceType::KING);
        Shape {
            types: layout.letters.len(),
            files: layout.files as i8,
            ranks: layout.ranks as i8,
            held,
            kings,
            king_slot: layout.letters.find(king).map(|i| i as u8),
        }
    }

    /// A shape without held men or king buckets (for what reads only scores and results).
    fn plain(types: usize, ranks: i8) -> Shape {
        Shape {
            types,
            files: 8,
            ranks,
            held: 0,
            kings: KingBuckets::default(),
            king_slot: None,
        }
    }
}

/// The inputs of a record, numbered as `eval::nnue::InputMap` numbers them; with
/// `mirror_files`, the board reflected left to right; its output bucket as `bucketing`
/// chooses it.
fn sample(r: &Record, shape: &Shape, mirror_files: bool, bucketing: Bucketing) -> Sample {
    let Shape {
        types,
        files,
        ranks,
        held,
        ..
    } = *shape;
    let u = packed::unpack(r, types).expect("records are checked at load");
    let mut s = Sample {
        us: [0; MAX_ON],
        them: [0; MAX_ON],
        on: u.men.len(),
        bucket: bucketing.of(&u),
        score: u.white_score as f32,
        result: u.white_half_points as f32 / 2.0,
    };
    let reflect = |sq: crate::geometry::Square| {
        if mirror_files {
            crate::geometry::Square::new((sq.rank() * 8 + files - 1 - sq.file()) as u8)
        } else {
            sq
        }
    };
    let relative = |perspective: Color, sq: crate::geometry::Square| match perspective {
        Color::White => sq,
        Color::Black => {
            crate::geometry::Square::new(((ranks - 1 - sq.rank()) * 8 + sq.file()) as u8)
        }
    };
    // each perspective's king context, as the engine finds it: its one king, if it has one
    let context = |perspective: Color| {
        if shape.kings.is_plain() {
            return Default::default();
        }
        let mut kings = u
            .men
            .iter()
            .filter(|&&(_, colour, slot)| colour == perspective && Some(slot) == shape.king_slot);
        let king = match (kings.next(), kings.next()) {
            (Some(&(sq, ..)), None) => Some(relative(perspective, reflect(sq))),
            _ => None,
        };
        shape.kings.context(king, files, 2 * types * 64)
    };
    let (ctx_us, ctx_them) = (context(u.stm), context(u.stm.flip()));
    let feature = |perspective: Color,
                   ctx: crate::eval::nnue::KingContext,
                   colour: Color,
                   slot: u8,
                   sq: crate::geometry::Square| {
        let theirs = (colour != perspective) as usize;
        let sq = relative(perspective, sq);
        let file = if ctx.mirror {
            files - 1 - sq.file()
        } else {
            sq.file()
        };
        (ctx.offset
            + (theirs * types + slot as usize) * 64
            + sq.rank() as usize * 8
            + file as usize) as u16
    };
    for (i, &(sq, colour, slot)) in u.men.iter().enumerate() {
        let sq = reflect(sq);
        s.us[i] = feature(u.stm, ctx_us, colour, slot, sq);
        s.them[i] = feature(u.stm.flip(), ctx_them, colour, slot, sq);
    }
    if held > 0 {
        let held_feature = |perspective: Color, colour: Color, slot: u8, k: u8| {
            let theirs = (colour != perspective) as usize;
            let block = theirs * types + slot as usize;
            (shape.kings.count as usize * 2 * types * 64 + block * held as usize + k as usize)
                as u16
        };
        for (colour, hand) in Color::ALL.into_iter().zip(u.held) {
            let Some((slot, count)) = hand else { continue };
            for k in 0..count.min(held) {
                s.us[s.on] = held_feature(u.stm, colour, slot, k);
                s.them[s.on] = held_feature(u.stm.flip(), colour, slot, k);
                s.on += 1;
            }
        }
    }
    if u.stm == Color::Black {
        s.score = -s.score;
        s.result = 1.0 - s.result;
    }
    s
}

/// The float net.
#[derive(Clone)]
struct Params {
    hidden: usize,
    ft_w: Vec<f32>,
    ft_b: Vec<f32>,
    /// Per bucket, the side to move's half first.
    out_w: Vec<f32>,
    /// One per bucket.
    out_b: Vec<f32>,
    /// What picks the bucket where there are several.
    by: BucketBy,
    /// The input buckets by the king.
    kings: KingBuckets,
}

impl Params {
    fn zeros(inputs: usize, hidden: usize, buckets: usize) -> Params {
        Params {
            by: BucketBy::TurnPhase,
            kings: KingBuckets::default(),
            hidden,
            ft_w: vec![0.0; inputs * hidden],
            ft_b: vec![0.0; hidden],
            out_w: vec![0.0; buckets * 2 * hidden],
            out_b: vec![0.0; buckets],
        }
    }

    fn random(inputs: usize, hidden: usize, buckets: usize, seed: u64) -> Params {
        let mut rng = crate::openings::Rng(seed);
        let mut uniform =
            |limit: f32| (rng.next() >> 11) as f32 / (1u64 << 53) as f32 * 2.0 * limit - limit;
        let mut p = Params::zeros(inputs, hidden, buckets);
        let ft = 1.0 / (32f32).sqrt();
        for w in &mut p.ft_w {
            *w = uniform(ft) * 0.5;
        }
        for b in &mut p.ft_b {
            *b = uniform(0.1) + 0.1;
        }
        let out = 1.0 / (2.0 * hidden as f32).sqrt();
        for w in &mut p.out_w {
            *w = uniform(out);
        }
        p
    }

    /// The float weights of the quantised `net` (exactly what it computes), when its inputs
    /// are those of `layout` and its hidden size is `hidden`; a net of one bucket starts each
    /// of `buckets` with its output.
    /// Held-man inputs (`held` per colour and type) the net lacks start as the mean of that
    /// man's rows over the board's squares: a held man is first worth that man somewhere on
    /// the board, not nothing. A narrower net is widened: the added hidden values get random
    /// input weights and biases as a new net would, and output weights of zero, so the wider
    /// net computes what the narrow one did and training grows it from there.
    fn from_network(
        net: &Network,
        layout: &Layout,
        hidden: usize,
        buckets: usize,
        held: u8,
        kings: KingBuckets,
    ) -> Result<Params, String> {
        let mut ours: Vec<char> = layout.letters.chars().collect();
        let mut theirs: Vec<char> = net.letters.chars().collect();
        ours.sort_unstable();
        theirs.sort_unstable();
        if (ours, net.files, net.ranks) != (theirs, layout.files, layout.ranks) {
            return Err(format!(
                "--init: the net's inputs ({} on {}x{}) are not this variant's ({} on {}x{})",
                net.letters, net.files, net.ranks, layout.letters, layout.files, layout.ranks
            ));
        }
        if net.hidden > hidden || net.scale != OUTPUT_SCALE {
            return Err(format!(
                "--init: the net has {} hidden values and output scale {}, training wants {} \
                 and {OUTPUT_SCALE} (give --hidden {} or more)",
                net.hidden, net.scale, hidden, net.hidden
            ));
        }
        if net.held_inputs != 0 && net.held_inputs != held {
            return Err(format!(
                "--init: the net has {} held-man inputs per type, training wants {held}",
                net.held_inputs
            ));
        }
        if !net.kings.is_plain() && net.kings != kings {
            return Err(format!(
                "--init: the net has {} king buckets{}, training wants {}{} (or a net without)",
                net.kings.count,
                if net.kings.mirror { ", mirrored" } else { "" },
                kings.count,
                if kings.mirror { ", mirrored" } else { "" }
            ));
        }
        if net.buckets != 1 && net.buckets != buckets {
            return Err(format!(
                "--init: the net has {} output buckets, training wants {buckets}",
                net.buckets
            ));
        }
        let (qa, qb) = (QA as f32, QB as f32);
        let copies = buckets / net.buckets;
        // the same men may come in another order: each of our slots reads the net's slot of
        // the same letter
        let types = layout.letters.len();
        let slot_in_net: Vec<usize> = layout
            .letters
            .chars()
            .map(|c| net.letters.find(c).expect("the same letters"))
            .collect();
        let narrow = net.hidden;
        // the added hidden values start as a new net's (Params::random's spread)
        let mut rng = crate::openings::Rng(0x1D_E4E5);
        let mut uniform =
            move |limit: f32| (rng.next() >> 11) as f32 / (1u64 << 53) as f32 * 2.0 * limit - limit;
        let mut widened = |weights: &[i16], out: &mut Vec<f32>| {
            out.extend(weights.iter().map(|&w| w as f32 / qa));
            out.extend((narrow..hidden).map(|_| uniform(1.0 / (32f32).sqrt()) * 0.5));
        };
        let mut ft_w = Vec::with_capacity(input_count(types, held, kings.count) * hidden);
        // a net without king buckets starts each bucket with its board weights
        let board = 2 * types * 64;
        for bucket in 0..kings.count as usize {
            let from = if net.kings.is_plain() { 0 } else { bucket };
            for side in 0..2 {
                for &i in &slot_in_net {
                    for sq in 0..64 {
                        let row = from * board + (side * types + i) * 64 + sq;
                        widened(&net.ft_weights[row * narrow..(row + 1) * narrow], &mut ft_w);
                    }
                }
            }
        }
        if net.held_inputs == held {
            let start = net.kings.count as usize * board * narrow;
            for row in net.ft_weights[start..].chunks_exact(narrow) {
                widened(row, &mut ft_w);
            }
        } else {
            let squares: Vec<usize> = (0..layout.ranks as usize)
                .flat_map(|r| (0..layout.files as usize).map(move |f| r * 8 + f))
                .collect();
            for block in 0..2 * types {
                let mut mean = vec![0f32; hidden];
                for &sq in &squares {
                    let row = &ft_w[(block * 64 + sq) * hidden..(block * 64 + sq + 1) * hidden];
                    for (m, w) in mean.iter_mut().zip(row) {
                        *m += w / squares.len() as f32;
                    }
                }
                for _ in 0..held {
                    ft_w.extend_from_slice(&mean);
                }
            }
        }
        let mut ft_b = Vec::with_capacity(hidden);
        ft_b.extend(net.ft_bias.iter().map(|&w| w as f32 / qa));
        let mut bias_rng = crate::openings::Rng(0xB1A5);
        ft_b.extend(
            (narrow..hidden)
                .map(|_| (bias_rng.next() >> 11) as f32 / (1u64 << 53) as f32 * 0.2 - 0.1 + 0.1),
        );
        // each half of each bucket's output weights, padded with zeros for the added values
        let out_w: Vec<f32> = net
            .out_weights
            .chunks_exact(narrow)
            .flat_map(|half| {
                let padding = std::iter::repeat_n(0.0, hidden - narrow);
                half.iter().map(|&w| w as f32 / qb).chain(padding)
            })
            .collect();
        Ok(Params {
            by: net.bucket_by,
            kings,
            hidden,
            ft_w,
            ft_b,
            out_w: (0..copies).flat_map(|_| out_w.iter().copied()).collect(),
            out_b: (0..copies)
                .flat_map(|_| net.out_bias.iter().map(|&b| b as f32 / (qa * qb)))
                .collect(),
        })
    }

    fn len(&self) -> usize {
        self.ft_w.len() + self.ft_b.len() + self.out_w.len() + self.out_b.len()
    }

    fn clear(&mut self) {
        self.ft_w.fill(0.0);
        self.ft_b.fill(0.0);
        self.out_w.fill(0.0);
        self.out_b.fill(0.0);
    }

    /// Adds `other` to these (gradient sums).
    fn add(&mut self, other: &Params) {
        for (a, b) in self.ft_w.iter_mut().zip(&other.ft_w) {
            *a += b;
        }
        for (a, b) in self.ft_b.iter_mut().zip(&other.ft_b) {
            *a += b;
        }
        for (a, b) in self.out_w.iter_mut().zip(&other.out_w) {
            *a += b;
        }
        for (a, b) in self.out_b.iter_mut().zip(&other.out_b) {
            *a += b;
        }
    }

    /// Every value, mutably, in one order (for the optimiser).
    fn values_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.ft_w
            .iter_mut()
            .chain(self.ft_b.iter_mut())
            .chain(self.out_w.iter_mut())
            .chain(self.out_b.iter_mut())
    }

    /// Sets every value from `values` (in [`Params::values`]' order).
    fn set_values(&mut self, values: &[f32]) {
        for (w, v) in self.values_mut().zip(values) {
            *w = *v;
        }
    }

    fn values(&self) -> impl Iterator<Item = &f32> {
        self.ft_w
            .iter()
            .chain(self.ft_b.iter())
            .chain(self.out_w.iter())
            .chain(self.out_b.iter())
    }
}

/// Per-chunk scratch: accumulators, activations and the gradient sum.
struct Scratch {
    acc: [Vec<f32>; 2],
    grad: Params,
    loss: f64,
}

/// The output (in net units) for a sample, leaving the accumulators in `acc`.
fn forward(p: &Params, s: &Sample, acc: &mut [Vec<f32>; 2]) -> f32 {
    let h = p.hidden;
    let mut out = p.out_b[s.bucket];
    let out_w = &p.out_w[s.bucket * 2 * h..(s.bucket + 1) * 2 * h];
    for (side, feats) in [&s.us, &s.them].into_iter().enumerate() {
        let a = &mut acc[side];
        a.copy_from_slice(&p.ft_b);
        for &f in &feats[..s.on] {
            let row = &p.ft_w[f as usize * h..(f as usize + 1) * h];
            for (x, w) in a.iter_mut().zip(row) {
                *x += w;
            }
        }
        let ow = &out_w[side * h..(side + 1) * h];
        out += a
            .iter()
            .zip(ow)
            .map(|(&x, &w)| {
                let c = x.clamp(0.0, 1.0);
                c * c * w
            })
            .sum::<f32>();
    }
    out
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of a sample.
fn target(s: &Sample, lambda: f32, k: f32) -> f32 {
    lambda * sigmoid(s.score / k) + (1.0 - lambda) * s.result
}

/// Adds one sample's gradient to `scratch` and returns its squared error.
fn backward(p: &Params, s: &Sample, lambda: f32, k: f32, scratch: &mut Scratch) -> f32 {
    let h = p.hidden;
    let out = forward(p, s, &mut scratch.acc);
    let pred = sigmoid(out * OUTPUT_SCALE as f32 / k);
    let err = pred - target(s, lambda, k);
    let g = 2.0 * err * pred * (1.0 - pred) * OUTPUT_SCALE as f32 / k;
    let grad = &mut scratch.grad;
    grad.out_b[s.bucket] += g;
    let bucket = s.bucket * 2 * h;
    for (side, feats) in [&s.us, &s.them].into_iter().enumerate() {
        let a = &mut scratch.acc[side];
        let ow = &p.out_w[bucket + side * h..bucket + (side + 1) * h];
        let gow = &mut grad.out_w[bucket + side * h..bucket + (side + 1) * h];
        // a becomes d(loss)/d(accumulator)
        for ((x, &w), gw) in a.iter_mut().zip(ow).zip(gow.iter_mut()) {
            let c = x.clamp(0.0, 1.0);
            *gw += g * c * c;
            *x = if *x > 0.0 && *x < 1.0 {
                g * w * 2.0 * c
            } else {
                0.0
            };
        }
        for (gb, d) in grad.ft_b.iter_mut().zip(a.iter()) {
            *gb += d;
        }
        for &f in &feats[..s.on] {
            let row = &mut grad.ft_w[f as usize * h..(f as usize + 1) * h];
            for (gw, d) in row.iter_mut().zip(a.iter()) {
                *gw += d;
            }
        }
    }
    err * err
}

/// Adam's moments over a flat list of weights (both trainers use it).
pub(super) struct Adam {
    pub(super) m: Vec<f32>,
    pub(super) v: Vec<f32>,
    pub(super) t: i32,
}

impl Adam {
    /// Moments for `len` weights.
    pub(super) fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }

    /// Starts a step (before the [`Adam::update`]s of its parts).
    pub(super) fn begin(&mut self) {
        self.t += 1;
    }

    /// Moves `values` (the weights from `offset` on in the flat list) along `grads` times
    /// `scale` at `rate`, keeping each within ±`limit`.
    pub(super) fn update(
        &mut self,
        offset: usize,
        values: &mut [f32],
        grads: &[f32],
        (rate, scale): (f32, f32),
        limit: f32,
    ) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let m = &mut self.m[offset..offset + values.len()];
        let v = &mut self.v[offset..offset + values.len()];
        for (((w, g), m), v) in values.iter_mut().zip(grads).zip(m).zip(v) {
            let g = g * scale;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= rate * (*m / c1) / ((*v / c2).sqrt() + EPS);
            *w = w.clamp(-limit, limit);
        }
    }

    /// One step of the two-colour net's weights.
    fn step(&mut self, p: &mut Params, grad: &Params, rate: f32, scale: f32) {
        self.begin();
        let mut offset = 0;
        for (values, grads, limit) in [
            (&mut p.ft_w, &grad.ft_w, MAX_FT),
            (&mut p.ft_b, &grad.ft_b, f32::MAX),
            (&mut p.out_w, &grad.out_w, MAX_OUT),
            (&mut p.out_b, &grad.out_b, f32::MAX),
        ] {
            self.update(offset, values, grads, (rate, scale), limit);
            offset += values.len();
        }
    }
}

/// The sigmoid scale (centipawns) whose `sigmoid(score / K)` best predicts the results.
pub fn fit_scale(samples: &[Record], types: usize, ranks: i8) -> f32 {
    let pairs: Vec<(f32, f32)> = samples
        .iter()
        .step_by((samples.len() / 200_000).max(1))
        .map(|r| {
            let s = sample(r, &Shape::plain(types, ranks), false, Bucketing::One);
            (s.score, s.result)
        })
        .collect();
    let error = |k: f32| -> f64 {
        pairs
            .iter()
            .map(|&(s, r)| ((sigmoid(s / k) - r) as f64).powi(2))
            .sum()
    };
    // golden-section search on a log scale
    let (mut lo, mut hi) = (20f32.ln(), 2000f32.ln());
    let phi = 0.618_034f32;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if error(a.exp()) < error(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// The quantised net of `p`.
fn quantise(p: &Params, layout: &Layout) -> Network {
    let q = |x: f32, s: f32| (x * s).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
    // the inputs past the board's are the held men's, as many per colour and type
    let types = layout.letters.len();
    let board = p.kings.count as usize * 2 * types * 64;
    let held_inputs = ((p.ft_w.len() / p.hidden - board) / (2 * types)) as u8;
    Network {
        variant: layout.variant.clone(),
        letters: layout.letters.clone(),
        files: layout.files,
        ranks: layout.ranks,
        hidden: p.hidden,
        scale: OUTPUT_SCALE,
        buckets: p.out_b.len(),
        bucket_by: p.by,
        held_inputs,
        kings: p.kings,
        ft_weights: p.ft_w.iter().map(|&w| q(w, QA as f32)).collect(),
        ft_bias: p.ft_b.iter().map(|&w| q(w, QA as f32)).collect(),
        out_weights: p
            .out_w
            .iter()
            .map(|&w| q(w, QB as f32).clamp(-MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT))
            .collect(),
        out_bias: p
            .out_b
            .iter()
            .map(|&b| (b * (QA * QB) as f32).round() as i32)
            .collect(),
    }
}

/// Whether record `i` is seen reflected in `epoch`.
fn mirrored(seed: u64, epoch: usize, i: usize) -> bool {
    let mut rng = crate::openings::Rng(seed ^ (epoch as u64) << 40 ^ i as u64);
    rng.next() & 1 == 1
}

/// Whether record block `b` is held out.
fn held_out(b: usize, share: f64, seed: u64) -> bool {
    let mut rng = crate::openings::Rng(seed ^ (b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (rng.next() % 1_000_000) as f64 / 1_000_000.0 < share
}

/// What one epoch did.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// The epoch (from 1).
    pub epoch: usize,
    /// Mean squared error on the training positions.
    pub train: f64,
    /// Mean squared error on the held-out positions.
    pub validation: f64,
    /// The learning rate used.
    pub rate: f32,
    /// Seconds it took.
    pub seconds: f64,
    /// Whether it is the best so far (its net was kept).
    pub best: bool,
}

/// Fisher-Yates with the run's generator.
fn shuffle(order: &mut [usize], rng: &mut crate::openings::Rng) {
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
}

/// What a checkpoint must have been made with to be taken up: every setting that changes the
/// run, the fitted scale and the data's size (FNV-1a over their bytes).
fn fingerprint(cfg: &TrainConfig, k: f32, buckets: usize, records: usize, values: usize) -> u64 {
    let init = cfg
        .init
        .as_ref()
        .map(|n| crate::eval::nnue::file::serialize(n));
    let fields: [u64; 14] = [
        cfg.hidden as u64,
        cfg.epochs as u64,
        cfg.batch as u64,
        cfg.rate.to_bits() as u64,
        cfg.final_rate.to_bits() as u64,
        cfg.lambda.to_bits() as u64,
        k.to_bits() as u64,
        cfg.validation.to_bits(),
        cfg.seed,
        cfg.mirror as u64 | (buckets as u64) << 1 | (cfg.men_buckets as u64) << 8,
        records as u64,
        values as u64,
        init.map_or(0, |bytes| fnv(&bytes)),
        // nothing for a run without king buckets, so its checkpoints stay valid
        if cfg.kings.is_plain() {
            0
        } else {
            fnv(&cfg.kings.map) ^ (cfg.kings.count as u64) << 56 ^ (cfg.kings.mirror as u64) << 63
        },
    ];
    fnv(&fields
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect::<Vec<u8>>())
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A training run's state after an epoch: the float weights, Adam's moments and the best net
/// so far. File: `CHIMCKPT`, version 1, the fingerprint, the epoch, Adam's step, the three
/// value arrays (each a length and little-endian f32s), the best validation error and net (a
/// length and the net file, or length 0).
struct Checkpoint {
    epoch: usize,
    params: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
    best: Option<(f64, Network)>,
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"CHIMCKPT";

impl Checkpoint {
    fn write(&self, path: &std::path::Path, fingerprint: u64) -> Result<(), String> {
        let mut b = Vec::with_capacity(64 + 12 * self.params.len());
        b.extend_from_slice(CHECKPOINT_MAGIC);
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&fingerprint.to_le_bytes());
        b.extend_from_slice(&(self.epoch as u64).to_le_bytes());
        b.extend_from_slice(&self.t.to_le_bytes());
        for values in [&self.params, &self.m, &self.v] {
            b.extend_from_slice(&(values.len() as u64).to_le_bytes());
            b.extend(values.iter().flat_map(|x| x.to_le_bytes()));
        }
        let (error, net) = match &self.best {
            Some((e, n)) => (*e, crate::eval::nnue::file::serialize(n)),
            None => (0.0, Vec::new()),
        };
        b.extend_from_slice(&error.to_le_bytes());
        b.extend_from_slice(&(net.len() as u64).to_le_bytes());
        b.extend_from_slice(&net);
        super::write_whole(path, &b)
    }

    /// The checkpoint at `path`, if there is one made with `fingerprint` for a run of
    /// `epochs` epochs and `values` weights; one of other settings or data is left aside with
    /// a note, a damaged one is an error naming the file.
    fn read(
        path: &std::path::Path,
        fingerprint: u64,
        epochs: usize,
        values: usize,
    ) -> Result<Option<Checkpoint>, String> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let damaged = |what: &str| format!("{}: damaged checkpoint ({what})", path.display());
        let mut r = super::Reader::new(&bytes);
        if r.take(8) != Some(CHECKPOINT_MAGIC) || r.u32() != Some(1) {
            return Err(damaged("not a version-1 checkpoint"));
        }
        if r.u64() != Some(fingerprint) {
            eprintln!(
                "train: {}: made with other data or settings; training from the first epoch",
                path.display()
            );
            return Ok(None);
        }
        let epoch = r.u64().ok_or_else(|| damaged("cut short"))? as usize;
        let t = r.u32().ok_or_else(|| damaged("cut short"))? as i32;
        let mut arrays = Vec::new();
        for _ in 0..3 {
            arrays.push(r.f32s().ok_or_else(|| damaged("cut short"))?);
        }
        let error = r.u64().ok_or_else(|| damaged("cut short"))?;
        let len = r.u64().ok_or_else(|| damaged("cut short"))? as usize;
        let net = r.take(len).ok_or_else(|| damaged("cut short"))?;
        if !r.done() {
            return Err(damaged("longer than its contents"));
        }
        let best = match len {
            0 => None,
            _ => Some((
                f64::from_bits(error),
                crate::eval::nnue::file::parse(net).map_err(|e| damaged(&e.to_string()))?,
            )),
        };
        let v = arrays.pop().expect("three");
        let m = arrays.pop().expect("three");
        let params = arrays.pop().expect("three");
        if params.len() != values || m.len() != values || v.len() != values {
            return Err(damaged(&format!(
                "arrays of other lengths than the {values} weights"
            )));
        }
        // the fingerprint does not cover the state: a damaged one could run for ever (an
        // epoch far past the run's) or train on values that are not numbers
        if epoch > epochs || t < 0 {
            return Err(damaged(&format!("epoch {epoch} of {epochs}, step {t}")));
        }
        let finite = |x: &f32| x.is_finite();
        let numbers = params.iter().all(finite)
            && m.iter().all(finite)
            && v.iter().all(|x| x.is_finite() && *x >= 0.0)
            && best.as_ref().is_none_or(|(e, _)| e.is_finite());
        if !numbers {
            return Err(damaged("a weight or moment that is not a number in range"));
        }
        Ok(Some(Checkpoint {
            epoch,
            params,
            m,
            v,
            t,
            best,
        }))
    }
}

/// How the output bucket is chosen in a run of `cfg` on `rules`' data: by the turn's phase
/// where turns have phases (unless `--turn-buckets false`), else by the men if asked.
fn bucketing_for<'a>(cfg: &TrainConfig, rules: &'a Variant) -> Result<Bucketing<'a>, String> {
    let mechanics = &rules.mechanics;
    let phased = cfg.turn_buckets && mechanics.turn_phases() > 1;
    Ok(match cfg.men_buckets {
        0 | 1 if phased => Bucketing::Phases(mechanics),
        0 | 1 => Bucketing::One,
        _ if phased => {
            return Err(format!(
                "--men-buckets: {}'s turns have phases, which pick the bucket; give \
                 --turn-buckets false to bucket by men instead",
                rules.name
            ))
        }
        n if n > MAX_BUCKETS => {
            return Err(format!("--men-buckets {n}: at most {MAX_BUCKETS}"));
        }
        n => Bucketing::Men {
            start: start_men(rules),
            buckets: n,
        },
    })
}

/// The indices of `records` records trained on and held out, by blocks of neighbouring
/// records (positions of one game stay together).
fn split(records: usize, cfg: &TrainConfig) -> Result<(Vec<usize>, Vec<usize>), String> {
    let (mut train_idx, mut valid_idx) = (Vec::new(), Vec::new());
    let block = (records / 100).clamp(1, BLOCK);
    for i in 0..records {
        if held_out(i / block, cfg.validation, cfg.seed) {
            valid_idx.push(i);
        } else {
            train_idx.push(i);
        }
    }
    if train_idx.is_empty() || valid_idx.is_empty() {
        return Err(format!(
            "{records} positions leave no training or no validation set (validation share {})",
            cfg.validation
        ));
    }
    Ok((train_idx, valid_idx))
}

/// The weights a run starts from: `--init`'s net (checked against the run's buckets), else
/// random ones.
fn start_params(
    data: &Data,
    cfg: &TrainConfig,
    bucketing: Bucketing,
    held: u8,
) -> Result<Params, String> {
    let buckets = bucketing.count();
    let mut p = match &cfg.init {
        Some(net) if net.buckets > 1 && net.bucket_by != bucketing.by() => {
            return Err(format!(
                "--init: the net's {} output buckets follow {:?}, training wants {:?}",
                net.buckets,
                net.bucket_by,
                bucketing.by()
            ));
        }
        Some(net) => Params::from_network(net, &data.layout, cfg.hidden, buckets, held, cfg.kings)?,
        None => {
            let inputs = input_count(data.layout.letters.len(), held, cfg.kings.count);
            Params::random(inputs, cfg.hidden, buckets, cfg.seed)
        }
    };
    p.by = bucketing.by();
    p.kings = cfg.kings;
    Ok(p)
}

/// The held-out records and how they become samples.
struct Validation<'a> {
    records: &'a [Record],
    indices: &'a [usize],
    shape: &'a Shape,
    bucketing: Bucketing<'a>,
}

impl Validation<'_> {
    /// The mean squared error of `p`'s predictions against the targets (`lambda`, scale `k`).
    fn error(&self, p: &Params, lambda: f32, k: f32) -> f64 {
        let sum: f64 = self
            .indices
            .par_chunks(4096)
            .map(|part| {
                let mut acc = [vec![0.0; p.hidden], vec![0.0; p.hidden]];
                part.iter()
                    .map(|&i| {
                        let s = sample(&self.records[i], self.shape, false, self.bucketing);
                        let out = forward(p, &s, &mut acc);
                        let pred = sigmoid(out * OUTPUT_SCALE as f32 / k);
                        ((pred - target(&s, lambda, k)) as f64).powi(2)
                    })
                    .sum::<f64>()
            })
            .collect::<Vec<f64>>()
            .iter()
            .sum();
        sum / self.indices.len() as f64
    }
}

/// Trains a net on `data`; `on_epoch` hears each epoch's report with the best net so far.
pub fn train(
    data: &Data,
    cfg: &TrainConfig,
    mut on_epoch: impl FnMut(&EpochReport, &Network, f32),
) -> Result<Network, String> {
    if cfg.hidden == 0 || !cfg.hidden.is_multiple_of(16) {
        return Err(format!(
            "--hidden must be a multiple of 16, not {}",
            cfg.hidden
        ));
    }
    let types = data.layout.letters.len();
    let ranks = data.layout.ranks as i8;
    let held = held_inputs_for(data.rules);
    let shape = Shape::new(&data.layout, data.rules, held, cfg.kings);
    let inputs = input_count(types, held, cfg.kings.count);
    let bucketing = bucketing_for(cfg, data.rules)?;
    let buckets = bucketing.count();
    let (mut train_idx, valid_idx) = split(data.records.len(), cfg)?;
    let k = cfg
        .scale
        .unwrap_or_else(|| fit_scale(&data.records, types, ranks));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let mut p = start_params(data, cfg, bucketing, held)?;
    let mut adam = Adam::new(p.len());
    let mut scratch: Vec<Scratch> = (0..CHUNKS)
        .map(|_| Scratch {
            acc: [vec![0.0; cfg.hidden], vec![0.0; cfg.hidden]],
            grad: Params::zeros(inputs, cfg.hidden, buckets),
            loss: 0.0,
        })
        .collect();
    let mut total = Params::zeros(inputs, cfg.hidden, buckets);
    let mut rng = crate::openings::Rng(cfg.seed ^ 0x5EED);
    let mut best: Option<(f64, Network)> = None;
    let fingerprint = fingerprint(cfg, k, buckets, data.records.len(), p.len());
    let mut first = 0;
    if let Some(path) = &cfg.checkpoint {
        if let Some(state) = Checkpoint::read(path, fingerprint, cfg.epochs, p.len())? {
            first = state.epoch;
            p.set_values(&state.params);
            adam.m = state.m;
            adam.v = state.v;
            adam.t = state.t;
            best = state.best;
            // the shuffles of the epochs done, replayed, put the order where it was
            for _ in 0..first {
                shuffle(&mut train_idx, &mut rng);
            }
        }
    }
    for epoch in first..cfg.epochs {
        let start = Instant::now();
        let rate = cfg.rate
            * cfg
                .final_rate
                .powf(epoch as f32 / (cfg.epochs.max(2) - 1) as f32);
        shuffle(&mut train_idx, &mut rng);
        let mut train_loss = 0.0;
        for batch in train_idx.chunks(cfg.batch.max(CHUNKS)) {
            let per = batch.len().div_ceil(CHUNKS);
            pool.install(|| {
                scratch.par_iter_mut().enumerate().for_each(|(c, sc)| {
                    sc.grad.clear();
                    sc.loss = 0.0;
                    let part = batch.get(c * per..((c + 1) * per).min(batch.len()));
                    for &i in part.unwrap_or(&[]) {
                        let mirror = cfg.mirror && mirrored(cfg.seed, epoch, i);
                        let s = sample(&data.records[i], &shape, mirror, bucketing);
                        sc.loss += backward(&p, &s, cfg.lambda, k, sc) as f64;
                    }
                });
            });
            total.clear();
            for sc in &scratch {
                total.add(&sc.grad);
                train_loss += sc.loss;
            }
            adam.step(&mut p, &total, rate, 1.0 / batch.len() as f32);
        }
        let held_out = Validation {
            records: &data.records,
            indices: &valid_idx,
            shape: &shape,
            bucketing,
        };
        let validation = pool.install(|| held_out.error(&p, cfg.lambda, k));
        let improved = best.as_ref().is_none_or(|(b, _)| validation < *b);
        if improved {
            best = Some((validation, quantise(&p, &data.layout)));
        }
        let report = EpochReport {
            epoch: epoch + 1,
            train: train_loss / train_idx.len() as f64,
            validation,
            rate,
            seconds: start.elapsed().as_secs_f64(),
            best: improved,
        };
        if let Some(path) = &cfg.checkpoint {
            let state = Checkpoint {
                epoch: epoch + 1,
                params: p.values().copied().collect(),
                m: adam.m.clone(),
                v: adam.v.clone(),
                t: adam.t,
                best: best.clone(),
            };
            state.write(path, fingerprint)?;
        }
        on_epoch(&report, &best.as_ref().expect("set above").1, k);
    }
    best.map(|(_, net)| net)
        .ok_or_else(|| "no epoch was run (--epochs 0)".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::LoadedNet;
    use crate::rules::builtin_variants;
    use std::sync::Arc;

    /// `--init`: a net read back into float weights quantises to itself, bit for bit, and a
    /// net of other inputs or another hidden size is refused with the reason.
    #[test]
    fn a_net_read_back_as_float_weights_quantises_to_itself() {
        let chess = builtin_variants().get("chess").expect("chess");
        let layout = Layout::new(chess).expect("layout");
        let mut p = Params::random(2 * 6 * 64, 32, 1, 9);
        p.out_b[0] = -0.37;
        let net = quantise(&p, &layout);
        let back = Params::from_network(&net, &layout, 32, 1, 0, KingBuckets::default())
            .expect("same inputs");
        assert_eq!(quantise(&back, &layout), net);
        // a one-bucket net starts every bucket of a phased one with its output
        let three = Params::from_network(&net, &layout, 32, 3, 0, KingBuckets::default())
            .expect("replicated");
        assert_eq!(three.out_w[..64], three.out_w[128..]);
        assert_eq!(three.out_b, vec![back.out_b[0]; 3]);
        let phased = quantise(&three, &layout);
        assert_eq!(phased.buckets, 3);
        let err = Params::from_network(&phased, &layout, 32, 2, 0, KingBuckets::default())
            .err()
            .expect("buckets differ");
        assert!(err.contains("3 output buckets"), "{err}");
        // 007detente has the men and board of chess: a chess net may start its training
        let detente = builtin_variants().get("007detente").expect("007detente");
        let detente_layout = Layout::new(detente).expect("layout");
        assert!(
            Params::from_network(&net, &detente_layout, 32, 3, 0, KingBuckets::default()).is_ok()
        );
        let err = Params::from_network(&net, &layout, 16, 1, 0, KingBuckets::default())
            .err()
            .expect("narrower than the net");
        assert!(err.contains("--hidden 32 or more"), "{err}");
        let espionage = builtin_variants().get("espionage").expect("espionage");
        let other = Layout::new(espionage).expect("layout");
        let err = Params::from_network(&net, &other, 32, 1, 0, KingBuckets::default())
            .err()
            .expect("other inputs");
        assert!(err.contains("not this variant's"), "{err}");
    }

    /// A net whose men come in another order (palace lists pnkrbq, chess pnbrqk) starts a
    /// training with each man's weights where the variant's layout puts that man: the net
    /// rebuilt from those weights evaluates palace's positions as the chess net does.
    #[test]
    fn a_net_of_the_same_men_in_another_order_is_reordered_by_letter() {
        let chess = builtin_variants().get("chess").expect("chess");
        let palace = builtin_variants().get("palace").expect("palace");
        let palace_layout = Layout::new(palace).expect("layout");
        assert_ne!(
            palace_layout.letters, "pnbrqk",
            "the test needs another order"
        );
        let mut p = Params::random(2 * 6 * 64, 32, 1, 11);
        p.out_b[0] = 0.2;
        let chess_net = quantise(&p, &Layout::new(chess).expect("layout"));
        let back =
            Params::from_network(&chess_net, &palace_layout, 32, 1, 0, KingBuckets::default())
                .expect("same men");
        let mut palace_net = quantise(&back, &palace_layout);
        palace_net.variant = "palace".into();
        let mut as_chess = chess_net.clone();
        as_chess.variant = "palace".into();
        let a = LoadedNet::new(Arc::new(as_chess), palace, "a").expect("fits");
        let b = LoadedNet::new(Arc::new(palace_net), palace, "b").expect("fits");
        let mut pos = crate::position::Position::startpos(palace);
        for text in ["e2e4", "e7e5", "g1f3", "b8c6"] {
            assert_eq!(
                a.evaluate_fresh(&pos),
                b.evaluate_fresh(&pos),
                "before {text}"
            );
            let m = crate::movegen::notation::parse_move(&mut pos, text).expect("legal");
            pos.make(m);
        }
    }

    /// The float forward pass and the quantised engine agree (on weights that lie on the
    /// quantisation grid, to within the engine's integer division), so what the trainer fits
    /// is what the engine plays: the input numbering, the perspectives and the scales match.
    #[test]
    fn quantised_net_evaluates_as_the_float_net() {
        let chess = builtin_variants().get("chess").expect("chess");
        float_and_quantised_agree(
            chess,
            &[
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
                "8/5k2/8/3P4/8/8/5K2/8 w - - 0 1",
            ],
        );
        // Emissary's held men are inputs of both nets alike
        let emissary = builtin_variants().get("emissary").expect("emissary");
        float_and_quantised_agree(
            emissary,
            &[
                "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Nn] w KQkq - 0 1",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPP1PP/RNBQKBNR[P] b KQkq - 0 1",
                "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[q] w KQkq - 0 1",
            ],
        );
    }

    /// Input buckets by the king, mirrored: the trainer's inputs are the engine's, whichever
    /// bucket and half each king stands in (and after the held men's, in Emissary).
    #[test]
    fn king_buckets_are_the_same_in_the_trainer_and_the_engine() {
        let chess = builtin_variants().get("chess").expect("chess");
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w - - 6 5",
            "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/1K1R3R b - - 0 1",
            "8/5k2/8/3P4/8/8/1K6/8 w - - 0 1",
            "8/8/8/3k4/8/4K3/8/8 b - - 0 1",
        ];
        for count in [2, 4, 8] {
            for mirror in [false, true] {
                let kings = KingBuckets::preset(count, mirror, 8).expect("preset");
                float_and_quantised_agree_with(chess, &fens, kings);
            }
        }
        let emissary = builtin_variants().get("emissary").expect("emissary");
        float_and_quantised_agree_with(
            emissary,
            &["r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Nn] w KQkq - 0 1"],
            KingBuckets::preset(4, true, 8).expect("preset"),
        );
    }

    /// A net without king buckets given to a run with them starts every bucket with its
    /// weights: unmirrored, the new net evaluates as the old one; a net with other king
    /// buckets is refused.
    #[test]
    fn a_net_without_king_buckets_starts_each_bucket() {
        let chess = builtin_variants().get("chess").expect("chess");
        let layout = Layout::new(chess).expect("layout");
        let plain = quantise(&Params::random(input_count(6, 0, 1), 32, 1, 5), &layout);
        let kings = KingBuckets::preset(4, false, 8).expect("preset");
        let bucketed = quantise(
            &Params::from_network(&plain, &layout, 32, 1, 0, kings).expect("fits"),
            &layout,
        );
        assert_eq!(bucketed.kings, kings);
        assert_eq!(bucketed.inputs(), 4 * plain.inputs());
        let load = |net: &Network| LoadedNet::new(Arc::new(net.clone()), chess, "t").expect("fits");
        let (a, b) = (load(&plain), load(&bucketed));
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/8/3k4/8/4K3/8/8 b - - 0 1",
            "6k1/8/8/8/8/8/1K6/8 w - - 0 1",
        ] {
            let pos = Position::from_fen(chess, fen).expect("fen");
            assert_eq!(a.evaluate_fresh(&pos), b.evaluate_fresh(&pos), "{fen}");
        }
        let other = KingBuckets::preset(2, true, 8).expect("preset");
        let err = Params::from_network(&bucketed, &layout, 32, 1, 0, other)
            .err()
            .expect("refused");
        assert!(
            err.contains("the net has 4 king buckets, training wants 2, mirrored"),
            "{err}"
        );
    }

    /// Output buckets by men: the trainer and the engine put a position in the same band, and
    /// the float and quantised nets agree through it; the bands differ with the men left.
    #[test]
    fn men_buckets_are_the_same_in_the_trainer_and_the_engine() {
        let chess = builtin_variants().get("chess").expect("chess");
        let layout = Layout::new(chess).expect("layout");
        let mut p = Params::random(768, 32, 8, 9);
        p.by = BucketBy::Men;
        let snap = |x: &mut f32, s: f32| *x = (*x * s).round() / s;
        p.ft_w.iter_mut().for_each(|w| snap(w, QA as f32));
        p.ft_b.iter_mut().for_each(|w| snap(w, QA as f32));
        p.out_w.iter_mut().for_each(|w| snap(w, QB as f32));
        for (i, b) in p.out_b.iter_mut().enumerate() {
            *b = i as f32 * 0.1;
            snap(b, (QA * QB) as f32);
        }
        let net = quantise(&p, &layout);
        assert_eq!((net.buckets, net.bucket_by), (8, BucketBy::Men));
        let loaded = LoadedNet::new(Arc::new(net), chess, "test").expect("fits");
        let bucketing = Bucketing::Men {
            start: start_men(chess),
            buckets: 8,
        };
        let mut seen = Vec::new();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqk2r/pp3ppp/2n2n2/8/8/2N2N2/PP3PPP/R1BQK2R w KQkq - 0 8",
            "4k3/pp6/8/8/8/8/PP3R2/4K3 b - - 0 30",
            "8/5k2/8/3P4/8/8/5K2/8 w - - 0 50",
        ] {
            let pos = Position::from_fen(chess, fen).expect("fen");
            let r = packed::pack(&layout, &pos, 0, 0.5).expect("packs");
            let s = sample(&r, &Shape::plain(6, 8), false, bucketing);
            assert_eq!(s.bucket, loaded.bucket(&pos), "{fen}");
            let mut acc = [vec![0.0; 32], vec![0.0; 32]];
            let float_cp = forward(&p, &s, &mut acc) * OUTPUT_SCALE as f32;
            let engine_cp = loaded.evaluate_fresh(&pos);
            assert!(
                (float_cp - engine_cp as f32).abs() <= 1.01,
                "{fen}: float {float_cp}, engine {engine_cp}"
            );
            seen.push(s.bucket);
        }
        // 32, 24, 7 and 3 men: bands 7, 5, 1 and 0 of 8
        assert_eq!(seen, [7, 5, 1, 0]);
    }

    /// A net widened by `--init` into a wider training computes what the narrow net did: the
    /// added hidden values are silent (output weights zero) until training moves them.
    #[test]
    fn a_narrow_net_widened_evaluates_as_before() {
        let chess = builtin_variants().get("chess").expect("chess");
        let layout = Layout::new(chess).expect("layout");
        let narrow = quantise(&Params::random(768, 16, 1, 21), &layout);
        let wide = Params::from_network(&narrow, &layout, 48, 1, 0, KingBuckets::default())
            .expect("widens");
        assert_eq!(wide.hidden, 48);
        let wide = quantise(&wide, &layout);
        assert_eq!(wide.hidden, 48);
        // the added values have input weights (they can learn) but no say in the output yet
        assert!(wide
            .ft_weights
            .chunks_exact(48)
            .any(|row| row[16..].iter().any(|&w| w != 0)));
        assert!(wide
            .out_weights
            .chunks_exact(48)
            .all(|half| half[16..].iter().all(|&w| w == 0)));
        let a = LoadedNet::new(Arc::new(narrow), chess, "narrow").expect("fits");
        let b = LoadedNet::new(Arc::new(wide), chess, "wide").expect("fits");
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
            "8/5k2/8/3P4/8/8/5K2/8 w - - 0 1",
        ] {
            let pos = Position::from_fen(chess, fen).expect("fen");
            assert_eq!(a.evaluate_fresh(&pos), b.evaluate_fresh(&pos), "{fen}");
        }
    }

    /// A random float net of `rules`' inputs, snapped to the quantisation grid, evaluates each
    /// of `fens` within a centipawn of the quantised net in the engine.
    fn float_and_quantised_agree(rules: &'static Variant, fens: &[&str]) {
        float_and_quantised_agree_with(rules, fens, KingBuckets::default());
    }

    fn float_and_quantised_agree_with(rules: &'static Variant, fens: &[&str], kings: KingBuckets) {
        let layout = Layout::new(rules).expect("layout");
        let held = held_inputs_for(rules);
        let mut p = Params::random(input_count(6, held, kings.count), 32, 1, 3);
        p.kings = kings;
        p.out_b[0] = 0.05;
        let snap = |x: &mut f32, s: f32| *x = (*x * s).round() / s;
        p.ft_w.iter_mut().for_each(|w| snap(w, QA as f32));
        p.ft_b.iter_mut().for_each(|w| snap(w, QA as f32));
        p.out_w.iter_mut().for_each(|w| snap(w, QB as f32));
        snap(&mut p.out_b[0], (QA * QB) as f32);
        let net = quantise(&p, &layout);
        assert_eq!(net.held_inputs, held);
        let loaded = LoadedNet::new(Arc::new(net), rules, "test").expect("fits");
        for &fen in fens {
            let pos = Position::from_fen(rules, fen).expect("fen");
            let r = packed::pack(&layout, &pos, 0, 0.5).expect("packs");
            let s = sample(
                &r,
                &Shape::new(&layout, rules, held, kings),
                false,
                Bucketing::One,
            );
            let board = pos.occupied().count() as usize;
            assert_eq!(s.on > board, fen.contains('['), "{fen}: held inputs on");
            let mut acc = [vec![0.0; 32], vec![0.0; 32]];
            let float_cp = forward(&p, &s, &mut acc) * OUTPUT_SCALE as f32;
            let engine_cp = loaded.evaluate_fresh(&pos);
            assert!(
                (float_cp - engine_cp as f32).abs() <= 1.01,
                "{fen}: float {float_cp}, engine {engine_cp}"
            );
        }
    }

    /// A chess net given to Emissary (`learn`'s start) keeps its board rows and starts each
    /// held-man input at the mean of that man's rows over the board; a net that has held-man
    /// inputs keeps them; one of another count is refused.
    #[test]
    fn held_man_inputs_start_as_the_man_on_an_average_square() {
        let chess = builtin_variants().get("chess").expect("chess");
        let emissary = builtin_variants().get("emissary").expect("emissary");
        let (chess_layout, layout) = (Layout::new(chess).unwrap(), Layout::new(emissary).unwrap());
        let chess_net = quantise(&Params::random(768, 16, 1, 5), &chess_layout);
        let p = Params::from_network(
            &chess_net,
            &layout,
            16,
            1,
            HELD_INPUTS,
            KingBuckets::default(),
        )
        .expect("fits");
        assert_eq!(p.ft_w.len(), input_count(6, HELD_INPUTS, 1) * 16);
        let row = |i: usize| &p.ft_w[i * 16..(i + 1) * 16];
        for block in [0, 4, 7, 11] {
            let mean: Vec<f32> = (0..16)
                .map(|h| (0..64).map(|sq| row(block * 64 + sq)[h]).sum::<f32>() / 64.0)
                .collect();
            for k in 0..HELD_INPUTS as usize {
                let held = row(768 + block * HELD_INPUTS as usize + k);
                for (a, b) in held.iter().zip(&mean) {
                    assert!((a - b).abs() < 1e-5, "block {block} input {k}: {a} vs {b}");
                }
            }
        }
        let with_held = quantise(&p, &layout);
        assert_eq!(with_held.held_inputs, HELD_INPUTS);
        let back = Params::from_network(
            &with_held,
            &layout,
            16,
            1,
            HELD_INPUTS,
            KingBuckets::default(),
        )
        .expect("same");
        assert_eq!(quantise(&back, &layout), with_held);
        let err = Params::from_network(&with_held, &layout, 16, 1, 2, KingBuckets::default())
            .err()
            .expect("another count of held-man inputs");
        assert!(err.contains("held-man inputs"), "{err}");
    }

    /// With turn buckets the float net reads the record's ply as the engine reads the
    /// position's: a 007 net of three buckets evaluates the plies of two turns alike in both.
    #[test]
    fn phased_float_and_quantised_nets_pick_the_same_bucket() {
        let detente = builtin_variants().get("007detente").expect("007detente");
        let layout = Layout::new(detente).expect("layout");
        let mut p = Params::random(2 * 6 * 64, 32, 3, 4);
        let snap = |x: &mut f32, s: f32| *x = (*x * s).round() / s;
        p.ft_w.iter_mut().for_each(|w| snap(w, QA as f32));
        p.ft_b.iter_mut().for_each(|w| snap(w, QA as f32));
        p.out_w.iter_mut().for_each(|w| snap(w, QB as f32));
        p.out_b = vec![0.0, 1.0, -1.0];
        let loaded =
            LoadedNet::new(Arc::new(quantise(&p, &layout)), detente, "test").expect("fits");
        let mut pos = Position::startpos(detente);
        for ply in 0..6 {
            let r = packed::pack(&layout, &pos, 0, 0.5).expect("packs");
            let s = sample(
                &r,
                &Shape::plain(6, 8),
                false,
                Bucketing::Phases(&detente.mechanics),
            );
            assert_eq!(s.bucket, ply % 3);
            let mut acc = [vec![0.0; 32], vec![0.0; 32]];
            let float_cp = forward(&p, &s, &mut acc) * OUTPUT_SCALE as f32;
            let engine_cp = loaded.evaluate_fresh(&pos);
            assert!(
                (float_cp - engine_cp as f32).abs() <= 1.01,
                "ply {ply}: float {float_cp}, engine {engine_cp}"
            );
            let mut list = crate::moves::MoveList::new();
            crate::movegen::legal_moves(&mut pos, &mut list);
            pos.make(list[list.len() / 2]);
        }
    }

    /// Chess positions of an opening with made-up scores and results.
    fn opening_data() -> Data {
        let chess = builtin_variants().get("chess").expect("chess");
        let layout = Layout::new(chess).expect("layout");
        let mut pos = Position::startpos(chess);
        let mut records = Vec::new();
        for (i, m) in [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
        ]
        .iter()
        .enumerate()
        {
            let mv = crate::movegen::parse_move(&mut pos, m).expect("legal");
            pos.make(mv);
            for score in [-40, 0, 60] {
                let result = [0.0, 0.5, 1.0][(i + score as usize / 20) % 3];
                records.push(packed::pack(&layout, &pos, score, result).expect("packs"));
            }
        }
        Data {
            rules: chess,
            layout,
            records,
        }
    }

    #[test]
    fn a_run_stopped_after_an_epoch_goes_on_from_its_checkpoint_to_the_same_net() {
        let data = opening_data();
        let path = std::env::temp_dir().join(format!("ckpt-{}.bin", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let cfg = TrainConfig {
            hidden: 16,
            epochs: 4,
            batch: 8,
            validation: 0.3,
            ..TrainConfig::default()
        };
        let straight = train(&data, &cfg, |_, _, _| {}).expect("trains");
        let with_file = TrainConfig {
            checkpoint: Some(path.clone()),
            ..cfg
        };
        // stopped by a panic after the second epoch's checkpoint was written
        let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            train(&data, &with_file, |r, _, _| assert!(r.epoch < 2, "stop"))
        }));
        assert!(stopped.is_err());
        let mut epochs = Vec::new();
        let resumed = train(&data, &with_file, |r, _, _| epochs.push(r.epoch)).expect("goes on");
        assert_eq!(epochs, [3, 4], "the first two epochs are not run again");
        assert!(resumed == straight, "the same net as a run without a stop");
        // other settings: the checkpoint is left aside and the run starts again
        let other = TrainConfig {
            seed: 2,
            ..with_file.clone()
        };
        let mut epochs = Vec::new();
        train(&data, &other, |r, _, _| epochs.push(r.epoch)).expect("trains");
        assert_eq!(epochs, [1, 2, 3, 4]);
        // a damaged checkpoint is named
        let mut bytes = std::fs::read(&path).expect("written");
        bytes.truncate(bytes.len() / 2);
        std::fs::write(&path, &bytes).expect("write");
        let err = train(&data, &other, |_, _, _| {}).expect_err("refused");
        assert!(
            err.contains("damaged checkpoint") && err.contains("ckpt-"),
            "{err}"
        );
        let _ = std::fs::remove_file(&path);
    }

    /// `--men-buckets`: a run trains a net of buckets by men, starting every bucket from a
    /// one-bucket net given by `--init`, and refuses a bucket count beyond the file's, a net of
    /// buckets by another choice, and a variant whose turns' phases pick the bucket.
    #[test]
    fn a_run_with_men_buckets_trains_from_a_one_bucket_net_and_refuses_what_does_not_fit() {
        let data = opening_data();
        let cfg = TrainConfig {
            hidden: 16,
            epochs: 1,
            batch: 8,
            validation: 0.3,
            ..TrainConfig::default()
        };
        let plain = train(&data, &cfg, |_, _, _| {}).expect("trains");
        assert_eq!(plain.buckets, 1);
        let by_men = TrainConfig {
            men_buckets: 4,
            init: Some(Arc::new(plain.clone())),
            rate: 1e-9,
            ..cfg.clone()
        };
        let net = train(&data, &by_men, |_, _, _| {}).expect("trains");
        assert_eq!((net.buckets, net.bucket_by), (4, BucketBy::Men));
        // a rate near zero leaves each bucket the one-bucket net's output
        for b in 0..4 {
            assert_eq!(net.out_bias[b], plain.out_bias[0]);
            assert_eq!(net.out_weights[b * 32..(b + 1) * 32], plain.out_weights[..]);
        }
        let too_many = TrainConfig {
            men_buckets: MAX_BUCKETS + 1,
            ..cfg.clone()
        };
        let err = train(&data, &too_many, |_, _, _| {}).expect_err("refused");
        assert!(err.contains("at most 8"), "{err}");
        let mut phased = net.clone();
        phased.bucket_by = BucketBy::TurnPhase;
        let other_choice = TrainConfig {
            init: Some(Arc::new(phased)),
            ..by_men.clone()
        };
        let err = train(&data, &other_choice, |_, _, _| {}).expect_err("refused");
        assert!(err.contains("TurnPhase"), "{err}");
        let detente = builtin_variants().get("007detente").expect("007detente");
        let detente_data = Data {
            rules: detente,
            layout: Layout::new(detente).expect("layout"),
            records: data.records.clone(),
        };
        let err = train(
            &detente_data,
            &TrainConfig {
                men_buckets: 4,
                ..cfg
            },
            |_, _, _| {},
        )
        .expect_err("refused");
        assert!(err.contains("--turn-buckets false"), "{err}");
    }

    /// A checkpoint made with the run's settings whose state is damaged (the fingerprint
    /// does not cover it) is refused by name, never resumed: an epoch past the run's (one far
    /// past it replayed the epochs' shuffles for ever: found by tests/suite/file_fuzz.rs), a
    /// step count below zero, a weight that is not a number, arrays of another length.
    #[test]
    fn a_checkpoint_with_a_damaged_state_is_refused() {
        let data = opening_data();
        let path = std::env::temp_dir().join(format!("ckpt-state-{}.bin", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let cfg = TrainConfig {
            hidden: 16,
            epochs: 2,
            batch: 8,
            validation: 0.3,
            checkpoint: Some(path.clone()),
            ..TrainConfig::default()
        };
        train(&data, &cfg, |_, _, _| {}).expect("trains");
        let whole = std::fs::read(&path).expect("written");
        // magic 8, version 4, fingerprint 8, epoch 8 (at 20), step 4 (at 28), then each
        // array's length (8) and values: the weights' first value at 40
        let patched = |at: usize, bytes: &[u8]| {
            let mut b = whole.clone();
            b[at..at + bytes.len()].copy_from_slice(bytes);
            b
        };
        let n = u64::from_le_bytes(whole[32..40].try_into().expect("8 bytes")) as usize;
        let mut shorter = Vec::new();
        shorter.extend_from_slice(&whole[..32]);
        let mut at = 32;
        for _ in 0..3 {
            shorter.extend_from_slice(&(n as u64 - 1).to_le_bytes());
            shorter.extend_from_slice(&whole[at + 8..at + 8 + 4 * (n - 1)]);
            at += 8 + 4 * n;
        }
        shorter.extend_from_slice(&whole[at..]);
        for (what, bytes) in [
            ("an epoch past the run's", patched(20, &3u64.to_le_bytes())),
            ("a step below zero", patched(28, &(-1i32).to_le_bytes())),
            (
                "a weight that is not a number",
                patched(40, &f32::NAN.to_le_bytes()),
            ),
            ("arrays one value short", shorter),
            (
                "an epoch far past the run's",
                patched(20, &(1u64 << 60).to_le_bytes()),
            ),
        ] {
            std::fs::write(&path, &bytes).expect("write");
            let err = train(&data, &cfg, |_, _, _| {}).expect_err(what);
            assert!(
                err.contains("damaged checkpoint") && err.contains("ckpt-state-"),
                "{what}: {err}"
            );
        }
        let _ = std::fs::remove_file(&path);
    }

    /// The analytic gradient matches a finite difference of the loss.
    #[test]
    fn gradients_match_finite_differences() {
        let chess = builtin_variants().get("chess").expect("chess");
        let layout = Layout::new(chess).expect("layout");
        let pos = Position::from_fen(
            chess,
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
        )
        .expect("fen");
        let r = packed::pack(&layout, &pos, 35, 1.0).expect("packs");
        let s = sample(&r, &Shape::plain(6, 8), false, Bucketing::One);
        let p = Params::random(768, 16, 1, 9);
        let mut sc = Scratch {
            acc: [vec![0.0; 16], vec![0.0; 16]],
            grad: Params::zeros(768, 16, 1),
            loss: 0.0,
        };
        let (lambda, k) = (0.5, 200.0);
        backward(&p, &s, lambda, k, &mut sc);
        let loss = |q: &Params| {
            let mut acc = [vec![0.0; 16], vec![0.0; 16]];
            let pred = sigmoid(forward(q, &s, &mut acc) * OUTPUT_SCALE as f32 / k);
            ((pred - target(&s, lambda, k)) as f64).powi(2)
        };
        let f = s.us[3] as usize;
        let mut nonzero = 0;
        let cases = (0..16)
            .map(|h| ("feature weight", f * 16 + h))
            .chain((0..32).map(|o| ("output weight", usize::MAX - o)));
        for (name, index) in cases {
            let mut plus = p.clone();
            let mut minus = p.clone();
            let eps = 1e-2;
            let analytic = if index > usize::MAX - 32 {
                let o = usize::MAX - index;
                plus.out_w[o] += eps;
                minus.out_w[o] -= eps;
                sc.grad.out_w[o] as f64
            } else {
                plus.ft_w[index] += eps;
                minus.ft_w[index] -= eps;
                sc.grad.ft_w[index] as f64
            };
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * eps as f64);
            assert!(
                (analytic - numeric).abs() <= 2e-2 * numeric.abs().max(1e-6),
                "{name} {index}: analytic {analytic}, numeric {numeric}"
            );
            nonzero += (analytic != 0.0) as usize;
        }
        assert!(nonzero >= 20, "only {nonzero} non-zero gradients checked");
    }

    /// A record seen mirrored has the inputs of the position reflected left to right.
    #[test]
    fn a_mirrored_sample_is_the_reflected_position() {
        let chess = builtin_variants().get("chess").expect("chess");
        let layout = Layout::new(chess).expect("layout");
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b - - 4 4";
        let board = fen.split(' ').next().expect("board");
        let reflected: Vec<String> = board
            .split('/')
            .map(|rank| rank.chars().rev().collect())
            .collect();
        let mirror_fen = fen.replacen(board, &reflected.join("/"), 1);
        let inputs = |fen: &str, mirror: bool| {
            let pos = Position::from_fen(chess, fen).expect("fen");
            let s = sample(
                &packed::pack(&layout, &pos, 0, 0.5).expect("packs"),
                &Shape::plain(6, 8),
                mirror,
                Bucketing::One,
            );
            let (mut us, mut them) = (s.us[..s.on].to_vec(), s.them[..s.on].to_vec());
            us.sort_unstable();
            them.sort_unstable();
            (us, them)
        };
        assert_eq!(inputs(fen, true), inputs(&mirror_fen, false));
        assert_ne!(inputs(fen, false), inputs(&mirror_fen, false));
    }
}
