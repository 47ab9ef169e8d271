//! Golden tests: gauntlet against the numpy re-derivation of verl's formulas
//! (`tools/golden_algos.py` → `tests/fixtures/`).

use candle_core::Tensor;
use gauntlet_algos::advantage::{AdvantageConfig, AdvantageEstimator, GigpoMode};
use gauntlet_algos::aggregate::Normaliser;
use gauntlet_algos::entropy::entropy_from_logits;
use gauntlet_algos::kl::{kl_penalty, KlEstimator};
use gauntlet_algos::loss::is_correction::{rejection_mask, truncated_is_weights, IsLevel};
use gauntlet_algos::loss::{PolicyInputs, PolicyLoss, PolicyLossConfig};
use gauntlet_algos::value::{classification_value_loss, clipped_value_loss, HistogramBins};
use gauntlet_algos::AggMode;
use serde_json::Value;

use crate::util::*;

fn advantage_config(c: &Value) -> AdvantageConfig {
    let mut cfg = AdvantageConfig::default();
    if let Some(x) = c.get("gamma").and_then(Value::as_f64) {
        cfg.gamma = x;
    }
    if let Some(x) = c.get("lambda").and_then(Value::as_f64) {
        cfg.lambda = x;
    }
    if let Some(x) = c.get("epsilon").and_then(Value::as_f64) {
        cfg.epsilon = x;
    }
    if let Some(x) = c.get("norm_by_std").and_then(Value::as_bool) {
        cfg.norm_by_std = x;
    }
    if let Some(g) = c.get("gigpo") {
        cfg.gigpo.mode = match g["mode"].as_str().unwrap() {
            "mean_norm" => GigpoMode::MeanNorm,
            _ => GigpoMode::MeanStdNorm,
        };
        cfg.gigpo.step_weight = g["step_weight"].as_f64().unwrap();
        cfg.gigpo.gamma = g["gamma"].as_f64().unwrap();
    }
    cfg
}

#[test]
fn advantages_match_the_reference_formulas() {
    let fx = fixture("advantages.json");
    let cases = fx["cases"].as_array().unwrap();
    assert!(cases.len() >= 50);
    let mut seen = std::collections::BTreeSet::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let est: AdvantageEstimator = case["estimator"].as_str().unwrap().parse().unwrap();
        seen.insert(est.name());
        let batch = batch_from_rows(case["rows"].as_array().unwrap());
        let out =
            est.compute(&batch, &advantage_config(&case["config"])).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_rows_close(&out.advantages, &matrix(&case["advantages"]), 1e-9, name);
        match (&out.returns, case["returns"].is_null()) {
            (Some(r), false) => assert_rows_close(r, &matrix(&case["returns"]), 1e-9, name),
            (None, true) => {}
            _ => panic!("{name}: returns present in one output only"),
        }
    }
    for want in [
        "grpo",
        "dr-grpo",
        "rloo",
        "reinforce-pp",
        "reinforce-pp-baseline",
        "remax",
        "opo",
        "gpg",
        "gae",
        "gigpo",
    ] {
        assert!(seen.contains(want), "no golden case for {want}");
    }
}

#[test]
fn worked_example_is_pinned() {
    let fx = fixture("advantages.json");
    let get = |n: &str| {
        let c = fx["cases"].as_array().unwrap().iter().find(|c| c["name"] == n).unwrap();
        matrix(&c["advantages"]).iter().map(|r| r[0]).collect::<Vec<f64>>()
    };
    let g = get("worked-example-grpo");
    assert_close(g[0], 1.499997, 1e-6, "grpo");
    assert_close(g[1], -0.499999, 1e-6, "grpo");
    assert_eq!(get("worked-example-dr-grpo"), vec![0.75, -0.25, -0.25, -0.25]);
    let r = get("worked-example-rloo");
    assert_close(r[0], 1.0, 1e-12, "rloo");
    assert_close(r[3], -1.0 / 3.0, 1e-12, "rloo");
}

fn loss_config(c: &Value) -> PolicyLossConfig {
    PolicyLossConfig {
        clip_low: c["clip_low"].as_f64().unwrap(),
        clip_high: c["clip_high"].as_f64().unwrap(),
        clip_c: c["clip_c"].as_f64(),
        tau_pos: c["tau_pos"].as_f64().unwrap(),
        tau_neg: c["tau_neg"].as_f64().unwrap(),
        behav_weight_cap: c.get("behav_weight_cap").and_then(Value::as_f64),
        agg: AggMode::TokenMean,
    }
}

#[test]
fn policy_losses_match_the_reference_formulas() {
    let fx = fixture("losses.json");
    let cases = fx["policy"].as_array().unwrap();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let (lp, old, adv, mask) =
            (tensor(&case["lp"]), tensor(&case["old"]), tensor(&case["adv"]), tensor(&case["mask"]));
        let loss: PolicyLoss = case["loss"].as_str().unwrap().parse().unwrap();
        let mut cfg = loss_config(&case["config"]);
        cfg.agg = case["agg"].as_str().unwrap().parse().unwrap();
        let norm = Normaliser::from_mask(&mask).unwrap();
        let rollout = case.get("rollout").map(tensor);
        let mut weights: Option<Tensor> = None;
        if let (Some(r), Some(w)) = (&rollout, case.get("weights")) {
            let level = if name.ends_with("sequence") { IsLevel::Sequence } else { IsLevel::Token };
            let ours = if name.starts_with("tis") {
                truncated_is_weights(&old, r, &mask, level, 2.0).unwrap()
            } else {
                rejection_mask(&old, r, &mask, level, 0.5, 2.0).unwrap()
            };
            assert_rows_close(&to_mat(&ours), &matrix(w), 1e-12, name);
            weights = Some(ours);
        }
        let mut inputs = PolicyInputs::new(&lp, &old, &adv, &mask);
        inputs.is_weights = weights.as_ref();
        if loss == PolicyLoss::DecoupledPpo {
            inputs.rollout_log_prob = rollout.as_ref();
        }
        let (value, metrics) = loss.compute(&inputs, &cfg, &norm).unwrap();
        assert_close(scalar(&value), case["value"].as_f64().unwrap(), 1e-10, name);
        for (k, v) in case["metrics"].as_object().unwrap() {
            assert_close(metrics[k.as_str()], v.as_f64().unwrap(), 1e-12, &format!("{name} {k}"));
        }
    }
    // The fixture exercises the clamps: a log-ratio beyond ±20 and a dual-clip activation.
    let v = cases.iter().find(|c| c["name"] == "vanilla-token-mean").unwrap();
    assert!(v["metrics"]["actor/pg_clipfrac_lower"].as_f64().unwrap() > 0.0);
    let lp = matrix(&v["lp"]);
    let old = matrix(&v["old"]);
    assert!((lp[0][0] - old[0][0]) > 20.0 && (lp[0][1] - old[0][1]) < -20.0);
}

#[test]
fn kl_estimators_match() {
    let fx = &fixture("losses.json")["kl"];
    let (lp, r) = (tensor(&fx["lp"]), tensor(&fx["ref"]));
    for k in ["k1", "k2", "k3"] {
        let got = kl_penalty(&lp, &r, k.parse().unwrap()).unwrap();
        assert_rows_close(&to_mat(&got), &matrix(&fx[k]), 1e-12, k);
    }
    let k3 = matrix(&fx["k3"]);
    assert!(k3.iter().flatten().any(|x| *x == 10.0), "the ±10 output clamp is exercised");
    let plus = kl_penalty(&lp, &r, KlEstimator::K3Plus).unwrap();
    assert_rows_close(&to_mat(&plus), &k3, 1e-12, "k3+ has the value of k3");
}

#[test]
fn entropy_matches() {
    let fx = &fixture("losses.json")["entropy"];
    let got = entropy_from_logits(&tensor3(&fx["logits"])).unwrap();
    assert_rows_close(&to_mat(&got), &matrix(&fx["entropy"]), 1e-12, "entropy");
}

#[test]
fn value_losses_match() {
    let fx = &fixture("losses.json")["value"];
    let mask = tensor(&fx["mask"]);
    let norm = Normaliser::from_mask(&mask).unwrap();
    for (agg, want) in fx["loss"].as_object().unwrap() {
        let (loss, frac) = clipped_value_loss(
            &tensor(&fx["vpred"]),
            &tensor(&fx["returns"]),
            &tensor(&fx["old"]),
            &mask,
            fx["clip"].as_f64().unwrap(),
            agg.parse().unwrap(),
            &norm,
        )
        .unwrap();
        assert_close(scalar(&loss), want.as_f64().unwrap(), 1e-12, agg);
        assert_close(frac, fx["clipfrac"].as_f64().unwrap(), 1e-12, "vf_clipfrac");
    }
}

#[test]
fn histogram_targets_and_classification_loss_match() {
    let fx = &fixture("losses.json")["histogram"];
    let bins = HistogramBins::new(fx["min"].as_f64().unwrap(), fx["max"].as_f64().unwrap(), 8).unwrap();
    let sigma = fx["sigma"].as_f64().unwrap();
    assert_close(bins.default_sigma(), sigma, 1e-15, "sigma");
    let ys = f64s(&fx["targets"]);
    let hl: Vec<Vec<f64>> = ys.iter().map(|y| bins.hl_gauss(*y, sigma)).collect();
    assert_rows_close(&hl, &matrix(&fx["hl_gauss"]), 1e-12, "hl-gauss");
    let th: Vec<Vec<f64>> = ys.iter().map(|y| bins.two_hot(*y)).collect();
    assert_rows_close(&th, &matrix(&fx["two_hot"]), 1e-12, "two-hot");
    let targets = Tensor::new(vec![hl], &candle_core::Device::Cpu).unwrap();
    let mask = tensor(&fx["mask"]);
    let norm = Normaliser::from_mask(&mask).unwrap();
    let loss = classification_value_loss(&tensor3(&fx["logits"]), &targets, &mask, AggMode::TokenMean, &norm)
        .unwrap();
    assert_close(scalar(&loss), fx["loss"].as_f64().unwrap(), 1e-12, "classification loss");
}
