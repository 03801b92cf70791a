//! The search's tunable constants: one table gives each its UCI name, default and range, so
//! the search, the protocols (`setoption`) and the SPSA tuner (`chimera spsa`, src/tune) read
//! the same list. The defaults are the values the engine plays with; changing one changes the
//! `bench` signature and needs an SPRT (docs/strength.md).
//!
//! The pruning and reduction formulas that read them live here too, so a formula and its
//! constants are read together.

/// One tunable constant, as a tuner and a GUI see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    /// The UCI option's name.
    pub name: &'static str,
    /// The engine's value.
    pub default: i32,
    /// The least value a tuner may try.
    pub min: i32,
    /// The greatest value a tuner may try.
    pub max: i32,
    /// SPSA's perturbation at the end of a run (OpenBench's and fishtest's `c_end`).
    pub c_end: f64,
    /// What it changes.
    pub help: &'static str,
}

/// SPSA's learning rate at the end of a run (`r_end`), the same for every constant: the gain
/// of the last iterations is `r_end * c_end^2`, a step of `r_end * c_end` a unit of a game
/// pair's result, as fishtest sets it.
pub const R_END: f64 = 0.002;

macro_rules! tunables {
    ($($field:ident: $name:literal = $default:literal in $min:literal..=$max:literal,
       c_end $c:literal, $help:literal;)*) => {
        /// The values of the tunable constants the search plays with.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $(#[doc = $help] pub $field: i32,)*
        }

        /// Every tunable constant, in the order SPSA reports them.
        pub const TUNABLES: &[Tunable] = &[
            $(Tunable { name: $name, default: $default, min: $min, max: $max, c_end: $c,
                        help: $help },)*
        ];

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $($field: $default,)* }
            }
        }

        impl SearchParams {
            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                $(if name.eq_ignore_ascii_case($name) { return Some(&mut self.$field); })*
                None
            }

            /// The values in the order of [`TUNABLES`].
            pub fn values(&self) -> Vec<i32> {
                vec![$(self.$field,)*]
            }
        }
    };
}

tunables! {
    rfp_max_depth: "RfpMaxDepth" = 6 in 3..=10, c_end 0.5,
        "Reverse futility pruning: the deepest remaining depth it applies at.";
    rfp_margin: "RfpMargin" = 90 in 30..=200, c_end 8.0,
        "Reverse futility pruning: the margin per ply of remaining depth, in centipawns.";
    null_base_reduction: "NullBaseReduction" = 3 in 2..=5, c_end 0.5,
        "Null move: the base reduction in plies.";
    null_depth_divisor: "NullDepthDivisor" = 4 in 2..=8, c_end 0.5,
        "Null move: one more ply of reduction per this many plies of depth.";
    lmp_base: "LmpBase" = 4 in 1..=10, c_end 0.5,
        "Late-move pruning where the evaluation improves: quiet moves from index base + factor * depth^2 on are skipped.";
    lmp_factor: "LmpFactor" = 2 in 1..=5, c_end 0.5,
        "Late-move pruning where the evaluation improves: see LmpBase.";
    lmp_max_depth: "LmpMaxDepth" = 3 in 1..=12, c_end 0.5,
        "Late-move pruning: the deepest remaining depth it applies at.";
    futility_max_depth: "FutilityMaxDepth" = 6 in 3..=10, c_end 0.5,
        "Futility pruning: the deepest remaining depth at which quiet moves are skipped.";
    futility_base: "FutilityBase" = 80 in 0..=250, c_end 10.0,
        "Futility pruning: the margin's base, in centipawns.";
    futility_per_ply: "FutilityPerPly" = 90 in 30..=200, c_end 8.0,
        "Futility pruning: the margin per ply of remaining depth, in centipawns.";
    lmr_base: "LmrBase" = 75 in 0..=150, c_end 8.0,
        "Late-move reductions: base + ln(depth) ln(index) / divisor plies, in hundredths.";
    lmr_divisor: "LmrDivisor" = 225 in 150..=400, c_end 15.0,
        "Late-move reductions: see LmrBase, in hundredths.";
    lmr_history_divisor: "LmrHistoryDivisor" = 8192 in 2048..=32768, c_end 800.0,
        "Late-move reductions: one ply less per this much quiet history.";
    see_quiet_margin: "SeeQuietMargin" = 60 in 10..=150, c_end 6.0,
        "SEE pruning: a quiet move losing more than this per ply of depth is skipped.";
    see_capture_margin: "SeeCaptureMargin" = 120 in 30..=250, c_end 10.0,
        "SEE pruning: a capture losing more than this per ply of depth is skipped.";
    delta_margin: "DeltaMargin" = 200 in 50..=400, c_end 15.0,
        "Quiescence delta pruning: the margin over alpha a capture must reach, in centipawns.";
    singular_margin: "SingularMargin" = 2 in 1..=6, c_end 0.5,
        "Singular extensions: the margin per ply of depth under the table's score.";
    aspiration_window: "AspirationWindow" = 25 in 8..=80, c_end 3.0,
        "Aspiration windows: the first window's half-width, in centipawns.";
    time_moves_to_go: "TimeMovesToGo" = 30 in 10..=60, c_end 2.0,
        "Time: the moves the clock is shared over when the GUI does not say (the soft limit is the clock over this).";
    time_inc_percent: "TimeIncPercent" = 75 in 25..=100, c_end 5.0,
        "Time: the share of the increment added to each move's soft limit, in per cent.";
    time_hard_factor: "TimeHardFactor" = 4 in 2..=8, c_end 0.5,
        "Time: the hard limit (stop now) as a multiple of the soft one (start no new iteration).";
    corr_material_weight: "CorrMaterialWeight" = 0 in 0..=200, c_end 10.0,
        "Correction history by material: the share of its correction added to the static evaluation, in per cent (0: off).";
    hist_prune_depth: "HistPruneDepth" = 0 in 0..=8, c_end 0.5,
        "History pruning: the deepest remaining depth at which a late quiet move with bad history is skipped (0: off).";
    hist_prune_margin: "HistPruneMargin" = 2048 in 256..=8192, c_end 300.0,
        "History pruning: a quiet move is skipped when its history is below minus this times the remaining depth.";
    probcut_margin: "ProbcutMargin" = 0 in 0..=400, c_end 15.0,
        "ProbCut: how far over beta a capture's reduced search must reach to cut a non-PV node, in centipawns (0: off).";
    time_best_change: "TimeBestChange" = 0 in 0..=200, c_end 10.0,
        "Time: the soft limit grows by this per cent per recent change of the best move (changes count half less each iteration; 0: off).";
    time_node_share: "TimeNodeShare" = 0 in 0..=90, c_end 5.0,
        "Time: the soft limit scales by 1 + this per cent times (1 - 2 x the best move's share of the nodes) (0: off).";
    time_score_fall: "TimeScoreFall" = 0 in 0..=200, c_end 10.0,
        "Time: the soft limit grows by this per cent per 100 cp the score fell in the last iteration, up to 200 cp (0: off).";
}

/// Least remaining depth and move index late-move reductions apply from (not tuned: they
/// bound the table).
const LMR_MIN_DEPTH: i32 = 3;
/// See [`LMR_MIN_DEPTH`].
const LMR_MIN_INDEX: usize = 3;
/// Late-move pruning where the evaluation is not improving: fewer quiet moves are tried (from
/// index `LMP_BASE_WORSENING + LMP_FACTOR_WORSENING * depth^2` on they are skipped), since a
/// position getting worse rarely gets its cutoff from a late quiet move.
const LMP_BASE_WORSENING: usize = 3;
/// See [`LMP_BASE_WORSENING`].
const LMP_FACTOR_WORSENING: i32 = 1;

impl SearchParams {
    /// Sets the constant named `name` (case-insensitive, as UCI option names are): `Ok(false)`
    /// when no tunable has that name, an error when the value is outside its range.
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let Some(t) = TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name)) else {
            return Ok(false);
        };
        let v: i32 = value
            .trim()
            .parse()
            .map_err(|_| format!("{} takes a whole number, not '{value}'", t.name))?;
        if !(t.min..=t.max).contains(&v) {
            return Err(format!(
                "{} must be within {}..{}, not {v}",
                t.name, t.min, t.max
            ));
        }
        *self.slot(t.name).expect("every tunable has a field") = v;
        Ok(true)
    }

    /// The late-move reduction table, `[depth][move index]` in plies.
    pub fn reductions(&self) -> [[u8; 64]; 64] {
        let (base, divisor) = (
            self.lmr_base as f64 / 100.0,
            self.lmr_divisor as f64 / 100.0,
        );
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / divisor).max(0.0) as u8;
            }
        }
        t
    }

    /// Late-move and futility pruning: whether the quiet move at index `i` of a non-PV node at
    /// `depth` (not in check, some move already searched) is skipped.
    #[inline]
    pub fn prunes_quiet(
        &self,
        depth: i32,
        i: usize,
        improving: bool,
        static_eval: i32,
        alpha: i32,
    ) -> bool {
        let late = if improving {
            self.lmp_base as usize + (self.lmp_factor * depth * depth) as usize
        } else {
            LMP_BASE_WORSENING + (LMP_FACTOR_WORSENING * depth * depth) as usize
        };
        (depth <= self.lmp_max_depth && i >= late)
            || (i > 0 && self.futile(depth, static_eval, alpha))
    }

    /// Futility pruning: whether a non-PV node's quiet moves after its first cannot raise
    /// alpha.
    #[inline]
    pub fn futile(&self, depth: i32, static_eval: i32, alpha: i32) -> bool {
        depth <= self.futility_max_depth
            && static_eval + self.futility_base + self.futility_per_ply * depth <= alpha
    }

    /// History pruning: whether the quiet move at index `i` of a non-PV node at `depth` (not
    /// in check), whose quiet history `history` gives, is skipped. Not the first move; the
    /// history is read only where the depth allows pruning.
    #[inline]
    pub fn prunes_by_history(&self, depth: i32, i: usize, history: impl FnOnce() -> i32) -> bool {
        i > 0 && depth <= self.hist_prune_depth && history() < -self.hist_prune_margin * depth
    }

    /// Late-move reduction `r` of a quiet move adjusted: less for a move with good history,
    /// more for one with bad history or where the evaluation is not improving; kept within
    /// the `new_depth` (at least one ply is searched).
    #[inline]
    pub fn adjust_reduction(&self, r: i32, history: i32, improving: bool, new_depth: i32) -> i32 {
        if r == 0 {
            return 0;
        }
        let r = r - history / self.lmr_history_divisor + !improving as i32;
        r.clamp(0, new_depth - 1)
    }

    /// The late-move reduction of the quiet move at index `i` of a node at `depth` whose moves
    /// are searched to `new_depth` (none for the first moves or shallow nodes), from
    /// `table` ([`SearchParams::reductions`]).
    #[inline]
    pub fn late_move_reduction(
        table: &[[u8; 64]; 64],
        depth: i32,
        i: usize,
        is_pv: bool,
        new_depth: i32,
    ) -> i32 {
        if depth < LMR_MIN_DEPTH || i < LMR_MIN_INDEX {
            return 0;
        }
        let r = table[depth.min(63) as usize][i.min(63)] as i32 - is_pv as i32;
        r.clamp(0, new_depth - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_names_are_distinct() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.c_end > 0.0, "{}", t.name);
            assert!(
                TUNABLES[i + 1..]
                    .iter()
                    .all(|u| !u.name.eq_ignore_ascii_case(t.name)),
                "{} twice",
                t.name
            );
        }
        let defaults: Vec<i32> = TUNABLES.iter().map(|t| t.default).collect();
        assert_eq!(SearchParams::default().values(), defaults);
    }

    #[test]
    fn set_takes_names_in_any_case_and_refuses_what_is_out_of_range() {
        let mut p = SearchParams::default();
        assert_eq!(p.set("rfpmargin", "120"), Ok(true));
        assert_eq!(p.rfp_margin, 120);
        assert_eq!(p.set("NoSuchConstant", "1"), Ok(false));
        assert!(p.set("RfpMargin", "1000").unwrap_err().contains("30..200"));
        assert!(p
            .set("RfpMargin", "x")
            .unwrap_err()
            .contains("whole number"));
        assert_eq!(p.rfp_margin, 120, "a refused value changes nothing");
        for t in TUNABLES {
            let mut q = SearchParams::default();
            assert_eq!(q.set(t.name, &t.max.to_string()), Ok(true));
            let i = TUNABLES.iter().position(|u| u.name == t.name).unwrap();
            assert_eq!(q.values()[i], t.max, "{} sets its own field", t.name);
        }
    }

    #[test]
    fn history_pruning_is_off_by_default_and_skips_only_late_bad_moves_when_on() {
        let off = SearchParams::default();
        assert!(!off.prunes_by_history(1, 10, || -100_000));
        let mut on = off;
        on.set("HistPruneDepth", "3").unwrap();
        on.set("HistPruneMargin", "1000").unwrap();
        assert!(on.prunes_by_history(2, 5, || -2001));
        assert!(
            !on.prunes_by_history(2, 5, || -2000),
            "not below the margin"
        );
        assert!(!on.prunes_by_history(4, 5, || -100_000), "too deep");
        assert!(!on.prunes_by_history(2, 0, || -100_000), "the first move");
    }

    #[test]
    fn late_move_pruning_stops_at_its_deepest_depth() {
        // alpha far below the evaluation, so futility prunes nothing: only the move count
        let (eval, alpha) = (0, -10_000);
        let mut p = SearchParams::default();
        // improving at depth 3: moves from index 4 + 2 * 9 = 22 on
        assert!(p.prunes_quiet(3, 22, true, eval, alpha));
        assert!(!p.prunes_quiet(3, 21, true, eval, alpha));
        // not improving at depth 4: from 3 + 16 = 19, but only once the limit reaches 4
        assert!(!p.prunes_quiet(4, 60, false, eval, alpha), "deeper than 3");
        p.set("LmpMaxDepth", "4").unwrap();
        assert!(p.prunes_quiet(4, 19, false, eval, alpha));
        assert!(!p.prunes_quiet(4, 18, false, eval, alpha));
        assert!(!p.prunes_quiet(5, 60, false, eval, alpha), "deeper than 4");
    }

    #[test]
    fn the_default_reduction_table_is_the_engine_s_formula() {
        let t = SearchParams::default().reductions();
        // 0.75 + ln d ln m / 2.25, truncated
        assert_eq!(t[1][1], 0);
        assert_eq!(t[10][10], (0.75 + 10f64.ln().powi(2) / 2.25) as u8);
        assert_eq!(t[63][63], (0.75 + 63f64.ln().powi(2) / 2.25) as u8);
        let mut p = SearchParams::default();
        p.set("LmrDivisor", "150").unwrap();
        assert!(p.reductions()[20][20] > t[20][20]);
    }
}
