//! The 007 family (shared/rules/007-espionage-foreignpolicy.md, Part A): turns in which the
//! player choosing a ply is not always the colour that moves.
//!
//! Every ply is an orthodox move of the colour to move (pseudo-legal where kings are captured);
//! colours alternate every ply, choosers follow the variant's schedule (`moveSchedule`), a
//! function of the global ply number p (`State::ply + 1`). On top of the orthodox plies come
//! the Detente filter on the third ply of a turn ([`super::detente`]) and the turn-completion
//! filter of ruling R-007-2: a ply after which the turn cannot be finished is illegal.
//!
//! As a mechanic ([`TurnSchedule`]) the schedule says who chooses each ply, filters the
//! ordinary moves, keeps the Detente squares in the position state, puts the schedule
//! position into the key, owns the 007-FEN's fields and judges the end of the game.
//!
//! Turn completion is an existence search. Two shortcuts keep it cheap:
//! * a *unit* of a colour is an unpinned pawn whose step square is empty, or an unpinned
//!   knight, bishop, rook or queen with at least three neighbouring squares (one per direction)
//!   not held by its own men. Any one move of the other colour disables at most five units
//!   (castling: two landings blocking pawn steps, the rook's new pin, two lines opened by the
//!   squares it vacates; en passant four; any other move three: a capture or a blocked step, a
//!   pin by the man that landed, one opened line), and it lands on at most two of a unit's
//!   neighbours, one of which Detente may protect. So with six units, the colour still has a
//!   legal ply after any move of the other colour (or is in check, when it either has an
//!   evasion or is mated, and mate ends the turn);
//! * answers for turns with more than two plies left are kept in a small shared table keyed
//!   by the position key (which includes the schedule position and the Detente squares).

use super::detente::Marks;
use super::outcome::{move_rule_draw, repetitions};
use crate::geometry::attacks::{between, bishop_attacks, rook_attacks, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::{in_check, ordinary_count, ordinary_legal_moves, orthodox};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::PieceType;
use crate::position::{
    Built, FenError, Hooks, LateJudgement, Mechanic, MechanicSpec, Position, StateLayout,
};
use crate::variant::{data_is_orthodox, GameValue, Outcome, Rules, Section, Verdict};
use std::sync::atomic::{AtomicU64, Ordering};

/// Who chooses each ply (`moveSchedule`). Every schedule but `Alternate` is a 007 form: the
/// colour to move still alternates every ply, the player choosing it does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Players alternate: the chooser is the colour to move (every variant but the 007 family).
    Alternate,
    /// 007 Chess: turns of three plies (own, enemy, own), White first.
    Jackman,
    /// Balanced 007: Black chooses ply 1, White plies 2-3, then turns of three from Black.
    Balanced,
    /// Progressive 007: turn n has n plies, White chooses the odd turns.
    Progressive,
}

impl Schedule {
    /// Parses a variants.ini value.
    pub fn parse(s: &str) -> Option<Schedule> {
        Some(match s {
            "alternate" => Schedule::Alternate,
            "007" => Schedule::Jackman,
            "balanced007" => Schedule::Balanced,
            "progressive007" => Schedule::Progressive,
            _ => return None,
        })
    }
}

/// The 007 family's turn rules, fixed when the variant is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnRules {
    /// Who chooses which ply.
    pub schedule: Schedule,
    /// Detente restrictions on the third ply of a turn (`detente`).
    pub detente: bool,
    /// `turnCompletion = turn` (ruling R-007-2 (T)): a ply after which the turn cannot be
    /// finished is illegal; `ply` (false) gives option (P).
    pub complete_turns: bool,
    /// `promotionChooser = owner`: on an enemy ply the pawn's owner picks the promotion piece.
    pub promotion_by_owner: bool,
}

/// The schedule mechanic: the turn rules and, with Detente, the fields of its squares.
#[derive(Clone, Copy, Debug)]
pub struct TurnSchedule {
    /// The turn rules.
    pub rules: TurnRules,
    /// The Detente squares (`None` without Detente).
    marks: Option<Marks>,
}

/// Registration: `moveSchedule`, `detente`, `turnCompletion`, `promotionChooser`.
pub const SPEC: MechanicSpec = MechanicSpec {
    name: "schedule",
    keys: &[
        "moveSchedule",
        "detente",
        "turnCompletion",
        "promotionChooser",
    ],
    selected_by: None,
    build,
};

fn build(ctx: &Section, rules: &mut Rules, state: &mut StateLayout) -> Built {
    let schedule = match ctx.get("moveSchedule") {
        None => Schedule::Alternate,
        Some(v) => Schedule::parse(v).ok_or_else(|| {
            ctx.err(
                "moveSchedule",
                format!(
                    "unknown schedule '{v}' (known: alternate, 007, balanced007, progressive007)"
                ),
            )
        })?,
    };
    let detente = ctx.bool("detente", false)?;
    let complete_turns = !ctx.two_way("turnCompletion", "turn", "ply")?;
    let promotion_by_owner = ctx.two_way("promotionChooser", "mover", "owner")?;
    if schedule == Schedule::Alternate {
        for key in ["detente", "turnCompletion", "promotionChooser"] {
            if ctx.get(key).is_some() && (key != "detente" || detente) {
                return Err(ctx.err(
                    key,
                    "only meaningful with a 007 moveSchedule (007, balanced007, progressive007)"
                        .into(),
                ));
            }
        }
        return Ok(None);
    }
    if detente && schedule == Schedule::Progressive {
        return Err(ctx.err(
            "detente",
            "Progressive 007 cannot be combined with Detente (ruling R-007-13)".into(),
        ));
    }
    // 007 plies are orthodox moves: the family is defined on the orthodox men and board
    let mut plain = rules.clone();
    plain.checking = true;
    plain.castling_checks = true;
    plain.extinction_value = None;
    if !data_is_orthodox(&plain) {
        return Err(ctx.err("moveSchedule", NEEDS_ORTHODOX.into()));
    }
    let marks = if detente {
        Some(Marks::claim(state).map_err(|e| ctx.err("detente", e))?)
    } else {
        None
    };
    Ok(Some(Box::new(TurnSchedule {
        rules: TurnRules {
            schedule,
            detente,
            complete_turns,
            promotion_by_owner,
        },
        marks,
    })))
}

const NEEDS_ORTHODOX: &str =
    "a 007 schedule needs the orthodox board, men and rules (kingCapture aside)";

impl Mechanic for TurnSchedule {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::FILTER
            .with(Hooks::AFTER_MOVE)
            .with(Hooks::FEN)
            .with(Hooks::KEY)
            .with(Hooks::TURNS)
            .with(Hooks::END)
            .with(Hooks::VALIDATE)
    }

    fn validate(&self, pos: &Position) -> Result<(), String> {
        let turn = self.next_ply(pos).len;
        if turn > MAX_TURN_PLIES {
            return Err(format!(
                "the ply number puts this position in a turn of {turn} plies; turns of more than \
                 {MAX_TURN_PLIES} plies are beyond this engine (turn completion searches to the \
                 end of the turn)"
            ));
        }
        Ok(())
    }

    /// 007 plies are orthodox moves: no other mechanic may change what a ply is, what it
    /// leaves behind or who moves (dead material, which only ends games, may stay).
    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        (other.hooks() != Hooks::END && other.hooks() != Hooks::NONE)
            .then(|| NEEDS_ORTHODOX.to_string())
    }

    fn passing_is_sound(&self) -> bool {
        false
    }

    fn filter(&self, pos: &mut Position, list: &mut MoveList) {
        self.restrict_plies(pos, list);
        self.complete(pos, list);
    }

    fn count_legal(&self, pos: &mut Position) -> Option<usize> {
        Some(self.count(pos))
    }

    fn noisy_legal(&self, pos: &mut Position, list: &mut MoveList) -> Option<bool> {
        Some(self.noisy_plies(pos, list))
    }

    fn filter_early(&self, pos: &mut Position, list: &mut MoveList) -> Option<LateJudgement> {
        self.restrict_plies(pos, list);
        if list.is_empty() {
            return Some(LateJudgement::NONE);
        }
        Some(
            self.completion(pos)
                .map_or(LateJudgement::NONE, Completion::late),
        )
    }

    fn judge_late(&self, pos: &mut Position, m: Move, late: LateJudgement) -> bool {
        Self::finishes(pos, m, Completion::from_late(late))
    }

    fn after_move(&self, pos: &mut Position, m: Move) {
        if !m.is_none() {
            self.after_ply(pos, m);
        }
    }

    fn fen_fields(&self) -> usize {
        2
    }

    fn read_fen(&self, pos: &mut Position, fields: &[&str]) -> Result<(), FenError> {
        self.read_fen_fields(pos, fields)
            .map_err(FenError::Schedule)
    }

    fn write_fen(&self, pos: &Position, out: &mut String) {
        out.push_str(&self.fen_suffix(pos));
    }

    fn after_setup(&self, pos: &mut Position) {
        normalise_ep(pos);
    }

    fn key(&self, pos: &Position) -> u64 {
        phase_key(self.rules.schedule, pos.state().ply + 1)
    }

    fn chooser(&self, pos: &Position) -> Color {
        self.next_ply(pos).chooser
    }

    fn describe_turn(&self, pos: &Position) -> Option<String> {
        Some(describe(pos))
    }

    /// The Detente slot (m1, m2, m3): whether the colour to move chooses this ply and how
    /// many plies of the turn follow, which is what the value of a position turns on.
    fn turn_phases(&self) -> usize {
        match self.rules.schedule {
            Schedule::Alternate => 1,
            _ => 3,
        }
    }

    fn turn_phase(&self, plies_played: u32) -> usize {
        match self.rules.schedule {
            Schedule::Alternate => 0,
            // Progressive's long turns: the plies before the last three share the first phase
            s => turn_of(s, plies_played.saturating_add(1))
                .slot()
                .saturating_sub(1) as usize,
        }
    }

    fn owners_pick_promotions(&self) -> bool {
        self.rules.promotion_by_owner
    }

    fn owner_picks_promotion(&self, pos: &Position, m: Move) -> bool {
        self.rules.promotion_by_owner
            && m.promotion_type().is_some()
            && pos.side_to_move() != self.next_ply(pos).chooser
    }

    fn is_dead(&self, pos: &Position) -> bool {
        dead_position(pos)
    }

    fn verdict(&self, pos: &mut Position) -> Option<Option<Verdict>> {
        Some(scheduled_verdict(pos))
    }

    /// The owner of a mated king loses, whoever chose the ply; plies that exist but cannot
    /// complete the turn draw (R-007-2).
    fn no_move_value(
        &self,
        pos: &mut Position,
        checked: bool,
    ) -> Option<(GameValue, &'static str)> {
        if !checked {
            return Some((pos.rules().stalemate_value, "stalemate"));
        }
        let mut list = MoveList::new();
        plies(pos, &mut list);
        Some(if list.is_empty() {
            (pos.rules().checkmate_value, "checkmate")
        } else {
            (GameValue::Draw, "no completable turn")
        })
    }
}

/// Where a ply stands in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnPos {
    /// The player who chooses the ply.
    pub chooser: Color,
    /// 1-based index of the ply in its turn.
    pub index: u32,
    /// Number of plies of the turn.
    pub len: u32,
}

impl TurnPos {
    /// Detente slot 1, 2 or 3 (m1, m2, m3): Balanced 007's short opening turns take the last
    /// slots of a turn, its one-ply turn is an m2 (R-007-11).
    #[inline]
    pub fn slot(self) -> u32 {
        if self.len == 1 {
            2
        } else {
            3u32.saturating_sub(self.len - self.index)
        }
    }

    /// Whether the ply ends its turn.
    #[inline]
    pub fn is_last(self) -> bool {
        self.index == self.len
    }
}

/// The colour moved at ply `p` (1-based): White on odd plies, in every form.
#[inline]
pub fn colour_of(p: u32) -> Color {
    if p % 2 == 1 {
        Color::White
    } else {
        Color::Black
    }
}

/// Chooser, index and length of ply `p` (1-based) under `schedule` (table A.4).
#[inline]
pub fn turn_of(schedule: Schedule, p: u32) -> TurnPos {
    let p = p.max(1);
    let by_parity = |t: u32, even: Color| {
        if t.is_multiple_of(2) {
            even
        } else {
            even.flip()
        }
    };
    match schedule {
        Schedule::Alternate => TurnPos {
            chooser: colour_of(p),
            index: 1,
            len: 1,
        },
        Schedule::Jackman => TurnPos {
            chooser: by_parity((p - 1) / 3, Color::White),
            index: (p - 1) % 3 + 1,
            len: 3,
        },
        Schedule::Balanced => match p {
            1 => TurnPos {
                chooser: Color::Black,
                index: 1,
                len: 1,
            },
            2 | 3 => TurnPos {
                chooser: Color::White,
                index: p - 1,
                len: 2,
            },
            _ => TurnPos {
                chooser: by_parity((p - 4) / 3, Color::Black),
                index: (p - 4) % 3 + 1,
                len: 3,
            },
        },
        Schedule::Progressive => {
            let n = progressive_turn(p);
            TurnPos {
                chooser: if n % 2 == 1 {
                    Color::White
                } else {
                    Color::Black
                },
                index: p - n * (n - 1) / 2,
                len: n,
            }
        }
    }
}

/// The least n with n(n+1)/2 >= p.
fn progressive_turn(p: u32) -> u32 {
    let p = p as u64;
    let mut n = (((8 * p + 1) as f64).sqrt() as u64).saturating_sub(1) / 2;
    while n * (n + 1) / 2 < p {
        n += 1;
    }
    while n > 1 && (n - 1) * n / 2 >= p {
        n -= 1;
    }
    n as u32
}

/// The schedule position of ply `p` as one number: equal for two plies exactly when chooser,
/// slot and turn length agree (007: period 6; Balanced: its three opening plies, then period
/// 6; Progressive: p itself, since (turn length, index) never repeats).
#[inline]
fn phase(schedule: Schedule, p: u32) -> u64 {
    match schedule {
        Schedule::Alternate => 0,
        Schedule::Jackman => ((p - 1) % 6) as u64,
        Schedule::Balanced if p <= 3 => 6 + p as u64,
        Schedule::Balanced => ((p - 4) % 6) as u64,
        Schedule::Progressive => p as u64,
    }
}

/// Zobrist term of the schedule position of ply `p` (R-007-5: the key includes it).
#[inline]
pub fn phase_key(schedule: Schedule, p: u32) -> u64 {
    // a fixed mixing function instead of a table: Progressive needs one term per ply number
    let mut z = phase(schedule, p.max(1))
        .wrapping_add(0x007_0070_0700_7007)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The schedule mechanic of a position's variant (only called for variants that have one).
#[inline]
fn turns(pos: &Position) -> &'static TurnSchedule {
    TurnSchedule::of(pos).expect("the schedule module serves 007 variants only")
}

/// The schedule position of the next ply of `pos` (a position of a 007 variant).
#[inline]
pub fn next_ply(pos: &Position) -> TurnPos {
    turns(pos).next_ply(pos)
}

impl TurnSchedule {
    /// The schedule of `pos`'s variant, if it has one.
    #[inline]
    pub fn of(pos: &Position) -> Option<&'static TurnSchedule> {
        pos.mechanics().find::<TurnSchedule>()
    }

    /// The schedule position of the next ply of `pos`.
    #[inline]
    pub fn next_ply(&self, pos: &Position) -> TurnPos {
        turn_of(self.rules.schedule, pos.state().ply + 1)
    }

    /// After a ply: moves the schedule term of the key on and records the Detente squares.
    fn after_ply(&self, pos: &mut Position, m: Move) {
        let t = self.rules;
        let done = pos.state().ply; // number of the ply just played
        pos.toggle_key(phase_key(t.schedule, done) ^ phase_key(t.schedule, done + 1));
        if pos.ep_square().is_some() {
            normalise_ep(pos);
        }
        if let Some(marks) = self.marks {
            let tp = turn_of(t.schedule, done);
            marks.record(pos, tp.slot(), tp.is_last(), m);
        }
    }

    /// The Detente filter and the end by king capture on the ordinary moves: L(s) of R-007-2.
    fn restrict_plies(&self, pos: &Position, list: &mut MoveList) {
        if king_taken(pos) {
            list.clear();
            return;
        }
        if let Some(marks) = self.marks {
            if self.next_ply(pos).slot() == 3 {
                marks.filter(pos, list);
            }
        }
    }
}

/// Drops an en-passant square no ply can use: the repetition key of R-007-5 holds a
/// *capturable* en-passant square, and the 007-FEN (as python-chess writes it) shows only that.
pub(crate) fn normalise_ep(pos: &mut Position) {
    let Some(ep) = pos.ep_square() else {
        return;
    };
    let us = pos.side_to_move();
    let capturers = TABLES.pawn[us.flip().index()][ep.index()] & pos.pieces_of(us, PieceType::PAWN);
    let usable = capturers.any() && {
        if pos.rules().orthodox {
            let mut list = MoveList::new();
            orthodox::legal_moves(pos, &mut list);
            list.iter().any(|m| m.kind() == MoveKind::EnPassant)
        } else {
            true // kings are captured: every pseudo-legal capture is a ply
        }
    };
    if !usable {
        pos.clear_ep();
    }
}

// ---------------------------------------------------------------------------------------------
// Plies

/// Whether the game ended by a king capture (the colour to move lost its king).
#[inline]
fn king_taken(pos: &Position) -> bool {
    !pos.rules().checking
        && pos
            .pieces_of(pos.side_to_move(), PieceType::KING)
            .is_empty()
}

/// L(s) of R-007-2: orthodox plies (pseudo-legal where kings are captured) less the Detente
/// filters; none once a king is captured.
pub fn plies(pos: &mut Position, list: &mut MoveList) {
    list.clear();
    if king_taken(pos) {
        return;
    }
    ordinary_legal_moves(pos, list);
    turns(pos).restrict_plies(pos, list);
}

/// The legal plies: L(s), less (under turn completion) those after which the turn cannot be
/// finished.
pub fn legal_moves(pos: &mut Position, list: &mut MoveList) {
    plies(pos, list);
    turns(pos).complete(pos, list);
}

/// How turn completion judges the plies of a position: `left` plies of the turn follow the
/// next one, and with `bulk` every ply but a king's is known to leave a completable turn.
#[derive(Clone, Copy)]
struct Completion {
    left: u32,
    bulk: bool,
}

impl Completion {
    /// As a filter's late judgement (never NONE: `left` is at least 1).
    fn late(self) -> LateJudgement {
        LateJudgement(self.left << 1 | self.bulk as u32)
    }

    fn from_late(late: LateJudgement) -> Completion {
        Completion {
            left: late.0 >> 1,
            bulk: late.0 & 1 == 1,
        }
    }
}

impl TurnSchedule {
    /// How the next ply's completion is judged; `None` where every ply of L(s) is legal.
    fn completion(&self, pos: &Position) -> Option<Completion> {
        let tp = self.next_ply(pos);
        if !self.rules.complete_turns || tp.is_last() {
            return None;
        }
        let left = tp.len - tp.index; // plies of the turn after this one
        if left == 1 && has_units(pos, pos.side_to_move().flip(), 3, 6) {
            return None;
        }
        let bulk = left == 2 && first_of_three_is_safe(pos);
        Some(Completion { left, bulk })
    }

    /// Whether the turn can be finished after ply `m` of L(s).
    fn finishes(pos: &mut Position, m: Move, c: Completion) -> bool {
        let king_move = pos.piece_at(m.from()).kind() == PieceType::KING;
        (c.bulk && !king_move) || {
            pos.make(m);
            let ok = can_finish(pos, c.left);
            pos.unmake();
            ok
        }
    }

    /// Removes from L(s) (under turn completion) the plies after which the turn cannot be
    /// finished.
    fn complete(&self, pos: &mut Position, list: &mut MoveList) {
        if list.is_empty() {
            return;
        }
        if let Some(c) = self.completion(pos) {
            Self::keep_finishing(pos, list, c);
        }
    }

    /// Keeps the plies of `list` after which the turn can be finished.
    fn keep_finishing(pos: &mut Position, list: &mut MoveList, c: Completion) {
        let mut kept = 0;
        for i in 0..list.len() {
            let m = list[i];
            if Self::finishes(pos, m, c) {
                list.as_mut_slice()[kept] = m;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// The legal plies that capture or promote, in the order of [`legal_moves`], and whether
    /// any ply is legal: only those plies are judged for completion, and the quiet ones only
    /// until one is found legal, when none of the others is.
    fn noisy_plies(&self, pos: &mut Position, list: &mut MoveList) -> bool {
        plies(pos, list);
        if list.is_empty() {
            return false;
        }
        let mut quiet = MoveList::new();
        let mut kept = 0;
        for i in 0..list.len() {
            let m = list[i];
            if crate::movegen::generic::is_noisy(pos, m) {
                list.as_mut_slice()[kept] = m;
                kept += 1;
            } else {
                quiet.push(m);
            }
        }
        list.truncate(kept);
        let Some(c) = self.completion(pos) else {
            return true;
        };
        Self::keep_finishing(pos, list, c);
        !list.is_empty() || quiet.iter().any(|&m| Self::finishes(pos, m, c))
    }
}

/// [`legal_moves`] by the plain definition of R-007-2, without shortcuts or cache: the
/// reference the tests hold the shortcuts to.
pub fn legal_moves_reference(pos: &mut Position, list: &mut MoveList) {
    fn finishable(pos: &mut Position) -> bool {
        if next_ply(pos).index == 1 || king_taken(pos) {
            return true;
        }
        let mut list = MoveList::new();
        plies(pos, &mut list);
        if list.is_empty() {
            return in_check(pos);
        }
        list.iter().any(|&m| {
            pos.make(m);
            let ok = finishable(pos);
            pos.unmake();
            ok
        })
    }
    plies(pos, list);
    if !turns(pos).rules.complete_turns || next_ply(pos).is_last() {
        return;
    }
    let mut kept = 0;
    for i in 0..list.len() {
        let m = list[i];
        pos.make(m);
        let ok = finishable(pos);
        pos.unmake();
        if ok {
            list.as_mut_slice()[kept] = m;
            kept += 1;
        }
    }
    list.truncate(kept);
}

impl TurnSchedule {
    /// Number of legal plies, counted without listing where no filter needs the list.
    fn count(&self, pos: &mut Position) -> usize {
        if king_taken(pos) {
            return 0;
        }
        let t = self.rules;
        let tp = self.next_ply(pos);
        let detente_slot = t.detente && tp.slot() == 3;
        let unfiltered = !t.complete_turns
            || tp.is_last()
            || (tp.len - tp.index == 1 && has_units(pos, pos.side_to_move().flip(), 3, 6));
        if unfiltered && !detente_slot {
            return ordinary_count(pos);
        }
        if let (true, true, Some(marks)) = (unfiltered, pos.rules().orthodox, self.marks) {
            // Detente's third ply counted without listing: DET-1 removes the captures of the m2
            // men, DET-2 the other moves of the m1 men unless nothing else is left
            let (m1, m2) = marks.get(pos);
            if let Some((all, det1, det2)) = orthodox::count_split(pos, m2, m1) {
                let left = all - det1;
                return if left > det2 { left - det2 } else { left };
            }
        }
        let mut list = MoveList::new();
        legal_moves(pos, &mut list);
        list.len()
    }
}

/// Whether every ply but a king's (or castling) of the colour to move leaves a completable
/// turn when two more plies follow (the first of three, module documentation): the colour to
/// move keeps a unit through its own ply (at most three units lost, four by en passant, the
/// pieces' units counted with four free neighbours since both plies may land next to them)
/// and the enemy's (at most three, four by en passant, five by castling); the enemy keeps one
/// through the first ply (at most four lost).
fn first_of_three_is_safe(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let them = us.flip();
    let castle = enemy_may_castle(pos, them);
    let need = if castle { 10 } else { 8 };
    has_units(pos, them, 3, 5) && has_units(pos, us, 4, need)
}

/// Whether `color` might castle after one move of the other colour: it has a right whose
/// path is clear, or holds one man the other colour could move away or capture.
fn enemy_may_castle(pos: &Position, color: Color) -> bool {
    let rights = pos.castling_rights() >> (2 * color.index()) & 3;
    (0..2).any(|side| {
        if rights >> side & 1 == 0 {
            return false;
        }
        let Some(path) = pos.castle_path(2 * color.index() + side) else {
            return true;
        };
        let men = path.clear & pos.occupied();
        if men.is_empty() {
            return true;
        }
        if men.more_than_one() {
            return false;
        }
        let sq = men.lsb();
        pos.piece_at(sq).color() != color || crate::movegen::is_attacked(pos, sq, color.flip())
    })
}

/// Whether the turn can be finished from `pos`, where `left` plies of it remain (this one
/// included): `finishable` of R-007-2 for a position inside a turn.
fn can_finish(pos: &mut Position, left: u32) -> bool {
    if king_taken(pos) {
        return true;
    }
    if left == 1 {
        // one ply to go: any legal ply will do, and being mated ends the turn too
        if in_check(pos) || has_units(pos, pos.side_to_move(), 3, 1) {
            return true;
        }
        let mut list = MoveList::new();
        plies(pos, &mut list);
        return !list.is_empty();
    }
    if left == 2 && has_units(pos, pos.side_to_move().flip(), 3, 6) {
        // a unit of the colour to move is a legal ply unless it is in check
        return in_check(pos)
            || has_units(pos, pos.side_to_move(), 3, 1)
            || ordinary_count(pos) > 0;
    }
    let key = pos.key() ^ left as u64 ^ variant_salt(pos);
    if let Some(v) = cache_probe(key) {
        return v;
    }
    let mut list = MoveList::new();
    plies(pos, &mut list);
    let mut ok = list.is_empty() && in_check(pos);
    for &m in list.iter() {
        pos.make(m);
        ok = can_finish(pos, left - 1);
        pos.unmake();
        if ok {
            break;
        }
    }
    cache_store(key, ok);
    ok
}

/// A term that sets one variant's cache keys apart from another's: the same placement and
/// schedule position can be completable in one 007 form and not in another (Detente, king
/// capture), so entries are keyed by the variant as well. Variants live for the process, so
/// the address of the variant's data identifies it.
#[inline]
fn variant_salt(pos: &Position) -> u64 {
    let addr = pos.rules() as *const _ as u64;
    (addr ^ (addr >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Longest turn a position may be in: turn completion ([`can_finish`]) searches one frame per
/// ply left in the turn, so this bounds its stack (Progressive 007 reaches it after about 65 000
/// moves; the other schedules' turns have at most three plies).
const MAX_TURN_PLIES: u32 = 400;

/// Shared answers of [`can_finish`]: the key with its low bit replaced by the answer.
static CACHE: [AtomicU64; 1 << 14] = [const { AtomicU64::new(0) }; 1 << 14];

#[inline]
fn cache_probe(key: u64) -> Option<bool> {
    let e = CACHE[(key >> 50) as usize].load(Ordering::Relaxed);
    (e != 0 && e | 1 == key | 1).then_some(e & 1 == 1)
}

#[inline]
fn cache_store(key: u64, ok: bool) {
    CACHE[(key >> 50) as usize].store((key & !1) | ok as u64, Ordering::Relaxed);
}

/// Men of `color` that stand alone between their king and an enemy slider.
#[inline]
fn pinned(pos: &Position, color: Color) -> Bitboard {
    if !pos.rules().checking {
        return Bitboard::EMPTY;
    }
    let Some(k) = pos.king_square(color) else {
        return Bitboard::EMPTY;
    };
    let theirs = pos.pieces(color.flip());
    let queens = pos.kind(PieceType::QUEEN);
    let snipers = ((rook_attacks(k, theirs) & (pos.kind(PieceType::ROOK) | queens))
        | (bishop_attacks(k, theirs) & (pos.kind(PieceType::BISHOP) | queens)))
        & theirs;
    let occ = pos.occupied();
    let mut out = Bitboard::EMPTY;
    for s in snipers {
        let b = between(k, s) & occ;
        if !b.more_than_one() {
            out |= b & pos.pieces(color);
        }
    }
    out
}

/// Whether `color` has at least `need` units (module documentation) whose pieces have at least
/// `dirs` free neighbouring squares. Men off every line through their king cannot be pinned,
/// so they are counted first and the pins are looked for only when they do not suffice.
pub fn has_units(pos: &Position, color: Color, dirs: u32, need: u32) -> bool {
    let ours = pos.pieces(color);
    let lines = match pos.king_square(color) {
        Some(k) if pos.rules().checking => {
            rook_attacks(k, Bitboard::EMPTY) | bishop_attacks(k, Bitboard::EMPTY)
        }
        _ => Bitboard::EMPTY,
    };
    let n = count_units(pos, color, dirs, ours & !lines, need);
    n >= need
        || n + count_units(
            pos,
            color,
            dirs,
            ours & lines & !pinned(pos, color),
            need - n,
        ) >= need
}

/// The units among `men` (unpinned men of `color`), counted up to `cap`.
fn count_units(pos: &Position, color: Color, dirs: u32, men: Bitboard, cap: u32) -> u32 {
    let ours = pos.pieces(color);
    let empty = !pos.occupied();
    let pawns = men & pos.kind(PieceType::PAWN);
    let steps = match color {
        Color::White => Bitboard(pawns.0 << 8),
        Color::Black => Bitboard(pawns.0 >> 8),
    } & empty;
    let mut n = steps.count();
    let t = &*TABLES;
    for sq in men & !pos.kind(PieceType::PAWN) & !pos.kind(PieceType::KING) {
        if n >= cap {
            break;
        }
        let p = pos.piece_at(sq).kind();
        let near = if p == PieceType::KNIGHT {
            t.knight[sq.index()]
        } else if p == PieceType::BISHOP {
            bishop_attacks(sq, Bitboard::FULL)
        } else if p == PieceType::ROOK {
            rook_attacks(sq, Bitboard::FULL)
        } else {
            t.king[sq.index()]
        };
        if (near & !ours).count() >= dirs {
            n += 1;
        }
    }
    n
}

// ---------------------------------------------------------------------------------------------
// Game end

/// How a scheduled game stands before the next ply, when it has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The colour to move lost its king (king-capture forms): its owner loses.
    KingCaptured,
    /// The colour to move has no ply and its king is attacked: its owner loses (007-6).
    Checkmate,
    /// No ply, not in check (007-9).
    Stalemate,
    /// Plies exist but none lets the turn be finished (R-007-2).
    NoCompletableTurn,
}

/// Whether the game has ended by the position alone (draws by rule aside), and how.
pub fn end(pos: &mut Position) -> Option<End> {
    if king_taken(pos) {
        return Some(End::KingCaptured);
    }
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    if !list.is_empty() {
        return None;
    }
    plies(pos, &mut list);
    Some(if !list.is_empty() {
        End::NoCompletableTurn
    } else if in_check(pos) {
        End::Checkmate
    } else {
        End::Stalemate
    })
}

/// Dead positions of R-007-7 (not in the king-capture forms): K v K, K+B v K, K+N v K.
pub fn dead_position(pos: &Position) -> bool {
    if !pos.rules().checking {
        return false;
    }
    let kings = pos.kind(PieceType::KING);
    let minors = pos.kind(PieceType::KNIGHT) | pos.kind(PieceType::BISHOP);
    let others = pos.occupied() & !kings;
    others.is_empty() || (others == (others & minors) && !others.more_than_one())
}

/// One line saying whose decision the next ply is, for `info string` and XBoard comments.
pub fn describe(pos: &Position) -> String {
    let tp = next_ply(pos);
    let mover = pos.side_to_move();
    format!(
        "ply {} of the game: {} chooses, a {} man moves ({} ply), ply {} of {} in {}'s turn",
        pos.state().ply + 1,
        tp.chooser.name(),
        mover.name(),
        if mover == tp.chooser { "own" } else { "enemy" },
        tp.index,
        tp.len,
        tp.chooser.name()
    )
}

// ---------------------------------------------------------------------------------------------
// 007-FEN (A.7.3): `<6 FEN fields> <p> [<m1>/<m2>]`

impl TurnSchedule {
    /// Reads fields 7 and 8 of a 007-FEN into `pos` (whose six fields are read): the number
    /// of plies played and the Detente squares. Without field 7 the ply the six fields imply
    /// stands.
    fn read_fen_fields(&self, pos: &mut Position, fields: &[&str]) -> Result<(), String> {
        let t = self.rules;
        let Some(p_field) = fields.first() else {
            return Ok(());
        };
        let p: u32 = p_field
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| p_field.parse().ok())
            .flatten()
            .filter(|&p| (1..=2_000_000).contains(&p))
            .ok_or_else(|| format!("ply number '{p_field}' is not a number from 1 to 2000000"))?;
        if colour_of(p) != pos.side_to_move() {
            return Err(format!(
                "ply {p} moves a {} man, but the FEN has {} to move (White moves the odd plies)",
                colour_of(p).name(),
                pos.side_to_move().name()
            ));
        }
        let tp = turn_of(t.schedule, p);
        let mut marks = [[None; 2]; 2];
        if let Some(d) = fields.get(1) {
            let Some((a, b)) = d.split_once('/') else {
                return Err(format!(
                    "Detente squares '{d}' must be <m1>/<m2>, e.g. c3/d5 or -/-"
                ));
            };
            for (slot, s) in [a, b].into_iter().enumerate() {
                marks[slot] = parse_marks(pos, s, slot == 1)?;
            }
            let any = marks.iter().flatten().any(|x| x.is_some());
            if any && tp.slot() == 1 {
                return Err(format!(
                    "ply {p} starts a turn, so the Detente squares must be -/-"
                ));
            }
            if marks[1].iter().any(|x| x.is_some()) && tp.slot() != 3 {
                return Err(format!(
                    "ply {p} is not the third ply of a turn, so there are no m2 squares yet"
                ));
            }
        }
        pos.set_ply(p - 1);
        // the squares mean nothing without Detente (A.6.3 writes them for every form)
        if let Some(m) = self.marks {
            m.set(pos, 1, marks[0]);
            m.set(pos, 2, marks[1]);
        }
        Ok(())
    }

    /// Fields 7 and 8 of the 007-FEN of `pos`, with a leading space.
    fn fen_suffix(&self, pos: &Position) -> String {
        let list = |slot: u32| -> String {
            let names: Vec<String> = match self.marks {
                Some(m) => m
                    .squares(pos, slot)
                    .iter()
                    .flatten()
                    .map(|s| s.to_string())
                    .collect(),
                None => Vec::new(),
            };
            if names.is_empty() {
                "-".into()
            } else {
                names.join(",")
            }
        };
        format!(" {} {}/{}", pos.state().ply + 1, list(1), list(2))
    }
}

/// One side of the Detente field: `-` or one or two squares holding men (m2's of the colour
/// that moved on it, the one not to move now).
fn parse_marks(pos: &Position, s: &str, m2: bool) -> Result<[Option<Square>; 2], String> {
    let mut out = [None; 2];
    if s == "-" {
        return Ok(out);
    }
    for (i, name) in s.split(',').enumerate() {
        let sq = Square::parse(name)
            .filter(|_| i < 2)
            .ok_or_else(|| format!("'{s}' is not one or two squares"))?;
        let man = pos.piece_at(sq);
        if man.is_none() {
            return Err(format!("Detente square {name} is empty"));
        }
        if m2 && man.color() == pos.side_to_move() {
            return Err(format!(
                "m2 square {name} holds a {} man, but the m2 ply moved a {} one",
                man.color().name(),
                pos.side_to_move().flip().name()
            ));
        }
        out[i] = Some(sq);
    }
    Ok(out)
}

/// The verdict in a 007 game (A.2, R-007-2/5/6/7): the owner of a mated or captured king
/// loses, whoever chose the ply; stalemate, no completable turn, the move rule, repetition
/// (the key includes the schedule position and the Detente squares) and dead positions draw.
fn scheduled_verdict(pos: &mut Position) -> Option<Verdict> {
    let owner = pos.side_to_move();
    let won = |reason: &str| Verdict {
        outcome: Outcome::Win(owner.flip()),
        reason: reason.into(),
    };
    let drawn = |reason: String| Verdict {
        outcome: Outcome::Draw,
        reason,
    };
    match end(pos) {
        Some(End::KingCaptured) => return Some(won("king capture")),
        Some(End::Checkmate) => return Some(won("checkmate")),
        Some(End::Stalemate) => return Some(drawn("stalemate".into())),
        Some(End::NoCompletableTurn) => return Some(drawn("no completable turn".into())),
        None => {}
    }
    if move_rule_draw(pos) {
        return Some(drawn(format!("{}-ply rule", 2 * pos.rules().n_move_rule)));
    }
    let fold = pos.rules().n_fold_rule as usize;
    if fold > 0 && repetitions(pos) + 1 >= fold {
        return Some(drawn(format!("{fold}-fold repetition")));
    }
    if dead_position(pos) {
        return Some(drawn("dead position".into()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_cache_keys_differ_between_variants() {
        // the same placement and schedule position in two 007 forms must not share an entry
        let set = crate::rules::builtin_variants();
        let salts: Vec<u64> = set
            .names()
            .iter()
            .filter_map(|n| set.get(n))
            .filter(|v| v.mechanics.find::<TurnSchedule>().is_some())
            .map(|v| variant_salt(&Position::startpos(v)))
            .collect();
        assert_eq!(salts.len(), 10, "the ten built-in 007 forms");
        let mut distinct = salts.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), salts.len());
        // and 007 and 007detente start from one key
        let a = Position::startpos(set.get("007").expect("built in"));
        let b = Position::startpos(set.get("007detente").expect("built in"));
        assert_eq!(a.key(), b.key());
    }

    /// The shortcut counts the men off their king's lines before it looks for pins; the answer
    /// is the plain count's (every unpinned man), over positions of random games in chess (pins
    /// by every slider), 007detente and a king-capture form (no pins).
    #[test]
    fn units_are_counted_as_without_the_shortcut() {
        crate::geometry::attacks::init();
        let set = crate::rules::builtin_variants();
        let mut checked = 0;
        for name in ["chess", "007detente", "007-kingcapture"] {
            random_games(set.get(name).expect("built in"), 40, 60, |pos| {
                for color in [Color::White, Color::Black] {
                    let free = pos.pieces(color) & !pinned(pos, color);
                    for dirs in [3, 4] {
                        let all = count_units(pos, color, dirs, free, u32::MAX);
                        for need in 1..=12 {
                            assert_eq!(
                                has_units(pos, color, dirs, need),
                                all >= need,
                                "{name} {} {color:?} dirs {dirs} need {need}",
                                pos.fen()
                            );
                            checked += 1;
                        }
                    }
                }
            });
        }
        assert!(checked > 50_000, "{checked}");
    }

    /// Calls `visit` at each position of `games` random games of `v` of at most `plies` plies.
    fn random_games(
        v: &'static crate::position::Variant,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&mut Position),
    ) {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..games {
            let mut pos = Position::startpos(v);
            for _ in 0..plies {
                visit(&mut pos);
                let mut list = MoveList::new();
                crate::movegen::legal_moves(&mut pos, &mut list);
                if list.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make(list[(seed % list.len() as u64) as usize]);
            }
        }
    }

    /// Quiescence's plies found by judging only the noisy ones are the noisy plies of the full
    /// legal list, and the answer whether any ply is legal is the full list's, over positions
    /// of random games in every 007 form.
    #[test]
    fn noisy_plies_are_the_noisy_part_of_the_legal_plies() {
        crate::geometry::attacks::init();
        let set = crate::rules::builtin_variants();
        let (mut checked, mut none_noisy_but_legal) = (0, 0);
        for name in set.names() {
            let v = set.get(name).expect("listed");
            let Some(t) = v.mechanics.find::<TurnSchedule>() else {
                continue;
            };
            random_games(v, 12, 80, |pos| {
                let (noisy, any, _) = check_noisy(t, pos);
                none_noisy_but_legal += (noisy == 0 && any) as u32;
                checked += 1;
            });
        }
        assert!(checked > 5_000, "{checked}");
        assert!(none_noisy_but_legal > 1_000, "{none_noisy_but_legal}");
        // and every node to depth 3 from the perft suites' sparse positions, where completion
        // removes plies (captures among them)
        let sparse = [
            "7k/5K2/8/8/8/8/8/6Q1 w - - 0 1 1 -/-",
            "r6k/8/8/8/8/7p/7P/7K b - - 0 1 2 -/-",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 1 -/-",
            "7k/7p/5P1P/8/8/p1p5/P1P5/KB6 w - - 0 1 1 -/-",
            "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1 1 -/-",
            // Rxh5 would leave Black no ply on the turn's second: not a legal ply
            "k7/2K5/1P6/7p/8/8/8/7R w - - 0 1 1 -/-",
        ];
        let (mut nodes, mut cut) = (0, 0);
        for name in ["007", "007detente", "007-kingcapture", "progressive007"] {
            let v = set.get(name).expect("built in");
            let t = v.mechanics.find::<TurnSchedule>().expect("a 007 form");
            for fen in sparse {
                let mut pos = Position::from_fen(v, fen).expect("valid");
                let (n, c) = walk(t, &mut pos, 3);
                nodes += n;
                cut += c;
            }
        }
        assert!(nodes > 10_000, "{nodes}");
        assert!(cut >= 2, "noisy plies completion removed: {cut}");
        let (late_plies, late_nodes) = LATE_CUTS.with(|c| c.get());
        assert!(late_plies >= 10, "plies judged illegal late: {late_plies}");
        assert!(
            late_nodes >= 2,
            "nodes with every ply judged illegal: {late_nodes}"
        );
    }

    /// Checks [`TurnSchedule::noisy_plies`] at `pos` against the full legal list: the noisy
    /// plies it keeps, whether any ply is legal, and how many noisy plies of L(s) completion
    /// removed. Checks the main search's late judgement too ([`check_late`]).
    fn check_noisy(t: &TurnSchedule, pos: &mut Position) -> (usize, bool, u32) {
        let mut all = MoveList::new();
        legal_moves(pos, &mut all);
        check_late(pos, &all);
        let mut noisy = MoveList::new();
        let any = t.noisy_plies(pos, &mut noisy);
        let mut unfiltered = MoveList::new();
        plies(pos, &mut unfiltered);
        let is_noisy = |m: &&Move| crate::movegen::generic::is_noisy(pos, **m);
        let expected: Vec<Move> = all.iter().filter(is_noisy).copied().collect();
        assert_eq!(noisy.as_slice(), &expected[..], "{}", pos.fen());
        assert_eq!(any, !all.is_empty(), "{}", pos.fen());
        let cut = unfiltered.iter().filter(is_noisy).count() - expected.len();
        (expected.len(), any, cut as u32)
    }

    /// The main search's lists ([`crate::movegen::moves_to_judge`], each move judged by
    /// [`crate::movegen::judge_late`]) keep exactly the legal plies `all`, in their order;
    /// counts the plies judged illegal late and the nodes where all were.
    fn check_late(pos: &mut Position, all: &MoveList) {
        let mut early = MoveList::new();
        let late = crate::movegen::moves_to_judge(pos, &mut early);
        let judged: Vec<Move> = early
            .iter()
            .copied()
            .filter(|&m| crate::movegen::judge_late(pos, m, late))
            .collect();
        assert_eq!(judged.as_slice(), all.as_slice(), "{}", pos.fen());
        LATE_CUTS.with(|c| {
            let (plies, nodes) = c.get();
            let all_cut = !early.is_empty() && all.is_empty();
            c.set((plies + early.len() - all.len(), nodes + all_cut as usize));
        });
    }

    thread_local! {
        /// Plies judged illegal late and nodes where every ply was ([`check_late`]).
        static LATE_CUTS: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
    }

    /// [`check_noisy`] at every node of the tree below `pos` to `depth`: the nodes checked and
    /// the noisy plies completion removed.
    fn walk(t: &TurnSchedule, pos: &mut Position, depth: u32) -> (u32, u32) {
        let (_, _, mut cut) = check_noisy(t, pos);
        let mut nodes = 1;
        if depth > 0 {
            let mut all = MoveList::new();
            legal_moves(pos, &mut all);
            for &m in all.iter() {
                pos.make(m);
                let (n, c) = walk(t, pos, depth - 1);
                pos.unmake();
                nodes += n;
                cut += c;
            }
        }
        (nodes, cut)
    }

    fn row(s: Schedule, p: u32) -> (char, u32, u32) {
        let t = turn_of(s, p);
        (t.chooser.name().chars().next().unwrap(), t.index, t.len)
    }

    #[test]
    fn tables_of_a4() {
        // chooser letters of plies 1..20, from the tables of A.4
        let cases = [
            (Schedule::Jackman, "WWWBBBWWWBBBWWWBBBWW"),
            (Schedule::Balanced, "BWWBBBWWWBBBWWWBBBWW"),
            (Schedule::Progressive, "WBBWWWBBBBWWWWWBBBBB"),
        ];
        for (s, choosers) in cases {
            for (i, c) in choosers.chars().enumerate() {
                assert_eq!(row(s, i as u32 + 1).0, c, "{s:?} ply {}", i + 1);
            }
        }
        assert_eq!(row(Schedule::Balanced, 1), ('B', 1, 1));
        assert_eq!(row(Schedule::Balanced, 3), ('W', 2, 2));
        assert_eq!(turn_of(Schedule::Balanced, 3).slot(), 3);
        assert_eq!(turn_of(Schedule::Balanced, 2).slot(), 2);
        assert_eq!(turn_of(Schedule::Balanced, 1).slot(), 2);
        assert!(turn_of(Schedule::Balanced, 1).is_last());
        assert_eq!(row(Schedule::Progressive, 10), ('B', 4, 4));
        assert_eq!(row(Schedule::Progressive, 20), ('B', 5, 6));
        // (turn length, index) never repeats in Progressive; phases are distinct per p
        for p in 1..5000u32 {
            let n = progressive_turn(p);
            assert!(n * (n + 1) / 2 >= p && (n - 1) * n / 2 < p, "p={p}");
        }
        // (colour, slot) repeats with period 6 from ply 4 (Balanced) / 1 (007)
        for p in 4..200 {
            assert_eq!(
                turn_of(Schedule::Balanced, p),
                turn_of(Schedule::Balanced, p + 6)
            );
            assert_eq!(
                phase(Schedule::Balanced, p),
                phase(Schedule::Balanced, p + 6)
            );
            assert_eq!(
                turn_of(Schedule::Jackman, p),
                turn_of(Schedule::Jackman, p + 6)
            );
        }
    }
}
