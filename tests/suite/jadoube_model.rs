//! An independent model of J'Adoube Chess (shared/rules/modest-proposals-2.md section 8) for the
//! counts in tests/perft/jadoube.epd, which Fairy-Stockfish cannot produce (it has no way to bar a
//! slider's adjacent captures).
//!
//! It shares no code with chimera: a plain 64-square mailbox, copy-make, legality by "is my king
//! attacked after the move". The same model with the J'Adoube powers switched off is orthodox
//! chess, and must reproduce the published orthodox counts of tests/perft/chess.epd; that is the
//! model's own check.
//!
//! To print the model's counts for the J'Adoube suite (how jadoube.epd was made):
//!     cargo test --release --test suite jadoube_model:: -- --ignored --nocapture

use std::path::Path;

const P: i8 = 1;
const N: i8 = 2;
const B: i8 = 3;
const R: i8 = 4;
const Q: i8 = 5;
const K: i8 = 6;

const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const ORTHO: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ADJ: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

#[derive(Clone)]
struct Board {
    sq: [i8; 64], // + white, - black; index = rank * 8 + file
    white: bool,
    castle: u8, // 1 K, 2 Q, 4 k, 8 q
    ep: Option<usize>,
    jadoube: bool,
}

fn at(f: i8, r: i8) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

fn parse(fen: &str, jadoube: bool) -> Board {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let mut sq = [0i8; 64];
    for (i, row) in f[0].split('/').enumerate() {
        let r = 7 - i as i8;
        let mut file = 0i8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as i8;
                continue;
            }
            let t = match c.to_ascii_lowercase() {
                'p' => P,
                'n' => N,
                'b' => B,
                'r' => R,
                'q' => Q,
                'k' => K,
                _ => panic!("bad FEN letter {c}"),
            };
            sq[at(file, r).unwrap()] = if c.is_ascii_uppercase() { t } else { -t };
            file += 1;
        }
    }
    let mut castle = 0;
    for c in f[2].chars() {
        castle |= match c {
            'K' => 1,
            'Q' => 2,
            'k' => 4,
            'q' => 8,
            _ => 0,
        };
    }
    let ep = (f[3] != "-").then(|| {
        let b = f[3].as_bytes();
        at((b[0] - b'a') as i8, (b[1] - b'1') as i8).unwrap()
    });
    Board {
        sq,
        white: f[1] == "w",
        castle,
        ep,
        jadoube,
    }
}

impl Board {
    /// Whether `s` is attacked by the side `white`.
    fn attacked(&self, s: usize, white: bool) -> bool {
        let sign = if white { 1 } else { -1 };
        let (f, r) = ((s % 8) as i8, (s / 8) as i8);
        // pawns: a white pawn attacks upwards, so it stands one rank below
        for df in [-1, 1] {
            if let Some(t) = at(f + df, r - sign) {
                if self.sq[t] == sign * P {
                    return true;
                }
            }
        }
        for (df, dr) in KNIGHT {
            if let Some(t) = at(f + df, r + dr) {
                if self.sq[t] == sign * N {
                    return true;
                }
            }
        }
        for (df, dr) in ADJ {
            if let Some(t) = at(f + df, r + dr) {
                if self.sq[t] == sign * K {
                    return true;
                }
            }
        }
        for (dirs, kind) in [(ORTHO, R), (DIAG, B)] {
            for (df, dr) in dirs {
                let mut dist = 1;
                while let Some(t) = at(f + df * dist, r + dr * dist) {
                    let p = self.sq[t];
                    if p != 0 {
                        let slider = p == sign * kind || p == sign * Q;
                        if slider && !(self.jadoube && dist == 1) {
                            return true;
                        }
                        break;
                    }
                    dist += 1;
                }
            }
        }
        false
    }

    fn king(&self, white: bool) -> usize {
        let k = if white { K } else { -K };
        self.sq.iter().position(|&p| p == k).expect("a king")
    }

    /// Plays a move (from, to, promotion type or 0) on a copy. Castling is a king move of two
    /// files; en passant is a pawn's diagonal move to the e.p. square.
    fn play(&self, from: usize, to: usize, promo: i8) -> Board {
        let mut b = self.clone();
        let p = b.sq[from];
        let sign = p.signum();
        b.sq[from] = 0;
        b.sq[to] = if promo != 0 { sign * promo } else { p };
        b.ep = None;
        if p.abs() == P {
            if Some(to) == self.ep {
                b.sq[(to as i32 - 8 * sign as i32) as usize] = 0;
            }
            if (to as i32 - from as i32).abs() == 16 {
                b.ep = Some((from + to) / 2);
            }
        }
        if p.abs() == K && (to as i32 - from as i32).abs() == 2 {
            let (rf, rt) = if to > from {
                (from + 3, from + 1)
            } else {
                (from - 4, from - 1)
            };
            b.sq[rt] = b.sq[rf];
            b.sq[rf] = 0;
        }
        for (s, mask) in [(4, 3), (0, 2), (7, 1), (60, 12), (56, 8), (63, 4)] {
            if from == s || to == s {
                b.castle &= !mask;
            }
        }
        b.white = !self.white;
        b
    }

    /// Legal moves as (from, to, promotion).
    fn moves(&self) -> Vec<(usize, usize, i8)> {
        let sign: i8 = if self.white { 1 } else { -1 };
        let mut out = Vec::new();
        let add = |from: usize, to: usize, out: &mut Vec<(usize, usize, i8)>| {
            if self.sq[from].abs() == P && (to / 8 == 0 || to / 8 == 7) {
                for t in [Q, R, B, N] {
                    out.push((from, to, t));
                }
            } else {
                out.push((from, to, 0));
            }
        };
        for s in 0..64 {
            let p = self.sq[s];
            if p == 0 || p.signum() != sign {
                continue;
            }
            let (f, r) = ((s % 8) as i8, (s / 8) as i8);
            let enemy = |t: usize| self.sq[t] != 0 && self.sq[t].signum() == -sign;
            let mut targets: Vec<usize> = Vec::new();
            match p.abs() {
                P => {
                    if let Some(t) = at(f, r + sign) {
                        if self.sq[t] == 0 {
                            add(s, t, &mut out);
                            let home = if sign == 1 { 1 } else { 6 };
                            if r == home {
                                let t2 = at(f, r + 2 * sign).unwrap();
                                if self.sq[t2] == 0 {
                                    add(s, t2, &mut out);
                                }
                            }
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(t) = at(f + df, r + sign) {
                            if enemy(t) || Some(t) == self.ep {
                                add(s, t, &mut out);
                            }
                        }
                    }
                }
                K => {
                    for (df, dr) in ADJ {
                        if let Some(t) = at(f + df, r + dr) {
                            if self.sq[t] == 0 || enemy(t) {
                                targets.push(t);
                            }
                        }
                    }
                    self.castlings(s, &mut targets);
                }
                kind => {
                    if kind == N {
                        for (df, dr) in KNIGHT {
                            if let Some(t) = at(f + df, r + dr) {
                                if self.sq[t] == 0 || enemy(t) {
                                    targets.push(t);
                                }
                            }
                        }
                    }
                    let mut dirs: Vec<(i8, i8)> = Vec::new();
                    if kind == R || kind == Q {
                        dirs.extend(ORTHO);
                    }
                    if kind == B || kind == Q {
                        dirs.extend(DIAG);
                    }
                    for (df, dr) in dirs {
                        let mut dist = 1;
                        while let Some(t) = at(f + df * dist, r + dr * dist) {
                            if self.sq[t] == 0 {
                                targets.push(t);
                            } else {
                                if enemy(t) && !(self.jadoube && dist == 1) {
                                    targets.push(t);
                                }
                                break;
                            }
                            dist += 1;
                        }
                    }
                    if self.jadoube {
                        // the extra non-capturing step to any empty adjacent square
                        for (df, dr) in ADJ {
                            if let Some(t) = at(f + df, r + dr) {
                                if self.sq[t] == 0 && !targets.contains(&t) {
                                    targets.push(t);
                                }
                            }
                        }
                    }
                }
            }
            for t in targets {
                add(s, t, &mut out);
            }
        }
        out.retain(|&(from, to, promo)| {
            let b = self.play(from, to, promo);
            !b.attacked(b.king(self.white), !self.white)
        });
        out
    }

    /// Castling destinations of the king on `k`: FIDE conditions (rook on its corner with the
    /// right, squares between empty, king not in check and not crossing an attacked square; the
    /// destination is tested with the other moves).
    fn castlings(&self, k: usize, targets: &mut Vec<usize>) {
        let (home, rights) = if self.white {
            (4, self.castle & 3)
        } else {
            (60, self.castle >> 2 & 3)
        };
        if k != home || rights == 0 || self.attacked(k, !self.white) {
            return;
        }
        let rook = if self.white { R } else { -R };
        if rights & 1 != 0
            && self.sq[k + 3] == rook
            && self.sq[k + 1] == 0
            && self.sq[k + 2] == 0
            && !self.attacked(k + 1, !self.white)
        {
            targets.push(k + 2);
        }
        if rights & 2 != 0
            && self.sq[k - 4] == rook
            && self.sq[k - 1] == 0
            && self.sq[k - 2] == 0
            && self.sq[k - 3] == 0
            && !self.attacked(k - 1, !self.white)
        {
            targets.push(k - 2);
        }
    }
}

fn perft(b: &Board, depth: u32) -> u64 {
    let moves = b.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&(f, t, p)| perft(&b.play(f, t, p), depth - 1))
        .sum()
}

/// One position line of a suite file: line number, FEN, (depth, count) pairs.
type SuiteLine = (usize, String, Vec<(u32, u64)>);

/// The position lines of a suite file, comments skipped.
fn suite(name: &str) -> Vec<SuiteLine> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/perft")
        .join(name);
    let text = std::fs::read_to_string(path).expect("suite file");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').unwrap();
                    (d[1..].parse().unwrap(), n.trim().parse().unwrap())
                })
                .collect();
            (i + 1, fen, counts)
        })
        .collect()
}

/// Counts the model checks in `cargo test` (the model is slow next to chimera).
const MODEL_BUDGET: u64 = 1_000_000;

fn check_suite(name: &str, jadoube: bool) {
    let mut checked = 0;
    for (line, fen, counts) in suite(name) {
        let b = parse(&fen, jadoube);
        for (d, expected) in counts {
            if expected <= MODEL_BUDGET {
                assert_eq!(perft(&b, d), expected, "{name}:{line} depth {d}: {fen}");
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "{name}: nothing checked");
}

#[test]
fn model_plays_orthodox_chess() {
    check_suite("chess.epd", false);
}

#[test]
fn model_agrees_with_the_jadoube_suite() {
    check_suite("jadoube.epd", true);
}

#[test]
fn model_follows_the_rules_file_examples() {
    // JA-1 .. JA-3 of modest-proposals-2.md, counts only (the exact sets are in seed_examples.rs)
    for (fen, n) in [
        ("4k3/8/8/8/8/8/3p4/3RK3 w - - 0 1", 4),
        ("8/8/8/3q4/4K3/8/8/7k w - - 0 1", 5),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 16),
    ] {
        assert_eq!(parse(fen, true).moves().len(), n, "{fen}");
    }
}

/// Prints the model's counts for every position of jadoube.epd, up to 4 million leaves.
#[test]
#[ignore]
fn print_model_counts() {
    for (line, fen, _) in suite("jadoube.epd") {
        let b = parse(&fen, true);
        let mut s = String::new();
        for d in 1..=8 {
            let n = perft(&b, d);
            s += &format!(" ;D{d} {n}");
            if n > 4_000_000 {
                break;
            }
        }
        println!("{line}: {fen}{s}");
    }
}
