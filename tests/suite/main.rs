//! Every integration test in one binary, a module per file (one link instead of one per
//! file: a fresh clone builds the suite in minutes). Shared scaffolding: `common` (the
//! independent models of the relocation and continuation variants, perft-suite readers),
//! `driver` (the built binary under UCI and XBoard), `fp_model` (Foreign Policy's model).
//! Run one file's tests with `cargo test --release --test suite FILE::`.

mod common;
mod driver;
mod fp_model;

mod analyse;
mod bad_input;
mod bench_signature;
mod binary_fuzz;
mod bracket;
mod bump;
mod camouflage;
mod carom;
mod cascade;
mod castlemania;
mod catalyst;
mod chess960;
mod cloverleaf;
mod coercion;
mod config_errors;
mod countermove;
mod displacement;
mod emissary;
mod espionage;
mod espionage_model;
mod eval_mobility;
mod eviction;
mod explorer;
mod family007;
mod file_fuzz;
mod foreignpolicy;
mod foreignpolicy_net;
mod foreignpolicy_protocols;
mod generic_fast_vs_reference;
mod jadoube_model;
mod launch;
mod layers;
mod learn;
mod match_three;
mod match_tournament;
mod match_two;
mod modest_protocols;
mod orthodox_vs_generic;
mod perft;
mod protocol_fuzz;
mod redeployment;
mod reflective;
mod restriction;
mod restriction_count;
mod restriction_model;
mod rolemodel;
mod routing;
mod seed_examples;
mod serve_api;
mod slide;
mod soak_replay;
mod spsa;
mod state_invariants;
mod trailer;
mod triangulation;
mod tune;
mod uci_session;
mod variant_switch;
mod wonderland;
mod xboard_session;
