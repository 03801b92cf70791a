//! The layers of docs/architecture.md point one way: a module reaches only modules of lower
//! layers (core <- variant <- position <- movegen <- rules/mechanics <- perft, eval, tt <-
//! search <- engine <- protocol, match referee, game analysis <- web board <- command line), and the protocols reach the
//! engine facade only. This test reads every `crate::` path in the library's source (outside
//! comments and `#[cfg(test)]` modules) and fails on an upward or sideways one.

use std::path::{Path, PathBuf};

/// Each top-level module of `src/` with its layer (lower numbers are lower layers).
const LAYERS: &[(&str, u32)] = &[
    ("geometry", 0),
    ("piece", 1),
    ("moves", 2),
    ("variant", 3),
    ("position", 4),
    ("movegen", 5),
    ("rules", 6),
    ("foreignpolicy", 6),
    ("perft", 7),
    ("eval", 7),
    ("tt", 7),
    ("search", 8),
    ("engine", 9),
    ("openings", 9),
    ("learn", 10),
    ("tune", 11),
    ("protocol", 10),
    ("tournament", 10),
    ("analysis", 10),
    ("serve", 11),
    ("cli", 12),
];

/// Modules that may reach only the listed modules, whatever their layers say.
const FACADES: &[(&str, &[&str])] = &[
    ("protocol", &["engine"]),
    ("analysis", &["engine"]),
    ("serve", &["engine", "analysis"]),
];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|l| l.0 == module).map(|l| l.1)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source tree") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a source file belongs to (`None` for the crate roots).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel
        .components()
        .next()?
        .as_os_str()
        .to_string_lossy()
        .to_string();
    let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
    (name != "lib" && name != "main").then_some(name)
}

/// The modules named by `crate::NAME` paths in `line` (comments stripped).
fn crate_paths(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        // `crate::{a, b}` lists several
        if let Some(listed) = after.strip_prefix('{') {
            let list = listed.split('}').next().unwrap_or("");
            for item in list.split(',') {
                let item = item.trim();
                let first: String = item
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !first.is_empty() {
                    out.push(first);
                }
            }
        } else if !name.is_empty() {
            out.push(name);
        }
        rest = after;
    }
    out
}

/// Every `(file, line number, from, to)` reference in the library outside tests.
fn references() -> Vec<(String, usize, String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let Some(from) = module_of(&src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("readable");
        for (n, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("#[cfg(test)]") {
                break; // unit tests may use anything
            }
            if trimmed.starts_with("//") {
                continue;
            }
            for to in crate_paths(line) {
                if to != from {
                    out.push((file.display().to_string(), n + 1, from.clone(), to));
                }
            }
        }
    }
    out
}

#[test]
fn every_module_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    for file in files {
        if let Some(m) = module_of(&src, &file) {
            assert!(
                layer(&m).is_some(),
                "{}: module '{m}' has no layer in tests/suite/layers.rs (and docs/architecture.md)",
                file.display()
            );
        }
    }
}

#[test]
fn layers_point_one_way() {
    let refs = references();
    assert!(
        refs.len() > 100,
        "the scan found only {} references",
        refs.len()
    );
    let mut bad = Vec::new();
    for (file, line, from, to) in &refs {
        let (Some(lf), Some(lt)) = (layer(from), layer(to)) else {
            bad.push(format!("{file}:{line}: {from} -> {to}: unknown module"));
            continue;
        };
        if lt >= lf {
            bad.push(format!(
                "{file}:{line}: {from} (layer {lf}) reaches {to} (layer {lt})"
            ));
        }
        if let Some((_, allowed)) = FACADES.iter().find(|f| f.0 == from) {
            if !allowed.contains(&to.as_str()) {
                bad.push(format!(
                    "{file}:{line}: {from} may reach only {allowed:?}, not {to}"
                ));
            }
        }
    }
    assert!(bad.is_empty(), "upward imports:\n{}", bad.join("\n"));
}

#[test]
fn the_scan_sees_the_paths_it_must() {
    assert_eq!(
        crate_paths("use crate::position::{Hooks, Position};"),
        ["position"]
    );
    assert_eq!(
        crate_paths("    let x = crate::rules::outcome::verdict(p); // crate::search"),
        ["rules"]
    );
    assert_eq!(
        crate_paths("use crate::{geometry::Color, moves::Move};"),
        ["geometry", "moves"]
    );
    // an upward reference is found
    let up = ("movegen", "rules");
    assert!(layer(up.1) > layer(up.0));
}
