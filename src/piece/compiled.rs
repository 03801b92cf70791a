//! A piece type's movement compiled into tables for move generation and attack tests.

use super::{Atom, Reach};
use crate::geometry::attacks::{bishop_attacks, rook_attacks, TABLES};
use crate::geometry::{Bitboard, Color, Square};

/// A slide along all four orthogonal or all four diagonal lines, done with magic lookups.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineSlide {
    /// Range limit; 0 = unlimited.
    pub max: u8,
}

impl LineSlide {
    /// The part of a slide's unlimited attacks `att` from `from` within its range.
    #[inline(always)]
    pub fn reach(self, att: Bitboard, from: Square) -> Bitboard {
        limit(att, from, self.max)
    }
}

/// A single direction walked square by square: partial rides, oblique rides and hops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ray {
    /// Step for White (Black mirrors the rank component).
    pub step: (i8, i8),
    /// Range limit in steps; 0 = unlimited.
    pub max: u8,
    /// May stop on an empty square.
    pub moves: bool,
    /// May capture.
    pub captures: bool,
    /// Hopper: the move or capture lies beyond exactly one screen.
    pub hop: bool,
}

/// Movement tables of one piece type for both colours.
#[derive(Clone)]
pub struct CompiledPiece {
    /// Non-capturing leaps: `[color][from]`.
    pub leap_quiet: Box<[[Bitboard; 64]; 2]>,
    /// Capturing leaps: `[color][from]`.
    pub leap_capture: Box<[[Bitboard; 64]; 2]>,
    /// Inverse of `leap_capture`: `[color][target]` = origins from which this piece captures `target`.
    pub leap_capture_from: Box<[[Bitboard; 64]; 2]>,
    /// Orthogonal slide for moves / captures.
    pub rook_move: Option<LineSlide>,
    /// Orthogonal slide captures.
    pub rook_capture: Option<LineSlide>,
    /// Diagonal slide for moves.
    pub bishop_move: Option<LineSlide>,
    /// Diagonal slide captures.
    pub bishop_capture: Option<LineSlide>,
    /// Other directions walked one by one.
    pub rays: Vec<Ray>,
    /// `[color][target]`: squares from which some capturing ray could reach `target` on an
    /// empty 8x8 frame, so attack tests walk rays only when a man stands there.
    pub ray_capture_zone: Box<[[Bitboard; 64]; 2]>,
    /// Captures on the eight adjacent squares are barred (J'Adoube).
    pub no_adjacent_capture: bool,
    /// Non-capturing leaps to the mirror squares were added (Kaleidoscope, `mirrorLeap`).
    pub mirror_leap: bool,
    /// A mechanic added leaps to the tables when the variant was loaded (Camouflage's shade
    /// powers), so the tables say more than the Betza text.
    pub added_leaps: bool,
}

const ORTHO: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

fn same_set(dirs: &[(i8, i8)], set: &[(i8, i8); 4]) -> bool {
    dirs.len() == 4 && set.iter().all(|d| dirs.contains(d))
}

impl CompiledPiece {
    /// Compiles Betza atoms.
    pub fn new(atoms: &[Atom], no_adjacent_capture: bool) -> CompiledPiece {
        let mut cp = CompiledPiece {
            leap_quiet: Box::new([[Bitboard::EMPTY; 64]; 2]),
            leap_capture: Box::new([[Bitboard::EMPTY; 64]; 2]),
            leap_capture_from: Box::new([[Bitboard::EMPTY; 64]; 2]),
            rook_move: None,
            rook_capture: None,
            bishop_move: None,
            bishop_capture: None,
            rays: Vec::new(),
            ray_capture_zone: Box::new([[Bitboard::EMPTY; 64]; 2]),
            no_adjacent_capture,
            mirror_leap: false,
            added_leaps: false,
        };
        for atom in atoms {
            match atom.reach {
                Reach::Leap => {
                    for color in Color::ALL {
                        for sq in Square::all() {
                            for &(df, dr) in &atom.dirs {
                                let dr = if color == Color::White { dr } else { -dr };
                                if let Some(t) = sq.offset(df, dr) {
                                    if atom.moves {
                                        cp.leap_quiet[color.index()][sq.index()] |= t.bb();
                                    }
                                    if atom.captures {
                                        cp.leap_capture[color.index()][sq.index()] |= t.bb();
                                    }
                                }
                            }
                        }
                    }
                }
                Reach::Ride { max } => {
                    let slot = if same_set(&atom.dirs, &ORTHO) {
                        Some((&mut cp.rook_move, &mut cp.rook_capture))
                    } else if same_set(&atom.dirs, &DIAG) {
                        Some((&mut cp.bishop_move, &mut cp.bishop_capture))
                    } else {
                        None
                    };
                    match slot {
                        Some((mv, cap)) => {
                            if atom.moves {
                                *mv = Some(LineSlide {
                                    max: merge_max(*mv, max),
                                });
                            }
                            if atom.captures {
                                *cap = Some(LineSlide {
                                    max: merge_max(*cap, max),
                                });
                            }
                        }
                        None => {
                            for &step in &atom.dirs {
                                cp.rays.push(Ray {
                                    step,
                                    max,
                                    moves: atom.moves,
                                    captures: atom.captures,
                                    hop: false,
                                });
                            }
                        }
                    }
                }
                Reach::Hop { max } => {
                    for &step in &atom.dirs {
                        cp.rays.push(Ray {
                            step,
                            max,
                            moves: atom.moves,
                            captures: atom.captures,
                            hop: true,
                        });
                    }
                }
            }
        }
        if no_adjacent_capture {
            for c in 0..2 {
                for sq in 0..64 {
                    cp.leap_capture[c][sq] &= !TABLES.king[sq];
                }
            }
        }
        for color in Color::ALL {
            for ray in cp.rays.iter().filter(|r| r.captures) {
                let (df, dr) = oriented(ray.step, color);
                for target in Square::all() {
                    let mut cur = target;
                    let mut steps = 0u8;
                    while let Some(next) = cur.offset(-df, -dr) {
                        steps += 1;
                        if ray.max != 0 && steps > ray.max {
                            break;
                        }
                        cp.ray_capture_zone[color.index()][target.index()] |= next.bb();
                        cur = next;
                    }
                }
            }
        }
        for c in 0..2 {
            for from in 0..64 {
                for to in cp.leap_capture[c][from] {
                    cp.leap_capture_from[c][to.index()] |= Square::new(from as u8).bb();
                }
            }
        }
        cp
    }

    /// Adds non-capturing leaps from every square of a board of `shape` to its mirror images:
    /// left-right, top-bottom and both (the three squares with the same distances from the
    /// nearest end rank and end file). A square that is its own image (the middle file or rank
    /// of an odd board) gets no leap there. Quiet leaps are masked with the empty squares by
    /// the generator, so the leaps never capture and cannot be blocked.
    pub fn add_mirror_leaps(&mut self, shape: crate::geometry::BoardShape) {
        let (files, ranks) = (shape.files as i8, shape.ranks as i8);
        for sq in Square::all() {
            let (f, r) = (sq.file(), sq.rank());
            if f >= files || r >= ranks {
                continue;
            }
            for (mf, mr) in [
                (files - 1 - f, r),
                (f, ranks - 1 - r),
                (files - 1 - f, ranks - 1 - r),
            ] {
                if let Some(t) = Square::from_coords(mf, mr).filter(|&t| t != sq) {
                    for c in 0..2 {
                        self.leap_quiet[c][sq.index()] |= t.bb();
                    }
                }
            }
        }
        self.mirror_leap = true;
    }

    /// Whether any component captures by hopping or along an irregular ray.
    pub fn has_rays(&self) -> bool {
        !self.rays.is_empty()
    }

    /// Squares the piece could capture on from `from` (ignoring what stands there), with `occ` blocking.
    /// `board` limits walks to the real board.
    #[inline]
    pub fn capture_targets(
        &self,
        color: Color,
        from: Square,
        occ: Bitboard,
        board: Bitboard,
    ) -> Bitboard {
        let mut bb = self.leap_capture[color.index()][from.index()];
        if let Some(s) = self.rook_capture {
            bb |= limit(rook_attacks(from, occ), from, s.max);
        }
        if let Some(s) = self.bishop_capture {
            bb |= limit(bishop_attacks(from, occ), from, s.max);
        }
        if !self.rays.is_empty() {
            for ray in &self.rays {
                if ray.captures {
                    bb |= walk_capture(ray, color, from, occ, board);
                }
            }
        }
        if self.no_adjacent_capture {
            bb &= !TABLES.king[from.index()];
        }
        bb & board
    }

    /// Empty squares the piece could move to from `from`.
    #[inline]
    pub fn quiet_targets(
        &self,
        color: Color,
        from: Square,
        occ: Bitboard,
        board: Bitboard,
    ) -> Bitboard {
        let mut bb = self.leap_quiet[color.index()][from.index()];
        if let Some(s) = self.rook_move {
            bb |= limit(rook_attacks(from, occ), from, s.max);
        }
        if let Some(s) = self.bishop_move {
            bb |= limit(bishop_attacks(from, occ), from, s.max);
        }
        for ray in &self.rays {
            if ray.moves {
                bb |= walk_quiet(ray, color, from, occ, board);
            }
        }
        bb & !occ & board
    }

    /// `(quiet_targets, capture_targets)` in one call, each slider lookup done once for both.
    #[inline(always)]
    pub fn targets(
        &self,
        color: Color,
        from: Square,
        occ: Bitboard,
        board: Bitboard,
    ) -> (Bitboard, Bitboard) {
        let mut quiet = self.leap_quiet[color.index()][from.index()];
        let mut caps = self.leap_capture[color.index()][from.index()];
        if self.rook_move.is_some() || self.rook_capture.is_some() {
            let att = rook_attacks(from, occ);
            if let Some(s) = self.rook_move {
                quiet |= limit(att, from, s.max);
            }
            if let Some(s) = self.rook_capture {
                caps |= limit(att, from, s.max);
            }
        }
        if self.bishop_move.is_some() || self.bishop_capture.is_some() {
            let att = bishop_attacks(from, occ);
            if let Some(s) = self.bishop_move {
                quiet |= limit(att, from, s.max);
            }
            if let Some(s) = self.bishop_capture {
                caps |= limit(att, from, s.max);
            }
        }
        for ray in &self.rays {
            if ray.moves {
                quiet |= walk_quiet(ray, color, from, occ, board);
            }
            if ray.captures {
                caps |= walk_capture(ray, color, from, occ, board);
            }
        }
        if self.no_adjacent_capture {
            caps &= !TABLES.king[from.index()];
        }
        (quiet & !occ & board, caps & board)
    }

    /// Whether a piece of this type and `color` standing in `pieces` captures on `target`.
    #[inline]
    pub fn attacks_from_any(
        &self,
        color: Color,
        pieces: Bitboard,
        target: Square,
        occ: Bitboard,
        board: Bitboard,
    ) -> bool {
        if (self.leap_capture_from[color.index()][target.index()] & pieces).any() {
            return true;
        }
        let near = if self.no_adjacent_capture {
            !TABLES.king[target.index()]
        } else {
            Bitboard::FULL
        };
        if let Some(s) = self.rook_capture {
            if (limit(rook_attacks(target, occ), target, s.max) & pieces & near).any() {
                return true;
            }
        }
        if let Some(s) = self.bishop_capture {
            if (limit(bishop_attacks(target, occ), target, s.max) & pieces & near).any() {
                return true;
            }
        }
        if !self.rays.is_empty()
            && (self.ray_capture_zone[color.index()][target.index()] & pieces).any()
        {
            for ray in &self.rays {
                if !ray.captures {
                    continue;
                }
                // walk backwards from the target; the first man met (or the second, for hops) must be ours
                let back = Ray {
                    step: (-ray.step.0, -ray.step.1),
                    ..*ray
                };
                let found = walk_capture(&back, color, target, occ, board) & pieces & near;
                if found.any() {
                    return true;
                }
            }
        }
        false
    }
}

fn merge_max(prev: Option<LineSlide>, max: u8) -> u8 {
    match prev {
        None => max,
        Some(p) if p.max == 0 || max == 0 => 0,
        Some(p) => p.max.max(max),
    }
}

#[inline(always)]
fn limit(att: Bitboard, from: Square, max: u8) -> Bitboard {
    if max == 0 || max >= 7 {
        att
    } else {
        att & TABLES.within[max as usize][from.index()]
    }
}

#[inline]
fn oriented(step: (i8, i8), color: Color) -> (i8, i8) {
    if color == Color::White {
        step
    } else {
        (step.0, -step.1)
    }
}

/// Squares a ray captures on (the first man met; for hops the first man beyond the screen).
fn walk_capture(ray: &Ray, color: Color, from: Square, occ: Bitboard, board: Bitboard) -> Bitboard {
    let (df, dr) = oriented(ray.step, color);
    let mut cur = from;
    let mut steps = 0u8;
    let mut screened = !ray.hop;
    while let Some(next) = cur.offset(df, dr) {
        if !board.has(next) {
            break;
        }
        steps += 1;
        if ray.max != 0 && steps > ray.max {
            break;
        }
        if occ.has(next) {
            if screened {
                return next.bb();
            }
            screened = true;
        }
        cur = next;
    }
    Bitboard::EMPTY
}

/// Empty squares a ray may stop on.
fn walk_quiet(ray: &Ray, color: Color, from: Square, occ: Bitboard, board: Bitboard) -> Bitboard {
    let (df, dr) = oriented(ray.step, color);
    let mut out = Bitboard::EMPTY;
    let mut cur = from;
    let mut steps = 0u8;
    let mut screened = !ray.hop;
    while let Some(next) = cur.offset(df, dr) {
        if !board.has(next) {
            break;
        }
        steps += 1;
        if ray.max != 0 && steps > ray.max {
            break;
        }
        if occ.has(next) {
            if screened {
                break;
            }
            screened = true;
        } else if screened {
            out |= next.bb();
        }
        cur = next;
    }
    out
}
