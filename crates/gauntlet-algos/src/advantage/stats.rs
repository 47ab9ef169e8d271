//! Shared numerics of the estimators: grouping, group moments, tiling and masked whitening.

use crate::error::{AlgoError, Result};

/// Row indices of each group, groups in order of first appearance.
///
/// ```
/// assert_eq!(gauntlet_algos::advantage::group_rows(&[5, 2, 5]), vec![vec![0, 2], vec![1]]);
/// ```
pub fn group_rows(groups: &[usize]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = Vec::new();
    let mut members: std::collections::HashMap<usize, Vec<usize>> = std::collections::HashMap::new();
    for (i, g) in groups.iter().enumerate() {
        members
            .entry(*g)
            .or_insert_with(|| {
                order.push(*g);
                Vec::new()
            })
            .push(i);
    }
    order.into_iter().map(|g| members.remove(&g).unwrap_or_default()).collect()
}

/// Arithmetic mean; 0 for an empty slice.
pub(crate) fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Unbiased (n − 1) standard deviation, as `torch.std`; 0 for fewer than two values.
pub(crate) fn std_unbiased(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64).sqrt()
}

/// verl's group statistics: `(mean, std)` of a group's scores, with the singleton rule
/// `mean = 0, std = 1` (`compute_grpo_outcome_advantage`).
pub(crate) fn group_moments(scores: &[f64]) -> (f64, f64) {
    if scores.len() == 1 {
        (0.0, 1.0)
    } else {
        (mean(scores), std_unbiased(scores))
    }
}

/// Broadcast one value per row over the row's tokens, times the mask:
/// `out[i][t] = adv[i] · m[i][t]`.
pub fn tile(adv: &[f64], masks: &[Vec<f64>]) -> Vec<Vec<f64>> {
    adv.iter().zip(masks).map(|(a, m)| m.iter().map(|x| a * x).collect()).collect()
}

/// Masked whitening over the whole batch, verl's `masked_whiten`:
///
/// `μ = Σ x·m / Σ m`, `σ² = Σ (x − μ)²·m / Σ m · n/(n − 1)` with `n = Σ m`, and
/// `out = (x − μ) · rsqrt(σ² + 1e-8) · m`.
///
/// The unbiased variance needs `n ≥ 2` (verl raises for `n ≤ 1`), reported as
/// [`AlgoError::TooFewTokens`] naming `estimator`. Masked-out tokens come back as 0.
pub fn masked_whiten(x: &[Vec<f64>], masks: &[Vec<f64>], estimator: &'static str) -> Result<Vec<Vec<f64>>> {
    let n: f64 = masks.iter().flatten().sum();
    if n < 2.0 {
        return Err(AlgoError::TooFewTokens { estimator, got: n as usize });
    }
    let pairs = || x.iter().zip(masks).flat_map(|(r, m)| r.iter().zip(m));
    let mu = pairs().map(|(v, m)| v * m).sum::<f64>() / n;
    let var = pairs().map(|(v, m)| (v - mu).powi(2) * m).sum::<f64>() / n * (n / (n - 1.0));
    let scale = 1.0 / (var + 1e-8).sqrt();
    Ok(x.iter()
        .zip(masks)
        .map(|(r, m)| r.iter().zip(m).map(|(v, mm)| (v - mu) * scale * mm).collect())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_follow_torch_std() {
        assert_eq!(group_moments(&[3.0]), (0.0, 1.0));
        let (m, s) = group_moments(&[1.0, 0.0, 0.0, 0.0]);
        assert_eq!(m, 0.25);
        assert!((s - 0.5).abs() < 1e-15);
    }

    #[test]
    fn whitening_ignores_masked_tokens_and_needs_two() {
        let x = vec![vec![1.0, 100.0, 3.0]];
        let m = vec![vec![1.0, 0.0, 1.0]];
        let w = masked_whiten(&x, &m, "t").unwrap();
        // mean 2, unbiased var 2 → ±1/√2.
        assert!((w[0][0] + 1.0 / 2f64.sqrt()).abs() < 1e-8);
        assert_eq!(w[0][1], 0.0);
        assert!(masked_whiten(&x, &[vec![0.0, 1.0, 0.0]], "t").is_err());
    }
}
