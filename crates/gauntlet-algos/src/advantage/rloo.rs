//! RLOO and OPO: baselines built from the other responses of the group.
//!
//! References: RLOO, Ahmadian et al. 2024, <https://arxiv.org/abs/2402.14740>; OPO, Hao et al.
//! 2025, <https://arxiv.org/abs/2505.23585>. Implementation followed: verl
//! `compute_rloo_outcome_advantage` and `compute_opo_outcome_advantage`.

use super::group_rows;
use super::stats::mean;

/// RLOO sequence-level advantages: the leave-one-out baseline
///
/// `A_i = s_i − mean_{j≠i} s_j = (s_i − mean_g) · n/(n − 1)` for a group of `n ≥ 2`;
/// a singleton group keeps `A_i = s_i`.
///
/// ```
/// let a = gauntlet_algos::advantage::rloo::rloo_outcome(&[1.0, 0.0, 0.0, 0.0], &[0; 4]);
/// assert!((a[0] - 1.0).abs() < 1e-12 && (a[1] + 1.0 / 3.0).abs() < 1e-12);
/// ```
pub fn rloo_outcome(scores: &[f64], groups: &[usize]) -> Vec<f64> {
    let mut out = scores.to_vec();
    for rows in group_rows(groups) {
        let n = rows.len() as f64;
        if rows.len() < 2 {
            continue;
        }
        let m = mean(&rows.iter().map(|&i| scores[i]).collect::<Vec<_>>());
        for &i in &rows {
            // verl's arithmetic: s·n/(n−1) − mean·n/(n−1).
            out[i] = scores[i] * n / (n - 1.0) - m * n / (n - 1.0);
        }
    }
    out
}

/// OPO sequence-level advantages: the length-weighted group baseline
///
/// `A_i = s_i − Σ_j |y_j| s_j / Σ_j |y_j|` over the group, `|y_j|` the response length
/// (verl: the number of unmasked tokens). A singleton group uses baseline 0 (`A_i = s_i`).
/// A group whose lengths sum to zero gives non-finite advantages, as in verl.
///
/// ```
/// let a = gauntlet_algos::advantage::rloo::opo_outcome(&[1.0, 0.0], &[3.0, 1.0], &[0, 0]);
/// assert_eq!(a, vec![0.25, -0.75]);
/// ```
pub fn opo_outcome(scores: &[f64], lengths: &[f64], groups: &[usize]) -> Vec<f64> {
    let mut out = scores.to_vec();
    for rows in group_rows(groups) {
        if rows.len() < 2 {
            continue;
        }
        let weighted: f64 = rows.iter().map(|&i| lengths[i] * scores[i]).sum();
        let total: f64 = rows.iter().map(|&i| lengths[i]).sum();
        let baseline = weighted / total;
        for &i in &rows {
            out[i] = scores[i] - baseline;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rloo_matches_the_leave_one_out_definition() {
        let s = [0.3, 0.9, 0.1, 0.4, 2.0];
        let g = [0, 0, 0, 0, 1];
        let a = rloo_outcome(&s, &g);
        for i in 0..4 {
            let others: f64 = (0..4).filter(|&j| j != i).map(|j| s[j]).sum::<f64>() / 3.0;
            assert!((a[i] - (s[i] - others)).abs() < 1e-12);
        }
        assert_eq!(a[4], 2.0);
    }

    #[test]
    fn opo_singleton_keeps_score() {
        assert_eq!(opo_outcome(&[0.4], &[7.0], &[3]), vec![0.4]);
    }
}
