//! SPSA tuning of the search's constants, the method fishtest and OpenBench use: at iteration
//! k every constant is moved by ±c_k at once (one random sign each), the engine with the
//! constants moved up plays a game pair against the one with them moved down (`chimera
//! match`, same opening, both colours), and each constant steps along its sign by
//! `a_k / c_k` times the pair's result (wins minus losses of the upper side). The gains follow
//! fishtest's schedule (alpha 0.602, gamma 0.101, A a tenth of the iterations), set so that at
//! the last iteration the perturbation is `c_end` and the gain `r_end * c_end^2`, a step of
//! `r_end * c_end` a unit of result ([`crate::search::params`] gives each constant's `c_end`).
//!
//! A run lives in its work folder: `spsa.state` (the iteration reached, the values, the
//! games) is rewritten whole after every iteration, so a run stopped at any moment resumes
//! with the same command; `spsa.csv` logs every iteration, `games.pgn` every game (an
//! iteration stopped part-way is played again whole, so its finished games stand there twice).

use crate::engine::{Tunable, TUNABLES};
use crate::learn::write_whole;
use crate::openings::genfens;
use crate::position::Variant;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// fishtest's exponent of the step's decay.
const ALPHA: f64 = 0.602;
/// fishtest's exponent of the perturbation's decay.
const GAMMA: f64 = 0.101;
/// The first line of the state file.
const STATE_HEADER: &str =
    "# chimera spsa: the state of a tuning run; read by 'chimera spsa', do not edit";

/// A tuning run's configuration.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The variant the games are played in.
    pub variant: String,
    /// A user's variants.ini, passed on to the games.
    pub variants_file: Option<String>,
    /// The work folder.
    pub work: PathBuf,
    /// Iterations (game pairs each, times `pairs`) of the whole run.
    pub iterations: u64,
    /// Game pairs an iteration.
    pub pairs: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// The games' time control, as `chimera match`'s `tc=`.
    pub tc: String,
    /// Nodes a move instead of the time control (faster, and the same on any machine).
    pub nodes: Option<u64>,
    /// Hash table of each engine, MB.
    pub hash: u64,
    /// Openings (EPD/FEN, one a line); `None`: 200 balanced openings made with `genfens`.
    pub book: Option<String>,
    /// The constants tuned (the others keep their values).
    pub params: Vec<&'static Tunable>,
    /// The run's seed (the signs of each iteration).
    pub seed: u64,
    /// The learning rate at the end of the run (fishtest's `r_end`).
    pub r_end: f64,
    /// The engine played (a `chimera` binary).
    pub engine: PathBuf,
    /// Stop after this many hours (the same command goes on later).
    pub hours: Option<f64>,
}

/// Where a run stands.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaState {
    /// Iterations done.
    pub done: u64,
    /// The values, in the order of the config's params.
    pub theta: Vec<f64>,
    /// Games won, lost and drawn by the upper side.
    pub wld: [u64; 3],
    /// Games that ended by a fault (illegal move, crash, time, stall).
    pub faults: u64,
}

/// The perturbation of `t` at iteration `k` of `n`.
pub fn c_k(t: &Tunable, k: u64, n: u64) -> f64 {
    t.c_end * (n as f64).powf(GAMMA) / (k as f64).powf(GAMMA)
}

/// The step gain of `t` at iteration `k` of `n`, ending at `r_end * c_end^2`.
pub fn a_k(t: &Tunable, r_end: f64, k: u64, n: u64) -> f64 {
    let big_a = 0.1 * n as f64;
    r_end * t.c_end * t.c_end * (big_a + n as f64).powf(ALPHA) / (big_a + k as f64).powf(ALPHA)
}

/// The sign of constant `i` at iteration `k` (deterministic in the seed).
pub fn sign(seed: u64, k: u64, i: usize) -> f64 {
    let mut z = seed
        ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (i as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    if z & 1 == 0 {
        1.0
    } else {
        -1.0
    }
}

/// The values each side plays with at iteration `k`: (upper, lower), rounded and clamped.
pub fn perturbed(cfg: &SpsaConfig, st: &SpsaState, k: u64) -> (Vec<i32>, Vec<i32>) {
    let side = |dir: f64| {
        cfg.params
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let v = st.theta[i] + dir * c_k(t, k, cfg.iterations) * sign(cfg.seed, k, i);
                (v.round() as i32).clamp(t.min, t.max)
            })
            .collect()
    };
    (side(1.0), side(-1.0))
}

/// Steps the values after iteration `k`, whose upper side scored `result` (wins minus
/// losses over its games).
pub fn update(cfg: &SpsaConfig, st: &mut SpsaState, k: u64, result: i64) {
    for (i, t) in cfg.params.iter().enumerate() {
        let step = a_k(t, cfg.r_end, k, cfg.iterations) / c_k(t, k, cfg.iterations)
            * result as f64
            * sign(cfg.seed, k, i);
        st.theta[i] = (st.theta[i] + step).clamp(t.min as f64, t.max as f64);
    }
}

impl SpsaState {
    fn fresh(cfg: &SpsaConfig) -> SpsaState {
        SpsaState {
            done: 0,
            theta: cfg.params.iter().map(|t| t.default as f64).collect(),
            wld: [0; 3],
            faults: 0,
        }
    }

    /// "iteration K/N, upper side W-L-D, F faults".
    pub fn summary(&self, cfg: &SpsaConfig) -> String {
        format!(
            "iteration {}/{}, upper side {}-{}-{}, {} faults",
            self.done, cfg.iterations, self.wld[0], self.wld[1], self.wld[2], self.faults
        )
    }

    fn to_text(&self, cfg: &SpsaConfig) -> String {
        let names: Vec<&str> = cfg.params.iter().map(|t| t.name).collect();
        let theta: Vec<String> = self.theta.iter().map(|v| format!("{v:.4}")).collect();
        format!(
            "{STATE_HEADER}\nvariant = {}\nseed = {}\niterations = {}\npairs = {}\nr_end = {}\nparams = {}\n\
             done = {}\ngames = {} {} {}\nfaults = {}\ntheta = {}\n",
            cfg.variant,
            cfg.seed,
            cfg.iterations,
            cfg.pairs,
            cfg.r_end,
            names.join(" "),
            self.done,
            self.wld[0],
            self.wld[1],
            self.wld[2],
            self.faults,
            theta.join(" ")
        )
    }

    /// Reads the state file at `path` written for `cfg`: `None` when there is none yet; a file
    /// of another run, a damaged or unreadable one, is refused with the file and the key at
    /// fault (never taken for a fresh start, which would overwrite it).
    pub fn load(path: &Path, cfg: &SpsaConfig) -> Result<Option<SpsaState>, String> {
        match std::fs::read(path) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes)
                    .map_err(|_| format!("{}: not text (damaged)", path.display()))?;
                SpsaState::from_text(&text, cfg, path).map(Some)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Reads a state file's text written for `cfg`; a file of another run, or a damaged one,
    /// is refused with the key at fault.
    fn from_text(text: &str, cfg: &SpsaConfig, path: &Path) -> Result<SpsaState, String> {
        let bad = |what: String| format!("{}: {what}", path.display());
        let mut lines = text.lines();
        if lines.next() != Some(STATE_HEADER) {
            return Err(bad("not a chimera spsa state file".into()));
        }
        let mut st = SpsaState::fresh(cfg);
        let fresh = SpsaState::fresh(cfg).to_text(cfg);
        let expected: Vec<&str> = fresh.lines().collect();
        let mut seen = Vec::new();
        for line in lines {
            let (key, value) = line
                .split_once(" = ")
                .ok_or_else(|| bad(format!("'{line}' is not 'key = value'")))?;
            seen.push(key.to_string());
            let num = |s: &str| s.parse::<u64>().map_err(|_| bad(format!("{key}: '{s}'")));
            match key {
                "variant" | "seed" | "iterations" | "pairs" | "r_end" | "params" => {
                    if !expected.contains(&line) {
                        return Err(bad(format!(
                            "the run there has {key} = {value}, this command another; \
                             give another --work or the run's own options"
                        )));
                    }
                }
                "done" => st.done = num(value)?.min(cfg.iterations),
                "faults" => st.faults = num(value)?,
                "games" => {
                    let v: Vec<u64> = value.split(' ').map(num).collect::<Result<_, _>>()?;
                    st.wld = v
                        .try_into()
                        .map_err(|_| bad("games needs 3 numbers".into()))?;
                }
                "theta" => {
                    let v: Vec<f64> = value
                        .split(' ')
                        .map(|s| s.parse::<f64>().ok().filter(|x| x.is_finite()))
                        .collect::<Option<_>>()
                        .ok_or_else(|| bad(format!("theta: '{value}'")))?;
                    let fits = v.len() == cfg.params.len()
                        && v.iter()
                            .zip(&cfg.params)
                            .all(|(x, t)| (t.min as f64..=t.max as f64).contains(x));
                    if !fits {
                        return Err(bad(format!(
                            "theta: '{value}' is not one value within range per constant"
                        )));
                    }
                    st.theta = v;
                }
                _ => return Err(bad(format!("unknown key '{key}'"))),
            }
        }
        // every key of the file this run writes must be there
        for line in &expected[1..] {
            let key = line.split(" = ").next().unwrap_or_default();
            if !seen.iter().any(|k| k == key) {
                return Err(bad(format!("damaged: no '{key}' line")));
            }
        }
        Ok(st)
    }
}

/// The constants named in `list` (comma-separated, any case; "all" or empty: every one).
pub fn select(list: &str) -> Result<Vec<&'static Tunable>, String> {
    if list.is_empty() || list.eq_ignore_ascii_case("all") {
        return Ok(TUNABLES.iter().collect());
    }
    list.split(',')
        .map(|n| {
            TUNABLES
                .iter()
                .find(|t| t.name.eq_ignore_ascii_case(n.trim()))
                .ok_or_else(|| {
                    let names: Vec<&str> = TUNABLES.iter().map(|t| t.name).collect();
                    format!(
                        "no tunable constant '{n}' (there are: {})",
                        names.join(", ")
                    )
                })
        })
        .collect()
}

/// The tunables in OpenBench's SPSA input format (`name, int, default, min, max, c_end,
/// r_end`).
pub fn openbench_lines() -> Vec<String> {
    TUNABLES
        .iter()
        .map(|t| {
            format!(
                "{}, int, {}, {}, {}, {}, {}",
                t.name,
                t.default,
                t.min,
                t.max,
                t.c_end,
                crate::search::params::R_END
            )
        })
        .collect()
}

/// The openings file: the user's, or 200 balanced ones made once into the work folder.
fn book(rules: &'static Variant, cfg: &SpsaConfig) -> Result<(PathBuf, usize), String> {
    let path = match &cfg.book {
        Some(b) => PathBuf::from(b),
        None => {
            let path = cfg.work.join("book.fen");
            if !path.exists() {
                let text = genfens::balanced_openings(rules, 200, cfg.seed)?;
                write_whole(&path, text.as_bytes())?;
            }
            path
        }
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let n = text.lines().filter(|l| !l.trim().is_empty()).count();
    if n == 0 {
        return Err(format!("{}: no opening in it", path.display()));
    }
    Ok((path, n))
}

/// The `chimera match` arguments of iteration `k`.
fn match_args(
    cfg: &SpsaConfig,
    book: &(PathBuf, usize),
    k: u64,
    up: &[i32],
    down: &[i32],
) -> Vec<String> {
    let exe = cfg.engine.display().to_string();
    let side = |name: &str, values: &[i32]| {
        let mut v = vec![
            "-engine".to_string(),
            format!("cmd={exe}"),
            format!("name={name}"),
        ];
        for (t, x) in cfg.params.iter().zip(values) {
            v.push(format!("option.{}={x}", t.name));
        }
        if let Some(f) = &cfg.variants_file {
            v.push(format!("option.VariantPath={f}"));
        }
        v
    };
    let start = ((k - 1) * cfg.pairs) % book.1 as u64 + 1;
    let mut args = vec!["match".to_string(), "-variant".into(), cfg.variant.clone()];
    if let Some(f) = &cfg.variants_file {
        args.extend(["-variants".into(), f.clone()]);
    }
    args.extend(side("upper", up));
    args.extend(side("lower", down));
    args.extend([
        "-each".to_string(),
        cfg.nodes
            .map_or(format!("tc={}", cfg.tc), |n| format!("nodes={n}")),
        format!("option.Hash={}", cfg.hash),
        "-games".into(),
        "2".into(),
        "-rounds".into(),
        cfg.pairs.to_string(),
        "-repeat".into(),
        "-openings".into(),
        format!("file={}", book.0.display()),
        "format=fen".into(),
        format!("start={start}"),
        "-concurrency".into(),
        cfg.concurrency.to_string(),
        "-pgnout".into(),
        cfg.work.join("games.pgn").display().to_string(),
    ]);
    args
}

/// Plays iteration `k`'s games: the upper side's wins, losses, draws, and the faults.
fn play(cfg: &SpsaConfig, args: &[String]) -> Result<([u64; 3], u64), String> {
    let out = Command::new(&cfg.engine)
        .args(args)
        .env("CHIMERA_TUNE", "1")
        .output()
        .map_err(|e| format!("{}: {e}", cfg.engine.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("the games' match failed: {}", err.trim()));
    }
    let wld = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("Score of upper vs lower: "))
        .and_then(|s| {
            let v: Vec<u64> = s
                .split(['-', '['])
                .take(3)
                .map(|x| x.trim().parse().ok())
                .collect::<Option<_>>()?;
            v.try_into().ok()
        })
        .ok_or("the games' match printed no score")?;
    let faults = text
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .filter(|l| {
            ["illegal move", "disconnects", "loses on time", "stalls"]
                .iter()
                .any(|f| l.contains(f))
        })
        .count() as u64;
    Ok((wld, faults))
}

/// Runs (or resumes) a tuning run; returns its final state.
pub fn run(rules: &'static Variant, cfg: &SpsaConfig) -> Result<SpsaState, String> {
    std::fs::create_dir_all(&cfg.work).map_err(|e| format!("{}: {e}", cfg.work.display()))?;
    let state_path = cfg.work.join("spsa.state");
    let mut st = SpsaState::load(&state_path, cfg)?.unwrap_or_else(|| SpsaState::fresh(cfg));
    let book = book(rules, cfg)?;
    let started = Instant::now();
    let first = st.done;
    while st.done < cfg.iterations {
        if cfg
            .hours
            .is_some_and(|h| started.elapsed().as_secs_f64() >= h * 3600.0)
        {
            break;
        }
        let k = st.done + 1;
        let (up, down) = perturbed(cfg, &st, k);
        let (wld, faults) = play(cfg, &match_args(cfg, &book, k, &up, &down))?;
        update(cfg, &mut st, k, wld[0] as i64 - wld[1] as i64);
        for (total, x) in st.wld.iter_mut().zip(wld) {
            *total += x;
        }
        st.faults += faults;
        st.done = k;
        log_iteration(cfg, &st, k, &wld, &up, &down)?;
        write_whole(&state_path, st.to_text(cfg).as_bytes())?;
        progress(cfg, &st, first, started);
    }
    Ok(st)
}

/// Appends iteration `k` to `spsa.csv` (a header first).
fn log_iteration(
    cfg: &SpsaConfig,
    st: &SpsaState,
    k: u64,
    wld: &[u64; 3],
    up: &[i32],
    down: &[i32],
) -> Result<(), String> {
    use std::io::Write;
    let path = cfg.work.join("spsa.csv");
    let new = !path.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut line = String::new();
    if new {
        line += "iteration,wins,losses,draws";
        for t in &cfg.params {
            line += &format!(",{0},{0}+,{0}-", t.name);
        }
        line.push('\n');
    }
    line += &format!("{k},{},{},{}", wld[0], wld[1], wld[2]);
    for i in 0..cfg.params.len() {
        line += &format!(",{:.3},{},{}", st.theta[i], up[i], down[i]);
    }
    line.push('\n');
    f.write_all(line.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The progress line: iterations, games, rate, ETA and the values.
fn progress(cfg: &SpsaConfig, st: &SpsaState, first: u64, started: Instant) {
    let done_now = (st.done - first) as f64;
    let secs = started.elapsed().as_secs_f64();
    let eta = secs / done_now.max(1.0) * (cfg.iterations - st.done) as f64;
    let values: Vec<String> = cfg
        .params
        .iter()
        .zip(&st.theta)
        .map(|(t, v)| format!("{}={v:.1}", t.name))
        .collect();
    eprintln!(
        "spsa: {}, {:.1} s an iteration, ETA {}h{:02}m: {}",
        st.summary(cfg),
        secs / done_now.max(1.0),
        (eta / 3600.0) as u64,
        ((eta % 3600.0) / 60.0) as u64,
        values.join(" ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(params: &str, iterations: u64) -> SpsaConfig {
        SpsaConfig {
            variant: "chess".into(),
            variants_file: None,
            work: PathBuf::from("/nonexistent"),
            iterations,
            pairs: 1,
            concurrency: 2,
            tc: "1+0.01".into(),
            nodes: None,
            hash: 16,
            book: None,
            params: select(params).unwrap(),
            seed: 7,
            r_end: 0.002,
            engine: PathBuf::from("chimera"),
            hours: None,
        }
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let t = TUNABLES[0];
        assert!((c_k(&t, 1000, 1000) - t.c_end).abs() < 1e-9);
        let r_end = crate::search::params::R_END;
        assert!((a_k(&t, r_end, 1000, 1000) - r_end * t.c_end * t.c_end).abs() < 1e-9);
        assert!(c_k(&t, 1, 1000) > c_k(&t, 500, 1000));
        assert!(a_k(&t, r_end, 1, 1000) > a_k(&t, r_end, 500, 1000));
    }

    #[test]
    fn signs_are_balanced_and_reproducible() {
        let plus = (1..=1000).filter(|&k| sign(3, k, 0) > 0.0).count();
        assert!((400..600).contains(&plus), "{plus}");
        assert_eq!(sign(3, 17, 2), sign(3, 17, 2));
        assert!((0..20).any(|i| sign(3, 17, i) != sign(3, 17, 0)));
    }

    #[test]
    fn a_win_of_the_upper_side_moves_each_value_its_way() {
        let cfg = config("RfpMargin,LmrBase", 100);
        let mut st = SpsaState::fresh(&cfg);
        let (up, down) = perturbed(&cfg, &st, 1);
        update(&cfg, &mut st, 1, 2);
        for i in 0..2 {
            let default = cfg.params[i].default as f64;
            // the values move towards the upper side's
            assert_eq!(
                (st.theta[i] - default).signum(),
                (up[i] - down[i]).signum() as f64,
                "{}",
                cfg.params[i].name
            );
        }
        let mut st2 = SpsaState::fresh(&cfg);
        update(&cfg, &mut st2, 1, 0);
        assert_eq!(
            st2.theta,
            SpsaState::fresh(&cfg).theta,
            "a level pair moves nothing"
        );
    }

    #[test]
    fn values_stay_in_range() {
        let cfg = config("SingularMargin", 10);
        let mut st = SpsaState::fresh(&cfg);
        for k in 1..=10 {
            let (up, down) = perturbed(&cfg, &st, k);
            assert!(up.iter().chain(&down).all(|&v| (1..=6).contains(&v)));
            update(&cfg, &mut st, k, 100_000 * sign(cfg.seed, k, 0) as i64);
        }
        assert_eq!(
            st.theta[0], 6.0,
            "pushed up every time, it stops at the top"
        );
    }

    #[test]
    fn the_state_reads_back_and_refuses_another_run() {
        let cfg = config("RfpMargin,LmrBase", 100);
        let st = SpsaState {
            done: 12,
            theta: vec![91.25, 70.5],
            wld: [5, 4, 15],
            faults: 0,
        };
        let text = st.to_text(&cfg);
        let path = Path::new("spsa.state");
        assert_eq!(SpsaState::from_text(&text, &cfg, path), Ok(st));
        let other = config("RfpMargin", 100);
        let err = SpsaState::from_text(&text, &other, path).unwrap_err();
        assert!(err.contains("params"), "{err}");
        let err = SpsaState::from_text(&text.replace("91.25", "x"), &cfg, path).unwrap_err();
        assert!(err.contains("theta"), "{err}");
        assert!(SpsaState::from_text("junk", &cfg, path).is_err());
        let err = SpsaState::from_text(&text.replace("91.25", "500"), &cfg, path).unwrap_err();
        assert!(err.contains("within range"), "{err}");
        let no_theta: String = text
            .lines()
            .filter(|l| !l.starts_with("theta"))
            .map(|l| format!("{l}\n"))
            .collect();
        let err = SpsaState::from_text(&no_theta, &cfg, path).unwrap_err();
        assert!(err.contains("no 'theta' line"), "{err}");
    }

    #[test]
    fn constants_are_chosen_by_name() {
        assert_eq!(select("all").unwrap().len(), TUNABLES.len());
        assert_eq!(select("rfpmargin, LMRBASE").unwrap().len(), 2);
        assert!(select("RfpMargin,Nope").unwrap_err().contains("'Nope'"));
        assert_eq!(openbench_lines().len(), TUNABLES.len());
        assert!(openbench_lines()[0].starts_with("RfpMaxDepth, int, 6, 3, 10, "));
    }
}
