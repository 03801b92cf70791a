//! An independent brute-force model of Espionage Chess (shared/rules/007-espionage-foreignpolicy.md
//! B.1-B.3) for cross-checking the engine where Fairy-Stockfish cannot (it has no immune spy).
//! It shares no code with the engine: a 7x7 array of characters, each rule applied literally,
//! legality by "is my king attacked after the move", the capturable spies as a list of squares.
//!
//! Checked: every count of `tests/perft/espionage.epd` within a budget, the sets of resulting
//! positions at depth 1 for positions of random games, the option `untilQuietMove`, and the
//! same variant with an always-capturable spy against the Fairy-Stockfish counts kept below.

use chimera::movegen::{legal_moves, move_to_string};
use chimera::moves::MoveList;
use chimera::perft::perft;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use std::collections::BTreeSet;

/// How long a spy that captured stays capturable in the model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Exposure {
    /// R-ESP-1 (a): the next ply only.
    NextPly,
    /// Option (b): until it moves without capturing.
    UntilQuiet,
    /// No immunity at all (the spy is a plain queen-mover): what Fairy-Stockfish can express.
    Never,
}

/// `board[rank][file]`, '.' empty, upper case White.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Model {
    board: [[char; 7]; 7],
    white: bool,
    /// Capturable spies, as (file, rank).
    exposed: Vec<(i32, i32)>,
    rule: Exposure,
}

const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

fn on(f: i32, r: i32) -> bool {
    (0..7).contains(&f) && (0..7).contains(&r)
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// A model move: from, to, promotion letter (lower case).
type Mv = ((i32, i32), (i32, i32), Option<char>);

impl Model {
    fn from_fen(fen: &str, rule: Exposure) -> Model {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let mut board = [['.'; 7]; 7];
        for (i, row) in f[0].split('/').enumerate() {
            let r = 6 - i;
            let mut file = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else {
                    board[r][file] = c;
                    file += 1;
                }
            }
        }
        let mut exposed = Vec::new();
        if let Some(w) = f.get(6).filter(|w| **w != "-") {
            for s in w.split(',') {
                let b = s.as_bytes();
                exposed.push(((b[0] - b'a') as i32, (b[1] - b'1') as i32));
            }
        }
        Model {
            board,
            white: f[1] == "w",
            exposed,
            rule,
        }
    }

    /// Placement, side and capturable spies: what identifies a position here.
    fn id(&self) -> String {
        let mut s = String::new();
        for r in (0..7).rev() {
            s.extend(self.board[r].iter());
            s.push('/');
        }
        s.push(if self.white { 'w' } else { 'b' });
        let mut ex: Vec<String> = self.exposed.iter().map(|&(f, r)| name(f, r)).collect();
        ex.sort();
        s.push(' ');
        s.push_str(&ex.join(","));
        s
    }

    fn at(&self, f: i32, r: i32) -> char {
        self.board[r as usize][f as usize]
    }

    fn is_white(c: char) -> bool {
        c.is_ascii_uppercase()
    }

    /// Whether the man on (f, r) may be captured by the side to move: ESP-4.
    fn capturable(&self, f: i32, r: i32) -> bool {
        let c = self.at(f, r);
        if c == '.' || Model::is_white(c) == self.white {
            return false;
        }
        !c.eq_ignore_ascii_case(&'s')
            || self.rule == Exposure::Never
            || self.exposed.contains(&(f, r))
    }

    /// Whether the man on `from` (of the colour its letter says) attacks (f, r): it could
    /// capture a man there, immunity aside (ESP-5, ESP-8).
    fn man_attacks(&self, from: (i32, i32), to: (i32, i32)) -> bool {
        let c = self.at(from.0, from.1);
        let white = Model::is_white(c);
        let (df, dr) = (to.0 - from.0, to.1 - from.1);
        let ride = |dirs: &[(i32, i32)]| {
            dirs.iter().any(|&(sf, sr)| {
                let (mut f, mut r) = (from.0 + sf, from.1 + sr);
                while on(f, r) {
                    if (f, r) == to {
                        return true;
                    }
                    if self.at(f, r) != '.' {
                        return false;
                    }
                    f += sf;
                    r += sr;
                }
                false
            })
        };
        match c.to_ascii_lowercase() {
            'k' => df.abs() <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0),
            'n' => KNIGHT.contains(&(df, dr)),
            'p' => dr == if white { 1 } else { -1 } && df.abs() == 1,
            'r' => ride(&ORTH),
            'b' => ride(&DIAG),
            'q' | 's' => ride(&ORTH) || ride(&DIAG),
            'c' => ORTH.iter().any(|&(sf, sr)| {
                let mut screens = 0;
                for step in 1..=4 {
                    let (f, r) = (from.0 + sf * step, from.1 + sr * step);
                    if !on(f, r) {
                        return false;
                    }
                    if (f, r) == to {
                        return screens == 1;
                    }
                    if self.at(f, r) != '.' {
                        screens += 1;
                    }
                }
                false
            }),
            other => panic!("model: unknown man '{other}'"),
        }
    }

    fn attacked(&self, sq: (i32, i32), by_white: bool) -> bool {
        (0..7).any(|r| {
            (0..7).any(|f| {
                let c = self.at(f, r);
                c != '.' && Model::is_white(c) == by_white && self.man_attacks((f, r), sq)
            })
        })
    }

    fn pseudo(&self) -> Vec<Mv> {
        let mut out = Vec::new();
        for r in 0..7 {
            for f in 0..7 {
                let c = self.at(f, r);
                if c == '.' || Model::is_white(c) != self.white {
                    continue;
                }
                let from = (f, r);
                let to_sq = |t: (i32, i32), out: &mut Vec<Mv>| {
                    if self.at(t.0, t.1) == '.' || self.capturable(t.0, t.1) {
                        out.push((from, t, None));
                    }
                };
                let ride = |dirs: &[(i32, i32)], out: &mut Vec<Mv>| {
                    for &(sf, sr) in dirs {
                        let (mut x, mut y) = (f + sf, r + sr);
                        while on(x, y) {
                            if self.at(x, y) == '.' {
                                out.push((from, (x, y), None));
                            } else {
                                if self.capturable(x, y) {
                                    out.push((from, (x, y), None));
                                }
                                break;
                            }
                            x += sf;
                            y += sr;
                        }
                    }
                };
                match c.to_ascii_lowercase() {
                    'k' => {
                        for (sf, sr) in ORTH.iter().chain(DIAG.iter()) {
                            if on(f + sf, r + sr) {
                                to_sq((f + sf, r + sr), &mut out);
                            }
                        }
                    }
                    'n' => {
                        for (sf, sr) in KNIGHT {
                            if on(f + sf, r + sr) {
                                to_sq((f + sf, r + sr), &mut out);
                            }
                        }
                    }
                    'r' => ride(&ORTH, &mut out),
                    'b' => ride(&DIAG, &mut out),
                    'q' | 's' => {
                        ride(&ORTH, &mut out);
                        ride(&DIAG, &mut out);
                    }
                    'c' => {
                        // ESP-6: quiet moves 1-4 squares over empty squares; ESP-7: the first man
                        // beyond exactly one screen, within 4 squares
                        for (sf, sr) in ORTH {
                            let mut screen = false;
                            for step in 1..=4 {
                                let (x, y) = (f + sf * step, r + sr * step);
                                if !on(x, y) {
                                    break;
                                }
                                let occupied = self.at(x, y) != '.';
                                if !screen {
                                    if occupied {
                                        screen = true;
                                    } else {
                                        out.push((from, (x, y), None));
                                    }
                                } else if occupied {
                                    if self.capturable(x, y) {
                                        out.push((from, (x, y), None));
                                    }
                                    break;
                                }
                            }
                        }
                    }
                    'p' => {
                        let up = if self.white { 1 } else { -1 };
                        let add = |t: (i32, i32), out: &mut Vec<Mv>| {
                            // ESP-2: promotion on arrival at rank 6 (White) / rank 2 (Black)
                            let promotes = if self.white { t.1 >= 5 } else { t.1 <= 1 };
                            if promotes {
                                for p in ['q', 'r', 'b', 'n', 'c', 's'] {
                                    out.push((from, t, Some(p)));
                                }
                            } else {
                                out.push((from, t, None));
                            }
                        };
                        if on(f, r + up) && self.at(f, r + up) == '.' {
                            add((f, r + up), &mut out);
                        }
                        for sf in [-1, 1] {
                            if on(f + sf, r + up) && self.capturable(f + sf, r + up) {
                                add((f + sf, r + up), &mut out);
                            }
                        }
                    }
                    other => panic!("model: unknown man '{other}'"),
                }
            }
        }
        out
    }

    fn play(&self, m: Mv) -> Model {
        let ((ff, fr), (tf, tr), promo) = m;
        let mut n = self.clone();
        let man = self.at(ff, fr);
        let captured = self.at(tf, tr) != '.';
        n.board[fr as usize][ff as usize] = '.';
        n.board[tr as usize][tf as usize] = match promo {
            Some(p) if self.white => p.to_ascii_uppercase(),
            Some(p) => p,
            None => man,
        };
        n.white = !self.white;
        let spy_capture = man.eq_ignore_ascii_case(&'s') && captured;
        n.exposed = match self.rule {
            Exposure::Never => Vec::new(),
            Exposure::NextPly => Vec::new(),
            // the spies still standing where they were exposed, less the one that moved
            Exposure::UntilQuiet => self
                .exposed
                .iter()
                .copied()
                .filter(|&s| s != (ff, fr) && s != (tf, tr))
                .collect(),
        };
        if spy_capture && self.rule != Exposure::Never {
            n.exposed.push((tf, tr));
        }
        n
    }

    fn king(&self, white: bool) -> (i32, i32) {
        let k = if white { 'K' } else { 'k' };
        for r in 0..7 {
            for f in 0..7 {
                if self.at(f, r) == k {
                    return (f, r);
                }
            }
        }
        panic!("model: no king")
    }

    fn legal(&self) -> Vec<(Mv, Model)> {
        self.pseudo()
            .into_iter()
            .map(|m| (m, self.play(m)))
            .filter(|(_, n)| !n.attacked(n.king(self.white), !self.white))
            .collect()
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|(_, n)| n.perft(depth - 1)).sum()
    }
}

fn move_name(m: Mv) -> String {
    let ((ff, fr), (tf, tr), p) = m;
    let mut s = name(ff, fr) + &name(tf, tr);
    if let Some(p) = p {
        s.push(p);
    }
    s
}

/// The engine's position in the model's terms.
fn as_model(pos: &Position, rule: Exposure) -> Model {
    Model::from_fen(&pos.fen(), rule)
}

fn suite() -> Vec<(String, Vec<(u32, u64)>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/espionage.epd");
    let text = std::fs::read_to_string(path).expect("tests/perft/espionage.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().expect("fen").trim().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').expect("Dn count");
                    (d[1..].parse().expect("depth"), n.parse().expect("count"))
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

/// Largest count the model recomputes (`CHIMERA_MODEL_BUDGET` raises it).
fn model_budget() -> u64 {
    std::env::var("CHIMERA_MODEL_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300_000)
}

#[test]
fn the_model_agrees_with_every_suite_count_within_budget() {
    let mut checked = 0;
    let budget = model_budget();
    for (fen, counts) in suite() {
        let model = Model::from_fen(&fen, Exposure::NextPly);
        for (depth, expected) in counts {
            if expected > budget {
                continue;
            }
            assert_eq!(model.perft(depth), expected, "{fen} depth {depth}");
            checked += 1;
        }
    }
    eprintln!("the model recomputed {checked} suite counts (budget {budget} leaves)");
    assert!(checked >= 20, "only {checked} counts checked");
}

/// Plays random games in the engine and compares, at each position, the set of positions one
/// ply later (engine moves played, then read back through the FEN) with the model's.
fn compare_random_games(variant: &str, rule: Exposure, games: usize) -> usize {
    let rules = builtin_variants().get(variant).expect("variant");
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut compared = 0;
    for _ in 0..games {
        let mut pos = Position::startpos(rules);
        for _ in 0..120 {
            let mut list = MoveList::new();
            legal_moves(&mut pos, &mut list);
            let model = as_model(&pos, rule);
            let model_next: BTreeSet<(String, String)> = model
                .legal()
                .into_iter()
                .map(|(m, n)| (move_name(m), n.id()))
                .collect();
            let mut engine_next = BTreeSet::new();
            for &m in list.iter() {
                let text = move_to_string(&pos, m).to_string();
                pos.make(m);
                engine_next.insert((text, as_model(&pos, rule).id()));
                pos.unmake();
            }
            assert_eq!(engine_next, model_next, "moves of {}", pos.fen());
            compared += 1;
            if list.is_empty() {
                break;
            }
            // favour captures, so that spies capture and windows open
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let captures: Vec<_> = list
                .iter()
                .copied()
                .filter(|&m| pos.piece_at(m.to()).is_some())
                .collect();
            let pool: Vec<_> = if !captures.is_empty() && seed.is_multiple_of(3) {
                captures
            } else {
                list.iter().copied().collect()
            };
            pos.make(pool[(seed >> 8) as usize % pool.len()]);
        }
    }
    compared
}

#[test]
fn engine_and_model_agree_along_random_games() {
    chimera::geometry::attacks::init();
    assert!(compare_random_games("espionage", Exposure::NextPly, 30) > 1000);
}

#[test]
fn option_until_quiet_move_agrees_with_the_model() {
    chimera::geometry::attacks::init();
    let mut set = builtin_variants();
    set.load_str("t.ini", "[espb:espionage]\nspyExposure = untilQuietMove\n")
        .expect("loads");
    let rules = set.get("espb").expect("espb");
    for fen in [
        "1k1cbc1/rnsqbnr/1pppppp/7/PPPPPP1/RNBQSNR/1CBC1K1 w - - 0 1 -",
        "1k1cb2/rn1qb1r/1p1pppp/N1p1nQ1/sPPPBS1/R1B2N1/1C1CK1R b - - 0 7 f3",
        "3r3/6k/2s4/3S3/7/K6/7 b - - 2 2 c5,d4",
    ] {
        let mut pos = Position::from_fen(rules, fen).expect("fen");
        let model = Model::from_fen(fen, Exposure::UntilQuiet);
        for depth in 1..=3 {
            assert_eq!(
                perft(&mut pos, depth),
                model.perft(depth),
                "{fen} depth {depth}"
            );
        }
    }
}

/// Fairy-Stockfish's counts for the same variant with the spy a plain queen-mover (`s:Q`,
/// always capturable): section [espqueen] of tests/fairy-stockfish/variants.ini, FS built from
/// source (banner "Fairy-Stockfish 211126"), `go perft N` on the six-field FEN.
const FAIRY_STOCKFISH_ESPQUEEN: &[(&str, &[u64])] = &[
    (
        "1k1cbc1/rnsqbnr/1pppppp/7/PPPPPP1/RNBQSNR/1CBC1K1 w - - 0 1",
        &[21, 447, 10473, 245403, 6227293],
    ),
    (
        "3r2k/7/7/3S3/7/7/K6 b - - 0 1",
        &[3, 55, 572, 10693, 117370, 2216620, 25012327],
    ),
    (
        "3r3/6k/7/3S3/7/K6/7 b - - 2 2",
        &[12, 294, 3132, 65086, 730177, 14817246],
    ),
    (
        "3r2k/7/3p3/n2CPP1/7/3P3/K2n3 w - - 0 1",
        &[11, 191, 2437, 42453, 599704, 10579147],
    ),
    (
        "6k/7/7/r6/p6/P5K/Cs1n3 w - - 0 1",
        &[6, 178, 984, 30274, 223230, 6987768, 61374131],
    ),
    (
        "6k/7/7/s6/7/P5K/CN3r1 w - - 0 1",
        &[7, 190, 1595, 42180, 429155, 11550812],
    ),
    (
        "6k/7/7/3c3/3P3/R6/3K3 w - - 0 1",
        &[5, 61, 875, 10439, 165771, 1978294, 32431933],
    ),
    (
        "6k/7/7/7/7/1s5/K6 w - - 0 1",
        &[1, 3, 24, 144, 845, 4899, 32703, 208014, 1348813],
    ),
    (
        "3k3/1n5/2P4/7/7/7/3K3 w - - 0 1",
        &[17, 82, 1113, 8147, 109644, 866635, 11837416],
    ),
    (
        "1k1c2c/rn1qbbr/1pp1pp1/2p1s2/PPPPP1R/R1BQ1N1/1CBCSK1 w - - 0 6",
        &[24, 954, 21955, 861697, 20921069],
    ),
    (
        "1k1cb2/rn1qb1r/1p1pppp/N1p1nQ1/sPPPBS1/R1B2N1/1C1CK1R b - - 0 7",
        &[37, 1569, 55797, 2309642, 83478154],
    ),
    (
        "n1k2cc/2sbbnr/PR2ppp/3P3/P1pP1PR/2B1SN1/C1BC2K w - - 0 15",
        &[45, 1366, 59680, 1828888, 77819980],
    ),
    (
        "kcsnb1c/r2qb1r/n1pp1pp/pP2P1N/PC2BP1/R1r2SR/1C2QK1 w - - 6 14",
        &[39, 1339, 54148, 1883646, 78351256],
    ),
    (
        "1k1c1br/3q1b1/r2Cppp/N1p3s/PP1cP2/2B2KR/RCB2S1 w - - 0 16",
        &[28, 1202, 32338, 1340502, 37913744],
    ),
];

#[test]
fn always_capturable_spy_agrees_with_fairy_stockfish_and_the_model() {
    chimera::geometry::attacks::init();
    let mut set = builtin_variants();
    set.load_str(
        "t.ini",
        "[espqueen:espionage]\nspyPieceTypes = -\n\
         startFen = 1k1cbc1/rnsqbnr/1pppppp/7/PPPPPP1/RNBQSNR/1CBC1K1 w - - 0 1\n",
    )
    .expect("loads");
    let rules = set.get("espqueen").expect("espqueen");
    let mut checked = 0;
    for (fen, counts) in FAIRY_STOCKFISH_ESPQUEEN {
        let mut pos = Position::from_fen(rules, fen).expect("fen");
        let model = Model::from_fen(fen, Exposure::Never);
        for (i, &expected) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            if expected > 3_000_000 {
                continue;
            }
            assert_eq!(perft(&mut pos, depth), expected, "{fen} depth {depth}");
            if expected <= 300_000 {
                assert_eq!(model.perft(depth), expected, "model: {fen} depth {depth}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} counts checked");
}
