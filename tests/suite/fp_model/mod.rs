//! An independent model of Foreign Policy Chess for cross-checking the engine, written from
//! the rules text (rules file 007, Part C) with plain arrays and no engine code: squares are
//! (file, rank) pairs, a man is (owner, piece letter), every move makes a new copy.

/// Owners in turn order: South, North, Peacekeeper.
const OWNERS: [char; 3] = ['s', 'n', 'p'];

/// A man: owner index 0..3 and piece letter.
type Man = (usize, char);

/// A position of the model.
#[derive(Clone)]
pub struct Model {
    board: [[Option<Man>; 8]; 8], // board[file][rank]
    to_move: usize,
    alive: [bool; 3],
    ep: Option<(i32, i32)>,
    half: u32,
    round: u32,
    /// Results once a king capture ended the game: "Win", "Loss" or "Draw" per player.
    over: Option<[&'static str; 3]>,
}

fn inside(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn square_name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// FP-3: forward per owner.
fn forward(owner: usize) -> (i32, i32) {
    [(0, 1), (0, -1), (-1, 0)][owner]
}

/// FP-3: diagonal captures, forward and one step across.
fn pawn_captures(owner: usize) -> [(i32, i32); 2] {
    match owner {
        0 => [(-1, 1), (1, 1)],
        1 => [(-1, -1), (1, -1)],
        _ => [(-1, 1), (-1, -1)],
    }
}

/// FP-4: home squares of the double step (R-FP-3).
fn home(owner: usize, f: i32, r: i32) -> bool {
    match owner {
        0 => (r == 1 && f <= 3) || (f == 4 && r == 0),
        1 => (r == 6 && f <= 3) || (f == 4 && r == 7),
        _ => false,
    }
}

/// FP-6: the last row.
fn last_row(owner: usize, f: i32, r: i32) -> bool {
    match owner {
        0 => r == 7,
        1 => r == 0,
        _ => f == 0,
    }
}

const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];

/// A move of the model: from, to, promotion letter, e.p.; or a pass.
#[derive(Clone, Copy)]
enum Mv {
    Pass,
    Go((i32, i32), (i32, i32), Option<char>, bool),
}

impl Model {
    /// Reads an FP-FEN (trusted input).
    pub fn from_fen(fen: &str) -> Model {
        let f: Vec<&str> = fen.split(' ').collect();
        let mut board = [[None; 8]; 8];
        for (i, rank) in f[0].split('/').enumerate() {
            let r = 7 - i as i32;
            let mut file = 0;
            for tok in rank.split(',') {
                if let Ok(n) = tok.parse::<i32>() {
                    file += n;
                } else {
                    let c: Vec<char> = tok.chars().collect();
                    let owner = OWNERS.iter().position(|o| *o == c[0]).unwrap();
                    board[file as usize][r as usize] = Some((owner, c[1]));
                    file += 1;
                }
            }
        }
        let to_move = OWNERS.iter().position(|o| f[1].starts_with(*o)).unwrap();
        let alive = [0, 1, 2].map(|i| f[2].contains(OWNERS[i]));
        let ep = (f[3] != "-").then(|| {
            let b = f[3].as_bytes();
            ((b[0] - b'a') as i32, (b[1] - b'1') as i32)
        });
        Model {
            board,
            to_move,
            alive,
            ep,
            half: f[4].parse().unwrap(),
            round: f[5].parse().unwrap(),
            over: None,
        }
    }

    fn at(&self, f: i32, r: i32) -> Option<Man> {
        self.board[f as usize][r as usize]
    }

    /// The FP-FEN, written as C.1 says.
    pub fn to_fen(&self) -> String {
        let mut ranks = Vec::new();
        for r in (0..8).rev() {
            let mut toks = Vec::new();
            let mut gap = 0;
            for f in 0..8 {
                match self.at(f, r) {
                    None => gap += 1,
                    Some((o, p)) => {
                        if gap > 0 {
                            toks.push(gap.to_string());
                        }
                        gap = 0;
                        toks.push(format!("{}{}", OWNERS[o], p));
                    }
                }
            }
            if gap > 0 {
                toks.push(gap.to_string());
            }
            ranks.push(toks.join(","));
        }
        let alive: String = (0..3)
            .filter(|&i| self.alive[i])
            .map(|i| OWNERS[i])
            .collect();
        let ep = self.ep.map_or("-".to_string(), |(f, r)| square_name(f, r));
        format!(
            "{} {} {} {} {} {}",
            ranks.join("/"),
            OWNERS[self.to_move],
            alive,
            ep,
            self.half,
            self.round
        )
    }

    /// The result as the engine's debug form prints it (for comparing leaves).
    pub fn result_text(&self) -> String {
        match self.over {
            None => "None".into(),
            Some(r) => format!("Some([{}, {}, {}])", r[0], r[1], r[2]),
        }
    }

    /// Whether a man of `me` may land on (f, r): empty or another player's.
    fn open(&self, me: usize, f: i32, r: i32) -> bool {
        inside(f, r) && self.at(f, r).is_none_or(|(o, _)| o != me)
    }

    fn moves(&self) -> Vec<Mv> {
        if self.over.is_some() {
            return Vec::new();
        }
        let me = self.to_move;
        let mut out = Vec::new();
        for f in 0..8 {
            for r in 0..8 {
                match self.at(f, r) {
                    Some((o, p)) if o == me => self.man_moves(me, p, (f, r), &mut out),
                    _ => {}
                }
            }
        }
        if out.is_empty() {
            out.push(Mv::Pass); // FP-10
        }
        out
    }

    fn man_moves(&self, me: usize, piece: char, (f, r): (i32, i32), out: &mut Vec<Mv>) {
        let mut slide = |dirs: &[(i32, i32)], far: bool| {
            for &(df, dr) in dirs {
                let (mut nf, mut nr) = (f + df, r + dr);
                while self.open(me, nf, nr) {
                    out.push(Mv::Go((f, r), (nf, nr), None, false));
                    if self.at(nf, nr).is_some() || !far {
                        break;
                    }
                    nf += df;
                    nr += dr;
                }
            }
        };
        match piece {
            'K' => slide(&KING_STEPS, false),
            'N' => slide(&KNIGHT_JUMPS, false),
            'B' => slide(&KING_STEPS[4..], true),
            'R' => slide(&KING_STEPS[..4], true),
            'Q' => slide(&KING_STEPS, true),
            _ => self.pawn_moves(me, (f, r), out),
        }
    }

    fn pawn_moves(&self, me: usize, (f, r): (i32, i32), out: &mut Vec<Mv>) {
        let promos: &[char] = if me == 2 {
            &['R', 'B', 'N']
        } else {
            &['Q', 'R', 'B', 'N']
        };
        let mut add = |to: (i32, i32), ep: bool| {
            if last_row(me, to.0, to.1) {
                for &c in promos {
                    out.push(Mv::Go((f, r), to, Some(c), ep));
                }
            } else {
                out.push(Mv::Go((f, r), to, None, ep));
            }
        };
        let (df, dr) = forward(me);
        let one = (f + df, r + dr);
        if inside(one.0, one.1) && self.at(one.0, one.1).is_none() {
            add(one, false);
            let two = (one.0 + df, one.1 + dr);
            if home(me, f, r) && inside(two.0, two.1) && self.at(two.0, two.1).is_none() {
                add(two, false);
            }
        }
        for (cf, cr) in pawn_captures(me) {
            let to = (f + cf, r + cr);
            if !inside(to.0, to.1) {
                continue;
            }
            match self.at(to.0, to.1) {
                Some((o, _)) if o != me => add(to, false),
                None if self.ep == Some(to) => add(to, true),
                _ => {}
            }
        }
    }

    fn name(m: &Mv) -> String {
        match m {
            Mv::Pass => "0000".into(),
            Mv::Go(a, b, p, _) => format!(
                "{}{}{}",
                square_name(a.0, a.1),
                square_name(b.0, b.1),
                p.map_or(String::new(), |c| c.to_ascii_lowercase().to_string())
            ),
        }
    }

    /// The position after `m`.
    fn after(&self, m: &Mv) -> Model {
        let mut n = self.clone();
        let me = self.to_move;
        n.ep = None;
        n.half += 1;
        if let Mv::Go(from, to, promo, ep) = *m {
            let (_, piece) = self.at(from.0, from.1).unwrap();
            // e.p.: the double-stepped pawn stands one step beyond the crossed square, in its
            // owner's direction; only a Foreign double-steps, so it is the pawn next to `to`
            // on the file whose owner moves away from `to`
            let victim_sq = if ep {
                let south_pawn = (to.0, to.1 + 1);
                match self.at(south_pawn.0, south_pawn.1) {
                    Some((0, 'P')) => south_pawn,
                    _ => (to.0, to.1 - 1),
                }
            } else {
                to
            };
            let victim = self.at(victim_sq.0, victim_sq.1);
            n.board[victim_sq.0 as usize][victim_sq.1 as usize] = None;
            n.board[from.0 as usize][from.1 as usize] = None;
            n.board[to.0 as usize][to.1 as usize] = Some((me, promo.unwrap_or(piece)));
            if piece == 'P' || victim.is_some() {
                n.half = 0;
            }
            if piece == 'P' && (to.1 - from.1).abs() == 2 {
                n.ep = Some((from.0, (from.1 + to.1) / 2));
            }
            if let Some((loser, 'K')) = victim {
                n.eliminate(me, loser);
            }
        }
        let mut next = me;
        loop {
            next = (next + 1) % 3;
            if n.alive[next] || next == me {
                break;
            }
        }
        if next <= me {
            n.round += 1;
        }
        n.to_move = next;
        n
    }

    /// FP-8 and FP-9: `loser`'s army leaves; the table decides whether the game ends.
    fn eliminate(&mut self, winner: usize, loser: usize) {
        for col in self.board.iter_mut() {
            for cell in col.iter_mut() {
                if cell.is_some_and(|(o, _)| o == loser) {
                    *cell = None;
                }
            }
        }
        let other_foreign_alive = |alive: &[bool; 3], f: usize| alive[1 - f];
        let was = self.alive;
        self.alive[loser] = false;
        let foreign = |i: usize| i < 2;
        if foreign(winner) && foreign(loser) {
            let mut r = ["Loss"; 3];
            r[winner] = "Win";
            self.over = Some(r);
        } else if winner == 2 {
            if !other_foreign_alive(&was, loser) {
                self.over = Some(["Loss", "Loss", "Win"]);
            }
        } else if !other_foreign_alive(&was, winner) {
            let mut r = ["Loss"; 3];
            r[winner] = "Draw";
            r[2] = "Draw";
            self.over = Some(r);
        }
    }

    /// Leaves at `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|m| self.after(m).perft(depth - 1))
            .sum()
    }

    /// The FP-FEN and result of every leaf at `depth`.
    pub fn leaf_fens(&self, depth: u32) -> Vec<String> {
        if depth == 0 {
            return vec![format!("{} {}", self.to_fen(), self.result_text())];
        }
        self.moves()
            .iter()
            .flat_map(|m| self.after(m).leaf_fens(depth - 1))
            .collect()
    }

    /// The spellings of the moves, sorted.
    #[allow(dead_code)]
    pub fn move_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.moves().iter().map(Model::name).collect();
        v.sort();
        v
    }
}
