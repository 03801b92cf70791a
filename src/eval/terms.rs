//! The positional terms: mobility, king safety, pawn structure, open files, the bishop pair,
//! threats and tempo. Each is a count (White's minus Black's) handed to a [`Sink`]: the
//! evaluation multiplies it by its weight (`weights.rs`), the tuner records it. What a man is
//! (its mobility class, its value band, where pawns promote) is read from the variant's rules
//! when the tables are built, never from its name.

use super::weights::*;
use crate::geometry::attacks::TABLES;
use crate::geometry::{Bitboard, Color, Square};
use crate::piece::{PieceType, MAX_PIECE_TYPES};
use crate::position::{Hooks, Position};
use crate::variant::Rules;

/// Receives the feature counts of one position.
pub trait Sink {
    /// Adds `count` of `feature` (positive for White, negative for Black).
    fn add(&mut self, feature: usize, count: i32);
}

/// Marks a type without mobility terms (pawns, the royal man, types not in use).
const NO_CLASS: u8 = u8::MAX;
/// Value bands for threats: a cheaper man attacking a dearer one.
const BAND_PAWN: usize = 0;
const BAND_MINOR: usize = 1;
const BAND_ROOK: usize = 2;
const BAND_HEAVY: usize = 3;
const BANDS: usize = 4;

/// Per-variant tables of the terms.
#[derive(Clone)]
pub struct Terms {
    class: [u8; MAX_PIECE_TYPES],
    mobility_base: [i32; MAX_PIECE_TYPES],
    band: [usize; MAX_PIECE_TYPES],
    /// Ranks a pawn of a colour on a square has to go to the promotion region (0: none).
    promotion_distance: [[u8; 64]; 2],
    /// Squares ahead on the same and adjacent files.
    passed_span: [[Bitboard; 64]; 2],
    /// Squares ahead on the same file.
    file_ahead: [[Bitboard; 64]; 2],
    /// Squares on adjacent files, on the same rank or behind.
    support_span: [[Bitboard; 64]; 2],
    files: [Bitboard; 8],
    ranks: [Bitboard; 8],
    adjacent_files: [Bitboard; 8],
    has_pawns: bool,
    /// Pawns capture one step diagonally forward (their attacks are two shifts).
    orthodox_pawns: bool,
}

/// The mobility class of a man from its compiled move tables, if it has one: by the lines it
/// captures along (what mobility, open files and king attacks are about), so a cannon that
/// moves as a rook but captures by hopping is a rider.
fn mobility_class(rules: &Rules, t: PieceType) -> u8 {
    if Some(t) == rules.royal || t == PieceType::PAWN {
        return NO_CLASS;
    }
    let Some(def) = rules.piece(t) else {
        return NO_CLASS;
    };
    let m = &def.moves;
    let orthogonal = m.rook_capture.is_some();
    let diagonal = m.bishop_capture.is_some();
    (match (orthogonal, diagonal) {
        (true, true) => CLASS_BOTH,
        (true, false) => CLASS_ORTHOGONAL,
        (false, true) => CLASS_DIAGONAL,
        _ if m.rays.iter().any(|r| r.captures) => CLASS_RIDER,
        _ => CLASS_LEAPER,
    }) as u8
}

fn value_band(value: i32) -> usize {
    match value {
        v if v <= 150 => BAND_PAWN,
        v if v <= 400 => BAND_MINOR,
        v if v <= 700 => BAND_ROOK,
        _ => BAND_HEAVY,
    }
}

impl Terms {
    /// The tables for a variant, given each type's value and average empty-board mobility.
    pub fn new(
        rules: &Rules,
        value: &[i32; MAX_PIECE_TYPES],
        mobility: &[f64; MAX_PIECE_TYPES],
    ) -> Terms {
        let board = rules.board;
        let nfiles = rules.shape.files as i8;
        let nranks = rules.shape.ranks as i8;
        let mut t = Terms {
            class: [NO_CLASS; MAX_PIECE_TYPES],
            mobility_base: [0; MAX_PIECE_TYPES],
            band: [BAND_PAWN; MAX_PIECE_TYPES],
            promotion_distance: [[0; 64]; 2],
            passed_span: [[Bitboard::EMPTY; 64]; 2],
            file_ahead: [[Bitboard::EMPTY; 64]; 2],
            support_span: [[Bitboard::EMPTY; 64]; 2],
            files: [Bitboard::EMPTY; 8],
            ranks: [Bitboard::EMPTY; 8],
            adjacent_files: [Bitboard::EMPTY; 8],
            has_pawns: rules.piece(PieceType::PAWN).is_some(),
            orthodox_pawns: rules
                .piece(PieceType::PAWN)
                .is_some_and(|p| p.betza == super::ORTHODOX_BETZA[0]),
        };
        for ty in rules.piece_types() {
            let i = ty.index();
            t.class[i] = mobility_class(rules, ty);
            // about half the empty board's moves are safe and free in a middle game
            t.mobility_base[i] = (mobility[i] / 2.0).round() as i32;
            t.band[i] = value_band(value[i]);
        }
        for sq in board.iter() {
            t.files[sq.file() as usize] |= sq.bb();
            t.ranks[sq.rank() as usize] |= sq.bb();
        }
        for f in 0..nfiles {
            let left = if f > 0 {
                t.files[f as usize - 1]
            } else {
                Bitboard::EMPTY
            };
            let right = if f + 1 < nfiles {
                t.files[f as usize + 1]
            } else {
                Bitboard::EMPTY
            };
            t.adjacent_files[f as usize] = left | right;
        }
        for color in Color::ALL {
            let c = color.index();
            for sq in board.iter() {
                let ahead = |other: Square| (other.rank() - sq.rank()) * color.forward() > 0;
                let near = t.files[sq.file() as usize] | t.adjacent_files[sq.file() as usize];
                for other in near.iter() {
                    if ahead(other) {
                        t.passed_span[c][sq.index()] |= other.bb();
                        if other.file() == sq.file() {
                            t.file_ahead[c][sq.index()] |= other.bb();
                        }
                    } else if other.file() != sq.file() {
                        t.support_span[c][sq.index()] |= other.bb();
                    }
                }
                t.promotion_distance[c][sq.index()] = (1..nranks)
                    .find(|&k| {
                        sq.offset(0, k * color.forward())
                            .is_some_and(|s| rules.promotion_region[c].has(s))
                    })
                    .unwrap_or(0) as u8;
            }
        }
        t
    }
}

/// What both sides attack, gathered while the men's moves are computed.
#[derive(Default)]
struct Attacks {
    all: [Bitboard; 2],
    by_band: [[Bitboard; BANDS]; 2],
    pawns: [Bitboard; 2],
    zone: [Bitboard; 2],
    zone_attackers: [i32; 2],
    /// Each side's men other than pawns and the royal man, by value band.
    men_by_band: [[Bitboard; BANDS]; 2],
    /// Men no move may capture now (a mechanic's immunity, such as a spy's).
    immune: Bitboard,
}

#[inline(always)]
fn sign(c: Color) -> i32 {
    match c {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Hands every term's count for `pos` to `sink`.
pub fn features<S: Sink>(t: &Terms, pos: &Position, sink: &mut S) {
    let rules = pos.rules();
    let mut a = Attacks::default();
    if rules.mechanics.uses(Hooks::IMMUNE) {
        a.immune = immune(pos);
    }
    for c in Color::ALL {
        a.pawns[c.index()] = pawn_attacks(t, pos, c);
        if let Some(k) = pos.king_square(c) {
            a.zone[c.index()] = (TABLES.king[k.index()] | k.bb()) & rules.board;
        }
    }
    for c in Color::ALL {
        men(t, pos, c, &mut a, sink);
    }
    for c in Color::ALL {
        threats(c, &a, sink);
        king_safety(t, pos, c, &a, sink);
        if t.has_pawns {
            pawns(t, pos, c, &a, sink);
        }
    }
    sink.add(TEMPO, sign(pos.side_to_move()));
}

/// The men the mechanics make immune to capture: no threat against them counts.
#[cold]
fn immune(pos: &Position) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    for m in pos.rules().mechanics.with_hook(Hooks::IMMUNE) {
        set |= m.immune(pos);
    }
    set
}

fn pawn_attacks(t: &Terms, pos: &Position, c: Color) -> Bitboard {
    let rules = pos.rules();
    if t.orthodox_pawns {
        let pawns = pos.pieces_of(c, PieceType::PAWN);
        let ahead = pawns.shift_ranks(c.forward());
        let left = Bitboard(ahead.0 & !Bitboard::FILE_A.0).shift(-1);
        let right = Bitboard(ahead.0 & !Bitboard::FILE_H.0).shift(1);
        return (left | right) & rules.board;
    }
    let Some(def) = rules.piece(PieceType::PAWN) else {
        return Bitboard::EMPTY;
    };
    let occ = pos.occupied();
    let mut att = Bitboard::EMPTY;
    for sq in pos.pieces_of(c, PieceType::PAWN) {
        att |= def.moves.targets(c, sq, occ, rules.board).1;
    }
    att
}

/// Mobility, king-zone attacks, open files and the bishop pair of `c`'s men; records what
/// they attack.
fn men<S: Sink>(t: &Terms, pos: &Position, c: Color, a: &mut Attacks, sink: &mut S) {
    let rules = pos.rules();
    let (us, them) = (c.index(), c.flip().index());
    let occ = pos.occupied();
    let safe = rules.board & !pos.pieces(c) & !a.pawns[them];
    let all_pawns = pos.kind(PieceType::PAWN);
    let own_pawns = pos.pieces_of(c, PieceType::PAWN);
    a.all[us] |= a.pawns[us];
    a.by_band[us][BAND_PAWN] |= a.pawns[us];
    let mut diagonal_men = 0;
    for ty in rules.piece_types() {
        let men = pos.pieces_of(c, ty);
        if men.is_empty() {
            continue;
        }
        let class = t.class[ty.index()];
        let def = rules.piece(ty).expect("type in use");
        if class == NO_CLASS {
            if Some(ty) == rules.royal {
                for sq in men {
                    a.all[us] |= def.moves.targets(c, sq, occ, rules.board).1;
                }
            }
            continue;
        }
        let class = class as usize;
        let band = t.band[ty.index()];
        a.men_by_band[us][band] |= men;
        for sq in men {
            let (quiet, caps) = def.moves.targets(c, sq, occ, rules.board);
            a.all[us] |= caps;
            a.by_band[us][band] |= caps;
            let reach = ((quiet | caps) & safe).count() as i32;
            sink.add(
                MOBILITY + class,
                sign(c) * (reach - t.mobility_base[ty.index()]),
            );
            let zone = caps & a.zone[them];
            if zone.any() {
                a.zone_attackers[them] += 1;
                sink.add(KING_ZONE_ATTACKS + class, -sign(c) * zone.count() as i32);
            }
            let file = t.files[sq.file() as usize];
            let open = (file & all_pawns).is_empty();
            let semi_open = (file & own_pawns).is_empty();
            match class {
                CLASS_ORTHOGONAL if open => sink.add(ROOK_OPEN, sign(c)),
                CLASS_ORTHOGONAL if semi_open => sink.add(ROOK_SEMI_OPEN, sign(c)),
                CLASS_BOTH if open => sink.add(QUEEN_OPEN, sign(c)),
                CLASS_DIAGONAL => diagonal_men += 1,
                _ => {}
            }
        }
    }
    if diagonal_men >= 2 {
        sink.add(BISHOP_PAIR, sign(c));
    }
}

/// `c`'s men attacking dearer enemy men, and enemy men `c` attacks that nobody defends.
fn threats<S: Sink>(c: Color, a: &Attacks, sink: &mut S) {
    let (us, them) = (c.index(), c.flip().index());
    let bands = &a.men_by_band[them];
    let heavy = bands[BAND_HEAVY];
    let dearer_than_minor = bands[BAND_ROOK] | heavy;
    let victims = (bands[BAND_PAWN] | bands[BAND_MINOR] | dearer_than_minor) & !a.immune;
    let heavy = heavy & !a.immune;
    let dearer_than_minor = dearer_than_minor & !a.immune;
    let s = sign(c);
    sink.add(THREAT_BY_PAWN, s * (victims & a.pawns[us]).count() as i32);
    sink.add(
        THREAT_BY_MINOR,
        s * (dearer_than_minor & a.by_band[us][BAND_MINOR]).count() as i32,
    );
    sink.add(
        THREAT_BY_ROOK,
        s * (heavy & a.by_band[us][BAND_ROOK]).count() as i32,
    );
    sink.add(
        HANGING,
        s * (victims & a.all[us] & !a.all[them]).count() as i32,
    );
}

/// Attacks on `c`'s king zone, its pawn shield and the open files around it.
fn king_safety<S: Sink>(t: &Terms, pos: &Position, c: Color, a: &Attacks, sink: &mut S) {
    let s = sign(c);
    let n = a.zone_attackers[c.index()].min(7);
    sink.add(KING_ATTACKER_PAIRS, s * n * (n - 1) / 2);
    let (Some(k), true) = (pos.king_square(c), t.has_pawns) else {
        return;
    };
    let own = pos.pieces_of(c, PieceType::PAWN);
    let enemy = pos.pieces_of(c.flip(), PieceType::PAWN);
    let files = t.files[k.file() as usize] | t.adjacent_files[k.file() as usize];
    let rank_ahead = |n: i8| {
        let r = k.rank() + n * c.forward();
        if (0..8).contains(&r) {
            t.ranks[r as usize]
        } else {
            Bitboard::EMPTY
        }
    };
    sink.add(
        SHIELD_NEAR,
        s * (own & files & rank_ahead(1)).count() as i32,
    );
    sink.add(SHIELD_FAR, s * (own & files & rank_ahead(2)).count() as i32);
    for f in (k.file() - 1).max(0)..=(k.file() + 1).min(7) {
        let file = t.files[f as usize];
        if file.is_empty() || (file & own).any() {
            continue;
        }
        if (file & enemy).any() {
            sink.add(KING_SEMI_OPEN, s);
        } else {
            sink.add(KING_OPEN, s);
        }
    }
}

/// `c`'s pawn structure and passed pawns.
fn pawns<S: Sink>(t: &Terms, pos: &Position, c: Color, a: &Attacks, sink: &mut S) {
    let s = sign(c);
    let (us, them) = (c.index(), c.flip().index());
    let own = pos.pieces_of(c, PieceType::PAWN);
    let enemy = pos.pieces_of(c.flip(), PieceType::PAWN);
    let occ = pos.occupied();
    let kings = [pos.king_square(c), pos.king_square(c.flip())];
    for sq in own {
        let i = sq.index();
        let file = sq.file() as usize;
        let stop = sq.offset(0, c.forward());
        let doubled = (t.file_ahead[us][i] & own).any();
        let isolated = (t.adjacent_files[file] & own).is_empty();
        if doubled {
            sink.add(DOUBLED, s);
        }
        if isolated {
            sink.add(ISOLATED, s);
        } else if (t.support_span[us][i] & own).is_empty()
            && stop.is_some_and(|st| a.pawns[them].has(st))
        {
            sink.add(BACKWARD, s);
        }
        if a.pawns[us].has(sq) {
            sink.add(SUPPORTED, s);
        }
        if (t.adjacent_files[file] & t.ranks[sq.rank() as usize] & own).any() {
            sink.add(PHALANX, s);
        }
        let distance = t.promotion_distance[us][i] as usize;
        if distance == 0 || doubled || (t.passed_span[us][i] & enemy).any() {
            continue;
        }
        sink.add(PASSED + distance.min(PASSED_RANGE) - 1, s);
        if let Some(st) = stop {
            if !occ.has(st) {
                sink.add(PASSED_FREE, s);
            }
            if let [Some(own_king), Some(enemy_king)] = kings {
                let race = enemy_king.distance(st) as i32 - own_king.distance(st) as i32;
                sink.add(PASSED_KING_RACE, s * race);
            }
        }
    }
}
