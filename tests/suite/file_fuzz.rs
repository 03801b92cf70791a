//! Fuzzing every file and text the engine reads (issue 46, point 4): net files (two-colour
//! and three-player), variants.ini (`--variants`, `VariantPath`), PGN and FEN (the web board's
//! import and every variant's FEN parser, Foreign Policy's FP-FEN), the web board's HTTP API,
//! opening books (`match`'s EPD/FEN/PGN, datagen's FEN/EPD), training data (packed, text,
//! Foreign Policy's lines), `learn`'s work folder (manifest, data chunks, checkpoints) and
//! `spsa`'s state file.
//!
//! Each target starts from valid inputs (the built-in nets and variants.ini, games and
//! positions played here, files the engine's own writers made) and mutates them with a seeded
//! generator: bit flips, bytes set to boundary values, deletions, duplications, insertions of
//! boundary tokens (huge and negative numbers, NUL, non-UTF-8), truncation, and, in text, whole
//! lines deleted, duplicated or swapped and fields swapped or replaced. Every case runs on a
//! worker thread and must return: a refusal whose message names the file, line or field and
//! says what is wrong, or a result that works (a net that evaluates and searches, variants
//! that play, positions that round-trip and play, openings that are legal, data that trains).
//! A panic, a case that takes longer than the hang bound, or a refusal that names nothing
//! fails with the case's number and input (written under the target's temporary folder).
//!
//! `CHIMERA_FUZZ_CASES` sets the cases per target (default [`DEFAULT_CASES`], a share small
//! enough for every `cargo test`); `CHIMERA_FUZZ_SEED` the run's seed; `CHIMERA_FUZZ_BOUND`
//! the hang bound in seconds. docs/performance.md ("Fuzzing of files") has the long run.

use chimera::engine::pgn::{display_moves, game_text, read_game};
use chimera::engine::Engine;
use chimera::eval::nnue::{embedded, file, three, LoadedNet};
use chimera::eval::EvalParams;
use chimera::foreignpolicy::FpPosition;
use chimera::learn::datagen::{self, DataFormat, DatagenConfig};
use chimera::learn::{datagen_three, pipeline, train, train_three};
use chimera::movegen::{legal_moves, move_to_string, parse_move};
use chimera::moves::{Move, MoveList};
use chimera::position::{Position, Variant};
use chimera::rules::outcome::verdict;
use chimera::rules::{builtin_variants, VariantSet};
use chimera::search::{SearchLimits, Silent};
use chimera::tournament::openings::{self, Format, OpeningsSpec};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Cases per target when `CHIMERA_FUZZ_CASES` is not set: the share every test run plays.
const DEFAULT_CASES: usize = 250;
/// The run's seed when `CHIMERA_FUZZ_SEED` is not set.
const DEFAULT_SEED: u64 = 46;
/// Seconds a case may take before it counts as a hang, when `CHIMERA_FUZZ_BOUND` is not set
/// (generous: the machine may be busy; no case is timed otherwise).
const DEFAULT_BOUND_SECS: u64 = 10;
/// Nodes of the small searches that check a loaded net, variant or position is usable.
const CHECK_NODES: u64 = 150;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// Cases per target.
fn cases() -> usize {
    env_number("CHIMERA_FUZZ_CASES", DEFAULT_CASES as u64) as usize
}

/// A folder of this process for `name`'s files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("file_fuzz")
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// SplitMix64: the seeded generator of every choice.
struct Rng(u64);

impl Rng {
    fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.bits() % n as u64) as usize
        }
    }

    /// True once in `n` times.
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------------------
// The mutator
// ---------------------------------------------------------------------------------------

/// Tokens inserted or put in place of a field: boundary numbers, bad encodings, separators.
const TOKENS: &[&[u8]] = &[
    b"0",
    b"-1",
    b"1",
    b"-0",
    b"00",
    b"+1",
    b"127",
    b"128",
    b"255",
    b"256",
    b"4096",
    b"65535",
    b"65536",
    b"1048576",
    b"2147483647",
    b"-2147483648",
    b"4294967295",
    b"4294967296",
    b"9223372036854775807",
    b"18446744073709551615",
    b"18446744073709551616",
    b"99999999999999999999999999999999",
    b"1e300",
    b"-1e300",
    b"1e309",
    b"3.5e38",
    b"NaN",
    b"inf",
    b"-inf",
    b"0.5",
    b"-0.5",
    b"\0",
    b"\xff",
    b"\xff\xfe",
    b"\xc3\x28",
    b"\xe2\x82",
    b"\xf0\x9f\x92\xa9",
    b"\t",
    b"\r",
    b"\n",
    b"\r\n",
    b" ",
    b"-",
    b"/",
    b"|",
    b",",
    b";",
    b"#",
    b"=",
    b"[",
    b"]",
    b"{",
    b"}",
    b"(",
    b")",
    b"\"",
    b"\\",
    b"%",
    b"$1",
    b"*",
    b"1-0",
    b"1/2-1/2",
];

/// Numbers put in place of a run of digits.
const NUMBERS: &[&[u8]] = &[
    b"0",
    b"1",
    b"2",
    b"7",
    b"8",
    b"9",
    b"15",
    b"16",
    b"17",
    b"255",
    b"256",
    b"4096",
    b"65535",
    b"65536",
    b"2147483648",
    b"4294967295",
    b"18446744073709551615",
    b"99999999999999999999",
    b"-1",
    b"-300",
];

/// Single bytes put in place of one.
const BYTES: &[u8] = &[
    0, 0xff, 0x7f, 0x80, 1, b'\n', b' ', b'0', b'9', b'-', b'/', b'|', b',', b'[', b']', b'=',
    b';', b'#', b'"', b'{', b'}', b'(', b')', b'.', b'K', b'k', b'P', b'w', b'b', b'@',
];

/// Little-endian words written over binary headers.
const WORDS: &[u32] = &[
    0,
    1,
    2,
    0x7f,
    0x80,
    0xff,
    0x100,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
];

/// What the mutator knows about an input.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// Lines of text.
    Text,
    /// Bytes whose first `header` bytes say what the rest is (mutated more often).
    Binary { header: usize },
}

/// A place in `v` (or its end), for binary inputs half the time inside the header.
fn spot(rng: &mut Rng, len: usize, shape: Shape) -> usize {
    match shape {
        Shape::Binary { header } if rng.one_in(2) => rng.below(header.min(len) + 1),
        _ => rng.below(len + 1),
    }
}

/// A range of `v` to delete or copy: short mostly, sometimes long.
fn span(rng: &mut Rng, len: usize, at: usize) -> usize {
    let most = len - at;
    let want = if rng.one_in(4) {
        1 + rng.below(4096)
    } else {
        1 + rng.below(16)
    };
    want.min(most)
}

/// `input` after one to three mutations (now and then up to eight).
fn mutate(rng: &mut Rng, input: &[u8], shape: Shape) -> Vec<u8> {
    let mut v = input.to_vec();
    let count = 1 + if rng.one_in(8) {
        rng.below(8)
    } else {
        rng.below(3)
    };
    for _ in 0..count {
        let text_ops = if matches!(shape, Shape::Text) { 6 } else { 1 };
        match rng.below(8 + text_ops) {
            0 => {
                if !v.is_empty() {
                    let at = spot(rng, v.len() - 1, shape);
                    v[at] ^= 1 << rng.below(8);
                }
            }
            1 => {
                if !v.is_empty() {
                    let at = spot(rng, v.len() - 1, shape);
                    // a random byte, a boundary byte, or one found elsewhere in the input (in
                    // text, a letter or digit the reader knows in a place it does not expect)
                    v[at] = match rng.below(3) {
                        0 => rng.bits() as u8,
                        1 => *rng.pick(BYTES),
                        _ => v[rng.below(v.len())],
                    };
                }
            }
            2 => {
                let at = spot(rng, v.len(), shape);
                let n = span(rng, v.len(), at);
                v.drain(at..at + n);
            }
            3 => {
                let at = spot(rng, v.len(), shape);
                let n = span(rng, v.len(), at);
                let copy = v[at..at + n].to_vec();
                let to = spot(rng, v.len(), shape);
                v.splice(to..to, copy);
            }
            4 => {
                let at = spot(rng, v.len(), shape);
                let token = rng.pick(TOKENS).to_vec();
                v.splice(at..at, token);
            }
            5 => {
                let at = spot(rng, v.len(), shape);
                v.truncate(at);
            }
            6 => {
                let n = 1 + rng.below(64);
                let junk: Vec<u8> = (0..n).map(|_| rng.bits() as u8).collect();
                let at = spot(rng, v.len(), shape);
                v.splice(at..at, junk);
            }
            7 => match shape {
                Shape::Binary { .. } => set_word(rng, &mut v, shape),
                Shape::Text => replace_number(rng, &mut v),
            },
            8 if matches!(shape, Shape::Binary { .. }) => set_word(rng, &mut v, shape),
            op => mutate_lines(rng, &mut v, op - 8),
        }
    }
    v
}

/// A boundary value written over two or four bytes.
fn set_word(rng: &mut Rng, v: &mut [u8], shape: Shape) {
    let width = if rng.one_in(2) { 2 } else { 4 };
    if v.len() < width {
        return;
    }
    let at = spot(rng, v.len() - width, shape);
    let word = rng.pick(WORDS).to_le_bytes();
    v[at..at + width].copy_from_slice(&word[..width]);
}

/// A run of digits replaced by a boundary number.
fn replace_number(rng: &mut Rng, v: &mut Vec<u8>) {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < v.len() {
        if v[i].is_ascii_digit() {
            let start = i;
            while i < v.len() && v[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    if runs.is_empty() {
        return;
    }
    let (a, b) = *rng.pick(&runs);
    v.splice(a..b, rng.pick(NUMBERS).to_vec());
}

/// Line-level mutations of text: delete, duplicate or swap lines, swap two fields of a line,
/// replace a field by a token.
fn mutate_lines(rng: &mut Rng, v: &mut Vec<u8>, op: usize) {
    let mut lines: Vec<Vec<u8>> = v.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    let n = lines.len();
    let (a, b) = (rng.below(n), rng.below(n));
    match op {
        0 => {
            lines.remove(a);
        }
        1 => {
            let copy = lines[a].clone();
            lines.insert(b, copy);
        }
        2 => lines.swap(a, b),
        3 | 4 => {
            let sep = *rng.pick(b"  |=,/;:");
            let mut fields: Vec<Vec<u8>> =
                lines[a].split(|&c| c == sep).map(<[u8]>::to_vec).collect();
            let (i, j) = (rng.below(fields.len()), rng.below(fields.len()));
            if op == 3 {
                fields.swap(i, j);
            } else {
                fields[i] = rng.pick(TOKENS).to_vec();
            }
            lines[a] = fields.join(&sep);
        }
        _ => {
            let n = 1 + rng.below(80);
            lines[a] = (0..n).map(|_| rng.bits() as u8).collect();
        }
    }
    *v = lines.join(&b'\n');
}

/// A net file's closing hash recomputed after a mutation, so the header's checks are reached.
fn reseal(v: &mut [u8]) {
    if v.len() >= 16 {
        let body = v.len() - 8;
        let hash = file::fnv1a(&v[..body]);
        v[body..].copy_from_slice(&hash.to_le_bytes());
    }
}

// ---------------------------------------------------------------------------------------
// The harness
// ---------------------------------------------------------------------------------------

/// What a case did with its input.
enum Handled {
    /// The input loaded and what it gave worked.
    Accepted,
    /// The input was refused with a message that names what is wrong.
    Refused,
}

/// A valid input a target starts from: what it is (for the check) and its bytes.
struct Seed<M> {
    meta: M,
    label: String,
    bytes: Vec<u8>,
}

/// Text as the readers of `&str` get it (the web board's JSON strings are always UTF-8).
fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A readable excerpt of an input for a failure message.
fn preview(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let cut: String = text.chars().take(1500).collect();
    format!(
        "{cut:?}{}",
        if text.len() > cut.len() { " ..." } else { "" }
    )
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without a message".into())
}

/// A case of a target: the seed it mutates, the input, and the seed of the check's choices.
struct Case {
    seed: usize,
    bytes: Vec<u8>,
    choices: u64,
}

/// Runs `cases()` mutated inputs of `target` through `check` on a worker thread (its state
/// made there by `make`), and fails on the first panic, hang or bad refusal with the case's
/// input saved under the target's folder.
fn fuzz<M, S>(
    target: &'static str,
    seeds: Vec<Seed<M>>,
    shape: impl Fn(&M) -> Shape,
    post: impl Fn(&mut Rng, &M, &mut Vec<u8>),
    make: impl FnOnce() -> S + Send + 'static,
    check: impl Fn(&mut S, &M, &[u8], &mut Rng) -> Result<Handled, String> + Send + 'static,
) where
    M: Send + Sync + 'static,
{
    assert!(!seeds.is_empty(), "{target}: no seeds");
    let run_seed = env_number("CHIMERA_FUZZ_SEED", DEFAULT_SEED);
    let bound = Duration::from_secs(env_number("CHIMERA_FUZZ_BOUND", DEFAULT_BOUND_SECS));
    let seeds = Arc::new(seeds);
    let (to_worker, cases_in) = channel::<Case>();
    let (results_out, results) = channel::<Result<Handled, String>>();
    let worker_seeds = seeds.clone();
    std::thread::Builder::new()
        .name(format!("fuzz-{target}"))
        .stack_size(32 << 20)
        .spawn(move || {
            let mut state = make();
            let _ = results_out.send(Ok(Handled::Accepted));
            for case in cases_in {
                let seed = &worker_seeds[case.seed];
                let mut rng = Rng(case.choices);
                let r = catch_unwind(AssertUnwindSafe(|| {
                    check(&mut state, &seed.meta, &case.bytes, &mut rng)
                }));
                let r = r.unwrap_or_else(|p| Err(format!("panicked: {}", panic_text(&*p))));
                if results_out.send(r).is_err() {
                    break;
                }
            }
        })
        .expect("worker thread");
    let _ = results.recv().expect("the worker set up");
    let started = Instant::now();
    let (mut accepted, mut refused) = (0usize, 0usize);
    let target_hash = target
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31) ^ b as u64);
    for number in 0..cases() {
        let mut rng = Rng(run_seed
            ^ target_hash.rotate_left(17)
            ^ (number as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
        let which = rng.below(seeds.len());
        let seed = &seeds[which];
        let mut bytes = mutate(&mut rng, &seed.bytes, shape(&seed.meta));
        post(&mut rng, &seed.meta, &mut bytes);
        let fail = |why: String, bytes: &[u8]| -> ! {
            let saved = Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join("file_fuzz")
                .join(format!("failure-{target}-{number}"));
            let _ = std::fs::write(&saved, bytes);
            panic!(
                "{target}: case {number} (CHIMERA_FUZZ_SEED={run_seed}), mutated from {}: {why}\n\
                 input saved at {}\ninput: {}",
                seed.label,
                saved.display(),
                preview(bytes)
            )
        };
        let case = Case {
            seed: which,
            bytes: bytes.clone(),
            choices: rng.bits(),
        };
        if to_worker.send(case).is_err() {
            fail("the worker is gone".into(), &bytes);
        }
        match results.recv_timeout(bound) {
            Ok(Ok(Handled::Accepted)) => accepted += 1,
            Ok(Ok(Handled::Refused)) => refused += 1,
            Ok(Err(why)) => fail(why, &bytes),
            Err(RecvTimeoutError::Timeout) => fail(
                format!("no answer within {} s (a hang)", bound.as_secs()),
                &bytes,
            ),
            Err(RecvTimeoutError::Disconnected) => fail("the worker ended".into(), &bytes),
        }
    }
    println!(
        "file_fuzz {target}: {} cases from {} seeds, {accepted} accepted, {refused} refused, \
         {:.1} s",
        accepted + refused,
        seeds.len(),
        started.elapsed().as_secs_f64()
    );
}

/// A refusal's message must say something and, where the reader has a place, name it.
fn refusal(message: &str, must_name: &[&str]) -> Result<Handled, String> {
    let m = message.trim();
    if m.len() < 8 {
        return Err(format!("a refusal that says nothing useful: '{message}'"));
    }
    if let Some(missing) = must_name.iter().find(|n| !m.contains(**n)) {
        return Err(format!("the refusal '{message}' does not name '{missing}'"));
    }
    Ok(Handled::Refused)
}

// ---------------------------------------------------------------------------------------
// Games and positions the seeds are made of
// ---------------------------------------------------------------------------------------

/// The built-in two-colour variants.
fn variants() -> Vec<&'static Variant> {
    crate::common::all_variants()
}

/// Random legal plies from `pos` (at most `plies`, fewer if the game ends), played on it.
fn playout(pos: &mut Position, rng: &mut Rng, plies: usize) -> Vec<Move> {
    let mut played = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..plies {
        if verdict(pos).is_some() {
            break;
        }
        legal_moves(pos, &mut list);
        if list.is_empty() {
            break;
        }
        let m = list.as_slice()[rng.below(list.len())];
        pos.make(m);
        played.push(m);
    }
    played
}

/// A position that was accepted works: its FEN reads back to itself, random plies play and
/// take back to the same FEN, and both evaluations give a number.
fn exercise(pos: &Position, eval: &EvalParams, rng: &mut Rng) -> Result<(), String> {
    let fen = pos.fen();
    let back = Position::from_fen(pos.rules(), &fen)
        .map_err(|e| format!("its FEN '{fen}' does not read back: {e}"))?;
    if back.fen() != fen {
        return Err(format!("its FEN '{fen}' reads back as '{}'", back.fen()));
    }
    let mut p = pos.clone();
    let _ = eval.evaluate(&p);
    let _ = eval.evaluate_static(&p);
    let played = playout(&mut p, rng, 8);
    let _ = eval.evaluate_static(&p);
    for _ in &played {
        p.unmake();
    }
    if p.fen() != fen {
        return Err(format!(
            "{} plies made and taken back leave '{}', not '{fen}'",
            played.len(),
            p.fen()
        ));
    }
    Ok(())
}

/// Three-player positions: the FP-FEN reads back, random plies play and take back.
fn exercise_three(pos: &FpPosition, rng: &mut Rng) -> Result<(), String> {
    let fen = pos.to_fen();
    let back =
        FpPosition::from_fen(&fen).map_err(|e| format!("'{fen}' does not read back: {e}"))?;
    if back.to_fen() != fen {
        return Err(format!("'{fen}' reads back as '{}'", back.to_fen()));
    }
    let mut p = pos.clone();
    let mut list = MoveList::new();
    let mut made = 0;
    for _ in 0..8 {
        if p.outcome().is_some() {
            break;
        }
        p.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        p.make(list.as_slice()[rng.below(list.len())]);
        made += 1;
    }
    for _ in 0..made {
        p.unmake();
    }
    if p.to_fen() != fen {
        return Err(format!(
            "plies taken back leave '{}', not '{fen}'",
            p.to_fen()
        ));
    }
    Ok(())
}

/// A small search of the engine's position; its move must be legal there.
fn search_checks(engine: &mut Engine) -> Result<(), String> {
    let limits = SearchLimits {
        nodes: Some(CHECK_NODES),
        ..Default::default()
    };
    let result = engine.search_sync(&limits, &Silent);
    if engine.three().is_none() && result.best != Move::NONE {
        let mut pos = engine.position().clone();
        let mut list = MoveList::new();
        legal_moves(&mut pos, &mut list);
        if !list.as_slice().contains(&result.best) {
            return Err(format!(
                "the search's move {} is not legal in {}",
                move_to_string(&pos, result.best),
                pos.fen()
            ));
        }
    }
    Ok(())
}

/// An engine with a small table, for the checks.
fn small_engine() -> Engine {
    let mut e = Engine::new();
    e.set_hash(1).expect("hash");
    e
}

/// Positions of every built-in variant: its start and a few after random plies, as FENs.
fn position_seeds(rng: &mut Rng) -> Vec<(&'static Variant, String)> {
    let mut out = Vec::new();
    for rules in variants() {
        for plies in [0, 5, 14, 30] {
            let mut pos = Position::startpos(rules);
            playout(&mut pos, rng, plies);
            out.push((rules, pos.fen()));
        }
    }
    out
}

/// Foreign Policy positions: the start and a few after random plies.
fn three_seeds(rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    for plies in [0, 6, 20, 45] {
        let mut pos = FpPosition::startpos();
        let mut list = MoveList::new();
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            pos.legal_moves(&mut list);
            pos.make(list.as_slice()[rng.below(list.len())]);
        }
        out.push(pos.to_fen());
    }
    out
}

/// A random game of `rules` as the engine writes it (from the start, or from `from_plies`
/// random plies in with a FEN tag).
fn game_pgn(rules: &'static Variant, rng: &mut Rng, from_plies: usize, plies: usize) -> String {
    let mut pos = Position::startpos(rules);
    playout(&mut pos, rng, from_plies);
    let fen = (from_plies > 0).then(|| pos.fen());
    let start = pos.clone();
    let moves: Vec<String> = {
        let mut p = start.clone();
        let mut texts = Vec::new();
        let mut list = MoveList::new();
        for _ in 0..plies {
            if verdict(&mut p).is_some() {
                break;
            }
            legal_moves(&mut p, &mut list);
            if list.is_empty() {
                break;
            }
            let m = list.as_slice()[rng.below(list.len())];
            texts.push(move_to_string(&p, m).to_string());
            p.make(m);
        }
        texts
    };
    let tags = vec![
        ("Event", "file fuzz".to_string()),
        ("Site", "?".to_string()),
        ("White", "a".to_string()),
        ("Black", "b".to_string()),
    ];
    game_text(rules, fen.as_deref(), &moves, tags, "*", "fuzz seed").expect("the writer's game")
}

/// A chess game with what PGN readers must skip: comments, variations, NAGs, SAN marks.
const CHESS_PGN: &str = "[Event \"x\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n\
    [White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
    1. e4 {best by test} e5 (1... c5 2. Nf3 d6) 2. Nf3 $1 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 \
    6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 \
    14. Ng3 g6 15. a4 c5 16. d5 c4 17. Bg5 h6 18. Be3 Nc5 19. Qd2 h5 20. Bg5 Be7 21. Ra3 Nh7 \
    22. Bxe7 Rxe7 23. axb5 axb5 24. Rea1 Rxa3 25. Rxa3 Qb6 26. Ra1 Rc7 1-0\n";

// ---------------------------------------------------------------------------------------
// Net files
// ---------------------------------------------------------------------------------------

/// Which kind of net a seed is.
#[derive(Clone, Debug)]
enum NetSeed {
    /// A two-colour net for this variant.
    Two(String),
    /// Foreign Policy's three-player net.
    Three,
}

/// A small two-colour net of `variant` (a bucket per turn phase) with `king_buckets` input
/// buckets by the king (mirrored where more than one) and every weight set from a formula.
fn small_net_bytes(variant: &str, hidden: usize, king_buckets: u8) -> Vec<u8> {
    let rules = builtin_variants().get(variant).expect("built in");
    let layout = chimera::learn::packed::Layout::new(rules).expect("a layout");
    let buckets = rules.mechanics.turn_phases();
    let kings = chimera::eval::nnue::KingBuckets::preset(king_buckets, king_buckets > 1, 8)
        .expect("a preset");
    let inputs = king_buckets as usize * 2 * layout.letters.len() * 64;
    file::serialize(&chimera::eval::nnue::Network {
        variant: variant.into(),
        letters: layout.letters.clone(),
        files: layout.files,
        ranks: layout.ranks,
        hidden,
        scale: 400,
        ft_weights: (0..inputs * hidden)
            .map(|i| ((i * 7919) % 41) as i16 - 20)
            .collect(),
        ft_bias: vec![30; hidden],
        buckets,
        held_inputs: 0,
        kings,
        bucket_by: Default::default(),
        out_weights: (0..buckets * 2 * hidden)
            .map(|i| ((i * 31) % 51) as i16 - 25)
            .collect(),
        out_bias: (0..buckets as i32).map(|i| i * 500 - 300).collect(),
    })
}

/// A small three-player net with every weight set from a formula.
fn three_net_bytes() -> Vec<u8> {
    let hidden = 32;
    three::serialize(&three::ThreeNet {
        hidden,
        scale: 400,
        ft_weights: (0..three::INPUTS * hidden)
            .map(|i| ((i * 7919) % 61) as i16 - 30)
            .collect(),
        ft_bias: vec![40; hidden],
        head_weights: (0..three::HEADS * hidden)
            .map(|i| ((i * 31) % 51) as i16 - 25)
            .collect(),
        head_bias: (0..three::HEADS as i32).map(|i| i * 1000).collect(),
    })
}

/// Net files (the loader behind `EvalFile` and `nnueFile`): every built-in net (two-colour
/// and three-player), small two-colour nets and a three-player net, mutated (half the cases
/// with the closing hash recomputed so the header's checks are reached), loaded by `EvalFile`
/// in the engine of the net's variant; a net that loads must search. A refusal names the file.
#[test]
fn nets() {
    let mut seeds: Vec<Seed<NetSeed>> = embedded::built_in_names()
        .map(|name| {
            let bytes = embedded::built_in_bytes(name).expect("built in");
            let net = file::parse(&bytes).expect("built-in nets parse");
            Seed {
                meta: NetSeed::Two(net.variant.clone()),
                label: format!("nets/{name}"),
                bytes,
            }
        })
        .collect();
    seeds.push(Seed {
        meta: NetSeed::Three,
        label: "a three-player net".into(),
        bytes: three_net_bytes(),
    });
    for name in embedded::built_in_three_names() {
        seeds.push(Seed {
            meta: NetSeed::Three,
            label: format!("nets/{name}"),
            bytes: embedded::built_in_bytes(name).expect("built in"),
        });
    }
    // small nets, so more mutations land in the header: one bucket (format version 1), a
    // bucket per turn phase of a 007 game (version 2), king buckets (version 5)
    for (variant, hidden, kings) in [("chess", 32, 1), ("007detente", 16, 1), ("chess", 16, 4)] {
        seeds.push(Seed {
            meta: NetSeed::Two(variant.into()),
            label: format!("a small {variant} net with {kings} king buckets"),
            bytes: small_net_bytes(variant, hidden, kings),
        });
    }
    let dir = scratch("nets");
    let files = dir.clone();
    fuzz(
        "nets",
        seeds,
        |_| Shape::Binary { header: 48 },
        |rng, _, bytes| {
            if rng.one_in(2) {
                reseal(bytes);
            }
        },
        small_engine,
        move |engine, meta, bytes, rng| check_net(engine, &files, meta, bytes, rng),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn check_net(
    engine: &mut Engine,
    dir: &Path,
    meta: &NetSeed,
    bytes: &[u8],
    rng: &mut Rng,
) -> Result<Handled, String> {
    let path = dir.join("fuzz.nnue");
    std::fs::write(&path, bytes).expect("write");
    let name = path.display().to_string();
    let variant = match meta {
        NetSeed::Two(v) => v.as_str(),
        NetSeed::Three => chimera::foreignpolicy::NAME,
    };
    engine.set_variant(variant).expect("the seed's variant");
    let answer = engine.set_eval_file(&name);
    let handled = match answer {
        Err(e) => refusal(&e.to_string(), &[&name]),
        Ok(_) => {
            if engine.three().is_none() {
                let mut pos = engine.position().clone();
                playout(&mut pos, rng, 6);
                let fen = pos.fen();
                engine
                    .set_position(Some(&fen), &[])
                    .map_err(|e| e.to_string())?;
            }
            search_checks(engine)?;
            Ok(Handled::Accepted)
        }
    };
    engine
        .set_eval_file(chimera::engine::EVAL_FILE_DEFAULT)
        .expect("back to the default");
    handled
}

// ---------------------------------------------------------------------------------------
// variants.ini
// ---------------------------------------------------------------------------------------

/// Windows of one to four sections of the built-in variants.ini, each renamed (`-fz`) so a
/// user file can define it again on top of the built-in variants; a parent inside the window
/// is renamed with it.
fn variants_ini_seeds() -> Vec<Seed<()>> {
    let text = chimera::variant::BUILTIN_INI;
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with('['))
        .map(|(i, _)| i)
        .collect();
    let mut seeds = Vec::new();
    for (k, &first) in starts.iter().enumerate() {
        let width = 1 + k % 4;
        let end = starts.get(k + width).copied().unwrap_or(lines.len());
        let mut names = Vec::new();
        let mut out = String::new();
        for line in &lines[first..end] {
            let t = line.trim();
            if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
                let (name, parent) = match inner.split_once(':') {
                    Some((n, p)) => (n.trim(), Some(p.trim())),
                    None => (inner.trim(), None),
                };
                names.push(name.to_string());
                let parent = parent.map(|p| {
                    if names.iter().any(|n| n == p) {
                        format!(":{p}-fz")
                    } else {
                        format!(":{p}")
                    }
                });
                out += &format!("[{name}-fz{}]\n", parent.unwrap_or_default());
            } else {
                out += line;
                out.push('\n');
            }
        }
        seeds.push(Seed {
            meta: (),
            label: format!("variants.ini sections {}", names.join(", ")),
            bytes: out.into_bytes(),
        });
    }
    seeds.push(Seed {
        meta: (),
        label: "a user's small boards".into(),
        bytes: b"# my variants\n[seven-fz:chess]\nmaxFile = 7\n\
            startFen = rnbqkbr/ppppppp/7/7/7/7/PPPPPPP/RNBQKBR w KQkq - 0 1\n\
            [five-fz:chess]\nmaxFile = 5\nmaxRank = 6\n\
            startFen = rnbqk/ppppp/5/5/PPPPP/RNBQK w - - 0 1\ncastling = false\n\
            [amazons-fz]\ncustomPiece1 = a:QN\npieceValueMg = a:1200\n\
            startFen = 3ak3/pppppppp/8/8/8/8/PPPPPPPP/3AK3 w - - 0 1\npromotionPieceTypes = a\n"
            .to_vec(),
    });
    seeds
}

/// variants.ini as `--variants FILE` and `VariantPath` load it (`Engine::load_variants`, on
/// top of the built-in variants): a refusal names the file and a line of it and leaves the
/// engine's variants as they were; every variant a file defines sets up its start, plays
/// random plies, evaluates, and searches.
#[test]
fn variants_ini() {
    let seeds = variants_ini_seeds();
    for s in &seeds {
        let mut set = builtin_variants();
        let text = text_of(&s.bytes);
        set.load_str("seed.ini", &text)
            .unwrap_or_else(|e| panic!("{}: {e}", s.label));
    }
    let dir = scratch("variants");
    let files = dir.clone();
    fuzz(
        "variants.ini",
        seeds,
        |_| Shape::Text,
        |_, _, _| {},
        || (),
        move |_, _, bytes, rng| check_variants(&files, bytes, rng),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn check_variants(dir: &Path, bytes: &[u8], rng: &mut Rng) -> Result<Handled, String> {
    let path = dir.join("fuzz-variants.ini");
    std::fs::write(&path, bytes).expect("write");
    let name = path.display().to_string();
    let mut engine = small_engine();
    let before = engine.variant_names();
    let names = match engine.load_variants(&name) {
        Err(e) => {
            if engine.variant_names() != before {
                return Err(format!("refused ({e}) but the variants changed"));
            }
            let lines = bytes.split(|&b| b == b'\n').count();
            let place = format!("{name}:");
            let handled = refusal(&e.to_string(), &[&place])?;
            if let chimera::engine::EngineError::Variants(ini) = &e {
                if ini.line > lines {
                    return Err(format!("'{e}' names line {} of {lines}", ini.line));
                }
            }
            return Ok(handled);
        }
        Ok(names) => names,
    };
    for v in &names {
        engine.set_variant(v).map_err(|e| format!("{v}: {e}"))?;
        let rules = engine.rules();
        let start = Position::startpos(rules);
        let eval = EvalParams::new(rules);
        exercise(&start, &eval, rng).map_err(|e| format!("{v}'s start: {e}"))?;
        let mut pos = start.clone();
        playout(&mut pos, rng, 10);
        exercise(&pos, &eval, rng).map_err(|e| format!("{v} after plies: {e}"))?;
        search_checks(&mut engine).map_err(|e| format!("{v}: {e}"))?;
    }
    Ok(Handled::Accepted)
}

// ---------------------------------------------------------------------------------------
// PGN and FEN
// ---------------------------------------------------------------------------------------

/// PGN as the web board imports it (`read_game` for the game's variant, now and then for
/// another): a refusal names the move, the FEN tag or the missing game; a game that reads
/// replays move by move, writes back as PGN and reads back to the same game.
#[test]
fn pgn() {
    let mut rng = Rng(7);
    let mut seeds = Vec::new();
    for rules in variants() {
        for (from, plies) in [(0, 30), (9, 16)] {
            seeds.push(Seed {
                meta: rules,
                label: format!("a {} game", rules.name),
                bytes: game_pgn(rules, &mut rng, from, plies).into_bytes(),
            });
        }
    }
    let chess = builtin_variants().get("chess").expect("chess");
    seeds.push(Seed {
        meta: chess,
        label: "a chess game with comments and variations".into(),
        bytes: CHESS_PGN.as_bytes().to_vec(),
    });
    for s in &seeds {
        read_game(s.meta, &text_of(&s.bytes)).unwrap_or_else(|e| panic!("{}: {e}", s.label));
    }
    let all = variants();
    fuzz(
        "pgn",
        seeds,
        |_| Shape::Text,
        |_, _, _| {},
        || (),
        move |_, rules, bytes, rng| {
            let rules = if rng.one_in(8) {
                *rng.pick(&all)
            } else {
                *rules
            };
            check_pgn(rules, &text_of(bytes))
        },
    );
}

fn check_pgn(rules: &'static Variant, text: &str) -> Result<Handled, String> {
    let (fen, moves) = match read_game(rules, text) {
        Err(e) => {
            let named = ["move", "FEN", "no game"].iter().any(|w| e.contains(w));
            if !named {
                return Err(format!("the refusal '{e}' names no move, tag or game"));
            }
            return refusal(&e, &[]);
        }
        Ok(game) => game,
    };
    let pos_at_start = match &fen {
        Some(f) => Position::from_fen(rules, f).map_err(|e| format!("its FEN '{f}': {e}"))?,
        None => Position::startpos(rules),
    };
    let mut pos = pos_at_start.clone();
    for (i, m) in moves.iter().enumerate() {
        let mv = parse_move(&mut pos, m).map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
        pos.make(mv);
    }
    display_moves(rules, fen.as_deref(), &moves).map_err(|e| format!("display: {e}"))?;
    let again = game_text(rules, fen.as_deref(), &moves, Vec::new(), "*", "")
        .map_err(|e| format!("written back: {e}"))?;
    let back = read_game(rules, &again).map_err(|e| format!("read back: {e}"))?;
    // the writer gives the FEN as the engine spells it, and none for the variant's start
    let start = Position::startpos(rules).fen();
    let spelled = Some(pos_at_start.fen()).filter(|f| *f != start);
    if back != (spelled, moves.clone()) {
        return Err(format!(
            "written back and read again it is another game: {again}"
        ));
    }
    Ok(Handled::Accepted)
}

/// A position seed: a two-colour variant's FEN or an FP-FEN.
#[derive(Clone, Copy)]
enum FenSeed {
    Two(&'static Variant),
    Three,
}

/// Every variant's FEN parser (`Position::from_fen`, now and then with another variant's
/// rules) and Foreign Policy's FP-FEN: a refusal says what is wrong; a position that reads
/// round-trips, plays and takes back random plies, evaluates, and searches in the engine.
#[test]
fn fen() {
    let mut rng = Rng(11);
    let mut seeds: Vec<Seed<FenSeed>> = position_seeds(&mut rng)
        .into_iter()
        .map(|(rules, fen)| Seed {
            meta: FenSeed::Two(rules),
            label: format!("a {} FEN", rules.name),
            bytes: fen.into_bytes(),
        })
        .collect();
    for fen in three_seeds(&mut rng) {
        seeds.push(Seed {
            meta: FenSeed::Three,
            label: "an FP-FEN".into(),
            bytes: fen.into_bytes(),
        });
    }
    let all = variants();
    fuzz(
        "fen",
        seeds,
        |_| Shape::Text,
        |_, _, _| {},
        || (small_engine(), HashMap::<String, EvalParams>::new()),
        move |(engine, evals), meta, bytes, rng| {
            let text = text_of(bytes);
            match meta {
                FenSeed::Three => check_three_fen(engine, &text, rng),
                FenSeed::Two(rules) => {
                    let rules = if rng.one_in(8) {
                        *rng.pick(&all)
                    } else {
                        *rules
                    };
                    let eval = evals
                        .entry(rules.name.clone())
                        .or_insert_with(|| EvalParams::new(rules));
                    check_fen(engine, rules, eval, &text, rng)
                }
            }
        },
    );
}

fn check_fen(
    engine: &mut Engine,
    rules: &'static Variant,
    eval: &EvalParams,
    text: &str,
    rng: &mut Rng,
) -> Result<Handled, String> {
    let pos = match Position::from_fen(rules, text) {
        Err(e) => return refusal(&e.to_string(), &[]),
        Ok(p) => p,
    };
    exercise(&pos, eval, rng)?;
    engine.set_variant(&rules.name).map_err(|e| e.to_string())?;
    engine
        .set_position(Some(text), &[])
        .map_err(|e| format!("the engine refuses what the parser took: {e}"))?;
    search_checks(engine)?;
    Ok(Handled::Accepted)
}

fn check_three_fen(engine: &mut Engine, text: &str, rng: &mut Rng) -> Result<Handled, String> {
    let pos = match FpPosition::from_fen(text) {
        Err(e) => return refusal(&e.to_string(), &[]),
        Ok(p) => p,
    };
    exercise_three(&pos, rng)?;
    engine
        .set_variant(chimera::foreignpolicy::NAME)
        .map_err(|e| e.to_string())?;
    engine
        .set_position(Some(text), &[])
        .map_err(|e| format!("the engine refuses what the parser took: {e}"))?;
    search_checks(engine)?;
    Ok(Handled::Accepted)
}

// ---------------------------------------------------------------------------------------
// The web board's API
// ---------------------------------------------------------------------------------------

/// One HTTP/1.1 request with a raw body; the status and the body, or why there is none.
fn http(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
) -> Result<(u16, String), String> {
    let mut s = std::net::TcpStream::connect(addr).map_err(|e| format!("cannot connect: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())
        .and_then(|_| s.write_all(body))
        .map_err(|e| format!("cannot send: {e}"))?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)
        .map_err(|e| format!("no answer: {e}"))?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("no end of header in '{text}'"))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("no status in '{head}'"))?;
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        crate::common::dechunk(rest)
    } else {
        rest.to_string()
    };
    Ok((status, body))
}

/// What a web-board case sends.
#[derive(Clone, Debug)]
enum ServeSeed {
    /// A PGN imported as a new game of this variant.
    Pgn(String),
    /// A FEN of this variant, as a new game or set on an open game.
    Fen(String),
    /// A whole request body to this path (`position`: an open game's), mutated as bytes.
    Body(&'static str),
}

/// The web server with a game open in each variant the cases set positions on.
struct Board {
    server: chimera::serve::Server,
    open: HashMap<String, u64>,
}

/// The web board's HTTP API with pasted PGN and FEN (new games from PGN or FEN, a FEN set on
/// an open game) and mutated request bodies: a refusal is a 4xx with a JSON error that says
/// something, a refused position leaves the game as it was, an accepted game answers its
/// state, PGN and moves and closes; the server answers after every case.
#[test]
fn serve_api() {
    let mut rng = Rng(13);
    let mut seeds = Vec::new();
    let picked: Vec<&'static Variant> = variants().into_iter().step_by(3).collect();
    for &rules in &picked {
        seeds.push(Seed {
            meta: ServeSeed::Pgn(rules.name.clone()),
            label: format!("a {} game", rules.name),
            bytes: game_pgn(rules, &mut rng, 0, 20).into_bytes(),
        });
    }
    seeds.push(Seed {
        meta: ServeSeed::Pgn("chess".into()),
        label: "a chess game with comments".into(),
        bytes: CHESS_PGN.as_bytes().to_vec(),
    });
    for (rules, fen) in position_seeds(&mut rng).into_iter().step_by(5) {
        seeds.push(Seed {
            meta: ServeSeed::Fen(rules.name.clone()),
            label: format!("a {} FEN", rules.name),
            bytes: fen.into_bytes(),
        });
    }
    for fen in three_seeds(&mut rng) {
        seeds.push(Seed {
            meta: ServeSeed::Fen(chimera::foreignpolicy::NAME.into()),
            label: "an FP-FEN".into(),
            bytes: fen.into_bytes(),
        });
    }
    let bodies: [(&str, Value); 4] = [
        ("/api/games", json!({"variant": "chess", "pgn": CHESS_PGN})),
        (
            "/api/games",
            json!({"variant": "espionage", "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}),
        ),
        (
            "/api/games",
            json!({"variant": "fischerandom", "chess960": 5}),
        ),
        (
            "position",
            json!({"fen": "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"}),
        ),
    ];
    for (path, body) in bodies {
        seeds.push(Seed {
            meta: ServeSeed::Body(path),
            label: format!("a request body to {path}"),
            bytes: body.to_string().into_bytes(),
        });
    }
    fuzz(
        "serve",
        seeds,
        |_| Shape::Text,
        |_, _, _| {},
        || Board {
            server: chimera::serve::start(chimera::serve::ServeConfig {
                port: 0,
                hash_mb: 1,
                ..Default::default()
            })
            .expect("the server starts"),
            open: HashMap::new(),
        },
        check_serve,
    );
}

fn check_serve(
    board: &mut Board,
    meta: &ServeSeed,
    bytes: &[u8],
    rng: &mut Rng,
) -> Result<Handled, String> {
    let text = text_of(bytes);
    let handled = match meta {
        // without a variant, the PGN's Variant tag names it
        ServeSeed::Pgn(_) if rng.one_in(3) => {
            new_game(board, json!({ "pgn": text }).to_string().as_bytes())?
        }
        ServeSeed::Pgn(v) => new_game(
            board,
            json!({"variant": v, "pgn": text}).to_string().as_bytes(),
        )?,
        ServeSeed::Fen(v) if rng.one_in(2) => new_game(
            board,
            json!({"variant": v, "fen": text}).to_string().as_bytes(),
        )?,
        ServeSeed::Fen(v) => set_fen(board, v, json!({"fen": text}).to_string().as_bytes())?,
        ServeSeed::Body("position") => set_fen(board, "chess", bytes)?,
        ServeSeed::Body(_) => new_game(board, bytes)?,
    };
    let (status, _) = http(board.server.addr, "GET", "/api/variants", b"")?;
    if status != 200 {
        return Err(format!(
            "the server stopped serving: /api/variants answers {status}"
        ));
    }
    Ok(handled)
}

/// A 4xx answer with a JSON error that says something.
fn refused_answer(status: u16, body: &str) -> Result<Handled, String> {
    if !(400..500).contains(&status) {
        return Err(format!("answered {status}: {body}"));
    }
    let v: Value = serde_json::from_str(body)
        .map_err(|e| format!("{status} with a body that is not JSON ({e}): {body}"))?;
    let message = v["error"]
        .as_str()
        .ok_or_else(|| format!("{status} without an error: {body}"))?;
    refusal(message, &[])
}

/// The state JSON of an answer.
fn state_of(status: u16, body: &str) -> Result<Value, String> {
    let v: Value =
        serde_json::from_str(body).map_err(|e| format!("{status}: not JSON ({e}): {body}"))?;
    if v["fen"].as_str().is_none() || v["id"].as_u64().is_none() {
        return Err(format!(
            "{status}: a game state without its FEN or id: {body}"
        ));
    }
    Ok(v)
}

/// POST /api/games with `body`; a game made answers its state, PGN and a move, then closes.
fn new_game(board: &mut Board, body: &[u8]) -> Result<Handled, String> {
    let addr = board.server.addr;
    let (status, answer) = http(addr, "POST", "/api/games", body)?;
    if status != 201 {
        return refused_answer(status, &answer);
    }
    let state = state_of(status, &answer)?;
    let id = state["id"].as_u64().expect("checked");
    let (s, b) = http(addr, "GET", &format!("/api/games/{id}"), b"")?;
    state_of(s, &b)?;
    let (s, b) = http(addr, "GET", &format!("/api/games/{id}/pgn"), b"")?;
    if s != 200 && state["players"].as_array().is_some_and(|p| p.len() == 2) {
        return Err(format!("the PGN of an imported game: {s} {b}"));
    }
    play_first_legal(addr, id, &state)?;
    let (s, b) = http(addr, "DELETE", &format!("/api/games/{id}"), b"")?;
    if s != 204 {
        return Err(format!("closing the game: {s} {b}"));
    }
    Ok(Handled::Accepted)
}

/// Plays the first legal move the state lists; the game must take it.
fn play_first_legal(addr: std::net::SocketAddr, id: u64, state: &Value) -> Result<(), String> {
    if let Some(m) = state["legal"]
        .as_array()
        .and_then(|l| l.first())
        .and_then(Value::as_str)
    {
        let body = json!({"move": m}).to_string();
        let (s, b) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/move"),
            body.as_bytes(),
        )?;
        if s != 200 {
            return Err(format!("the legal move {m} of {}: {s} {b}", state["fen"]));
        }
    }
    Ok(())
}

/// POST /api/games/ID/position with `body` on the open game of `variant`; a refusal leaves
/// the game's FEN as it was.
fn set_fen(board: &mut Board, variant: &str, body: &[u8]) -> Result<Handled, String> {
    let addr = board.server.addr;
    let id = match board.open.get(variant) {
        Some(&id) => id,
        None => {
            let req = json!({ "variant": variant }).to_string();
            let (s, b) = http(addr, "POST", "/api/games", req.as_bytes())?;
            let id = state_of(s, &b)?["id"].as_u64().expect("checked");
            board.open.insert(variant.to_string(), id);
            id
        }
    };
    let (_, before) = http(addr, "GET", &format!("/api/games/{id}"), b"")?;
    let before = state_of(200, &before)?;
    let (status, answer) = http(addr, "POST", &format!("/api/games/{id}/position"), body)?;
    if status != 200 {
        let handled = refused_answer(status, &answer)?;
        let (_, after) = http(addr, "GET", &format!("/api/games/{id}"), b"")?;
        let after = state_of(200, &after)?;
        if after["fen"] != before["fen"] {
            return Err(format!(
                "refused, but the game's FEN went from {} to {}",
                before["fen"], after["fen"]
            ));
        }
        return Ok(handled);
    }
    let state = state_of(status, &answer)?;
    play_first_legal(addr, id, &state)?;
    Ok(Handled::Accepted)
}

// ---------------------------------------------------------------------------------------
// Opening books
// ---------------------------------------------------------------------------------------

/// What a book seed is.
#[derive(Clone, Copy)]
struct BookSeed {
    rules: &'static Variant,
    format: Format,
}

/// Opening books: `match -openings` (`tournament::openings::load`, EPD/FEN and PGN) and
/// datagen's and genfens' book (`openings::read_book`): a refusal names the file (and its
/// line or game); every opening of a book that loads is a legal position and legal moves.
#[test]
fn books() {
    let mut rng = Rng(17);
    let mut seeds = Vec::new();
    for rules in variants() {
        let mut epd = String::from("# a book\n");
        let mut fens = String::new();
        for plies in [0, 3, 6, 9, 12] {
            let mut pos = Position::startpos(rules);
            playout(&mut pos, &mut rng, plies);
            let fen = pos.fen();
            fens += &fen;
            fens.push('\n');
            let four: Vec<&str> = fen.split_whitespace().take(4).collect();
            epd += &format!(
                "{} hmvc 0; fmvn 1; id \"{} {plies}\";\n",
                four.join(" "),
                rules.name
            );
        }
        let pgn: String = (0..3)
            .map(|i| game_pgn(rules, &mut rng, 0, 6 + 4 * i))
            .collect();
        for (format, text, kind) in [
            (Format::Epd, epd, "EPD"),
            (Format::Epd, fens, "FEN"),
            (Format::Pgn, pgn, "PGN"),
        ] {
            seeds.push(Seed {
                meta: BookSeed { rules, format },
                label: format!("a {} {kind} book", rules.name),
                bytes: text.into_bytes(),
            });
        }
    }
    let dir = scratch("books");
    let files = dir.clone();
    fuzz(
        "books",
        seeds,
        |_| Shape::Text,
        |_, _, _| {},
        || (),
        move |_, meta, bytes, rng| check_book(&files, meta, bytes, rng),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn check_book(dir: &Path, meta: &BookSeed, bytes: &[u8], rng: &mut Rng) -> Result<Handled, String> {
    let path = dir.join("fuzz-book");
    std::fs::write(&path, bytes).expect("write");
    let name = path.display().to_string();
    let spec = OpeningsSpec {
        file: name.clone(),
        format: meta.format,
        random: rng.one_in(2),
        seed: rng.bits(),
        plies: rng.one_in(2).then(|| rng.below(12)),
        start: 1 + rng.below(4),
        chess960: None,
    };
    let rules = meta.rules;
    let handled = match openings::load(&spec, rules) {
        Err(e) => refusal(&e, &[&name])?,
        Ok(book) => {
            if book.is_empty() {
                return Err("a book that loads with no openings".into());
            }
            for o in &book {
                let mut pos = match &o.fen {
                    Some(f) => {
                        Position::from_fen(rules, f).map_err(|e| format!("opening '{f}': {e}"))?
                    }
                    None => Position::startpos(rules),
                };
                for m in &o.moves {
                    let mv =
                        parse_move(&mut pos, m).map_err(|e| format!("opening move '{m}': {e}"))?;
                    pos.make(mv);
                }
            }
            Handled::Accepted
        }
    };
    if meta.format == Format::Epd {
        match chimera::openings::read_book(&name, rules) {
            Err(e) => {
                refusal(&e, &[&name])?;
            }
            Ok(positions) => {
                let eval = EvalParams::classical(rules);
                for p in positions.iter().take(3) {
                    exercise(p, &eval, rng)?;
                }
            }
        }
    }
    Ok(handled)
}

// ---------------------------------------------------------------------------------------
// Training data
// ---------------------------------------------------------------------------------------

/// What a data seed is.
#[derive(Clone, Copy)]
enum DataSeed {
    /// `chimera train`'s input of a variant (packed or text lines).
    Train(&'static Variant),
    /// `chimera tune`'s text lines of chess.
    Tune(&'static Variant),
    /// Foreign Policy's lines.
    Three,
}

/// Self-play data of `rules` as datagen writes it.
fn datagen_bytes(rules: &'static Variant, format: DataFormat) -> Vec<u8> {
    let cfg = DatagenConfig {
        games: 2,
        nodes: 150,
        threads: 1,
        seed: 5,
        random_plies: 6,
        book: None,
        chess960: None,
        balance_nodes: 0,
        format,
        eval_file: None,
    };
    let mut out = Vec::new();
    datagen::generate(rules, &cfg, &mut out, false).expect("datagen");
    out
}

/// A small, quick training configuration.
fn quick_training() -> train::TrainConfig {
    train::TrainConfig {
        hidden: 16,
        epochs: 1,
        batch: 64,
        validation: 0.25,
        threads: 1,
        ..Default::default()
    }
}

/// Training data: packed records and text lines for `chimera train` (chess and a 007 game),
/// text lines for `chimera tune`, Foreign Policy's lines for its trainer, all written by
/// datagen: a refusal names the file; data that loads trains a small net that evaluates.
#[test]
fn training_data() {
    let set = builtin_variants();
    let chess = set.get("chess").expect("chess");
    let detente = set.get("007detente").expect("007detente");
    let mut seeds = Vec::new();
    for (rules, format, kind) in [
        (chess, DataFormat::Packed, "packed"),
        (detente, DataFormat::Packed, "packed"),
        (chess, DataFormat::Text, "text"),
    ] {
        let bytes = datagen_bytes(rules, format);
        seeds.push(Seed {
            meta: DataSeed::Train(rules),
            label: format!("{} {kind} data", rules.name),
            bytes: bytes.clone(),
        });
        if format == DataFormat::Text {
            seeds.push(Seed {
                meta: DataSeed::Tune(rules),
                label: "chess tuning lines".into(),
                bytes,
            });
        }
    }
    let three_cfg = DatagenConfig {
        games: 1,
        nodes: 150,
        threads: 1,
        seed: 9,
        random_plies: 6,
        book: None,
        chess960: None,
        balance_nodes: 0,
        format: DataFormat::Text,
        eval_file: None,
    };
    let mut three_lines = Vec::new();
    datagen_three::generate(&three_cfg, &mut three_lines, false).expect("datagen three");
    seeds.push(Seed {
        meta: DataSeed::Three,
        label: "Foreign Policy lines".into(),
        bytes: three_lines,
    });
    let dir = scratch("data");
    let files = dir.clone();
    fuzz(
        "data",
        seeds,
        |meta| match meta {
            DataSeed::Train(_) => Shape::Binary { header: 40 },
            _ => Shape::Text,
        },
        |_, _, _| {},
        || (),
        move |_, meta, bytes, rng| check_data(&files, meta, bytes, rng),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn check_data(dir: &Path, meta: &DataSeed, bytes: &[u8], rng: &mut Rng) -> Result<Handled, String> {
    let path = dir.join("fuzz-data");
    std::fs::write(&path, bytes).expect("write");
    let name = path.display().to_string();
    match *meta {
        DataSeed::Train(rules) => match train::load(&name, rules) {
            Err(e) => refusal(&e, &[&name]),
            Ok(data) => {
                trains(&data, rules)?;
                Ok(Handled::Accepted)
            }
        },
        DataSeed::Tune(rules) => {
            let eval = EvalParams::classical(rules);
            match chimera::tune::load_data(&name, rules, &eval, rng.one_in(2)) {
                Err(e) => refusal(&e, &[&name]),
                Ok(data) => {
                    let k = chimera::tune::texel::fit_k(
                        &data,
                        &chimera::tune::texel::to_pairs(&chimera::eval::weights::WEIGHTS),
                    );
                    if !k.is_finite() || k <= 0.0 {
                        return Err(format!("tuning data that loads fits K = {k}"));
                    }
                    Ok(Handled::Accepted)
                }
            }
        }
        DataSeed::Three => match train_three::load(std::slice::from_ref(&name)) {
            Err(e) => refusal(&e, &[&name]),
            Ok(samples) => {
                let k = train_three::fit_scale(&samples);
                if !k.is_finite() || k <= 0.0 {
                    return Err(format!("{} samples that load fit K = {k}", samples.len()));
                }
                match train_three::train(&samples, &quick_training(), |_, _, _| {}) {
                    Err(e) => refusal(&e, &[]),
                    Ok(net) => {
                        let _ = net.utilities(&FpPosition::startpos());
                        Ok(Handled::Accepted)
                    }
                }
            }
        },
    }
}

/// Data that loaded trains a small net (or is refused as too small, with a reason), and the
/// net fits the variant and evaluates its start.
fn trains(data: &train::Data, rules: &'static Variant) -> Result<(), String> {
    let net = match train::train(data, &quick_training(), |_, _, _| {}) {
        Err(e) => return refusal(&e, &[]).map(|_| ()),
        Ok(net) => net,
    };
    let loaded = LoadedNet::new(Arc::new(net), rules, "trained")
        .map_err(|e| format!("the trained net: {e}"))?;
    let _ = loaded.evaluate_fresh(&Position::startpos(rules));
    Ok(())
}

// ---------------------------------------------------------------------------------------
// learn's work folder
// ---------------------------------------------------------------------------------------

/// A 6x6 game no built-in net fits, for the work folder.
const MINI: &str = "[minichess-fz:chess]\nmaxFile = 6\nmaxRank = 6\n\
    startFen = rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1\ncastling = false\ndoubleStep = false\n";

/// Which file of the work folder a seed is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WorkFile {
    Manifest,
    Chunk,
    Checkpoint,
}

impl WorkFile {
    fn path(self) -> &'static str {
        match self {
            WorkFile::Manifest => pipeline::MANIFEST,
            WorkFile::Chunk => "data/round-1-0000.bin",
            WorkFile::Checkpoint => "nets/round-1.ckpt",
        }
    }
}

/// minichess, loaded once for the process.
fn minichess() -> &'static Variant {
    static SET: OnceLock<VariantSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut set = builtin_variants();
        set.load_str("mini.ini", MINI).expect("minichess loads");
        set
    })
    .get("minichess-fz")
    .expect("defined")
}

fn learn_config(work: &Path) -> pipeline::LearnConfig {
    pipeline::LearnConfig {
        variant: "minichess-fz".into(),
        variants_file: None,
        work: work.to_path_buf(),
        threads: 1,
        hours: Some(0.0),
        positions: 1000,
        nodes: 100,
        chunk_games: 2,
        seed: 3,
        hidden: Some(16),
        men_buckets: 0,
        epochs: 2,
        lambda: None,
        rate: None,
        mirror: false,
        tc: "1+0.01".into(),
        time_margin: 100,
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
        gate_games: 2,
        rounds: 1,
        start: None,
        exe: PathBuf::from(env!("CARGO_BIN_EXE_chimera")),
        chunks: None,
        merge: Vec::new(),
    }
}

/// The checkpoint's training settings (the same every time, so its fingerprint matches).
fn checkpoint_training(path: &Path) -> train::TrainConfig {
    train::TrainConfig {
        hidden: 16,
        epochs: 2,
        batch: 64,
        validation: 0.25,
        seed: 4,
        checkpoint: Some(path.to_path_buf()),
        ..Default::default()
    }
}

/// A real work folder: the manifest a started run writes, its book, a data chunk datagen
/// wrote and a checkpoint train wrote; returns the template's files by name.
fn work_template(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let rules = minichess();
    let work = dir.join("template");
    std::fs::create_dir_all(work.join("data")).expect("folder");
    let book =
        "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1\nrnqknr/pppppp/6/2P3/PP1PPP/RNQKNR b - - 0 1\n";
    std::fs::write(work.join("book.fen"), book).expect("book");
    pipeline::run(rules, &learn_config(&work)).expect("a started run");
    let chunk = datagen_bytes(rules, DataFormat::Packed);
    std::fs::write(work.join(WorkFile::Chunk.path()), &chunk).expect("chunk");
    let data = train::load(
        &work.join(WorkFile::Chunk.path()).display().to_string(),
        rules,
    )
    .expect("the chunk loads");
    let ckpt = work.join(WorkFile::Checkpoint.path());
    let net = train::train(&data, &checkpoint_training(&ckpt), |_, _, _| {}).expect("trains");
    std::fs::write(work.join("minichess-fz.nnue"), file::serialize(&net)).expect("net");
    [
        "learn.manifest",
        "book.fen",
        WorkFile::Chunk.path(),
        WorkFile::Checkpoint.path(),
        "minichess-fz.nnue",
    ]
    .iter()
    .map(|f| {
        (
            f.to_string(),
            std::fs::read(work.join(f)).expect("template file"),
        )
    })
    .collect()
}

/// The manifest of a finished run (a gate passed, its net installed), from a started one.
fn finished_manifest(started: &str) -> String {
    let mut text = started
        .replace("stage = generate", "stage = done")
        .replace("best = -", "best = minichess-fz.nnue");
    text += "gate = round 1: H1 accepted: the variant's own evaluation (Score of round-1 vs current: 2 - 0 - 0 [1.000] 2; Elo +inf; H1 was accepted)\n";
    text += "command = chimera datagen --variant minichess-fz --games 2 --nodes 100 --threads 1 --seed 3000025 --balance 1000 --out data/round-1-0000.bin\n";
    text += "command = chimera train --variant minichess-fz --data data/round-1-0000.bin --hidden 16 --epochs 2 --seed 4 --threads 1 --out nets/round-1.nnue\n";
    text
}

/// The value of `key` in manifest text, as a number.
fn manifest_number(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key} = ")))
        .and_then(|v| v.parse().ok())
}

/// `learn`'s work folder: the manifest (a started and a finished run's), a data chunk and a
/// training checkpoint, each mutated in an otherwise whole folder. `learn` (its time budget
/// spent, so it reads the folder, checks it and stops) refuses a bad folder naming the file;
/// a manifest it takes is written back so the next run takes it too, with a hidden width the
/// trainer can make; a damaged chunk is named by the data reader; the trainer resumes from a
/// checkpoint it takes and gives a net that evaluates.
#[test]
fn learn_work_folder() {
    let dir = scratch("learn");
    let template = work_template(&dir);
    let manifest = String::from_utf8(template[0].1.clone()).expect("text");
    let file_of = |name: &str| {
        template
            .iter()
            .find(|(n, _)| n == name)
            .expect("file")
            .1
            .clone()
    };
    let seeds = vec![
        Seed {
            meta: WorkFile::Manifest,
            label: "a started run's manifest".into(),
            bytes: manifest.clone().into_bytes(),
        },
        Seed {
            meta: WorkFile::Manifest,
            label: "a finished run's manifest".into(),
            bytes: finished_manifest(&manifest).into_bytes(),
        },
        Seed {
            meta: WorkFile::Chunk,
            label: "a data chunk".into(),
            bytes: file_of(WorkFile::Chunk.path()),
        },
        Seed {
            meta: WorkFile::Checkpoint,
            label: "a checkpoint".into(),
            bytes: file_of(WorkFile::Checkpoint.path()),
        },
    ];
    let work = dir.join("case");
    fuzz(
        "learn",
        seeds,
        |meta| match meta {
            WorkFile::Manifest => Shape::Text,
            _ => Shape::Binary { header: 48 },
        },
        |_, _, _| {},
        || (),
        move |_, meta, bytes, _| check_work(&work, &template, *meta, bytes),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn check_work(
    work: &Path,
    template: &[(String, Vec<u8>)],
    meta: WorkFile,
    bytes: &[u8],
) -> Result<Handled, String> {
    let _ = std::fs::remove_dir_all(work);
    for (name, content) in template {
        let path = work.join(name);
        std::fs::create_dir_all(path.parent().expect("in the folder")).expect("folder");
        std::fs::write(&path, content).expect("write");
    }
    let path = work.join(meta.path());
    std::fs::write(&path, bytes).expect("write");
    let name = path.display().to_string();
    let rules = minichess();
    match meta {
        WorkFile::Manifest | WorkFile::Chunk => {
            let cfg = learn_config(work);
            if let Err(e) = pipeline::run(rules, &cfg) {
                return refusal(&e, &[&work.display().to_string()]);
            }
            let saved = std::fs::read_to_string(work.join(pipeline::MANIFEST))
                .map_err(|e| e.to_string())?;
            let hidden = manifest_number(&saved, "hidden").unwrap_or(0);
            if hidden > file::MAX_HIDDEN as u64 {
                return Err(format!(
                    "a manifest with hidden {hidden} was taken (nets are at most {})",
                    file::MAX_HIDDEN
                ));
            }
            pipeline::run(rules, &cfg)
                .map_err(|e| format!("the manifest it wrote back is refused: {e}"))?;
            if meta == WorkFile::Chunk {
                match train::load(&name, rules) {
                    Err(e) => return refusal(&e, &[&name]),
                    Ok(data) => trains(&data, rules)?,
                }
            }
            Ok(Handled::Accepted)
        }
        WorkFile::Checkpoint => {
            let chunk = work.join(WorkFile::Chunk.path()).display().to_string();
            let data = train::load(&chunk, rules).map_err(|e| format!("the whole chunk: {e}"))?;
            match train::train(&data, &checkpoint_training(&path), |_, _, _| {}) {
                Err(e) => refusal(&e, &[&name]),
                Ok(net) => {
                    let back = file::parse(&file::serialize(&net))
                        .map_err(|e| format!("the net written: {e}"))?;
                    let loaded = LoadedNet::new(Arc::new(back), rules, "resumed")
                        .map_err(|e| format!("the resumed net: {e}"))?;
                    let _ = loaded.evaluate_fresh(&Position::startpos(rules));
                    Ok(Handled::Accepted)
                }
            }
        }
    }
}

/// A tuning run's configuration for the state file's target.
fn spsa_config(work: &Path) -> chimera::tune::spsa::SpsaConfig {
    chimera::tune::spsa::SpsaConfig {
        variant: "chess".into(),
        variants_file: None,
        work: work.to_path_buf(),
        iterations: 500,
        pairs: 1,
        concurrency: 2,
        tc: "1+0.01".into(),
        nodes: None,
        hash: 16,
        book: None,
        params: chimera::tune::spsa::select("RfpMargin,LmrBase,TimeHardFactor").expect("known"),
        seed: 5,
        r_end: 0.002,
        engine: PathBuf::from("chimera"),
        hours: None,
    }
}

/// `chimera spsa`'s state file (`spsa.state`): read back, or refused naming the file; an
/// accepted state has values within their ranges and no more iterations than the run.
#[test]
fn spsa_state() {
    let dir = scratch("spsa");
    let cfg = spsa_config(&dir);
    let header = "# chimera spsa: the state of a tuning run; read by 'chimera spsa', do not edit\n";
    let head = "variant = chess\nseed = 5\niterations = 500\npairs = 1\nr_end = 0.002\n\
                params = RfpMargin LmrBase TimeHardFactor\n";
    let seeds = vec![
        Seed {
            meta: (),
            label: "a fresh run's state".into(),
            bytes: format!("{header}{head}done = 0\ngames = 0 0 0\nfaults = 0\ntheta = 90.0000 75.0000 4.0000\n")
                .into_bytes(),
        },
        Seed {
            meta: (),
            label: "a run's state after 137 iterations".into(),
            bytes: format!("{header}{head}done = 137\ngames = 101 96 77\nfaults = 1\ntheta = 97.3125 71.0512 3.5000\n")
                .into_bytes(),
        },
    ];
    let path = dir.join("spsa.state");
    fuzz(
        "spsa",
        seeds,
        |_| Shape::Text,
        |_, _, _| {},
        || (),
        move |_, _, bytes, _| {
            std::fs::write(&path, bytes).expect("write");
            match chimera::tune::spsa::SpsaState::load(&path, &cfg) {
                Ok(Some(st)) => {
                    let in_range = st
                        .theta
                        .iter()
                        .zip(&cfg.params)
                        .all(|(v, t)| (t.min as f64..=t.max as f64).contains(v));
                    if !in_range || st.done > cfg.iterations {
                        return Err(format!("accepted a state out of range: {st:?}"));
                    }
                    Ok(Handled::Accepted)
                }
                Ok(None) => Err("an existing file read as no state".into()),
                Err(e) => refusal(&e, &["spsa.state"]),
            }
        },
    );
    let _ = std::fs::remove_dir_all(&dir);
}
