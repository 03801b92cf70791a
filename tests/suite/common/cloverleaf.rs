//! The model's Cloverleaf and Rotary rules, read literally from shared/rules/
//! modest-proposals-1.md §8 (CL-1..CL-7): paths walked square by square with the link table and
//! the centre ring. No engine code.

use super::{add, on, Reloc, Sq, KING, M};

/// CL-2's table: moving `dir` past `edge` re-enters at `entry`, then moving `then`.
const LINKS: [(Sq, Sq, Sq, Sq); 8] = [
    ((0, 2), (-1, 0), (2, 0), (0, 1)),  // west past a3: c1, north
    ((2, 0), (0, -1), (0, 2), (1, 0)),  // south past c1: a3, east
    ((7, 2), (1, 0), (5, 0), (0, 1)),   // east past h3: f1, north
    ((5, 0), (0, -1), (7, 2), (-1, 0)), // south past f1: h3, west
    ((0, 5), (-1, 0), (2, 7), (0, -1)), // west past a6: c8, south
    ((2, 7), (0, 1), (0, 5), (1, 0)),   // north past c8: a6, east
    ((7, 5), (1, 0), (5, 7), (0, -1)),  // east past h6: f8, south
    ((5, 7), (0, 1), (7, 5), (-1, 0)),  // north past f8: h6, west
];

/// CL-3: the centre counter-clockwise, d4 e4 e5 d5, with each square's exit direction.
const CENTRE: [(Sq, Sq); 4] = [
    ((3, 3), (-1, -1)), // d4 toward a1
    ((4, 3), (1, -1)),  // e4 toward h1
    ((4, 4), (1, 1)),   // e5 toward h8
    ((3, 4), (-1, 1)),  // d5 toward a8
];

fn centre_index(s: Sq) -> Option<usize> {
    CENTRE.iter().position(|c| c.0 == s)
}

impl M {
    /// Whether `t` counts as empty for the man moving from `origin` (CL-2: its origin does).
    fn clear_for(&self, t: Sq, origin: Sq) -> bool {
        t == origin || self.at(t) == '.'
    }

    /// The squares a man of kind `k` on `s` reaches (its path squares and the first occupied
    /// square of each path), for B, R, Q, K; `None` for pawns and Knights (orthodox).
    pub(super) fn cloverleaf_reach(&self, k: char, s: Sq, clockwise: bool) -> Option<Vec<Sq>> {
        let mut out = Vec::new();
        match k {
            'K' => {
                out.extend(KING.iter().map(|&d| add(s, d)).filter(|&t| on(t)));
                // a linked pair is adjacent
                for l in LINKS {
                    if l.0 == s {
                        out.push(l.2);
                    }
                }
            }
            'R' => self.orthogonal(s, &mut out),
            'B' => self.diagonal(s, clockwise, &mut out),
            'Q' => {
                self.orthogonal(s, &mut out);
                self.diagonal(s, clockwise, &mut out);
            }
            _ => return None,
        }
        out.retain(|&t| t != s);
        Some(out)
    }

    /// CL-2: slides along ranks and files, through at most one link.
    fn orthogonal(&self, s: Sq, out: &mut Vec<Sq>) {
        for d in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (mut cur, mut dir, mut linked) = (s, d, false);
            loop {
                let mut next = add(cur, dir);
                if !on(next) {
                    let link = LINKS.iter().find(|l| l.0 == cur && l.1 == dir);
                    match link {
                        Some(l) if !linked => {
                            next = l.2;
                            dir = l.3;
                            linked = true;
                        }
                        _ => break,
                    }
                }
                out.push(next);
                if !self.clear_for(next, s) {
                    break;
                }
                cur = next;
            }
        }
    }

    /// CL-3: diagonal slides that stop at the first centre square, rotate and exit.
    fn diagonal(&self, s: Sq, clockwise: bool, out: &mut Vec<Sq>) {
        for d in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
            let mut cur = s;
            loop {
                let next = add(cur, d);
                if !on(next) {
                    break;
                }
                out.push(next);
                if !self.clear_for(next, s) {
                    break; // the first man met: captured if an enemy (a centre one too)
                }
                if let Some(i) = centre_index(next) {
                    // an empty centre square: the entry square
                    self.exit(s, i, out);
                    let mut at = i;
                    for _ in 0..3 {
                        at = if clockwise {
                            (at + 3) % 4
                        } else {
                            (at + 1) % 4
                        };
                        let r = CENTRE[at].0;
                        if !self.clear_for(r, s) {
                            break; // never captured on
                        }
                        out.push(r);
                        self.exit(s, at, out);
                    }
                    break; // never past a centre square
                }
                cur = next;
            }
        }
    }

    /// The exit from centre square `i` toward its corner: an ordinary slide.
    fn exit(&self, origin: Sq, i: usize, out: &mut Vec<Sq>) {
        let (c, d) = CENTRE[i];
        let mut t = add(c, d);
        while on(t) {
            out.push(t);
            if !self.clear_for(t, origin) {
                break;
            }
            t = add(t, d);
        }
    }

    /// CL-7: Black's castlings with the King on d8 (White's e1 castlings are the orthodox
    /// ones): the King moves two squares toward the Rook, the Rook to the square it crossed;
    /// squares between them empty; not out of, through or into attack.
    pub(super) fn cloverleaf_castling(&self, out: &mut Vec<M>) {
        if self.white || self.at((3, 7)) != 'k' {
            return;
        }
        // (right, rook file, king to, rook to, squares to be empty)
        let sides: [(usize, i8, i8, i8, &[i8]); 2] =
            [(2, 7, 5, 4, &[4, 5, 6]), (3, 0, 1, 2, &[1, 2])];
        for (right, rook, king_to, rook_to, empty) in sides {
            if !self.rights[right] || self.at((rook, 7)) != 'r' {
                continue;
            }
            if empty.iter().any(|&f| self.at((f, 7)) != '.') {
                continue;
            }
            let crossed = (3 + king_to) / 2;
            if [3, crossed].iter().any(|&f| self.attacked((f, 7), true)) {
                continue;
            }
            out.extend(self.play(
                &[
                    Reloc {
                        from: (3, 7),
                        to: (king_to, 7),
                        promo: None,
                    },
                    Reloc {
                        from: (rook, 7),
                        to: (rook_to, 7),
                        promo: None,
                    },
                ],
                &[],
            ));
        }
    }
}
