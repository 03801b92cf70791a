//! Betza notation: a piece's movement as a list of atoms.
//!
//! Supported: leapers W F D N A H C Z G and the compounds K (WF), R (WW), B (FF), Q (WWFF);
//! a doubled leaper letter is a rider (NN); a number after an atom limits a rider's range
//! (R4; on a leaper letter it makes it a rider of that range, W4 = R4); modifiers
//! `m` (move only), `c` (capture only), `p` (hop over exactly one man, the xiangqi-cannon way)
//! and the direction modifiers `f b l r v s` (with pairs such as `fl`, `ff`, `fs` for
//! diagonal and oblique atoms). Directions are given for White; Black's are mirrored in rank.

use std::fmt;

/// How far an atom reaches along each of its directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// One jump, blocking impossible.
    Leap,
    /// Repeated steps until blocked; `max` steps at most (0 = unlimited).
    Ride {
        /// Range limit, 0 for none.
        max: u8,
    },
    /// Slides to, then over, exactly one man (the screen); `max` total steps (0 = unlimited).
    Hop {
        /// Range limit counted from the origin, 0 for none.
        max: u8,
    },
}

/// One movement component: a set of directions, a reach, and whether it moves and/or captures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    /// Step vectors `(files, ranks)` for White.
    pub dirs: Vec<(i8, i8)>,
    /// Leap, ride or hop.
    pub reach: Reach,
    /// May go to an empty square.
    pub moves: bool,
    /// May capture an enemy man.
    pub captures: bool,
}

/// Why a Betza string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// The string.
    pub input: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad Betza notation '{}': {}", self.input, self.reason)
    }
}

impl std::error::Error for BetzaError {}

fn base_vector(letter: char) -> Option<(i8, i8)> {
    Some(match letter {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// All 4 or 8 symmetric images of a step `(a, b)`.
fn all_directions(a: i8, b: i8) -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for &(x, y) in &[(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let d = (x * sx, y * sy);
                if !out.contains(&d) {
                    out.push(d);
                }
            }
        }
    }
    out
}

/// Whether direction `d` of an atom with base `(a, b)` matches one direction token.
fn matches(token: &str, d: (i8, i8), a: i8, b: i8) -> bool {
    let (dx, dy) = d;
    let oblique = a != b && a != 0 && b != 0;
    let narrow = dy.abs() > dx.abs();
    let wide = dx.abs() > dy.abs();
    match token {
        "f" => dy > 0,
        "b" => dy < 0,
        "l" => dx < 0,
        "r" => dx > 0,
        "v" => {
            if oblique {
                narrow
            } else {
                dx == 0
            }
        }
        "s" => {
            if oblique {
                wide
            } else {
                dy == 0
            }
        }
        "fl" | "lf" => dy > 0 && dx < 0,
        "fr" | "rf" => dy > 0 && dx > 0,
        "bl" | "lb" => dy < 0 && dx < 0,
        "br" | "rb" => dy < 0 && dx > 0,
        "ff" => dy > 0 && narrow,
        "bb" => dy < 0 && narrow,
        "fs" => dy > 0 && wide,
        "bs" => dy < 0 && wide,
        "ll" => dx < 0 && wide,
        "rr" => dx > 0 && wide,
        "fh" => dy > 0 && narrow,
        _ => false,
    }
}

/// Splits direction modifiers into tokens: a pair where the atom needs one, else single letters.
fn direction_tokens(mods: &str, a: i8, b: i8) -> Vec<String> {
    let diagonal = a == b;
    let oblique = a != b && a != 0 && b != 0;
    let chars: Vec<char> = mods.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if i + 1 < chars.len() {
            let pair: String = [c, chars[i + 1]].iter().collect();
            let pair_ok = (diagonal
                && matches!(
                    pair.as_str(),
                    "fl" | "fr" | "bl" | "br" | "lf" | "rf" | "lb" | "rb"
                ))
                || (oblique
                    && matches!(
                        pair.as_str(),
                        "fl" | "fr"
                            | "bl"
                            | "br"
                            | "lf"
                            | "rf"
                            | "lb"
                            | "rb"
                            | "ff"
                            | "bb"
                            | "fs"
                            | "bs"
                            | "ll"
                            | "rr"
                    ));
            if pair_ok {
                out.push(pair);
                i += 2;
                continue;
            }
        }
        out.push(c.to_string());
        i += 1;
    }
    out
}

/// Parses a Betza string into atoms.
pub fn parse_betza(input: &str) -> Result<Vec<Atom>, BetzaError> {
    let err = |reason: String| BetzaError {
        input: input.to_string(),
        reason,
    };
    let chars: Vec<char> = input.trim().chars().collect();
    if chars.is_empty() {
        return Err(err("empty".into()));
    }
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        // modifiers
        let mut mode_m = false;
        let mut mode_c = false;
        let mut hop = false;
        let mut dirs = String::new();
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'm' => mode_m = true,
                'c' => mode_c = true,
                'p' => hop = true,
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => dirs.push(chars[i]),
                other => return Err(err(format!("unsupported modifier '{other}'"))),
            }
            i += 1;
        }
        if i >= chars.len() {
            return Err(err("modifiers without a piece letter at the end".into()));
        }
        let letter = chars[i];
        i += 1;
        // expand compounds into (base vector, rider?) parts
        let mut parts: Vec<((i8, i8), bool)> = match letter {
            'K' => vec![((1, 0), false), ((1, 1), false)],
            'R' => vec![((1, 0), true)],
            'B' => vec![((1, 1), true)],
            'Q' => vec![((1, 0), true), ((1, 1), true)],
            l => match base_vector(l) {
                Some(v) => vec![(v, false)],
                None => return Err(err(format!("unknown piece letter '{l}'"))),
            },
        };
        if i < chars.len() && chars[i] == letter && base_vector(letter).is_some() {
            // doubled leaper letter: a rider
            i += 1;
            for p in &mut parts {
                p.1 = true;
            }
        }
        let mut range: u8 = 0;
        let mut has_range = false;
        while i < chars.len() && chars[i].is_ascii_digit() {
            has_range = true;
            range = range
                .checked_mul(10)
                .and_then(|r| r.checked_add(chars[i] as u8 - b'0'))
                .ok_or_else(|| err("range too large".into()))?;
            i += 1;
        }
        if has_range && range == 0 {
            // explicit 0 means unlimited, as in XBoard's Betza
            for p in &mut parts {
                p.1 = true;
            }
        }
        if has_range && range == 1 {
            for p in &mut parts {
                p.1 = false;
            }
        } else if has_range && range > 1 {
            for p in &mut parts {
                p.1 = true;
            }
        }
        for ((a, b), rider) in parts {
            let mut d = all_directions(a, b);
            if !dirs.is_empty() {
                let tokens = direction_tokens(&dirs, a, b);
                d.retain(|&v| tokens.iter().any(|t| matches(t, v, a, b)));
            }
            if d.is_empty() {
                continue;
            }
            let max = if has_range && range > 1 { range } else { 0 };
            let reach = if hop {
                Reach::Hop { max }
            } else if rider {
                Reach::Ride { max }
            } else {
                Reach::Leap
            };
            let (moves, captures) = match (mode_m, mode_c) {
                (false, false) | (true, true) => (true, true),
                (true, false) => (true, false),
                (false, true) => (false, true),
            };
            atoms.push(Atom {
                dirs: d,
                reach,
                moves,
                captures,
            });
        }
    }
    if atoms.is_empty() {
        return Err(err("no direction remains after the modifiers".into()));
    }
    Ok(atoms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs_of(s: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = parse_betza(s)
            .unwrap()
            .into_iter()
            .flat_map(|a| a.dirs)
            .collect();
        v.sort();
        v
    }

    #[test]
    fn knight_has_eight_leaps() {
        let a = parse_betza("N").unwrap();
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].dirs.len(), 8);
        assert_eq!(a[0].reach, Reach::Leap);
    }

    #[test]
    fn pawn_directions() {
        assert_eq!(dirs_of("fmW"), vec![(0, 1)]);
        assert_eq!(dirs_of("fcF"), vec![(-1, 1), (1, 1)]);
        let a = parse_betza("fmWfcF").unwrap();
        assert!(a[0].moves && !a[0].captures);
        assert!(!a[1].moves && a[1].captures);
    }

    #[test]
    fn cannon_range_four() {
        let a = parse_betza("mR4cpR4").unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].reach, Reach::Ride { max: 4 });
        assert!(a[0].moves && !a[0].captures);
        assert_eq!(a[1].reach, Reach::Hop { max: 4 });
        assert!(!a[1].moves && a[1].captures);
    }

    #[test]
    fn queen_and_compounds() {
        assert_eq!(parse_betza("Q").unwrap().len(), 2);
        assert_eq!(dirs_of("BN").len(), 12);
        assert_eq!(parse_betza("NN").unwrap()[0].reach, Reach::Ride { max: 0 });
        assert_eq!(parse_betza("R2").unwrap()[0].reach, Reach::Ride { max: 2 });
    }

    #[test]
    fn oblique_direction_pairs() {
        assert_eq!(dirs_of("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(dirs_of("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(dirs_of("flF"), vec![(-1, 1)]);
    }

    #[test]
    fn rejects_garbage() {
        assert!(parse_betza("").is_err());
        assert!(parse_betza("X").is_err());
        assert!(parse_betza("fm").is_err());
        assert!(parse_betza("qN").is_err());
    }
}
