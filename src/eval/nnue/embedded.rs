//! Nets built into the binary, and loading a net by the name variants.ini or `EvalFile` gives.
//!
//! A name is first looked up among the built-in nets (`nets/` of the source tree, embedded at
//! build time), then read as a file. Built-in nets are parsed once per process.

use super::{file, LoadedNet, NetError, Network};
use crate::position::Variant;
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The built-in nets: the name variants.ini uses for each, and its bytes (`nets/` of the
/// source tree; docs/strength.md gives each one's data and command lines).
pub const BUILT_IN: &[(&str, &[u8])] = &[
    (
        "camouflage.nnue",
        include_bytes!("../../../nets/camouflage.nnue"),
    ),
    (
        "castlemania.nnue",
        include_bytes!("../../../nets/castlemania.nnue"),
    ),
    (
        "catalyst.nnue",
        include_bytes!("../../../nets/catalyst.nnue"),
    ),
    ("chess.nnue", include_bytes!("../../../nets/chess.nnue")),
    ("crater.nnue", include_bytes!("../../../nets/crater.nnue")),
    (
        "emissary.nnue",
        include_bytes!("../../../nets/emissary.nnue"),
    ),
    (
        "garrison.nnue",
        include_bytes!("../../../nets/garrison.nnue"),
    ),
    ("haven.nnue", include_bytes!("../../../nets/haven.nnue")),
    (
        "hippophobic.nnue",
        include_bytes!("../../../nets/hippophobic.nnue"),
    ),
    (
        "interior.nnue",
        include_bytes!("../../../nets/interior.nnue"),
    ),
    ("jadoube.nnue", include_bytes!("../../../nets/jadoube.nnue")),
    (
        "kaleidoscope.nnue",
        include_bytes!("../../../nets/kaleidoscope.nnue"),
    ),
    (
        "missingfile.nnue",
        include_bytes!("../../../nets/missingfile.nnue"),
    ),
    (
        "nonlinear.nnue",
        include_bytes!("../../../nets/nonlinear.nnue"),
    ),
    (
        "periphery.nnue",
        include_bytes!("../../../nets/periphery.nnue"),
    ),
    (
        "torpedo-paletta.nnue",
        include_bytes!("../../../nets/torpedo-paletta.nnue"),
    ),
    ("valley.nnue", include_bytes!("../../../nets/valley.nnue")),
];

/// The built-in three-player nets (Foreign Policy; [`super::three`]), as [`BUILT_IN`].
pub const BUILT_IN_THREE: &[(&str, &[u8])] = &[(
    "foreignpolicy.nnue",
    include_bytes!("../../../nets/foreignpolicy.nnue"),
)];

/// Built-in nets parsed so far.
static PARSED: Lazy<Mutex<HashMap<&'static str, Arc<Network>>>> =
    Lazy::new(|| Mutex::new(HashMap::new()));

/// The built-in net called `name`, if there is one.
pub fn built_in(name: &str) -> Option<Result<Arc<Network>, NetError>> {
    let &(key, bytes) = BUILT_IN.iter().find(|(n, _)| *n == name)?;
    let mut parsed = PARSED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(net) = parsed.get(key) {
        return Some(Ok(net.clone()));
    }
    Some(file::parse(bytes).map(|net| {
        let net = Arc::new(net);
        parsed.insert(key, net.clone());
        net
    }))
}

/// The net in the file at `path`.
pub fn read(path: &Path) -> Result<Network, NetError> {
    let bytes = std::fs::read(path).map_err(|e| NetError::Io(e.to_string()))?;
    file::parse(&bytes)
}

/// The net `name` (a built-in net, else the file at `path`) and how to name its source.
pub fn named(name: &str, path: &Path) -> (Result<Arc<Network>, NetError>, String) {
    match built_in(name) {
        Some(net) => (net, format!("built-in net {name}")),
        None => (read(path).map(Arc::new), path.display().to_string()),
    }
}

/// The net `name` (a built-in net, else the file at `path`) for `rules`; the error names the
/// net and says what is wrong.
pub fn load_for(rules: &Variant, name: &str, path: &Path) -> Result<LoadedNet, String> {
    let (net, source) = named(name, path);
    net.and_then(|net| LoadedNet::new(net, rules, &source))
        .map_err(|e| format!("{source}: {e}"))
}
