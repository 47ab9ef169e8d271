//! Gradient checks: candle autograd against central finite differences, in `f64`.
//!
//! Losses with stop-gradients (GSPO's sequence ratio, CISPO's clipped weight, k3+) are checked
//! against a surrogate with the detached parts frozen at the evaluation point: equal in value
//! there, and its finite differences are exactly the gradient the loss is meant to have.

use candle_core::{DType, Device, Tensor, D};
use gauntlet_algos::aggregate::{aggregate, Normaliser};
use gauntlet_algos::entropy::entropy_from_logits;
use gauntlet_algos::kl::{kl_penalty, KlEstimator};
use gauntlet_algos::loss::is_correction::{truncated_is_weights, IsLevel};
use gauntlet_algos::loss::{PolicyInputs, PolicyLoss, PolicyLossConfig};
use gauntlet_algos::value::{classification_value_loss, clipped_value_loss, HistogramBins};
use gauntlet_algos::AggMode;

use crate::util::*;

struct Case {
    old: Tensor,
    adv: Tensor,
    mask: Tensor,
    rollout: Tensor,
    lp0: Tensor,
}

/// Random inputs with log-ratios in (−1, 1) (both sides of every clip), a multi-turn hole,
/// and one ratio beyond the ±20 clamp (zero gradient there, on both sides).
fn case(seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    let (b, t) = (3, 6);
    let old = rng.matrix(b, t, -3.0, -0.2);
    let lp0 = old.add(&rng.matrix(b, t, -1.0, 1.0)).unwrap();
    let mut adv_rows: Vec<f64> = (0..b).map(|_| rng.range(-2.0, 2.0)).collect();
    // Row 2 holds the exploded ratio: with A > 0 it is clipped (a huge loss under A < 0 without
    // dual clip would drown the finite differences in round-off).
    adv_rows[2] = adv_rows[2].abs() + 0.1;
    let adv = Tensor::new(adv_rows, &Device::Cpu).unwrap().reshape((b, 1)).unwrap().repeat((1, t)).unwrap();
    let mut m = vec![1.0; b * t];
    m[2] = 0.0; // hole in row 0
    m[3] = 0.0;
    m[t + 5] = 0.0; // row 1 one token shorter
    m[2 * t + 4] = 0.0;
    m[2 * t + 5] = 0.0;
    let mask = Tensor::from_vec(m, (b, t), &Device::Cpu).unwrap();
    let rollout = old.add(&rng.matrix(b, t, -0.5, 0.5)).unwrap();
    // Token (2, 0): log-ratio 25, beyond the clamp.
    let mut v: Vec<f64> = lp0.flatten_all().unwrap().to_vec1().unwrap();
    let o: Vec<f64> = old.flatten_all().unwrap().to_vec1().unwrap();
    v[2 * t] = o[2 * t] + 25.0;
    let lp0 = Tensor::from_vec(v, (b, t), &Device::Cpu).unwrap();
    Case { old, adv, mask, rollout, lp0 }
}

fn policy<'a>(
    c: &'a Case,
    loss: PolicyLoss,
    cfg: PolicyLossConfig,
    weights: Option<&Tensor>,
) -> impl Fn(&Tensor) -> Tensor + 'a {
    let norm = Normaliser::from_mask(&c.mask).unwrap();
    let weights = weights.cloned();
    move |lp: &Tensor| {
        let mut x = PolicyInputs::new(lp, &c.old, &c.adv, &c.mask);
        x.is_weights = weights.as_ref();
        x.rollout_log_prob = Some(&c.rollout);
        loss.compute(&x, &cfg, &norm).unwrap().0
    }
}

#[test]
fn policy_losses_without_stop_gradients() {
    for seed in 0..4 {
        let c = case(seed);
        for agg in AggMode::ALL {
            for (name, loss, cfg) in [
                ("vanilla", PolicyLoss::Vanilla, PolicyLossConfig::default()),
                ("dapo", PolicyLoss::Vanilla, PolicyLossConfig::dapo()),
                ("no-dual", PolicyLoss::Vanilla, PolicyLossConfig { clip_c: None, ..Default::default() }),
                (
                    "tight-dual",
                    PolicyLoss::Vanilla,
                    PolicyLossConfig { clip_c: Some(1.1), ..Default::default() },
                ),
                ("decoupled", PolicyLoss::DecoupledPpo, PolicyLossConfig::default()),
                ("sapo", PolicyLoss::Sapo, PolicyLossConfig::default()),
                ("reinforce", PolicyLoss::Reinforce, PolicyLossConfig::default()),
            ] {
                let cfg = PolicyLossConfig { agg: *agg, ..cfg };
                let f = policy(&c, loss, cfg, None);
                check_grad(&format!("{name}/{agg}/seed {seed}"), &f, &f, &c.lp0);
            }
            let w = truncated_is_weights(&c.old, &c.rollout, &c.mask, IsLevel::Sequence, 2.0).unwrap();
            let cfg = PolicyLossConfig { agg: *agg, ..Default::default() };
            let f = policy(&c, PolicyLoss::Vanilla, cfg, Some(&w));
            check_grad(&format!("tis/{agg}/seed {seed}"), &f, &f, &c.lp0);
        }
    }
}

#[test]
fn cispo_gradient_flows_through_log_prob_only() {
    for seed in 0..4 {
        let c = case(seed);
        for agg in AggMode::ALL {
            let cfg = PolicyLossConfig { agg: *agg, ..Default::default() };
            let f = policy(&c, PolicyLoss::Cispo, cfg, None);
            let w0 = c
                .lp0
                .sub(&c.old)
                .unwrap()
                .clamp(-20.0, 20.0)
                .unwrap()
                .exp()
                .unwrap()
                .clamp(0.8, 1.2)
                .unwrap();
            let norm = Normaliser::from_mask(&c.mask).unwrap();
            let sur = |lp: &Tensor| {
                let l = w0.mul(&c.adv).unwrap().mul(lp).unwrap().neg().unwrap();
                aggregate(&l, &c.mask, *agg, &norm).unwrap()
            };
            check_grad(&format!("cispo/{agg}/seed {seed}"), &f, &sur, &c.lp0);
        }
    }
}

#[test]
fn gspo_gradient_uses_the_frozen_sequence_ratio() {
    for seed in 0..4 {
        let mut c = case(seed);
        // Sequence ratios near 1 so that some sequences are clipped and some are not.
        c.lp0 = c.old.add(&Rng::new(seed + 100).matrix(3, 6, -0.3, 0.3)).unwrap();
        let f = policy(&c, PolicyLoss::Gspo, PolicyLossConfig::default(), None);
        let norm = Normaliser::from_mask(&c.mask).unwrap();
        let len = c.mask.sum_keepdim(1).unwrap();
        let seq0 =
            c.lp0.sub(&c.old).unwrap().mul(&c.mask).unwrap().sum_keepdim(1).unwrap().div(&len).unwrap();
        let sur = |lp: &Tensor| {
            let s =
                lp.sub(&c.lp0).unwrap().broadcast_add(&seq0).unwrap().minimum(10.0).unwrap().exp().unwrap();
            let l1 = c.adv.neg().unwrap().mul(&s).unwrap();
            let l2 = c.adv.neg().unwrap().mul(&s.clamp(0.8, 1.2).unwrap()).unwrap();
            aggregate(&l1.maximum(&l2).unwrap(), &c.mask, AggMode::SeqMeanTokenMean, &norm).unwrap()
        };
        check_grad(&format!("gspo/seed {seed}"), &f, &sur, &c.lp0);
    }
}

#[test]
fn kl_estimators() {
    let c = case(9);
    let reference = c.rollout.clone();
    let norm = Normaliser::from_mask(&c.mask).unwrap();
    for est in [KlEstimator::K1, KlEstimator::K2, KlEstimator::K3] {
        let f = |lp: &Tensor| {
            aggregate(&kl_penalty(lp, &reference, est).unwrap(), &c.mask, AggMode::TokenMean, &norm).unwrap()
        };
        check_grad(est.name(), &f, &f, &c.lp0.clamp(-8.0, 0.0).unwrap());
    }
    // k3+: the value of k3, the gradient of k2.
    let lp0 = c.lp0.clamp(-8.0, 0.0).unwrap();
    let k3_0 = kl_penalty(&lp0, &reference, KlEstimator::K3).unwrap();
    let k2_0 = kl_penalty(&lp0, &reference, KlEstimator::K2).unwrap();
    let f = |lp: &Tensor| {
        aggregate(
            &kl_penalty(lp, &reference, KlEstimator::K3Plus).unwrap(),
            &c.mask,
            AggMode::TokenMean,
            &norm,
        )
        .unwrap()
    };
    let sur = |lp: &Tensor| {
        let k2 = kl_penalty(lp, &reference, KlEstimator::K2).unwrap();
        aggregate(&k2.sub(&k2_0).unwrap().add(&k3_0).unwrap(), &c.mask, AggMode::TokenMean, &norm).unwrap()
    };
    check_grad("k3+", &f, &sur, &lp0);
}

#[test]
fn entropy_and_value_losses() {
    let mut rng = Rng::new(5);
    let logits: Vec<f64> = (0..2 * 3 * 5).map(|_| rng.range(-3.0, 3.0)).collect();
    let logits = Tensor::from_vec(logits, (2, 3, 5), &Device::Cpu).unwrap();
    let w = Tensor::new(&[[1.0f64, -2.0, 0.5], [0.3, 1.5, -1.0]], &Device::Cpu).unwrap();
    let f = |z: &Tensor| entropy_from_logits(z).unwrap().mul(&w).unwrap().sum_all().unwrap();
    check_grad("entropy", &f, &f, &logits);

    let mask = Tensor::new(&[[1.0f64, 1.0, 0.0], [1.0, 1.0, 1.0]], &Device::Cpu).unwrap();
    let norm = Normaliser::from_mask(&mask).unwrap();
    let bins = HistogramBins::new(-1.0, 1.0, 5).unwrap();
    let targets: Vec<Vec<Vec<f64>>> = [[-0.9, 0.1, 0.4], [0.95, -0.2, 0.0]]
        .iter()
        .map(|r| r.iter().map(|y| bins.hl_gauss(*y, 0.2)).collect())
        .collect();
    let targets = Tensor::new(targets, &Device::Cpu).unwrap();
    for agg in AggMode::ALL {
        let f = |z: &Tensor| classification_value_loss(z, &targets, &mask, *agg, &norm).unwrap();
        check_grad(&format!("classification/{agg}"), &f, &f, &logits);
    }

    // Clipped value loss: some predictions inside the ±0.5 band around the old values, some out.
    let vold = rng.matrix(2, 3, -1.0, 1.0);
    let vpred = vold.add(&rng.matrix(2, 3, -1.0, 1.0)).unwrap();
    let returns = rng.matrix(2, 3, -1.0, 1.0);
    for agg in AggMode::ALL {
        let f = |v: &Tensor| clipped_value_loss(v, &returns, &vold, &mask, 0.5, *agg, &norm).unwrap().0;
        check_grad(&format!("value/{agg}"), &f, &f, &vpred);
    }
    assert_eq!(vpred.dtype(), DType::F64);
    assert_eq!(logits.dims3().unwrap().2, logits.dim(D::Minus1).unwrap());
}
