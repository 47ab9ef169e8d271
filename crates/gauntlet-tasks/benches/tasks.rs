//! Criterion benchmarks: generation and verification of every family at level 3.
//!
//! `cargo bench -p gauntlet-tasks` (filter with a family name: `cargo bench -p gauntlet-tasks sudoku`).
//! For per-item medians, p99 and max, and a side-by-side with reasoning-gym, use `gauntlet bench`
//! and `tools/bench_reasoning_gym.py` (see docs/benchmarks.md).

#![allow(missing_docs)] // criterion_group! generates an undocumented pub fn.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gauntlet_core::Difficulty;
use std::hint::black_box;

fn families(c: &mut Criterion) {
    let d = Difficulty::new(3).unwrap();
    for t in gauntlet_tasks::registry() {
        let name = t.spec().name;
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Elements(1));
        g.sample_size(20);
        let mut seed = 0u64;
        g.bench_function("generate", |b| {
            b.iter(|| {
                seed += 1;
                black_box(t.instance(seed, d))
            })
        });
        let insts: Vec<_> = (0..64).map(|s| t.instance(s, d)).collect();
        let responses: Vec<_> = insts.iter().map(|i| t.oracle_response_of(&i.problem).unwrap()).collect();
        let mut k = 0usize;
        g.bench_function("verify", |b| {
            b.iter(|| {
                k = (k + 1) % insts.len();
                black_box(t.score_of(&insts[k].problem, &responses[k]).unwrap())
            })
        });
        g.finish();
    }
}

criterion_group!(benches, families);
criterion_main!(benches);
