//! Perft suites kept as data: every `tests/perft/<variant>.epd` file is read and each position's
//! counts are checked with `chimera::perft::perft` up to a node budget.
//!
//! File format (one file per variant; the variant is the file name):
//!
//! ```text
//! # free comment lines; one of them must start with "# source:" and name where the counts
//! # come from
//! <FEN> ;D1 <count> ;D2 <count> ...
//! ```
//!
//! A depth is checked when its expected count is at most the node budget (`NODE_BUDGET`, or the
//! environment variable `CHIMERA_PERFT_BUDGET`); deeper counts are for the command line
//! (`chimera perft --variant <name> --fen "<FEN>" <depth>`).
//!
//! `foreignpolicy.epd` holds FP-FENs and is counted with `chimera::foreignpolicy` (three
//! players have their own position type, outside the variant set).

use chimera::perft::perft;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Largest expected count that `cargo test` checks.
const NODE_BUDGET: u64 = 3_000_000;

/// One position line of a suite.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    line: usize,
    fen: String,
    /// (depth, expected count), in file order.
    counts: Vec<(u32, u64)>,
}

/// A parsed suite file.
#[derive(Debug, Clone, PartialEq)]
struct Suite {
    name: String,
    source: String,
    entries: Vec<Entry>,
}

/// Parses a suite; `name` is used in messages (the file name).
fn parse_suite(name: &str, text: &str) -> Result<Suite, String> {
    let mut source = None;
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() {
            continue;
        }
        if let Some(c) = l.strip_prefix('#') {
            if let Some(s) = c.trim_start().strip_prefix("source:") {
                if s.trim().is_empty() {
                    return Err(format!("{name}:{line}: empty '# source:' line"));
                }
                source.get_or_insert_with(|| s.trim().to_string());
            }
            continue;
        }
        let mut parts = l.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        if fen.split_whitespace().count() < 4 {
            return Err(format!(
                "{name}:{line}: expected '<FEN> ;D1 <n> ...', found '{l}'"
            ));
        }
        let mut counts: Vec<(u32, u64)> = Vec::new();
        for p in parts {
            let p = p.trim();
            let bad = || format!("{name}:{line}: bad depth entry '{p}' (expected e.g. 'D3 8902')");
            let (d, n) = p.split_once(char::is_whitespace).ok_or_else(bad)?;
            let depth: u32 = d
                .strip_prefix('D')
                .and_then(|d| d.parse().ok())
                .filter(|d| (1..=20).contains(d))
                .ok_or_else(bad)?;
            let count: u64 = n.trim().parse().map_err(|_| bad())?;
            if counts.iter().any(|c| c.0 == depth) {
                return Err(format!("{name}:{line}: depth {depth} given twice"));
            }
            counts.push((depth, count));
        }
        if counts.is_empty() {
            return Err(format!("{name}:{line}: a position without counts"));
        }
        entries.push(Entry { line, fen, counts });
    }
    let source = source.ok_or_else(|| {
        format!("{name}: no '# source:' line (every suite must say where its counts come from)")
    })?;
    if entries.is_empty() {
        return Err(format!("{name}: no positions"));
    }
    Ok(Suite {
        name: name.to_string(),
        source,
        entries,
    })
}

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("perft")
}

fn suite_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(suite_dir())
        .expect("tests/perft exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "epd"))
        .collect();
    files.sort();
    files
}

fn budget() -> u64 {
    match std::env::var("CHIMERA_PERFT_BUDGET") {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("CHIMERA_PERFT_BUDGET must be a number, not '{v}'")),
        Err(_) => NODE_BUDGET,
    }
}

/// What running one suite found.
#[derive(Default)]
struct Outcome {
    /// Positions with at least one depth checked.
    entries_run: usize,
    /// Depths checked.
    depths_run: usize,
    /// Leaves counted.
    nodes: u64,
    mismatches: Vec<String>,
}

/// Foreign Policy's suite, by its file name.
const FOREIGN_POLICY: &str = chimera::foreignpolicy::NAME;

/// Checks one entry: every depth within `budget`. Returns (depths run, nodes, mismatches).
fn run_entry(file: &str, variant: &str, e: &Entry, budget: u64) -> (usize, u64, Vec<String>) {
    if variant == FOREIGN_POLICY {
        return run_fp_entry(file, e, budget);
    }
    let set = builtin_variants();
    let Some(rules) = set.get(variant) else {
        return (
            0,
            0,
            vec![format!(
                "{file}: unknown variant '{variant}' (the file name)"
            )],
        );
    };
    let mut pos = match Position::from_fen(rules, &e.fen) {
        Ok(p) => p,
        Err(err) => return (0, 0, vec![format!("{file}:{}: bad FEN: {err}", e.line)]),
    };
    check_counts(file, e, budget, |depth| perft(&mut pos, depth))
}

/// Compares `count(depth)` with every expected count within `budget`.
fn check_counts(
    file: &str,
    e: &Entry,
    budget: u64,
    mut count: impl FnMut(u32) -> u64,
) -> (usize, u64, Vec<String>) {
    let mut run = 0;
    let mut nodes = 0;
    let mut bad = Vec::new();
    for &(depth, expected) in &e.counts {
        if expected > budget {
            continue;
        }
        let got = count(depth);
        run += 1;
        nodes += got;
        if got != expected {
            bad.push(format!(
                "{file}:{} depth {depth}: expected {expected}, chimera counts {got}  [{}]",
                e.line, e.fen
            ));
        }
    }
    (run, nodes, bad)
}

/// [`run_entry`] for an FP-FEN.
fn run_fp_entry(file: &str, e: &Entry, budget: u64) -> (usize, u64, Vec<String>) {
    use chimera::foreignpolicy::{perft::perft, FpPosition};
    let mut pos = match FpPosition::from_fen(&e.fen) {
        Ok(p) => p,
        Err(err) => return (0, 0, vec![format!("{file}:{}: bad FP-FEN: {err}", e.line)]),
    };
    check_counts(file, e, budget, |depth| perft(&mut pos, depth))
}

/// Runs every suite file, entries spread over the available cores.
fn run_all(budget: u64) -> Vec<(Suite, Outcome)> {
    chimera::geometry::attacks::init();
    let mut suites = Vec::new();
    let mut errors = Vec::new();
    for path in suite_files() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("readable suite file");
        match parse_suite(&name, &text) {
            Ok(s) => suites.push(s),
            Err(e) => errors.push(e),
        }
    }
    assert!(errors.is_empty(), "bad suite files:\n{}", errors.join("\n"));
    let jobs: Vec<(usize, usize)> = suites
        .iter()
        .enumerate()
        .flat_map(|(s, suite)| (0..suite.entries.len()).map(move |e| (s, e)))
        .collect();
    let outcomes: Vec<Mutex<Outcome>> = suites.iter().map(|_| Mutex::default()).collect();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(s, e)) = jobs.get(i) else { break };
                let suite = &suites[s];
                let variant = suite.name.trim_end_matches(".epd");
                let (run, nodes, bad) = run_entry(&suite.name, variant, &suite.entries[e], budget);
                let mut o = outcomes[s].lock().unwrap();
                o.entries_run += usize::from(run > 0);
                o.depths_run += run;
                o.nodes += nodes;
                o.mismatches.extend(bad);
            });
        }
    });
    suites
        .into_iter()
        .zip(outcomes.into_iter().map(|m| m.into_inner().unwrap()))
        .collect()
}

#[test]
fn perft_suites() {
    let budget = budget();
    let results = run_all(budget);
    assert!(!results.is_empty(), "no tests/perft/*.epd files found");
    let mut failures = Vec::new();
    for (suite, o) in &results {
        eprintln!(
            "{:<16} {:>2} positions, {:>3} depths checked, {:>10} leaves  (source: {})",
            suite.name, o.entries_run, o.depths_run, o.nodes, suite.source
        );
        if o.entries_run == 0 {
            failures.push(format!(
                "{}: no entry has a count within the budget of {budget} nodes",
                suite.name
            ));
        }
        failures.extend(o.mismatches.iter().cloned());
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_suite_file_names_a_known_variant() {
    let set = builtin_variants();
    for path in suite_files() {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        assert!(
            set.get(&stem).is_some() || stem == FOREIGN_POLICY,
            "{}: no variant named '{stem}'",
            path.display()
        );
    }
}

#[test]
fn runner_runs_entries_of_every_file() {
    // with the default budget, every file has positions with depths inside it
    for path in suite_files() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let suite = parse_suite(&name, &std::fs::read_to_string(&path).unwrap()).unwrap();
        let runnable = suite
            .entries
            .iter()
            .filter(|e| e.counts.iter().any(|c| c.1 <= NODE_BUDGET))
            .count();
        assert!(runnable > 0, "{name}: nothing within the node budget");
        assert_eq!(
            runnable,
            suite.entries.len(),
            "{name}: every position should have at least its depth 1 within the budget"
        );
    }
}

#[test]
fn parser_requires_a_source_line() {
    let err = parse_suite(
        "x.epd",
        "# counts by hand\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5\n",
    )
    .unwrap_err();
    assert!(err.contains("source"), "{err}");
    let ok = parse_suite(
        "x.epd",
        "# source: by hand\n\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D2 25\n",
    )
    .unwrap();
    assert_eq!(ok.source, "by hand");
    assert_eq!(ok.entries.len(), 1);
    assert_eq!(ok.entries[0].line, 3);
    assert_eq!(ok.entries[0].counts, vec![(1, 5), (2, 25)]);
}

#[test]
fn parser_rejects_malformed_lines() {
    let head = "# source: test\n";
    for bad in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;X1 5",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 five",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D1 5",
        "4k3/8 w ;D1 5",
    ] {
        assert!(
            parse_suite("x.epd", &format!("{head}{bad}\n")).is_err(),
            "accepted: {bad}"
        );
    }
    assert!(
        parse_suite("x.epd", head).is_err(),
        "accepted a file without positions"
    );
}

#[test]
fn runner_reports_a_wrong_count() {
    chimera::geometry::attacks::init();
    let e = Entry {
        line: 7,
        fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1".into(),
        counts: vec![(1, 5), (2, 26)],
    };
    let (run, nodes, bad) = run_entry("x.epd", "chess", &e, NODE_BUDGET);
    assert_eq!(run, 2);
    assert_eq!(nodes, 5 + 25);
    assert_eq!(bad.len(), 1);
    assert!(
        bad[0].contains("x.epd:7 depth 2: expected 26"),
        "{}",
        bad[0]
    );
}
