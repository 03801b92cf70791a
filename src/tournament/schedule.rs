//! Who plays whom, with which colours and opening: the schedule of a tournament of
//! two-seat games (`-tournament round-robin|gauntlet|knockout`).
//!
//! Every game has a `Round` tag that names it uniquely and is fixed by the schedule alone
//! (round robin and gauntlet: the game number) or by the schedule and the results before it
//! (knockout: `stage.board.game`), so `-resume` finds each finished game of a stopped event
//! by its tag and replays none of them.
//!
//! Colours: the `k`-th game of a pair over the whole event has the pair's first engine White
//! when `k` is even, so colours alternate within an encounter and from round to round. With
//! `-repeat` the two games `2j` and `2j + 1` of a pair share an opening. A two-engine match
//! is a round robin of one pair, and its game `i` is the pair's game `i`.

/// The three kinds of event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Every engine meets every other engine `games` times a round.
    RoundRobin,
    /// The first engine (the seed) meets every other engine; the others do not meet.
    Gauntlet,
    /// Pairs play encounters of `games` games; the winner goes on, the loser is out.
    Knockout,
}

impl Kind {
    /// Reads `-tournament NAME`.
    pub fn parse(s: &str) -> Result<Kind, String> {
        match s {
            "round-robin" | "roundrobin" => Ok(Kind::RoundRobin),
            "gauntlet" => Ok(Kind::Gauntlet),
            "knockout" => Ok(Kind::Knockout),
            _ => Err(format!(
                "-tournament takes round-robin, gauntlet or knockout, not '{s}'"
            )),
        }
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::RoundRobin => "round-robin",
            Kind::Gauntlet => "gauntlet",
            Kind::Knockout => "knockout",
        }
    }
}

/// Tie-break pairs a knockout encounter plays when it is level after its games; if it is
/// still level after them, the higher seed (the engine named first) goes on.
pub const KNOCKOUT_TIEBREAK_PAIRS: usize = 3;

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The PGN `Round` tag, unique in the event.
    pub round: String,
    /// Its place in the order games are handed out (from 1), unique in the event.
    pub number: usize,
    /// The engines (by `-engine` index) playing White and Black.
    pub seats: [usize; 2],
    /// The index of its opening (taken modulo the number of openings).
    pub opening: usize,
}

/// What a worker is to do next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Play this game.
    Play(Slot),
    /// Every game that can be played now is out; wait for a result.
    Wait,
    /// The event is over once the games out are finished.
    Done,
}

/// The games of an event in the order they are handed out.
#[derive(Clone, Debug)]
pub enum Schedule {
    /// Round robin and gauntlet: a list fixed in advance.
    Fixed {
        /// The games.
        slots: Vec<Slot>,
        /// The next to hand out.
        next: usize,
    },
    /// Knockout: encounters that open as their players become known.
    Knockout(Bracket),
}

/// Checks an event's shape before it starts: enough engines, and a knockout in one pass
/// (`-rounds 1`; a field that is not a power of two gives its top seeds byes).
pub fn check(kind: Kind, engines: usize, rounds: u32) -> Result<(), String> {
    if engines < 2 {
        return Err(format!(
            "a tournament needs at least two -engine options, found {engines}"
        ));
    }
    if kind == Kind::Knockout && rounds != 1 {
        return Err(
            "a knockout's stages follow from its engines; -rounds is not used (give -games, the games of an encounter)".into(),
        );
    }
    Ok(())
}

impl Schedule {
    /// The schedule of an event of `engines` engines.
    pub fn new(kind: Kind, engines: usize, games: u32, rounds: u32, repeat: bool) -> Schedule {
        let games = games as usize;
        match kind {
            Kind::RoundRobin | Kind::Gauntlet => {
                let pairs = if kind == Kind::Gauntlet {
                    (1..engines)
                        .map(|j| if j % 2 == 1 { [0, j] } else { [j, 0] })
                        .collect()
                } else {
                    berger_pairs(engines)
                };
                Schedule::Fixed {
                    slots: fixed_slots(&pairs, engines, games, rounds as usize, repeat),
                    next: 0,
                }
            }
            Kind::Knockout => Schedule::Knockout(Bracket::new(engines, games, repeat)),
        }
    }

    /// The number of games, where the results cannot change it.
    pub fn total(&self) -> Option<usize> {
        match self {
            Schedule::Fixed { slots, .. } => Some(slots.len()),
            Schedule::Knockout(_) => None,
        }
    }

    /// Hands out the next game, or says why there is none.
    pub fn take(&mut self) -> Next {
        match self {
            Schedule::Fixed { slots, next } => match slots.get(*next) {
                Some(s) => {
                    *next += 1;
                    Next::Play(s.clone())
                }
                None => Next::Done,
            },
            Schedule::Knockout(b) => b.take(),
        }
    }

    /// Takes the result of the game `round` (White's score: 1, 1/2 or 0).
    pub fn record(&mut self, round: &str, white_score: f64) {
        if let Schedule::Knockout(b) = self {
            b.record(round, white_score);
        }
    }

    /// The knockout's bracket, for its report.
    pub fn bracket(&self) -> Option<&Bracket> {
        match self {
            Schedule::Knockout(b) => Some(b),
            Schedule::Fixed { .. } => None,
        }
    }
}

/// The pairs of a round robin by the circle method (Berger tables): the boards of each
/// sub-round, so that concurrent games spread over the engines and colours balance.
fn berger_pairs(n: usize) -> Vec<[usize; 2]> {
    // an odd field gets a bye, the phantom engine `n`
    let m = n + n % 2;
    let mut circle: Vec<usize> = (0..m).collect();
    let mut out = Vec::new();
    for round in 0..m - 1 {
        for board in 0..m / 2 {
            let (a, b) = (circle[board], circle[m - 1 - board]);
            if a == n || b == n {
                continue;
            }
            // the fixed engine changes colour every sub-round
            let pair = if board == 0 && round % 2 == 1 {
                [b, a]
            } else {
                [a, b]
            };
            out.push(pair);
        }
        circle[1..].rotate_right(1);
    }
    out
}

/// The games of `rounds` rounds in which each pair plays `games` games.
fn fixed_slots(
    pairs: &[[usize; 2]],
    engines: usize,
    games: usize,
    rounds: usize,
    repeat: bool,
) -> Vec<Slot> {
    // per pair of engines: games played so far and the opening of the last one
    let mut played = vec![0usize; engines * engines];
    let mut last_opening = vec![0usize; engines * engines];
    let mut next_opening = 0;
    let mut slots = Vec::new();
    for _ in 0..rounds {
        for &[a, b] in pairs {
            let key = a.min(b) * engines + a.max(b);
            for _ in 0..games {
                let k = played[key];
                played[key] += 1;
                let opening = if repeat && k % 2 == 1 {
                    last_opening[key]
                } else {
                    next_opening += 1;
                    next_opening - 1
                };
                last_opening[key] = opening;
                slots.push(Slot {
                    round: (slots.len() + 1).to_string(),
                    number: slots.len() + 1,
                    seats: if k.is_multiple_of(2) { [a, b] } else { [b, a] },
                    opening,
                });
            }
        }
    }
    slots
}

/// One knockout encounter.
#[derive(Clone, Debug)]
pub struct Encounter {
    /// The stage (from 1) and board (from 1) within it.
    pub stage: usize,
    /// The board within the stage.
    pub board: usize,
    /// The two engines once known, the higher seed first; a bye has only the first.
    pub players: [Option<usize>; 2],
    /// The first player's score in each finished game, by game index.
    pub scores: Vec<Option<f64>>,
    /// Games handed out.
    pub handed: usize,
    /// Games to play as it stands (grows by a pair at each level tie-break).
    pub target: usize,
    /// The engine that goes on.
    pub winner: Option<usize>,
}

impl Encounter {
    /// The two players' points so far.
    pub fn points(&self) -> (f64, f64) {
        let done: Vec<f64> = self.scores.iter().flatten().copied().collect();
        let first: f64 = done.iter().sum();
        (first, done.len() as f64 - first)
    }
}

/// The knockout bracket: stage 1's boards pair the seeds so that the first two can meet
/// only in the final (1 v N, then the board of N/2 v N/2+1, ...). A field of N engines
/// between two powers of two is drawn as the next power of two; the seeds paired with a
/// place no engine fills (the top seeds) have a bye and go on to stage 2 without a game.
#[derive(Clone, Debug)]
pub struct Bracket {
    /// Encounters stage by stage; those of stage `s + 1` take the winners of two boards of
    /// stage `s`.
    pub encounters: Vec<Encounter>,
    /// Games handed out.
    handed: usize,
    games: usize,
    repeat: bool,
}

impl Bracket {
    fn new(engines: usize, games: usize, repeat: bool) -> Bracket {
        let mut order = vec![0usize];
        while order.len() < engines {
            let size = order.len() * 2;
            order = order.iter().flat_map(|&x| [x, size - 1 - x]).collect();
        }
        let mut encounters = Vec::new();
        let (mut stage, mut boards) = (1, order.len() / 2);
        while boards >= 1 {
            for board in 0..boards {
                let players = if stage == 1 {
                    let (a, b) = (order[2 * board], order[2 * board + 1]);
                    // a seed past the field is the place of a bye
                    [Some(a.min(b)), Some(a.max(b)).filter(|&x| x < engines)]
                } else {
                    [None, None]
                };
                encounters.push(Encounter {
                    stage,
                    board: board + 1,
                    players,
                    scores: Vec::new(),
                    handed: 0,
                    target: games,
                    winner: None,
                });
            }
            stage += 1;
            boards /= 2;
        }
        let mut bracket = Bracket {
            encounters,
            handed: 0,
            games,
            repeat,
        };
        bracket.seat_byes();
        bracket
    }

    /// Sends each stage-1 engine without an opponent on to stage 2.
    fn seat_byes(&mut self) {
        for e in 0..self.encounters.len() {
            let enc = &mut self.encounters[e];
            if let (1, [Some(a), None]) = (enc.stage, enc.players) {
                enc.winner = Some(a);
                self.advance(e, a);
            }
        }
    }

    /// The most games an encounter can take (its openings are numbered in blocks of this).
    fn most_games(&self) -> usize {
        self.games + 2 * KNOCKOUT_TIEBREAK_PAIRS
    }

    fn take(&mut self) -> Next {
        let block = self.most_games();
        let repeat = self.repeat;
        let number = self.handed + 1;
        for (e, enc) in self.encounters.iter_mut().enumerate() {
            let ([Some(a), Some(b)], None) = (enc.players, enc.winner) else {
                continue;
            };
            if enc.handed < enc.target {
                let k = enc.handed;
                enc.handed += 1;
                enc.scores.push(None);
                let opening = e * block + if repeat { k / 2 } else { k };
                self.handed = number;
                return Next::Play(Slot {
                    round: format!("{}.{}.{}", enc.stage, enc.board, k + 1),
                    number,
                    seats: if k.is_multiple_of(2) { [a, b] } else { [b, a] },
                    opening,
                });
            }
        }
        if self.encounters.last().is_some_and(|f| f.winner.is_some()) {
            Next::Done
        } else {
            Next::Wait
        }
    }

    fn record(&mut self, round: &str, white_score: f64) {
        let most = self.most_games();
        let mut parts = round.split('.').map(|p| p.parse::<usize>().ok());
        let (Some(Some(stage)), Some(Some(board)), Some(Some(game))) =
            (parts.next(), parts.next(), parts.next())
        else {
            return;
        };
        let Some(e) = self
            .encounters
            .iter()
            .position(|x| x.stage == stage && x.board == board)
        else {
            return;
        };
        let enc = &mut self.encounters[e];
        let Some(slot) = enc.scores.get_mut(game - 1) else {
            return;
        };
        // game k has the first player White when k is even
        *slot = Some(if (game - 1) % 2 == 0 {
            white_score
        } else {
            1.0 - white_score
        });
        if enc.scores.len() < enc.target || enc.scores.iter().any(Option::is_none) {
            return;
        }
        let (p, q) = enc.points();
        let [Some(a), Some(b)] = enc.players else {
            return;
        };
        let winner = if p > q {
            a
        } else if q > p {
            b
        } else if enc.target < most {
            enc.target += 2;
            return;
        } else {
            // still level: the higher seed goes on
            a
        };
        enc.winner = Some(winner);
        self.advance(e, winner);
    }

    /// Seats the winner of encounter `e` in its next-stage encounter.
    fn advance(&mut self, e: usize, winner: usize) {
        let (stage, board) = (self.encounters[e].stage, self.encounters[e].board);
        let Some(next) = self
            .encounters
            .iter_mut()
            .find(|x| x.stage == stage + 1 && x.board == board.div_ceil(2))
        else {
            return;
        };
        let side = (board - 1) % 2;
        next.players[side] = Some(winner);
        if let [Some(a), Some(b)] = next.players {
            // the higher seed first
            next.players = [Some(a.min(b)), Some(a.max(b))];
        }
    }

    /// The event's winner, once the final is decided.
    pub fn champion(&self) -> Option<usize> {
        self.encounters.last().and_then(|f| f.winner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(s: &mut Schedule) -> Vec<Slot> {
        let mut out = Vec::new();
        while let Next::Play(x) = s.take() {
            out.push(x);
        }
        out
    }

    #[test]
    fn two_engines_alternate_colours_and_openings_as_a_match() {
        let mut s = Schedule::new(Kind::RoundRobin, 2, 3, 2, true);
        let slots = all(&mut s);
        assert_eq!(slots.len(), 6);
        for (i, x) in slots.iter().enumerate() {
            assert_eq!(x.round, (i + 1).to_string());
            assert_eq!(x.seats, if i % 2 == 0 { [0, 1] } else { [1, 0] });
            assert_eq!(x.opening, i / 2);
        }
        let mut s = Schedule::new(Kind::RoundRobin, 2, 1, 4, false);
        let openings: Vec<usize> = all(&mut s).iter().map(|x| x.opening).collect();
        assert_eq!(openings, [0, 1, 2, 3]);
    }

    #[test]
    fn round_robin_meets_every_pair_with_balanced_colours() {
        for n in 2..=9 {
            let mut s = Schedule::new(Kind::RoundRobin, n, 2, 1, false);
            let slots = all(&mut s);
            assert_eq!(slots.len(), n * (n - 1));
            for a in 0..n {
                for b in 0..n {
                    let games = slots
                        .iter()
                        .filter(|x| x.seats == [a, b] || x.seats == [b, a])
                        .count();
                    assert_eq!(games, if a == b { 0 } else { 2 }, "{n}: {a} {b}");
                    if a != b {
                        // two games: one with each colour
                        assert_eq!(slots.iter().filter(|x| x.seats == [a, b]).count(), 1);
                    }
                }
            }
        }
        // one game a pair: every engine's Whites and Blacks differ by at most one or two
        let mut s = Schedule::new(Kind::RoundRobin, 6, 1, 1, false);
        let slots = all(&mut s);
        for e in 0..6 {
            let white = slots.iter().filter(|x| x.seats[0] == e).count() as i32;
            assert!(
                (2 * white - 5).abs() <= 3,
                "engine {e}: {white} Whites of 5"
            );
        }
    }

    #[test]
    fn gauntlet_pairs_only_the_seed() {
        let mut s = Schedule::new(Kind::Gauntlet, 4, 2, 2, false);
        let slots = all(&mut s);
        assert_eq!(slots.len(), 3 * 2 * 2);
        assert!(slots.iter().all(|x| x.seats.contains(&0)));
        let seed_white = slots.iter().filter(|x| x.seats[0] == 0).count();
        assert_eq!(seed_white, 6);
    }

    #[test]
    fn knockout_seeds_meet_late_and_winners_go_on() {
        let mut s = Schedule::new(Kind::Knockout, 4, 2, 1, false);
        assert_eq!(s.total(), None);
        let first = all(&mut s);
        let pairs: Vec<[usize; 2]> = first.iter().map(|x| x.seats).collect();
        assert_eq!(pairs, [[0, 3], [3, 0], [1, 2], [2, 1]]);
        assert_eq!(s.take(), Next::Wait);
        // 0 beats 3 twice; 1 and 2 split, then 2 wins the tie-break pair
        s.record("1.1.1", 1.0);
        s.record("1.1.2", 0.0);
        s.record("1.2.1", 1.0);
        s.record("1.2.2", 1.0);
        let tie = all(&mut s);
        let rounds: Vec<&str> = tie.iter().map(|x| x.round.as_str()).collect();
        assert_eq!(rounds, ["1.2.3", "1.2.4"]);
        s.record("1.2.3", 0.0);
        s.record("1.2.4", 0.5);
        let last = all(&mut s);
        assert_eq!(last[0].seats, [0, 2]);
        assert_eq!(last[0].round, "2.1.1");
        s.record("2.1.1", 0.0);
        s.record("2.1.2", 0.5);
        assert_eq!(s.take(), Next::Done);
        assert_eq!(s.bracket().and_then(Bracket::champion), Some(2));
    }

    #[test]
    fn a_field_between_powers_of_two_gives_its_top_seeds_byes() {
        // six engines drawn as eight: seeds 1 and 2 (0 and 1 here) wait for stage 2
        let mut s = Schedule::new(Kind::Knockout, 6, 2, 1, false);
        let first = all(&mut s);
        let pairs: Vec<[usize; 2]> = first.iter().step_by(2).map(|x| x.seats).collect();
        assert_eq!(pairs, [[3, 4], [2, 5]]);
        let rounds: Vec<&str> = first.iter().map(|x| x.round.as_str()).collect();
        assert_eq!(rounds, ["1.2.1", "1.2.2", "1.4.1", "1.4.2"]);
        assert_eq!(s.take(), Next::Wait);
        let b = s.bracket().expect("bracket");
        let byes: Vec<Option<usize>> = b
            .encounters
            .iter()
            .filter(|e| e.stage == 1 && e.players[1].is_none())
            .map(|e| e.winner)
            .collect();
        assert_eq!(byes, [Some(0), Some(1)]);
        // 4 beats 3 and 2 beats 5: stage 2 pairs each with a seed that had a bye
        for (r, w) in [
            ("1.2.1", 0.0),
            ("1.2.2", 1.0),
            ("1.4.1", 1.0),
            ("1.4.2", 0.0),
        ] {
            s.record(r, w);
        }
        let second: Vec<(String, [usize; 2])> = all(&mut s)
            .into_iter()
            .map(|x| (x.round, x.seats))
            .collect();
        assert_eq!(
            second,
            [
                ("2.1.1".to_string(), [0, 4]),
                ("2.1.2".to_string(), [4, 0]),
                ("2.2.1".to_string(), [1, 2]),
                ("2.2.2".to_string(), [2, 1]),
            ]
        );
        // three engines: the first seed meets the winner of 2 v 3 in the final
        let mut s = Schedule::new(Kind::Knockout, 3, 1, 1, false);
        let only = all(&mut s);
        assert_eq!(only.len(), 1);
        assert_eq!((only[0].round.as_str(), only[0].seats), ("1.2.1", [1, 2]));
        s.record("1.2.1", 0.0);
        let last = all(&mut s);
        assert_eq!((last[0].round.as_str(), last[0].seats), ("2.1.1", [0, 2]));
        s.record("2.1.1", 1.0);
        assert_eq!(s.take(), Next::Done);
        assert_eq!(s.bracket().and_then(Bracket::champion), Some(0));
    }

    #[test]
    fn a_level_knockout_encounter_goes_to_the_higher_seed() {
        let mut s = Schedule::new(Kind::Knockout, 2, 2, 1, true);
        loop {
            match s.take() {
                Next::Play(x) => s.record(&x.round, 0.5),
                Next::Wait => panic!("nothing out, nothing to wait for"),
                Next::Done => break,
            }
        }
        let b = s.bracket().expect("bracket");
        assert_eq!(
            b.encounters[0].scores.len(),
            2 + 2 * KNOCKOUT_TIEBREAK_PAIRS
        );
        assert_eq!(b.champion(), Some(0));
    }

    #[test]
    fn shapes_that_cannot_be_played_are_refused() {
        assert!(check(Kind::RoundRobin, 1, 1).is_err());
        assert!(check(Kind::Knockout, 3, 1).is_ok());
        assert!(check(Kind::Knockout, 6, 1).is_ok());
        assert!(check(Kind::Knockout, 4, 2).is_err());
        assert!(check(Kind::Knockout, 8, 1).is_ok());
        assert!(check(Kind::Gauntlet, 3, 5).is_ok());
    }
}
