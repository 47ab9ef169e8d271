//! Splitting a mini-batch into micro-batches never changes the aggregated loss or its gradient,
//! as long as every micro-batch divides by the mini-batch's `Normaliser`.

use candle_core::{Device, Tensor, Var};
use gauntlet_algos::aggregate::Normaliser;
use gauntlet_algos::loss::{PolicyInputs, PolicyLoss, PolicyLossConfig};
use gauntlet_algos::AggMode;

use crate::util::*;

/// A mini-batch of 7 rows with very unequal token counts (1 to 12 of 12).
fn minibatch(seed: u64) -> (Tensor, Tensor, Tensor, Tensor) {
    let mut rng = Rng::new(seed);
    let (b, t) = (7, 12);
    let lengths = [12, 1, 5, 9, 2, 12, 7];
    let mut m = vec![0.0; b * t];
    for (i, n) in lengths.iter().enumerate() {
        for j in 0..*n {
            m[i * t + j] = 1.0;
        }
    }
    m[3 * t + 4] = 0.0; // a multi-turn hole
    let mask = Tensor::from_vec(m, (b, t), &Device::Cpu).unwrap();
    let old = rng.matrix(b, t, -3.0, -0.1);
    let lp = old.add(&rng.matrix(b, t, -0.6, 0.6)).unwrap();
    let adv = rng.matrix(b, t, -1.5, 1.5);
    (lp, old, adv, mask)
}

/// Loss and gradient of the whole mini-batch, then of micro-batches `splits` (row counts), each
/// trimmed to its own longest row so the padded widths differ as they do in a real trainer.
fn compare(loss: PolicyLoss, agg: AggMode, splits: &[usize], seed: u64) {
    let (lp0, old, adv, mask) = minibatch(seed);
    let cfg = PolicyLossConfig { agg, ..Default::default() };
    let norm = Normaliser::from_mask(&mask).unwrap();

    let lp = Var::from_tensor(&lp0).unwrap();
    let x = PolicyInputs::new(lp.as_tensor(), &old, &adv, &mask);
    let (full, _) = loss.compute(&x, &cfg, &norm).unwrap();
    let full_grad = to_mat(full.backward().unwrap().get(&lp).unwrap());

    let lp = Var::from_tensor(&lp0).unwrap();
    let mut total = 0.0;
    let mut grad = vec![vec![0.0; 12]; 7];
    let mut start = 0;
    let rows_mask = to_mat(&mask);
    for &n in splits {
        let width = (start..start + n)
            .map(|i| rows_mask[i].iter().rposition(|&v| v > 0.0).map_or(1, |p| p + 1))
            .max()
            .unwrap();
        let cut = |t: &Tensor| t.narrow(0, start, n).unwrap().narrow(1, 0, width).unwrap();
        let (mlp, mold, madv, mmask) = (cut(lp.as_tensor()), cut(&old), cut(&adv), cut(&mask));
        let x = PolicyInputs::new(&mlp, &mold, &madv, &mmask);
        let (part, _) = loss.compute(&x, &cfg, &norm).unwrap();
        total += scalar(&part);
        let g = to_mat(part.backward().unwrap().get(&lp).unwrap());
        for (acc, row) in grad.iter_mut().zip(&g) {
            for (a, v) in acc.iter_mut().zip(row) {
                *a += v;
            }
        }
        start += n;
    }
    let name = format!("{loss}/{agg}/{splits:?}");
    assert_close(total, scalar(&full), 1e-12, &name);
    assert_rows_close(&grad, &full_grad, 1e-12, &name);
}

#[test]
fn micro_batches_add_up_to_the_mini_batch() {
    for seed in 0..3 {
        for agg in AggMode::ALL {
            for loss in [PolicyLoss::Vanilla, PolicyLoss::Cispo, PolicyLoss::Sapo, PolicyLoss::Reinforce] {
                for splits in [&[7][..], &[1, 6], &[2, 1, 4], &[1, 1, 1, 1, 1, 1, 1]] {
                    compare(loss, *agg, splits, seed);
                }
            }
        }
        // GSPO always aggregates per sequence, which micro-batching by rows preserves.
        compare(PolicyLoss::Gspo, AggMode::TokenMean, &[3, 4], seed);
    }
}

/// The bug the global normaliser prevents: dividing each micro-batch by its own token count.
#[test]
fn local_normalisers_would_change_the_loss() {
    let (lp, old, adv, mask) = minibatch(0);
    let cfg = PolicyLossConfig::default();
    let global = Normaliser::from_mask(&mask).unwrap();
    let full = scalar(
        &PolicyLoss::Vanilla.compute(&PolicyInputs::new(&lp, &old, &adv, &mask), &cfg, &global).unwrap().0,
    );
    let mut local_sum = 0.0;
    for (s, n) in [(0, 2), (2, 5)] {
        let cut = |t: &Tensor| t.narrow(0, s, n).unwrap();
        let (l, o, a, m) = (cut(&lp), cut(&old), cut(&adv), cut(&mask));
        let local = Normaliser::from_mask(&m).unwrap();
        let part = PolicyLoss::Vanilla.compute(&PolicyInputs::new(&l, &o, &a, &m), &cfg, &local).unwrap().0;
        local_sum += scalar(&part) * n as f64 / 7.0;
    }
    assert!((local_sum - full).abs() > 1e-6, "unequal token counts must expose a local normaliser");
}
