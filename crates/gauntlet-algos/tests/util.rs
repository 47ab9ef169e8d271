//! Shared helpers: fixture loading, tensors from JSON, a seeded generator, tolerances.

use candle_core::{DType, Device, Tensor, Var};
use gauntlet_algos::advantage::{group_ids, AdvantageBatch, TurnInfo};
use serde_json::Value;

pub fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

pub fn f64s(v: &Value) -> Vec<f64> {
    v.as_array().expect("array").iter().map(|x| x.as_f64().expect("number")).collect()
}

pub fn matrix(v: &Value) -> Vec<Vec<f64>> {
    v.as_array().expect("array of rows").iter().map(f64s).collect()
}

pub fn tensor(v: &Value) -> Tensor {
    let m = matrix(v);
    Tensor::new(m, &Device::Cpu).unwrap()
}

pub fn tensor3(v: &Value) -> Tensor {
    let m: Vec<Vec<Vec<f64>>> = v.as_array().unwrap().iter().map(matrix).collect();
    Tensor::new(m, &Device::Cpu).unwrap()
}

pub fn to_mat(t: &Tensor) -> Vec<Vec<f64>> {
    t.to_dtype(DType::F64).unwrap().to_vec2().unwrap()
}

pub fn scalar(t: &Tensor) -> f64 {
    t.to_dtype(DType::F64).unwrap().to_scalar().unwrap()
}

/// `|a − b| ≤ tol·max(1, |b|)`.
pub fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

pub fn assert_close(a: f64, b: f64, tol: f64, what: &str) {
    assert!(close(a, b, tol), "{what}: got {a}, want {b}");
}

pub fn assert_rows_close(got: &[Vec<f64>], want: &[Vec<f64>], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: row count");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.len(), w.len(), "{what}: row {i} length");
        for (t, (a, b)) in g.iter().zip(w).enumerate() {
            assert!(close(*a, *b, tol), "{what}: row {i} token {t}: got {a}, want {b}");
        }
    }
}

fn strings(rows: &[Value], key: &str) -> Vec<String> {
    rows.iter()
        .map(|r| match &r[key] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

/// An `AdvantageBatch` from fixture rows (the CLI's JSONL schema).
pub fn batch_from_rows(rows: &[Value]) -> AdvantageBatch {
    let groups = group_ids(strings(rows, "group"));
    let scores = rows.iter().map(|r| r["score"].as_f64().unwrap()).collect();
    let masks = rows.iter().map(|r| f64s(&r["mask"])).collect();
    let mut b = AdvantageBatch::new(groups, scores, masks);
    let per_token = |k: &str| rows[0].get(k).map(|_| rows.iter().map(|r| f64s(&r[k])).collect::<Vec<_>>());
    b.token_rewards = per_token("rewards");
    b.values = per_token("values");
    if rows[0].get("length").is_some() {
        b.lengths = Some(rows.iter().map(|r| r["length"].as_f64().unwrap()).collect());
    }
    if rows[0].get("baseline").is_some() {
        b.baselines = Some(rows.iter().map(|r| r["baseline"].as_f64().unwrap()).collect());
    }
    if rows[0].get("trajectory").is_some() {
        b.turns = Some(TurnInfo {
            trajectories: group_ids(strings(rows, "trajectory")),
            turns: rows.iter().map(|r| r["turn"].as_i64().unwrap()).collect(),
            anchors: group_ids(strings(rows, "anchor")),
            step_rewards: rows.iter().map(|r| r["step_reward"].as_f64().unwrap()).collect(),
        });
    }
    b
}

/// xorshift64*: a tiny seeded generator for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[0, 1)`.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    pub fn matrix(&mut self, b: usize, t: usize, lo: f64, hi: f64) -> Tensor {
        let v: Vec<f64> = (0..b * t).map(|_| self.range(lo, hi)).collect();
        Tensor::from_vec(v, (b, t), &Device::Cpu).unwrap()
    }
}

/// Gradient of the scalar `f(x)` at `x0` by candle autograd.
pub fn autograd(f: &dyn Fn(&Tensor) -> Tensor, x0: &Tensor) -> Vec<f64> {
    let x = Var::from_tensor(x0).unwrap();
    let y = f(x.as_tensor());
    let grads = y.backward().unwrap();
    match grads.get(&x) {
        Some(g) => g.flatten_all().unwrap().to_vec1().unwrap(),
        None => vec![0.0; x0.elem_count()],
    }
}

/// Gradient of the scalar `f(x)` at `x0` by central differences, step `h`.
pub fn finite_diff(f: &dyn Fn(&Tensor) -> Tensor, x0: &Tensor, h: f64) -> Vec<f64> {
    let base: Vec<f64> = x0.flatten_all().unwrap().to_vec1().unwrap();
    let shape = x0.shape().clone();
    let eval = |v: Vec<f64>| scalar(&f(&Tensor::from_vec(v, shape.clone(), &Device::Cpu).unwrap()));
    (0..base.len())
        .map(|i| {
            let mut up = base.clone();
            let mut down = base.clone();
            up[i] += h;
            down[i] -= h;
            (eval(up) - eval(down)) / (2.0 * h)
        })
        .collect()
}

/// Autograd of `f` against finite differences of `surrogate` (a function equal to `f` at `x0`
/// whose stop-gradient parts are frozen at `x0`; pass `f` itself when it has none).
pub fn check_grad(
    name: &str,
    f: &dyn Fn(&Tensor) -> Tensor,
    surrogate: &dyn Fn(&Tensor) -> Tensor,
    x0: &Tensor,
) {
    let fx = scalar(&f(x0));
    assert_close(fx, scalar(&surrogate(x0)), 1e-12, &format!("{name}: surrogate value"));
    let a = autograd(f, x0);
    let n = finite_diff(surrogate, x0, 1e-6);
    assert!(a.iter().any(|g| *g != 0.0) || n.iter().all(|g| g.abs() < 1e-9), "{name}: autograd is all zero");
    for (i, (x, y)) in a.iter().zip(&n).enumerate() {
        // Central differences carry round-off of about |f|·ε/h on top of O(h²).
        assert!(
            (x - y).abs() <= 1e-6 + 1e-5 * y.abs() + 1e-9 * fx.abs(),
            "{name}: d/dx[{i}]: autograd {x}, finite differences {y}"
        );
    }
}
