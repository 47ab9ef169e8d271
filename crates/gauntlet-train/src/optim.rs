//! AdamW with global-norm gradient clipping and a warm-up + cosine schedule, with its state
//! saved next to checkpoints so a resumed run continues bit for bit.
//!
//! ```text
//! lr(t)  = lr · t/warmup                                      t < warmup
//!        = lr · (r + (1 − r)(1 + cos(π·p))/2),  p = (t − warmup)/(T − warmup)   otherwise
//! g      ← g · min(1, clip / ‖g‖₂)                            (‖g‖₂ over all parameters)
//! m      ← β1 m + (1 − β1) g;   v ← β2 v + (1 − β2) g²
//! θ      ← θ − lr·wd·θ  (matrices only)  − lr · (m / (1 − β1ᵗ)) / (√(v / (1 − β2ᵗ)) + ε)
//! ```

use std::collections::HashMap;
use std::path::Path;

use candle_core::{backprop::GradStore, DType, Tensor, Var};
use gauntlet_model::fused;

use crate::config::OptimConfig;

/// Learning rate at step `t` (0-based) of `total`, see the module doc.
pub fn lr_at(cfg: &OptimConfig, t: usize, total: usize) -> f64 {
    if t < cfg.warmup_steps {
        return cfg.lr * (t + 1) as f64 / cfg.warmup_steps as f64;
    }
    let span = total.saturating_sub(cfg.warmup_steps).max(1) as f64;
    let p = ((t - cfg.warmup_steps) as f64 / span).min(1.0);
    let r = cfg.min_lr_ratio;
    cfg.lr * (r + (1.0 - r) * (1.0 + (std::f64::consts::PI * p).cos()) / 2.0)
}

/// AdamW over named variables.
pub struct AdamW {
    params: Vec<(String, Var)>,
    m: Vec<Var>,
    v: Vec<Var>,
    /// Optimiser steps taken.
    pub step: u64,
    /// `step` when the moments were last reset: bias correction counts the steps since.
    pub moments_from: u64,
    cfg: OptimConfig,
}

/// What one optimiser step did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepStats {
    /// Global gradient norm before clipping.
    pub grad_norm: f64,
    /// Learning rate used.
    pub lr: f64,
}

impl AdamW {
    /// An optimiser for `params` (sorted by name for a stable order).
    pub fn new(mut params: Vec<(String, Var)>, cfg: OptimConfig) -> candle_core::Result<Self> {
        params.sort_by(|a, b| a.0.cmp(&b.0));
        let zeros = |v: &Var| Var::zeros(v.shape(), DType::F32, v.device());
        let m = params.iter().map(|(_, v)| zeros(v)).collect::<candle_core::Result<_>>()?;
        let v = params.iter().map(|(_, v)| zeros(v)).collect::<candle_core::Result<_>>()?;
        Ok(AdamW { params, m, v, step: 0, moments_from: 0, cfg })
    }

    /// Number of parameter tensors.
    pub fn len(&self) -> usize {
        self.params.len()
    }

    /// Whether there are no parameters.
    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }

    /// Replaces the hyper-parameters (a new phase), keeping the moments.
    pub fn set_config(&mut self, cfg: OptimConfig) {
        self.cfg = cfg;
    }

    /// Zeroes both moments, as a fresh optimiser would have them (a new phase that should not
    /// inherit the previous phase's gradient statistics); `step` keeps counting.
    pub fn reset_moments(&mut self) -> candle_core::Result<()> {
        for x in self.m.iter().chain(&self.v) {
            x.set(&x.as_tensor().zeros_like()?)?;
        }
        self.moments_from = self.step;
        Ok(())
    }

    /// The gradients of the parameters in `grads`, in parameter order.
    pub fn collect(&self, grads: &GradStore) -> Vec<Option<Tensor>> {
        self.params.iter().map(|(_, p)| grads.get(p.as_tensor()).cloned()).collect()
    }

    /// Adds `more` (from [`AdamW::collect`]) into `acc`: gradient accumulation over
    /// micro-batches.
    pub fn accumulate(acc: &mut [Option<Tensor>], more: Vec<Option<Tensor>>) -> candle_core::Result<()> {
        for (a, m) in acc.iter_mut().zip(more) {
            *a = match (a.take(), m) {
                (Some(x), Some(y)) => Some((x + y)?),
                (x, y) => x.or(y),
            };
        }
        Ok(())
    }

    /// Clips the gradients, then updates every parameter with learning rate `lr`.
    /// Parameters without a gradient are left alone.
    pub fn step(&mut self, grads: &GradStore, lr: f64) -> candle_core::Result<StepStats> {
        let gs = self.collect(grads);
        self.step_with(gs, lr)
    }

    /// [`AdamW::step`] with gradients in parameter order (see [`AdamW::collect`]).
    pub fn step_with(&mut self, gs: Vec<Option<Tensor>>, lr: f64) -> candle_core::Result<StepStats> {
        let mut sq = 0f64;
        for g in gs.iter().flatten() {
            sq += match fused::sum_of_squares(g) {
                Some(s) => s,
                None => g.sqr()?.sum_all()?.to_dtype(DType::F64)?.to_scalar::<f64>()?,
            };
        }
        let grad_norm = sq.sqrt();
        let scale = if self.cfg.grad_clip > 0.0 && grad_norm > self.cfg.grad_clip && grad_norm.is_finite() {
            self.cfg.grad_clip / grad_norm
        } else {
            1.0
        };
        if !grad_norm.is_finite() {
            // A non-finite gradient would poison the moments: skip the update, report it.
            return Ok(StepStats { grad_norm, lr });
        }
        self.step += 1;
        let (b1, b2) = (self.cfg.beta1, self.cfg.beta2);
        let t = (self.step - self.moments_from) as i32;
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for (i, ((_, p), g)) in self.params.iter().zip(gs).enumerate() {
            let Some(g) = g else { continue };
            let weight_decay = if p.rank() >= 2 { self.cfg.weight_decay.max(0.0) } else { 0.0 };
            let s = fused::AdamWStep {
                lr,
                beta1: b1,
                beta2: b2,
                eps: self.cfg.eps,
                weight_decay,
                c1,
                c2,
                grad_scale: scale,
            };
            let (m, v) = (self.m[i].as_tensor(), self.v[i].as_tensor());
            if fused::adamw_step(p.as_tensor(), m, v, &g, &s)
                .map_err(|e| candle_core::Error::Msg(e.to_string()))?
            {
                continue;
            }
            // Elsewhere than contiguous f32 on the CPU: the same formula as tensor ops.
            let g = if scale != 1.0 { (g * scale)? } else { g };
            let m = ((m * b1)? + (&g * (1.0 - b1))?)?;
            let v = ((v * b2)? + (g.sqr()? * (1.0 - b2))?)?;
            let update = ((&m / c1)? / ((&v / c2)?.sqrt()? + self.cfg.eps)?)?;
            let theta = (p.as_tensor() * (1.0 - lr * weight_decay))?;
            p.set(&(theta - (update * lr)?)?)?;
            self.m[i].set(&m)?;
            self.v[i].set(&v)?;
        }
        Ok(StepStats { grad_norm, lr })
    }

    /// Writes the moments to `path` (safetensors, `m.NAME` / `v.NAME`).
    pub fn save(&self, path: &Path) -> candle_core::Result<()> {
        let mut map: HashMap<String, Tensor> = HashMap::new();
        for (i, (name, _)) in self.params.iter().enumerate() {
            map.insert(format!("m.{name}"), self.m[i].as_tensor().clone());
            map.insert(format!("v.{name}"), self.v[i].as_tensor().clone());
        }
        candle_core::safetensors::save(&map, path)
    }

    /// Reads the moments written by [`AdamW::save`]; `step` and `moments_from` are restored by
    /// the caller.
    pub fn load(&mut self, path: &Path) -> candle_core::Result<()> {
        let map = candle_core::safetensors::load(path, self.params[0].1.device())?;
        for (i, (name, _)) in self.params.iter().enumerate() {
            for (key, var) in [(format!("m.{name}"), &self.m[i]), (format!("v.{name}"), &self.v[i])] {
                let t = map
                    .get(&key)
                    .ok_or_else(|| candle_core::Error::Msg(format!("`{}` lacks `{key}`", path.display())))?;
                var.set(t)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn schedule_warms_up_then_decays_to_the_floor() {
        let cfg = OptimConfig { lr: 1.0, warmup_steps: 4, min_lr_ratio: 0.1, ..Default::default() };
        assert!((lr_at(&cfg, 0, 100) - 0.25).abs() < 1e-12);
        assert!((lr_at(&cfg, 3, 100) - 1.0).abs() < 1e-12);
        assert!((lr_at(&cfg, 4, 100) - 1.0).abs() < 1e-12);
        assert!((lr_at(&cfg, 100, 100) - 0.1).abs() < 1e-12);
        assert!(lr_at(&cfg, 50, 100) < 1.0 && lr_at(&cfg, 50, 100) > 0.1);
    }

    #[test]
    fn adamw_minimises_a_quadratic_and_clips() {
        let x = Var::new(&[3.0f32, -2.0], &Device::Cpu).unwrap();
        let cfg = OptimConfig { lr: 0.1, weight_decay: 0.0, grad_clip: 1.0, ..Default::default() };
        let mut opt = AdamW::new(vec![("x".into(), x.clone())], cfg).unwrap();
        let mut first = None;
        for _ in 0..300 {
            let loss = x.as_tensor().sqr().unwrap().sum_all().unwrap();
            let stats = opt.step(&loss.backward().unwrap(), 0.1).unwrap();
            first.get_or_insert(stats.grad_norm);
        }
        // ‖∇‖ = 2‖x‖ = 2√13 at the start, clipped to 1 for the update.
        assert!((first.unwrap() - 2.0 * 13f64.sqrt()).abs() < 1e-4);
        let v = x.as_tensor().to_vec1::<f32>().unwrap();
        assert!(v.iter().all(|a| a.abs() < 0.05), "{v:?}");
        // After a reset the next update is a fresh Adam step: lr · sign(g) in magnitude.
        opt.reset_moments().unwrap();
        x.set(&Tensor::new(&[0.5f32, -0.5], &Device::Cpu).unwrap()).unwrap();
        let loss = x.as_tensor().sqr().unwrap().sum_all().unwrap();
        opt.step(&loss.backward().unwrap(), 0.1).unwrap();
        let v = x.as_tensor().to_vec1::<f32>().unwrap();
        assert!((v[0] - 0.4).abs() < 1e-5 && (v[1] + 0.4).abs() < 1e-5, "{v:?}");
    }

    #[test]
    fn state_round_trips_exactly() {
        let dir = std::env::temp_dir().join(format!("gauntlet-optim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let make = || Var::new(&[1.0f32, 2.0], &Device::Cpu).unwrap();
        let (a, b) = (make(), make());
        let mut oa = AdamW::new(vec![("w".into(), a.clone())], OptimConfig::default()).unwrap();
        let loss = |x: &Var| x.as_tensor().sqr().unwrap().sum_all().unwrap().backward().unwrap();
        oa.step(&loss(&a), 0.01).unwrap();
        oa.save(&dir.join("o.safetensors")).unwrap();
        let mut ob = AdamW::new(vec![("w".into(), b.clone())], OptimConfig::default()).unwrap();
        ob.load(&dir.join("o.safetensors")).unwrap();
        ob.step = oa.step;
        b.set(a.as_tensor()).unwrap();
        oa.step(&loss(&a), 0.01).unwrap();
        ob.step(&loss(&b), 0.01).unwrap();
        assert_eq!(a.as_tensor().to_vec1::<f32>().unwrap(), b.as_tensor().to_vec1::<f32>().unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
