//! GRPO, Dr.GRPO and GPG: group-relative outcome advantages.
//!
//! References: GRPO, Shao et al. 2024, <https://arxiv.org/abs/2402.03300>; Dr.GRPO, Liu et al.
//! 2025, <https://arxiv.org/abs/2503.20783>; GPG, Chu et al. 2025,
//! <https://arxiv.org/abs/2504.02546>. Implementation followed: verl
//! `compute_grpo_outcome_advantage` and `compute_gpg_outcome_advantage`.

use super::group_rows;
use super::stats::group_moments;

/// GRPO sequence-level advantages (one per row).
///
/// `A_i = (s_i − mean_g) / (std_g + ε)` with the **unbiased** (n − 1) std of the group, or
/// `A_i = s_i − mean_g` when `norm_by_std` is false (Dr.GRPO). A singleton group uses
/// `mean = 0, std = 1`, so its row keeps `s_i / (1 + ε)` (or `s_i`). An all-equal group gives 0.
///
/// Inputs: `scores[i]` the outcome of row `i`, `groups[i]` its group id; `epsilon` is 1e-6 in
/// verl (TRL uses 1e-4, OpenRLHF 1e-9).
///
/// ```
/// let a = gauntlet_algos::advantage::grpo::grpo_outcome(&[1.0, 0.0, 0.0, 0.0], &[0; 4], 1e-6, true);
/// assert!((a[0] - 1.499997).abs() < 1e-6 && (a[1] + 0.499999).abs() < 1e-6);
/// ```
pub fn grpo_outcome(scores: &[f64], groups: &[usize], epsilon: f64, norm_by_std: bool) -> Vec<f64> {
    let mut out = vec![0.0; scores.len()];
    for rows in group_rows(groups) {
        let g: Vec<f64> = rows.iter().map(|&i| scores[i]).collect();
        let (mean, std) = group_moments(&g);
        for &i in &rows {
            out[i] = if norm_by_std { (scores[i] - mean) / (std + epsilon) } else { scores[i] - mean };
        }
    }
    out
}

/// GPG sequence-level advantages.
///
/// `A_i = α · (s_i − mean_g)` with `α = B / max(#{i : s_i ≠ 0}, 1)`, `B` the number of rows in
/// the batch; singleton groups use `mean = 0`. The matching loss is plain REINFORCE
/// (`−lp · A`, [`crate::loss::PolicyLoss::Reinforce`]).
///
/// ```
/// // Two of four scores are non-zero: α = 2.
/// let a = gauntlet_algos::advantage::grpo::gpg_outcome(&[1.0, 1.0, 0.0, 0.0], &[0; 4]);
/// assert_eq!(a, vec![1.0, 1.0, -1.0, -1.0]);
/// ```
pub fn gpg_outcome(scores: &[f64], groups: &[usize]) -> Vec<f64> {
    let nonzero = scores.iter().filter(|s| **s != 0.0).count().max(1);
    let alpha = scores.len() as f64 / nonzero as f64;
    let mut out = vec![0.0; scores.len()];
    for rows in group_rows(groups) {
        let g: Vec<f64> = rows.iter().map(|&i| scores[i]).collect();
        let (mean, _) = group_moments(&g);
        for &i in &rows {
            out[i] = alpha * (scores[i] - mean);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example_from_algorithms_md() {
        let s = [1.0, 0.0, 0.0, 0.0];
        let a = grpo_outcome(&s, &[0; 4], 1e-6, true);
        assert!((a[0] - 1.4999970000060).abs() < 1e-9);
        assert!(a[1..].iter().all(|x| (x + 0.4999990000020).abs() < 1e-9));
        assert_eq!(grpo_outcome(&s, &[0; 4], 1e-6, false), vec![0.75, -0.25, -0.25, -0.25]);
    }

    #[test]
    fn singleton_and_all_equal_groups() {
        let a = grpo_outcome(&[0.7, 1.0, 1.0], &[0, 1, 1], 1e-6, true);
        assert!((a[0] - 0.7 / (1.0 + 1e-6)).abs() < 1e-15);
        assert_eq!(&a[1..], &[0.0, 0.0]);
        assert_eq!(gpg_outcome(&[0.5], &[0]), vec![0.5]);
    }
}
