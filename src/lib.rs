//! Chimera: a multi-variant chess engine.
//!
//! Layers, each knowing only those before it:
//! `geometry` (squares, bitboards, attack tables) <- `piece` (types, Betza) <- `variant`
//! (variants.ini -> `Rules`) <- `position` (board, make/unmake, Zobrist, FEN) <- `movegen`
//! (orthodox and generic generators, notation) <- `rules` (one module per special mechanic)
//! <- `perft` <- `cli`; `tournament` (the `match` referee) judges engines with `rules`.
//! `tune` (`datagen` and `tune` on the command line) plays games through `search` and fits the
//! weights of `eval`.
#![deny(missing_docs)]

pub mod analysis;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod foreignpolicy;
pub mod geometry;
pub mod learn;
pub mod movegen;
pub mod moves;
pub mod openings;
pub mod perft;
pub mod piece;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod serve;
pub mod tournament;
pub mod tt;
pub mod tune;
pub mod variant;
