//! Which generator and which search path each variant gets, and that neither silently drops a
//! mechanic: the hand-tuned orthodox generator calls no mechanic hook but the legality
//! filters (applied on top of it), so a variant is routed to it only when its data is exactly
//! orthodox chess and no mechanic needs a hook that generator ignores; the search's
//! monomorphised orthodox path is only for variants with no mechanic at all. Checked by the
//! rule for every built-in variant and for a variant of every registered mechanic, and by
//! behaviour: wherever the orthodox generator is used, its moves (with the filters) equal the
//! generic generator's over random games.

use chimera::movegen::{generic, legal_moves};
use chimera::moves::MoveList;
use chimera::position::{Hooks, Position, Variant};
use chimera::rules::MECHANICS;
use chimera::search::game::OrthodoxGame;
use chimera::variant::generator_is_orthodox;

/// Every built-in variant (every registered mechanic has one: see the test below).
fn variants() -> Vec<&'static Variant> {
    crate::common::all_variants()
}

#[test]
fn the_orthodox_generator_serves_only_what_it_can_play() {
    let mut routed = 0;
    for v in variants() {
        let ignored = v.mechanics.uses(Hooks::GENERIC_ONLY);
        let expected = generator_is_orthodox(&v.rules) && !ignored;
        assert_eq!(
            v.orthodox,
            expected,
            "[{}] mechanics {:?}: orthodox generator {} but data fit for it {} and hooks it \
             ignores {}",
            v.name,
            v.mechanics.names(),
            v.orthodox,
            generator_is_orthodox(&v.rules),
            ignored
        );
        if v.orthodox && !v.mechanics.is_empty() {
            routed += 1;
        }
        // the search's own orthodox path takes no variant with a mechanic
        if OrthodoxGame::fits(v) {
            assert!(v.mechanics.is_empty(), "[{}]", v.name);
            assert!(v.orthodox, "[{}]", v.name);
        }
    }
    // 007 forms, Torpedo, Garrison, Nonlinear: filters over the orthodox generator
    assert!(
        routed >= 4,
        "only {routed} variants with mechanics use the orthodox generator"
    );
}

#[test]
fn every_registered_mechanic_is_used_by_a_builtin_variant() {
    let used: Vec<&str> = variants()
        .iter()
        .flat_map(|v| v.mechanics.names())
        .collect();
    for spec in MECHANICS {
        assert!(
            used.contains(&spec.name),
            "mechanic '{}' has no built-in variant, so the routing checks cannot see it",
            spec.name
        );
    }
}

/// xorshift64*.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed >> 12;
    *seed ^= *seed << 25;
    *seed ^= *seed >> 27;
    seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

fn sorted(list: &MoveList) -> Vec<u32> {
    let mut v: Vec<u32> = list.iter().map(|m| m.0).collect();
    v.sort_unstable();
    v
}

#[test]
fn where_the_orthodox_generator_plays_it_agrees_with_the_generic_one() {
    let mut seed = 0x0DDB_1A5E_5BAD_5EEDu64;
    let mut compared = 0;
    for v in variants().into_iter().filter(|v| v.orthodox) {
        for _game in 0..6 {
            let mut pos = Position::startpos(v);
            for _ply in 0..60 {
                let mut routed = MoveList::new();
                legal_moves(&mut pos, &mut routed);
                let mut reference = MoveList::new();
                generic::legal_moves(&mut pos, &mut reference);
                assert_eq!(
                    sorted(&routed),
                    sorted(&reference),
                    "[{}] {}",
                    v.name,
                    pos.fen()
                );
                compared += 1;
                if routed.is_empty() {
                    break;
                }
                let m = routed[(next(&mut seed) % routed.len() as u64) as usize];
                pos.make(m);
            }
        }
    }
    assert!(compared > 1000, "only {compared} positions compared");
}
