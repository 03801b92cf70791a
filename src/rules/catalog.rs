//! The set of loaded variants: variants.ini sections compiled into data (`variant::compile`)
//! plus the mechanics of [`super::MECHANICS`] that their keys switch on.
//!
//! Loading a section: merge the inherited and own keys, compile the data (every key must be a
//! data key or a registered mechanic's), check the module-selecting keys (`specialMoves`,
//! `restriction`), build each registered mechanic (it reads its own keys and claims its
//! state), refuse combinations a mechanic declares impossible, decide the generator, and set
//! up the start position.

use super::{MECHANICS, SELECTORS};
use crate::position::{Hooks, Mechanic, Mechanics, Position, StateLayout, Variant};
use crate::variant::{
    compile, generator_is_orthodox, men_are_orthodox, parse_ini, IniError, IniFile, Section,
    Setting, Settings, BUILTIN_INI,
};
use once_cell::sync::Lazy;
use std::collections::{BTreeMap, BTreeSet};

/// All loaded variants, by name, in load order.
#[derive(Clone, Default)]
pub struct VariantSet {
    order: Vec<String>,
    variants: BTreeMap<String, &'static Variant>,
    settings: BTreeMap<String, Settings>,
    /// Where each variant's section is: file and header line.
    defined_at: BTreeMap<String, (String, usize)>,
}

impl VariantSet {
    /// An empty set.
    pub fn new() -> VariantSet {
        VariantSet::default()
    }

    /// Variant by name.
    pub fn get(&self, name: &str) -> Option<&'static Variant> {
        self.variants.get(name).copied()
    }

    /// Names in load order.
    pub fn names(&self) -> &[String] {
        &self.order
    }

    /// Loads every section of a file. Sections may inherit from variants loaded before or from
    /// earlier sections of the same file. On error nothing of the file is kept.
    pub fn load_str(&mut self, file: &str, text: &str) -> Result<Vec<String>, IniError> {
        let ini = parse_ini(file, text)?;
        let mut staged = self.clone();
        let names = staged.load_parsed(&ini)?;
        *self = staged;
        Ok(names)
    }

    /// Loads a file from disk.
    pub fn load_file(&mut self, path: &str) -> Result<Vec<String>, IniError> {
        let text = std::fs::read_to_string(path).map_err(|e| IniError {
            file: path.to_string(),
            line: 0,
            key: None,
            message: format!("cannot read the file: {e}"),
        })?;
        self.load_str(path, &text)
    }

    fn load_parsed(&mut self, ini: &IniFile) -> Result<Vec<String>, IniError> {
        let mut names = Vec::new();
        for section in &ini.sections {
            let at = |message: String| IniError {
                file: ini.file.clone(),
                line: section.line,
                key: None,
                message,
            };
            if let Some((file, line)) = self.defined_at.get(&section.name) {
                return Err(at(format!(
                    "variant '{}' is already defined at {file}:{line}; choose another name \
                     (a new variant can start from it: [newname:{}])",
                    section.name, section.name
                )));
            }
            let mut settings = match &section.parent {
                Some(p) => match self.settings.get(p) {
                    Some(s) => s.clone(),
                    None => {
                        return Err(at(format!(
                            "parent variant '{p}' is not defined (define it earlier)"
                        )))
                    }
                },
                None => Settings::new(),
            };
            for e in &section.entries {
                settings.insert(
                    e.key.clone(),
                    Setting {
                        value: e.value.clone(),
                        line: e.line,
                        file: ini.file.clone(),
                    },
                );
            }
            let own: BTreeSet<String> = section.entries.iter().map(|e| e.key.clone()).collect();
            let ctx = Section::new(&settings, &own, &ini.file, section.line, &section.name);
            let variant = build(&ctx)?;
            self.order.push(section.name.clone());
            self.variants.insert(section.name.clone(), variant);
            self.settings.insert(section.name.clone(), settings);
            self.defined_at
                .insert(section.name.clone(), (ini.file.clone(), section.line));
            names.push(section.name.clone());
        }
        Ok(names)
    }
}

/// The keys the registered mechanics read.
fn mechanic_keys() -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = MECHANICS
        .iter()
        .flat_map(|m| m.keys.iter().copied())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// Compiles one section into a variant.
fn build(ctx: &Section) -> Result<&'static Variant, IniError> {
    let mut rules = compile(ctx, &mechanic_keys())?;
    check_selectors(ctx)?;
    let mut layout = StateLayout::new();
    let mut built: Vec<(Box<dyn Mechanic>, &'static str)> = Vec::new();
    for spec in MECHANICS {
        if let Some(m) = (spec.build)(ctx, &mut rules, &mut layout)? {
            built.push((m, spec.name));
        }
    }
    check_conflicts(ctx, &built)?;
    let mechanics = Mechanics::new(built.into_iter().map(|(m, _)| m).collect());
    if !mechanics.uses(Hooks::FILTER) && ctx.sets("barredValue") {
        return Err(ctx.err(
            "barredValue",
            "neither facingPieces nor restriction bars any move, so the key has no effect".into(),
        ));
    }
    rules.orthodox = generator_is_orthodox(&rules) && !mechanics.uses(Hooks::GENERIC_ONLY);
    rules.orthodox_men = men_are_orthodox(&rules);
    let variant = Variant::leak(rules, mechanics);
    // the start position must parse
    if let Err(e) = Position::from_fen(variant, &variant.start_fen) {
        return Err(ctx.err(
            "startFen",
            format!("start position of [{}] is invalid: {e}", ctx.variant()),
        ));
    }
    Ok(variant)
}

/// A key that selects one module among several must name a registered one (or `none`).
fn check_selectors(ctx: &Section) -> Result<(), IniError> {
    for &(key, noun) in SELECTORS {
        let Some(v) = ctx.get(key) else { continue };
        let known: Vec<&str> = MECHANICS
            .iter()
            .filter_map(|m| m.selected_by.filter(|s| s.0 == key).map(|s| s.1))
            .collect();
        if v != "none" && !known.contains(&v) {
            return Err(ctx.err(
                key,
                format!("unknown {noun} '{v}' (known: none, {})", known.join(", ")),
            ));
        }
    }
    Ok(())
}

/// Refuses a combination of mechanics one of them declares impossible.
fn check_conflicts(
    ctx: &Section,
    built: &[(Box<dyn Mechanic>, &'static str)],
) -> Result<(), IniError> {
    for (i, (a, _)) in built.iter().enumerate() {
        for (j, (b, _)) in built.iter().enumerate() {
            if i == j {
                continue;
            }
            if let Some(why) = a.conflict(&**b) {
                // point at what this section wrote, where one side of the clash is inherited
                let key = if ctx.sets(b.ini_key()) && !ctx.sets(a.ini_key()) {
                    b.ini_key()
                } else {
                    a.ini_key()
                };
                return Err(ctx.err(key, why));
            }
        }
    }
    Ok(())
}

/// The variants compiled from the built-in variants.ini (compiled once per process).
pub fn builtin_variants() -> VariantSet {
    static BUILTIN: Lazy<VariantSet> = Lazy::new(|| {
        let mut set = VariantSet::new();
        // The shipped file is tested; failing here is a build defect, reported rather than hidden.
        if let Err(e) = set.load_str("variants.ini (built in)", BUILTIN_INI) {
            panic!("the built-in variants.ini is broken: {e}");
        }
        set
    });
    BUILTIN.clone()
}
