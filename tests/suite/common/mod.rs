//! An independent brute-force model of orthodox chess plus the Bracket and Eviction rules and
//! the restriction variants (Torpedo, Hippophobic, Garrison, Kaleidoscope, Nonlinear), for
//! cross-checking the engine. It shares no code with the engine: a plain 8x8 array of
//! characters, every rule tried literally as the rules files state it
//! (shared/rules/modest-proposals-1.md §0, §1; modest-proposals-2.md §1, §2; README.md), and
//! moves identified by the FEN (first four fields) of the position they produce.
//!
//! Test helpers that drive the engine through its public API live here too.
#![allow(dead_code)]

mod camouflage;
mod cascade;
mod castlemania;
mod cloverleaf;
mod coercion;
mod explorer;
pub mod relocate;
mod rolemodel;
pub mod slide;
mod swap;
mod trailer;

use chimera::movegen::{legal_moves, move_to_string, parse_move};
use chimera::moves::MoveList;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use std::collections::{BTreeMap, BTreeSet};

pub mod borrow;
mod carom;
mod emissary;
mod triangulation;
pub mod wonderland;

pub mod scaffold;
#[allow(unused_imports)]
pub use scaffold::*;

// ------------------------------------------------------------------------------------------
// The model

/// Which special rule the model adds to orthodox chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Orthodox chess only.
    Plain,
    /// Bracket.
    Bracket,
    /// Eviction.
    Eviction,
    /// Torpedo (modest-proposals-2.md §19): RNQBBKNR, facing monarchs, FIDE-literal castling.
    Torpedo,
    /// Hippophobic (§6), with the HI-R3 attack relation.
    Hippophobic,
    /// Hippophobic with `hippophobicAdjacencyIsCheck = true` (HI-R2's alternative).
    HippophobicCheck,
    /// Hippophobic with `hippophobicCastling = path` (HI-R4's alternative).
    HippophobicPath,
    /// Garrison (§4).
    Garrison,
    /// Kaleidoscope (§9).
    Kaleidoscope,
    /// Nonlinear (§12); the position's `last` is the opponent's last move.
    Nonlinear,
    /// King capture (007-espionage-foreignpolicy.md KC-1, KC-2): pseudo-legal moves, castling
    /// without check conditions; a position without one of the kings has no moves.
    KingCapture,
    /// King capture with `kingCaptureCastlingChecks = true` (R-007-15).
    KingCaptureCastlingChecks,
    /// Cascade (modest-proposals-1.md §5), ruling H2: the push train (tests/suite/common/cascade.rs).
    Cascade,
    /// Cascade under the H1 reading (`cascadeInitiator = first`).
    CascadeStops,
    /// Trailer (modest-proposals-2.md §20), TR-R1: any man behind with a clear path
    /// (tests/suite/common/trailer.rs).
    Trailer,
    /// Trailer with `trailerPull = nearest` (TR-R1's alternative).
    TrailerNearest,
    /// Catalyst (modest-proposals-1.md §7): switches, the per-colour flags in the state.
    Catalyst,
    /// Redeployment (modest-proposals-2.md §15), with the RE-4 attack relation.
    Redeployment,
    /// Castlemania (modest-proposals-1.md §6), without orthodox castling.
    Castlemania,
    /// Carom (modest-proposals-1.md §4).
    Carom,
    /// Triangulation (modest-proposals-2.md §21), reversals allowed (TG-R4).
    Triangulation,
    /// Triangulation with `triangulationReversal = false` (TG-R4's alternative).
    TriangulationNoReversal,
    /// Bump (modest-proposals-1.md §2), in `relocate.rs`.
    Bump,
    /// Displacement (modest-proposals-1.md §11), in `relocate.rs`.
    Displacement,
    /// Launch (modest-proposals-2.md §10), in `relocate.rs`.
    Launch,
    /// A relocation variant under another reading of its options.
    Relocation(relocate::Reading),
    /// Emissary (modest-proposals-1.md §13), in `emissary.rs`.
    Emissary,
    /// Wonderland (modest-proposals-2.md §22) under a reading of WO-R1 and WO-R3, in
    /// `wonderland.rs`.
    Wonderland(wonderland::Reading),
    /// Explorer (modest-proposals-2.md §3), EX-R1: captures do not continue
    /// (tests/suite/common/explorer.rs).
    Explorer,
    /// Explorer with `explorerCaptureContinues = true` (EX-R1's alternative).
    ExplorerCaptureContinues,
    /// Dominion, Summit, Crater, Ridge, Valley (tests/suite/common/slide.rs): a move, then a slide.
    Slide(slide::Geo),
    /// Camouflage (modest-proposals-1.md §3): shade powers, in check relation too
    /// (tests/suite/common/camouflage.rs).
    Camouflage,
    /// Role-Model (modest-proposals-2.md §17): N, B, R, Q move as the highest piece on their
    /// lines (tests/suite/common/rolemodel.rs).
    RoleModel,
    /// Countermove, Reflective (tests/suite/common/borrow.rs): borrowed non-capturing powers.
    Borrow(borrow::Reading),
    /// Coercion (tests/suite/common/coercion.rs): moves of undefended enemy men, CO-4 check.
    Coercion,
    /// Cloverleaf (`false`) and Rotary (`true`: clockwise rotation), tests/suite/common/cloverleaf.rs:
    /// links and the centre for B, R, Q, K moves and attacks, Black's King d8 (CL-7).
    Cloverleaf(bool),
}

/// `board[rank][file]`: `'.'` empty, upper case White, lower case Black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct M {
    pub board: [[char; 8]; 8],
    pub white: bool,
    /// K, Q, k, q.
    pub rights: [bool; 4],
    pub ep: Option<(i8, i8)>,
    /// The move that produced this position (first relocation), if known; Nonlinear's state.
    pub last: Option<(Sq, Sq)>,
    /// The man that made `last` (before any promotion) and what stood on its destination.
    pub last_man: (char, char),
    /// The King's file in the array (castling and rights): 4, or 5 in Torpedo.
    pub king_file: i8,
    /// Hippophobic's attack relation (HI-R3) instead of the orthodox one.
    pub hippo: bool,
    /// HI-R2's alternative: a King next to a Knight is attacked.
    pub hippo_check: bool,
    /// HI-R4's alternative: the castling King may not cross a square next to a Knight.
    pub hippo_path: bool,
    /// King capture: no self-check filter (KC-1).
    pub kc: bool,
    /// King capture: castling keeps the FIDE check conditions (R-007-15 option).
    pub kc_checks: bool,
    /// Catalyst: the flags "this colour's last move was catalysed" (White, Black) are state,
    /// read from the FEN's 7th field and written after the first four fields by `fen4`.
    pub catalyst: bool,
    /// The Catalyst flags (White, Black).
    pub swap_flags: [bool; 2],
    /// Redeployment's attack relation (RE-4).
    pub redeploy: bool,
    /// No orthodox castling (Castlemania, CM-6).
    pub no_castling: bool,
    /// Emissary: each colour's withdrawn man (White, Black; `'.'` none), the FEN's `[..]`.
    pub held: [char; 2],
    /// Emissary: while generating re-entries, the highest-ranking kind (upper case) and the
    /// held man that `play` drops on the square a man of that kind left.
    pub reentry: Option<(char, char)>,
    /// No orthodox non-capturing moves but the King's (Wonderland replaces them).
    pub quiet_off: bool,
    /// No orthodox non-capturing moves at all, castling apart (Reflective replaces them).
    pub quiet_all_off: bool,
    /// Explorer: `Some(captures_continue)` (no quiet N/B/R/Q moves without continuation, the
    /// continuation check).
    pub explorer: Option<bool>,
    /// The slide geometry and its attack relation (Dominion DO-4, Summit's extended attacks).
    pub slide: Option<slide::Geo>,
    /// Camouflage: the CF-4 powers attack (CF-5).
    pub camouflage: bool,
    /// Role-Model: N, B, R, Q move and attack as their role model (tests/suite/common/rolemodel.rs).
    pub rolemodel: bool,
    /// Coercion: coerced moves and the CO-4 check relation (tests/suite/common/coercion.rs).
    pub coercion: bool,
    /// Cloverleaf: `Some(clockwise)`; B, R, Q, K reach along its topology, Black's King
    /// castles from d8 (tests/suite/common/cloverleaf.rs).
    pub cloverleaf: Option<bool>,
}

type Sq = (i8, i8); // (file, rank)

const KNIGHT: [Sq; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [Sq; 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ROOK_DIRS: [Sq; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [Sq; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

fn on(s: Sq) -> bool {
    (0..8).contains(&s.0) && (0..8).contains(&s.1)
}

fn add(s: Sq, d: Sq) -> Sq {
    (s.0 + d.0, s.1 + d.1)
}

fn name(s: Sq) -> String {
    format!("{}{}", (b'a' + s.0 as u8) as char, s.1 + 1)
}

/// One relocation of a man: from, to, promotion letter (upper case) if it promotes.
#[derive(Clone, Copy, Debug)]
struct Reloc {
    from: Sq,
    to: Sq,
    promo: Option<char>,
}

impl M {
    pub fn from_fen(fen: &str) -> M {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let mut board = [['.'; 8]; 8];
        let (placement, holdings) = f[0].split_once('[').unwrap_or((f[0], ""));
        for (i, row) in placement.split('/').enumerate() {
            let r = 7 - i;
            let mut file = 0;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    file += n as usize;
                } else {
                    board[r][file] = c;
                    file += 1;
                }
            }
        }
        let cast = f.get(2).copied().unwrap_or("-");
        let ep = f.get(3).copied().unwrap_or("-");
        M {
            board,
            white: f[1] == "w",
            rights: [
                cast.contains('K'),
                cast.contains('Q'),
                cast.contains('k'),
                cast.contains('q'),
            ],
            ep: if ep == "-" {
                None
            } else {
                let b = ep.as_bytes();
                Some(((b[0] - b'a') as i8, (b[1] - b'1') as i8))
            },
            last: f.iter().find_map(|x| x.strip_prefix("lm=")).and_then(|v| {
                let b = v.as_bytes();
                (b.len() == 4).then(|| {
                    (
                        ((b[0] - b'a') as i8, (b[1] - b'1') as i8),
                        ((b[2] - b'a') as i8, (b[3] - b'1') as i8),
                    )
                })
            }),
            last_man: ('.', '.'),
            king_file: 4,
            hippo: false,
            hippo_check: false,
            hippo_path: false,
            kc: false,
            kc_checks: false,
            catalyst: false,
            swap_flags: match f.get(6).copied() {
                Some("w") => [true, false],
                Some("b") => [false, true],
                Some("wb") => [true, true],
                _ => [false, false],
            },
            redeploy: false,
            no_castling: false,
            held: emissary::holdings(holdings),
            reentry: None,
            quiet_off: false,
            quiet_all_off: false,
            explorer: None,
            slide: None,
            camouflage: false,
            rolemodel: false,
            coercion: false,
            cloverleaf: None,
        }
    }

    /// The first four FEN fields.
    pub fn fen4(&self) -> String {
        let mut s = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                let c = self.board[r][f];
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    s.push(c);
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if r > 0 {
                s.push('/');
            }
        }
        s += &self.holdings_text();
        s += if self.white { " w " } else { " b " };
        let mut c = String::new();
        for (i, l) in ['K', 'Q', 'k', 'q'].iter().enumerate() {
            if self.rights[i] {
                c.push(*l);
            }
        }
        s += if c.is_empty() { "-" } else { &c };
        s.push(' ');
        s += &self.ep.map_or("-".to_string(), name);
        if self.catalyst {
            s += match self.swap_flags {
                [false, false] => " -",
                [true, false] => " w",
                [false, true] => " b",
                [true, true] => " wb",
            };
        }
        s
    }

    fn at(&self, s: Sq) -> char {
        self.board[s.1 as usize][s.0 as usize]
    }

    fn set(&mut self, s: Sq, c: char) {
        self.board[s.1 as usize][s.0 as usize] = c;
    }

    fn empty(&self, s: Sq) -> bool {
        on(s) && self.at(s) == '.'
    }

    fn is_white(c: char) -> bool {
        c.is_ascii_uppercase()
    }

    fn own(&self, s: Sq) -> bool {
        on(s) && self.at(s) != '.' && M::is_white(self.at(s)) == self.white
    }

    fn enemy(&self, s: Sq) -> bool {
        on(s) && self.at(s) != '.' && M::is_white(self.at(s)) != self.white
    }

    fn fwd(white: bool) -> i8 {
        if white {
            1
        } else {
            -1
        }
    }

    /// Squares a man of kind `k` (upper case) and colour `white` on `s` could capture on if an
    /// enemy stood there: the standard chess reach (0.2 "reach").
    fn reach(&self, k: char, white: bool, s: Sq) -> Vec<Sq> {
        if let Some(cw) = self.cloverleaf {
            if let Some(v) = self.cloverleaf_reach(k, s, cw) {
                return v;
            }
        }
        let k = if self.rolemodel {
            self.role_model(k, s)
        } else {
            k
        };
        let mut out = Vec::new();
        let slide = |dirs: &[Sq], out: &mut Vec<Sq>| {
            for &d in dirs {
                let mut t = add(s, d);
                while on(t) {
                    out.push(t);
                    if self.at(t) != '.' {
                        break;
                    }
                    t = add(t, d);
                }
            }
        };
        match k {
            'P' => {
                for df in [-1, 1] {
                    let t = (s.0 + df, s.1 + M::fwd(white));
                    if on(t) {
                        out.push(t);
                    }
                }
            }
            'N' => out.extend(KNIGHT.iter().map(|&d| add(s, d)).filter(|&t| on(t))),
            'K' => out.extend(KING.iter().map(|&d| add(s, d)).filter(|&t| on(t))),
            'B' => slide(&BISHOP_DIRS, &mut out),
            'R' => slide(&ROOK_DIRS, &mut out),
            'Q' => {
                slide(&BISHOP_DIRS, &mut out);
                slide(&ROOK_DIRS, &mut out);
            }
            _ => panic!("unknown man {k}"),
        }
        out
    }

    /// Empty squares a man of kind `k` on `s` could move to without capturing (standard move).
    fn quiet(&self, k: char, white: bool, s: Sq) -> Vec<Sq> {
        if k == 'P' {
            let t = (s.0, s.1 + M::fwd(white));
            return if self.empty(t) { vec![t] } else { vec![] };
        }
        self.reach(k, white, s)
            .into_iter()
            .filter(|&t| self.at(t) == '.')
            .collect()
    }

    fn attacked(&self, s: Sq, by_white: bool) -> bool {
        if self.coercion {
            return self.coercion_check(s, by_white);
        }
        // HI-R3: Queens and Kings do not attack a square next to a Knight, Queens not a Knight
        let near_knight = KING
            .iter()
            .any(|&d| on(add(s, d)) && self.at(add(s, d)).eq_ignore_ascii_case(&'N'));
        let on_knight = self.at(s).eq_ignore_ascii_case(&'N');
        if self.hippo_check && near_knight && self.at(s) == if by_white { 'k' } else { 'K' } {
            return true;
        }
        for r in 0..8 {
            for f in 0..8 {
                let c = self.board[r][f];
                if c == '.' || M::is_white(c) != by_white {
                    continue;
                }
                let k = c.to_ascii_uppercase();
                if self.hippo
                    && ((near_knight && (k == 'Q' || k == 'K')) || (on_knight && k == 'Q'))
                {
                    continue;
                }
                if self
                    .reach(c.to_ascii_uppercase(), by_white, (f as i8, r as i8))
                    .contains(&s)
                {
                    return true;
                }
            }
        }
        (self.redeploy && self.swap_attacked(s, by_white))
            || self
                .explorer
                .is_some_and(|cc| self.explorer_attacks(s, by_white, cc))
            || self
                .slide
                .is_some_and(|g| self.slide_attacked(g, s, by_white))
            || (self.camouflage && self.camouflage_attacked(s, by_white))
    }

    fn king(&self, white: bool) -> Sq {
        let k = if white { 'K' } else { 'k' };
        for r in 0..8 {
            for f in 0..8 {
                if self.board[r][f] == k {
                    return (f as i8, r as i8);
                }
            }
        }
        panic!("no king")
    }

    /// Both kings are on the board (king capture: otherwise the game is over, KC-3).
    pub fn has_both_kings(&self) -> bool {
        let all: Vec<char> = self.board.iter().flatten().copied().collect();
        all.contains(&'K') && all.contains(&'k')
    }

    pub fn in_check(&self) -> bool {
        self.attacked(self.king(self.white), !self.white)
    }

    fn men(&self) -> Vec<Sq> {
        let mut v = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                if self.own((f, r)) {
                    v.push((f, r));
                }
            }
        }
        v
    }

    fn man(&self, white: bool, k: char) -> char {
        if white {
            k.to_ascii_uppercase()
        } else {
            k.to_ascii_lowercase()
        }
    }

    /// Plays relocations that happen together (every man lifted, then every man put down,
    /// capturing what stands there) and the captures in `removed`; applies the castling-right,
    /// en-passant and legality rules. `None` if the mover's King is left attacked.
    fn play(&self, relocs: &[Reloc], removed: &[Sq]) -> Option<M> {
        let mut n = self.clone();
        let lifted: Vec<char> = relocs.iter().map(|r| self.at(r.from)).collect();
        for r in relocs {
            n.set(r.from, '.');
        }
        for &s in removed {
            n.set(s, '.');
        }
        for (r, &c) in relocs.iter().zip(&lifted) {
            let c = match r.promo {
                // Coercion: the piece takes the coerced pawn's colour (CO-2)
                Some(p) => n.man(
                    if self.coercion {
                        M::is_white(c)
                    } else {
                        self.white
                    },
                    p,
                ),
                None => c,
            };
            n.set(r.to, c);
        }
        if self.reentry.is_some() && !self.reenter(&mut n, relocs, &lifted) {
            return None;
        }
        // castling rights: lost when a leg starts or ends on the King's or that Rook's square,
        // or a man is captured there (0.4)
        let touched: Vec<Sq> = relocs
            .iter()
            .flat_map(|r| [r.from, r.to])
            .chain(removed.iter().copied())
            .collect();
        let corners = [(7, 0), (0, 0), (7, 7), (0, 7)];
        for (i, corner) in corners.iter().enumerate() {
            let king = if i < 2 {
                (self.king_file, 0)
            } else if self.cloverleaf.is_some() {
                (3, 7) // CL-1: Black's King d8
            } else {
                (self.king_file, 7)
            };
            if touched.contains(&king) || touched.contains(corner) {
                n.rights[i] = false;
            }
        }
        // en passant (README ruling 3 / P4): one of the mover's pawns started on its 2nd rank
        // and ended, unpromoted, two squares straight ahead with the square between empty
        n.ep = None;
        let f = M::fwd(self.white);
        let second = if self.white { 1 } else { 6 };
        for (r, &c) in relocs.iter().zip(&lifted) {
            if c.eq_ignore_ascii_case(&'P')
                && r.promo.is_none()
                && r.from.1 == second
                && r.to == (r.from.0, r.from.1 + 2 * f)
                && n.empty((r.from.0, r.from.1 + f))
            {
                n.ep = Some((r.from.0, r.from.1 + f));
            }
        }
        // Catalyst: a move clears the mover's flag (the switch generator sets it again)
        n.swap_flags[!self.white as usize] = false;
        n.white = !self.white;
        if !self.kc && n.attacked(n.king(self.white), !self.white) {
            return None;
        }
        n.last = relocs.first().map(|r| (r.from, r.to));
        n.last_man = relocs
            .first()
            .map_or(('.', '.'), |r| (self.at(r.from), self.at(r.to)));
        Some(n)
    }

    /// A plain move of one man, capturing what stands in `removed`.
    fn step(&self, from: Sq, to: Sq, removed: &[Sq]) -> Option<M> {
        self.play(
            &[Reloc {
                from,
                to,
                promo: None,
            }],
            removed,
        )
    }

    fn pawn_to(&self, from: Sq, to: Sq, removed: &[Sq], out: &mut Vec<M>) {
        let last = if self.white { 7 } else { 0 };
        if to.1 == last {
            for p in ['Q', 'R', 'B', 'N'] {
                out.extend(self.play(
                    &[Reloc {
                        from,
                        to,
                        promo: Some(p),
                    }],
                    removed,
                ));
            }
        } else {
            out.extend(self.play(
                &[Reloc {
                    from,
                    to,
                    promo: None,
                }],
                removed,
            ));
        }
    }

    fn orthodox(&self, out: &mut Vec<M>) {
        let w = self.white;
        let f = M::fwd(w);
        for s in self.men() {
            let k = self.at(s).to_ascii_uppercase();
            if k == 'P' {
                let one = (s.0, s.1 + f);
                if self.empty(one) && !self.quiet_off && !self.quiet_all_off {
                    self.pawn_to(s, one, &[], out);
                    let two = (s.0, s.1 + 2 * f);
                    if s.1 == if w { 1 } else { 6 } && self.empty(two) {
                        self.pawn_to(s, two, &[], out);
                    }
                }
                for t in self.reach('P', w, s) {
                    if self.enemy(t) {
                        self.pawn_to(s, t, &[t], out);
                    } else if Some(t) == self.ep {
                        self.pawn_to(s, t, &[(t.0, s.1)], out);
                    }
                }
            } else {
                for t in self.reach(k, w, s) {
                    if self.at(t) == '.' {
                        if (self.quiet_off && k != 'K') || self.quiet_all_off {
                            continue;
                        }
                        // Explorer: these men never stop on an empty square
                        if self.explorer.is_none() || !explorer::continues(k) {
                            out.extend(self.step(s, t, &[]));
                        }
                    } else if self.enemy(t) {
                        out.extend(self.step(s, t, &[t]));
                    }
                }
            }
        }
        // castling
        if self.no_castling {
            return;
        }
        let rank = if w { 0 } else { 7 };
        let base = if w { 0 } else { 2 };
        let rk = self.man(w, 'R');
        let kf = self.king_file;
        // Torpedo (TO-R3): Kf1-h1 with Rh1-g1, Kf1-d1 with Ra1-e1
        let table = if kf == 5 {
            [
                (base, 7, 7, 6, vec![6], [5, 6, 7]),
                (base + 1, 0, 3, 4, vec![1, 2, 3, 4], [5, 4, 3]),
            ]
        } else {
            [
                (base, 7, 6, 5, vec![5, 6], [4, 5, 6]),
                (base + 1, 0, 2, 3, vec![1, 2, 3], [4, 3, 2]),
            ]
        };
        for (i, rook_file, king_to, rook_to, path, crossed) in table {
            if !self.rights[i] || self.at((kf, rank)) != self.man(w, 'K') {
                continue;
            }
            if self.at((rook_file, rank)) != rk {
                continue;
            }
            if path.iter().any(|&x| self.at((x, rank)) != '.') {
                continue;
            }
            // Coercion: the landing square is judged after the move (CO-5), Rook moved
            let judged = |&&x: &&i8| !(self.coercion && x == king_to);
            if (!self.kc || self.kc_checks)
                && crossed
                    .iter()
                    .filter(judged)
                    .any(|&x| self.attacked((x, rank), !w))
            {
                continue;
            }
            out.extend(self.play(
                &[
                    Reloc {
                        from: (kf, rank),
                        to: (king_to, rank),
                        promo: None,
                    },
                    Reloc {
                        from: (rook_file, rank),
                        to: (rook_to, rank),
                        promo: None,
                    },
                ],
                &[],
            ));
        }
    }

    /// Bracket, literally (BR-1..BR-5).
    fn bracket(&self, out: &mut Vec<M>) {
        let w = self.white;
        let f = M::fwd(w);
        let last = if w { 7 } else { 0 };
        let first = if w { 0 } else { 7 };
        for o in self.men() {
            let ka = self.at(o).to_ascii_uppercase();
            // squares A approaches (BR-1, 0.2)
            let mut targets: Vec<Sq> = Vec::new();
            if ka == 'P' {
                targets.push((o.0, o.1 + f));
                targets.push((o.0 - 1, o.1 + f));
                targets.push((o.0 + 1, o.1 + f));
                if o.1 == if w { 1 } else { 6 } && self.empty((o.0, o.1 + f)) {
                    targets.push((o.0, o.1 + 2 * f));
                }
            } else {
                targets = self.reach(ka, w, o);
            }
            for s in targets {
                if !self.own(s) {
                    continue;
                }
                let kb = self.at(s).to_ascii_uppercase();
                for d in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let p1 = add(s, d);
                    let p2 = (s.0 - d.0, s.1 - d.1);
                    if !self.empty(p1) || !self.empty(p2) {
                        continue;
                    }
                    for (pa, pb) in [(p1, p2), (p2, p1)] {
                        // a pawn only to S's rank or the next rank forward (BR-4), never its 1st
                        let pawn_ok = |p: Sq| {
                            let (df, dr) = (p.0 - s.0, p.1 - s.1);
                            ((dr == 0 && df.abs() == 1) || (dr == f && df.abs() <= 1))
                                && p.1 != first
                        };
                        if (ka == 'P' && !pawn_ok(pa)) || (kb == 'P' && !pawn_ok(pb)) {
                            continue;
                        }
                        let promos = |k: char, p: Sq| -> Vec<Option<char>> {
                            if k == 'P' && p.1 == last {
                                vec![Some('Q'), Some('R'), Some('B'), Some('N')]
                            } else {
                                vec![None]
                            }
                        };
                        for qa in promos(ka, pa) {
                            for qb in promos(kb, pb) {
                                out.extend(self.play(
                                    &[
                                        Reloc {
                                            from: o,
                                            to: pa,
                                            promo: qa,
                                        },
                                        Reloc {
                                            from: s,
                                            to: pb,
                                            promo: qb,
                                        },
                                    ],
                                    &[],
                                ));
                            }
                        }
                    }
                }
            }
        }
    }

    /// Eviction, literally (rules 1-3, EV-R1..EV-R5).
    fn eviction(&self, out: &mut Vec<M>) {
        let w = self.white;
        let check = self.in_check();
        let men = self.men();
        for &a in &men {
            for &b in &men {
                if a == b {
                    continue;
                }
                let ka = self.at(a).to_ascii_uppercase();
                let kb = self.at(b).to_ascii_uppercase();
                if check && (ka == 'K' || kb == 'K') {
                    continue;
                }
                // A to b with B's move (for a pawn B: its diagonal forward step)
                if !self.reach(kb, w, a).contains(&b) {
                    continue;
                }
                if ka == 'P' && (b.1 == 0 || b.1 == 7) {
                    continue;
                }
                // B from b with A's move to an empty square, a now empty
                let mut after = self.clone();
                after.set(a, '.');
                for d in after.quiet(ka, w, b) {
                    if kb == 'P' && (d.1 == 0 || d.1 == 7) {
                        continue;
                    }
                    if ka == kb && d == a {
                        continue;
                    }
                    out.extend(self.play(
                        &[
                            Reloc {
                                from: a,
                                to: b,
                                promo: None,
                            },
                            Reloc {
                                from: b,
                                to: d,
                                promo: None,
                            },
                        ],
                        &[],
                    ));
                }
            }
        }
    }

    /// Kaleidoscope: Q, R, B, N also leap, without capturing, to an empty mirror square.
    fn mirror_leaps(&self, out: &mut Vec<M>) {
        for s in self.men() {
            if !"QRBN".contains(self.at(s).to_ascii_uppercase()) {
                continue;
            }
            for t in [(7 - s.0, s.1), (s.0, 7 - s.1), (7 - s.0, 7 - s.1)] {
                if t != s && self.at(t) == '.' {
                    out.extend(self.step(s, t, &[]));
                }
            }
        }
    }

    /// Men of kinds `kinds` (upper case), both colours.
    fn all_of(&self, kinds: &str) -> Vec<Sq> {
        let mut v = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                let c = self.board[r][f];
                if c != '.' && kinds.contains(c.to_ascii_uppercase()) {
                    v.push((f as i8, r as i8));
                }
            }
        }
        v
    }

    /// Torpedo: two monarchs on one line with nothing between.
    fn monarchs_face(&self) -> bool {
        let m = self.all_of("KQ");
        for (i, &a) in m.iter().enumerate() {
            for &b in &m[i + 1..] {
                let (df, dr) = (b.0 - a.0, b.1 - a.1);
                if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
                    continue;
                }
                let step = (df.signum(), dr.signum());
                let mut t = add(a, step);
                while t != b && self.at(t) == '.' {
                    t = add(t, step);
                }
                if t == b {
                    return true;
                }
            }
        }
        false
    }

    /// Hippophobic: `n` (a child) keeps the Queen and King rules.
    fn hippo_ok(&self, n: &M) -> bool {
        let next_to_knight = |s: Sq| {
            KING.iter()
                .any(|&d| on(add(s, d)) && n.at(add(s, d)).eq_ignore_ascii_case(&'N'))
        };
        let (man, victim) = n.last_man;
        let to = n.last.expect("a move").1;
        if man.eq_ignore_ascii_case(&'Q')
            && (victim.eq_ignore_ascii_case(&'N') || next_to_knight(to))
        {
            return false;
        }
        let from = n.last.expect("a move").0;
        if self.hippo_path && man.eq_ignore_ascii_case(&'K') && (to.0 - from.0).abs() == 2 {
            let crossed = ((from.0 + to.0) / 2, to.1);
            if next_to_knight(crossed) {
                return false;
            }
        }
        !next_to_knight(n.king(self.white))
    }

    /// Garrison: in the child `n`, the moved man defends a friend or is defended by one.
    fn garrison_ok(n: &M) -> bool {
        let s = n.last.expect("a move").1;
        let white = !n.white;
        let k = n.at(s).to_ascii_uppercase();
        let friend = |t: Sq| t != s && n.at(t) != '.' && M::is_white(n.at(t)) == white;
        if n.reach(k, white, s).into_iter().any(friend) {
            return true;
        }
        n.all_of("PNBRQK")
            .into_iter()
            .any(|t| friend(t) && n.reach(n.at(t).to_ascii_uppercase(), white, t).contains(&s))
    }

    /// Nonlinear: whether the child `n`'s move touches the ranks or files of this position's
    /// last move.
    fn restricted(&self, n: &M) -> bool {
        let (Some((a, b)), Some((from, to))) = (self.last, n.last) else {
            return false;
        };
        [from, to]
            .iter()
            .any(|s| s.0 == a.0 || s.0 == b.0 || s.1 == a.1 || s.1 == b.1)
    }

    /// The distinct positions after one legal move, by FEN (first four fields).
    pub fn children(&self, rule: Rule) -> BTreeMap<String, M> {
        let mut me = self.clone();
        me.king_file = if rule == Rule::Torpedo { 5 } else { 4 };
        me.hippo = matches!(
            rule,
            Rule::Hippophobic | Rule::HippophobicCheck | Rule::HippophobicPath
        );
        me.hippo_check = rule == Rule::HippophobicCheck;
        me.hippo_path = rule == Rule::HippophobicPath;
        me.kc = matches!(rule, Rule::KingCapture | Rule::KingCaptureCastlingChecks);
        me.kc_checks = rule == Rule::KingCaptureCastlingChecks;
        me.catalyst = rule == Rule::Catalyst;
        me.redeploy = rule == Rule::Redeployment;
        me.no_castling = rule == Rule::Castlemania;
        me.quiet_off = matches!(rule, Rule::Wonderland(_));
        me.quiet_all_off = matches!(rule, Rule::Borrow(r) if r.replace);
        me.explorer = match rule {
            Rule::Explorer => Some(false),
            Rule::ExplorerCaptureContinues => Some(true),
            _ => None,
        };
        me.slide = match rule {
            Rule::Slide(g) => Some(g),
            _ => None,
        };
        me.camouflage = rule == Rule::Camouflage;
        me.rolemodel = rule == Rule::RoleModel;
        me.coercion = rule == Rule::Coercion;
        me.cloverleaf = match rule {
            Rule::Cloverleaf(cw) => Some(cw),
            _ => None,
        };
        if me.no_castling {
            me.rights = [false; 4];
        }
        if me.kc && !me.has_both_kings() {
            return BTreeMap::new();
        }
        let mut v = Vec::new();
        me.orthodox(&mut v);
        match rule {
            Rule::Bracket => me.bracket(&mut v),
            Rule::Eviction => me.eviction(&mut v),
            Rule::Kaleidoscope => me.mirror_leaps(&mut v),
            Rule::Cascade | Rule::CascadeStops => me.cascade(rule == Rule::CascadeStops, &mut v),
            Rule::Trailer | Rule::TrailerNearest => {
                me.trailer(rule == Rule::TrailerNearest, &mut v)
            }
            Rule::Catalyst => me.catalyst_switches(&mut v),
            Rule::Redeployment => me.redeployments(&mut v),
            Rule::Castlemania => me.castlings(&mut v),
            Rule::Carom => me.carom(&mut v),
            Rule::Triangulation => me.triangulation(true, &mut v),
            Rule::TriangulationNoReversal => me.triangulation(false, &mut v),
            Rule::Bump => me.relocate(relocate::BUMP, &mut v),
            Rule::Displacement => me.relocate(relocate::DISPLACEMENT, &mut v),
            Rule::Launch => me.relocate(relocate::LAUNCH, &mut v),
            Rule::Relocation(r) => me.relocate(r, &mut v),
            Rule::Emissary => me.emissary(&mut v),
            Rule::Wonderland(r) => me.wonderland(r, &mut v),
            Rule::Explorer | Rule::ExplorerCaptureContinues => {
                me.explorer_moves(rule == Rule::ExplorerCaptureContinues, &mut v)
            }
            Rule::Slide(g) => me.slides(g, &mut v),
            Rule::Camouflage => me.camouflage_moves(&mut v),
            Rule::Borrow(r) => me.borrowed(r, &mut v),
            Rule::Coercion => me.coercion_moves(&mut v),
            Rule::Cloverleaf(_) => me.cloverleaf_castling(&mut v),
            _ => {}
        }
        match rule {
            Rule::Torpedo => v.retain(|n| !n.monarchs_face()),
            Rule::Hippophobic | Rule::HippophobicCheck | Rule::HippophobicPath => {
                v.retain(|n| me.hippo_ok(n))
            }
            Rule::Garrison => v.retain(M::garrison_ok),
            Rule::Nonlinear if v.iter().any(|n| !me.restricted(n)) => {
                v.retain(|n| !me.restricted(n));
            }
            _ => {}
        }
        v.into_iter().map(|m| (m.fen4(), m)).collect()
    }

    /// Perft over distinct positions per node.
    pub fn perft(&self, rule: Rule, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let c = self.children(rule);
        if depth == 1 {
            return c.len() as u64;
        }
        c.values().map(|m| m.perft(rule, depth - 1)).sum()
    }
}

// ------------------------------------------------------------------------------------------
// Engine helpers

/// The first four FEN fields.
pub fn fen4(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

pub fn pos(variant: &str, fen: &str) -> Position {
    let rules = builtin_variants().get(variant).expect("built-in variant");
    Position::from_fen(rules, fen).expect("valid FEN")
}

/// Canonical spellings of the legal moves, sorted.
pub fn move_strings(p: &mut Position) -> Vec<String> {
    let mut list = MoveList::new();
    legal_moves(p, &mut list);
    let mut v: Vec<String> = list
        .iter()
        .map(|&m| move_to_string(p, m).to_string())
        .collect();
    v.sort();
    v
}

/// Asserts that quiescence's staged moves of `p` are the legal list's captures and promotions
/// in its order, that the side is said to have moves exactly when it has, and returns how many
/// of them promote.
pub fn assert_noisy_is_the_legal_subset(p: &mut Position) -> usize {
    use chimera::movegen::generic::{is_noisy, legal_moves, noisy_legal_moves};
    let mut all = MoveList::new();
    legal_moves(p, &mut all);
    let want: Vec<_> = all.iter().copied().filter(|&m| is_noisy(p, m)).collect();
    let mut noisy = MoveList::new();
    let any = noisy_legal_moves(p, &mut noisy);
    assert_eq!(noisy.as_slice(), want.as_slice(), "{}", p.fen());
    assert_eq!(any, !all.is_empty(), "{}", p.fen());
    noisy
        .iter()
        .filter(|m| m.promotion_type().is_some())
        .count()
}

/// [`assert_noisy_is_the_legal_subset`], returning how many of quiescence's moves are the
/// mechanic's own (special) moves.
pub fn noisy_special_moves(p: &mut Position) -> usize {
    use chimera::movegen::generic::noisy_legal_moves;
    use chimera::moves::MoveKind;
    assert_noisy_is_the_legal_subset(p);
    let mut noisy = MoveList::new();
    noisy_legal_moves(p, &mut noisy);
    noisy
        .iter()
        .filter(|m| m.kind() == MoveKind::Special)
        .count()
}

/// Multi-leg (special) spellings among the legal moves, sorted.
pub fn special_strings(p: &mut Position) -> Vec<String> {
    move_strings(p)
        .into_iter()
        .filter(|s| s.contains(','))
        .collect()
}

/// Asserts that the generators themselves (ordinary moves plus the rule module's moves, before
/// the generic merge of equal results) produce each legal result once.
pub fn assert_generated_once(p: &mut Position) {
    let mut pseudo = MoveList::new();
    chimera::movegen::generic::pseudo_moves(p, &mut pseudo);
    if let Some(mover) = p.mechanics().mover() {
        mover.generate(p, &mut pseudo);
    }
    let mover = p.side_to_move();
    let mut seen: BTreeMap<u64, String> = BTreeMap::new();
    for &m in pseudo.iter() {
        let s = move_to_string(p, m).to_string();
        p.make(m);
        let legal = p
            .king_square(mover)
            .is_some_and(|k| !chimera::movegen::is_attacked(p, k, mover.flip()));
        let key = p.key();
        p.unmake();
        if legal {
            if let Some(prev) = seen.insert(key, s.clone()) {
                panic!("generated twice: {prev} and {s} in {}", p.fen());
            }
        }
    }
}

/// FEN (4 fields) of each legal move's result, checking that no two moves share a result
/// (also before the generic merge) and that make/unmake restores the position.
pub fn engine_children(p: &mut Position) -> BTreeMap<String, String> {
    engine_children_keyed(p, fen4)
}

/// The key of a result FEN under `rule`: the first four fields, and for Catalyst its flags
/// field (the model's `fen4` writes them too).
pub fn result_key(rule: Rule) -> fn(&str) -> String {
    if rule == Rule::Catalyst {
        |fen: &str| {
            format!(
                "{} {}",
                fen4(fen),
                fen.split_whitespace().nth(6).unwrap_or("-")
            )
        }
    } else {
        fen4
    }
}

/// [`engine_children`], results keyed by `key` of their FEN.
pub fn engine_children_keyed(
    p: &mut Position,
    key_of: fn(&str) -> String,
) -> BTreeMap<String, String> {
    assert_generated_once(p);
    let before = p.fen();
    let key = p.key();
    let mut list = MoveList::new();
    legal_moves(p, &mut list);
    let mut out = BTreeMap::new();
    for &m in list.iter() {
        let s = move_to_string(p, m).to_string();
        p.make(m);
        assert_eq!(p.compute_key(), p.key(), "key drift after {s}");
        let f = key_of(&p.fen());
        p.unmake();
        assert_eq!(p.fen(), before, "unmake of {s}");
        assert_eq!(p.key(), key, "key after unmake of {s}");
        if let Some(prev) = out.insert(f.clone(), s.clone()) {
            panic!("{prev} and {s} both give {f}");
        }
    }
    out
}

/// Asserts that engine and model agree on the distinct results at depth 1 and, below each
/// result, at depth 2 (as sets of FENs).
pub fn cross_check(variant: &str, rule: Rule, fen: &str) {
    let rules = builtin_variants().get(variant).expect("built-in variant");
    cross_check_rules(rules, rule, fen);
}

/// [`cross_check`] for any loaded variant (e.g. one defined by a test with other options).
pub fn cross_check_rules(rules: &'static chimera::position::Variant, rule: Rule, fen: &str) {
    cross_check_in(rules, rule, fen);
}

/// [`cross_check`] in a variant given as compiled rules (e.g. loaded with other options).
pub fn cross_check_in(rules: &'static chimera::position::Variant, rule: Rule, fen: &str) {
    let mut p = Position::from_fen(rules, fen).expect("valid FEN");
    let model = M::from_fen(fen);
    let key_of = result_key(rule);
    let mine = engine_children_keyed(&mut p, key_of);
    let theirs = model.children(rule);
    let a: BTreeSet<&String> = mine.keys().collect();
    let b: BTreeSet<&String> = theirs.keys().collect();
    assert_eq!(
        a.difference(&b).collect::<Vec<_>>(),
        Vec::<&&String>::new(),
        "engine only (depth 1) in {fen}"
    );
    assert_eq!(
        b.difference(&a).collect::<Vec<_>>(),
        Vec::<&&String>::new(),
        "model only (depth 1) in {fen}"
    );
    let mut list = MoveList::new();
    legal_moves(&mut p, &mut list);
    for &m in list.iter() {
        let s = move_to_string(&p, m).to_string();
        p.make(m);
        let f = key_of(&p.fen());
        let mine2: BTreeSet<String> = engine_children_keyed(&mut p, key_of).into_keys().collect();
        p.unmake();
        let theirs2: BTreeSet<String> = theirs[&f].children(rule).into_keys().collect();
        assert_eq!(
            mine2.difference(&theirs2).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "engine only (depth 2) after {s} in {fen}"
        );
        assert_eq!(
            theirs2.difference(&mine2).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "model only (depth 2) after {s} in {fen}"
        );
    }
}

/// Plays `moves` (any valid spellings) and returns the first four FEN fields.
pub fn fen_after(variant: &str, fen: &str, moves: &[&str]) -> String {
    let mut p = pos(variant, fen);
    for m in moves {
        let mv = parse_move(&mut p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p.make(mv);
    }
    fen4(&p.fen())
}

/// Asserts that every spelling in `spellings` parses to the move printed as `canonical`.
pub fn assert_spellings(variant: &str, fen: &str, canonical: &str, spellings: &[&str]) {
    let mut p = pos(variant, fen);
    let m = parse_move(&mut p, canonical).unwrap_or_else(|e| panic!("{canonical}: {e}"));
    assert_eq!(move_to_string(&p, m).as_str(), canonical);
    for s in spellings {
        let n = parse_move(&mut p, s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(n, m, "{s} should be {canonical}");
    }
}

/// Plays random games, checking the incremental key and make/unmake at every ply.
pub fn random_games(variant: &str, games: usize, plies: usize, seed: u64) {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let rules = builtin_variants().get(variant).expect("built-in variant");
    for _ in 0..games {
        let mut p = Position::startpos(rules);
        let start = p.fen();
        let mut played = 0;
        for _ in 0..plies {
            let mut list = MoveList::new();
            legal_moves(&mut p, &mut list);
            if list.is_empty() {
                break;
            }
            // prefer special moves half of the time, so they are exercised
            let specials: Vec<_> = list
                .iter()
                .copied()
                .filter(|m| m.kind() == chimera::moves::MoveKind::Special)
                .collect();
            let r = next() as usize;
            let m = if !specials.is_empty() && r.is_multiple_of(2) {
                specials[(r >> 1) % specials.len()]
            } else {
                list[(r >> 1) % list.len()]
            };
            let text = move_to_string(&p, m).to_string();
            let fen = p.fen();
            assert_generated_once(&mut p);
            // the printed spelling parses back to the move
            assert_eq!(
                parse_move(&mut p, &text),
                Ok(m),
                "round trip of {text} in {fen}"
            );
            p.make(m);
            played += 1;
            assert_eq!(
                p.compute_key(),
                p.key(),
                "key drift after {text} from {fen}"
            );
            let reread = Position::from_fen(rules, &p.fen()).expect("own FEN reads back");
            assert_eq!(
                reread.key(),
                p.key(),
                "FEN round trip after {text} from {fen}"
            );
        }
        for _ in 0..played {
            p.unmake();
        }
        assert_eq!(p.fen(), start);
    }
}

/// Reads an EPD file of `FEN ;D1 n ;D2 n ...` lines (skipping `#` comments and blank lines).
pub fn read_epd(path: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().expect("FEN").trim().to_string();
        let depths = parts
            .map(|p| {
                let mut w = p.split_whitespace();
                let d = w.next().expect("Dn");
                let n = w.next().expect("count");
                (
                    d.trim_start_matches('D').parse().expect("depth"),
                    n.parse().expect("count"),
                )
            })
            .collect();
        out.push((fen, depths));
    }
    out
}

/// Plays random games (special moves preferred) and cross-checks the engine against the model
/// (depths 1 and 2) every `every` plies, so that positions no one wrote by hand are compared.
pub fn random_cross_checks(
    variant: &str,
    rule: Rule,
    games: usize,
    plies: usize,
    every: usize,
    seed: u64,
) {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let rules = builtin_variants().get(variant).expect("built-in variant");
    for _ in 0..games {
        let mut p = Position::startpos(rules);
        for ply in 0..plies {
            if ply % every == 0 {
                cross_check(variant, rule, &p.fen());
            }
            let mut list = MoveList::new();
            legal_moves(&mut p, &mut list);
            if list.is_empty() {
                break;
            }
            let specials: Vec<_> = list
                .iter()
                .copied()
                .filter(|m| m.kind() == chimera::moves::MoveKind::Special)
                .collect();
            let r = next() as usize;
            let m = if !specials.is_empty() && !r.is_multiple_of(3) {
                specials[(r >> 2) % specials.len()]
            } else {
                list[(r >> 2) % list.len()]
            };
            p.make(m);
        }
    }
}
