//! Model-level tests: gradients reach every parameter, fused kernels equal the composite ops,
//! a tiny model learns, padding and the KV cache do not change the numbers.

use candle_core::{Device, Tensor, Var};
use candle_nn::{Optimizer, VarMap};

use crate::logprobs::next_token_loss;
use crate::{checkpoint, Config, KvCache, Llama};

fn max_diff(a: &Tensor, b: &Tensor) -> f32 {
    (a - b).unwrap().abs().unwrap().flatten_all().unwrap().max(0).unwrap().to_scalar().unwrap()
}

/// GQA (4 query / 2 kv heads), Qwen2 biases, untied head: every kind of parameter.
fn qwen_like(vocab: usize) -> Config {
    let mut cfg = Config::tiny(vocab);
    cfg.model_type = "qwen2".into();
    cfg
}

fn batch(dev: &Device) -> Tensor {
    Tensor::new(&[[1u32, 5, 9, 2, 7, 3, 3, 8], [4, 4, 0, 11, 6, 2, 9, 1]], dev).unwrap()
}

fn grads_of(model: &Llama, ids: &Tensor) -> candle_core::backprop::GradStore {
    next_token_loss(&model.forward(ids, None).unwrap(), ids, None).unwrap().backward().unwrap()
}

fn sorted_vars(vm: &VarMap) -> Vec<(String, Var)> {
    let mut v: Vec<(String, Var)> =
        vm.data().lock().unwrap().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

#[test]
fn every_parameter_gets_a_finite_nonzero_gradient() {
    let dev = Device::Cpu;
    for (cfg, fused) in [(qwen_like(16), true), (qwen_like(16), false), (Config::tiny(16), true)] {
        let mut cfg = cfg;
        cfg.tie_word_embeddings = !fused;
        let (mut model, vm) = checkpoint::new_model(&cfg, &dev, 1).unwrap();
        model.fused = fused;
        // Non-zero biases so that their gradients are generic.
        for (name, var) in sorted_vars(&vm) {
            if name.ends_with(".bias") {
                var.set(&Tensor::randn(0f32, 0.1, var.shape(), &dev).unwrap()).unwrap();
            }
        }
        let grads = grads_of(&model, &batch(&dev));
        let vars = sorted_vars(&vm);
        assert_eq!(vars.len(), checkpoint::tensor_names(&cfg).unwrap().len());
        for (name, var) in vars {
            let g = grads
                .get(var.as_tensor())
                .unwrap_or_else(|| panic!("no gradient for {name} (fused {fused})"));
            let v: Vec<f32> = g.flatten_all().unwrap().to_vec1().unwrap();
            assert!(v.iter().all(|x| x.is_finite()), "{name}: non-finite gradient");
            let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            assert!(norm > 1e-8, "{name}: zero gradient (fused {fused})");
        }
    }
}

#[test]
fn fused_kernels_match_composite_ops_in_value_and_gradient() {
    let dev = Device::Cpu;
    let (mut model, vm) = checkpoint::new_model(&qwen_like(16), &dev, 2).unwrap();
    let ids = batch(&dev);
    let mask = Tensor::new(&[[0u8, 0, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 0, 0]], &dev).unwrap();
    let a = model.forward(&ids, Some(&mask)).unwrap();
    let ga = grads_of(&model, &ids);
    model.fused = false;
    let b = model.forward(&ids, Some(&mask)).unwrap();
    let gb = grads_of(&model, &ids);
    assert!(max_diff(&a, &b) < 1e-4, "logits differ by {}", max_diff(&a, &b));
    for (name, var) in sorted_vars(&vm) {
        let (x, y) = (ga.get(var.as_tensor()).unwrap(), gb.get(var.as_tensor()).unwrap());
        let scale =
            y.abs().unwrap().flatten_all().unwrap().max(0).unwrap().to_scalar::<f32>().unwrap().max(1e-6);
        assert!(max_diff(x, y) / scale < 1e-3, "{name}: gradients differ by {}", max_diff(x, y));
    }
}

#[test]
fn tiny_model_overfits_a_sequence() {
    let dev = Device::Cpu;
    let (model, vm) = checkpoint::new_model(&Config::tiny(16), &dev, 3).unwrap();
    let ids = batch(&dev);
    let mut opt = candle_nn::AdamW::new_lr(vm.all_vars(), 1e-2).unwrap();
    let first =
        next_token_loss(&model.forward(&ids, None).unwrap(), &ids, None).unwrap().to_scalar::<f32>().unwrap();
    let mut last = first;
    for _ in 0..40 {
        let loss = next_token_loss(&model.forward(&ids, None).unwrap(), &ids, None).unwrap();
        last = loss.to_scalar::<f32>().unwrap();
        opt.backward_step(&loss).unwrap();
    }
    assert!(first > 2.0 && last < 0.3 * first, "loss {first} -> {last}");
}

/// Each row alone, unpadded: logits of its real tokens.
fn alone(model: &Llama, row: &[u32]) -> Tensor {
    let ids = Tensor::new(row, &Device::Cpu).unwrap().unsqueeze(0).unwrap();
    model.forward(&ids, None).unwrap().squeeze(0).unwrap()
}

#[test]
fn padding_mask_gives_the_unpadded_logits() {
    let dev = Device::Cpu;
    let (model, _) = checkpoint::new_model(&qwen_like(16), &dev, 4).unwrap();
    // Row 0 left-padded by 2, row 1 right-padded by 3.
    let ids = Tensor::new(&[[0u32, 0, 3, 4, 5, 6], [7, 8, 9, 0, 0, 0]], &dev).unwrap();
    let mask = Tensor::new(&[[0f32, 0., 1., 1., 1., 1.], [1., 1., 1., 0., 0., 0.]], &dev).unwrap();
    let out = model.forward(&ids, Some(&mask)).unwrap();
    let r0 = out.get(0).unwrap().narrow(0, 2, 4).unwrap();
    let r1 = out.get(1).unwrap().narrow(0, 0, 3).unwrap();
    assert!(max_diff(&r0, &alone(&model, &[3, 4, 5, 6])) < 1e-4);
    assert!(max_diff(&r1, &alone(&model, &[7, 8, 9])) < 1e-4);
}

/// Rows of 7 and 5 tokens: prompts of 4 and 2 (left-padded to 4), then 3 decoding steps of one
/// token each; the logits of each call.
fn decoded(model: &Llama) -> Vec<Tensor> {
    let dev = Device::Cpu;
    let prompt = Tensor::new(&[[3u32, 4, 5, 6], [0, 0, 9, 10]], &dev).unwrap();
    let mut cache = KvCache::new(model.layers.len(), 2);
    let mut got =
        vec![model.forward_cached(&prompt, Some(&[1, 1, 1, 1, 0, 0, 1, 1]), &mut cache, true).unwrap()];
    for step in 0..3 {
        let next = Tensor::new(&[[DECODED[0][4 + step]], [DECODED[1][2 + step]]], &dev).unwrap();
        got.push(model.forward_cached(&next, None, &mut cache, false).unwrap());
    }
    got
}

const DECODED: [&[u32]; 2] = [&[3, 4, 5, 6, 1, 2, 7], &[9, 10, 1, 2, 3]];

/// [`decoded`]'s logits are `model`'s full forward of each unpadded row, within 1e-4.
fn assert_full_forward(model: &Llama, got: &[Tensor]) {
    let full = [alone(model, DECODED[0]), alone(model, DECODED[1])];
    for (step, logits) in got.iter().enumerate() {
        for r in 0..2 {
            let want = full[r].get([3 + step, 1 + step][r]).unwrap();
            let d = max_diff(&logits.get(r).unwrap().squeeze(0).unwrap(), &want);
            assert!(d < 1e-4, "row {r} step {step}: {d}");
        }
    }
}

#[test]
fn cached_decoding_gives_the_full_forward_logits() {
    let (model, _) = checkpoint::new_model(&qwen_like(16), &Device::Cpu, 5).unwrap();
    assert_full_forward(&model, &decoded(&model));
}

/// `model` with every weight detached: frozen, as a merged policy or a model loaded for inference.
fn frozen(model: &Llama) -> Llama {
    use crate::Linear;
    let freeze = |l: &mut Linear| {
        if let Linear::Dense { weight, bias, .. } = l {
            *l = Linear::dense(weight.detach(), bias.as_ref().map(Tensor::detach));
        }
    };
    let mut m = model.clone();
    freeze(&mut m.lm_head);
    for b in &mut m.layers {
        let (a, f) = (&mut b.self_attn, &mut b.mlp);
        for l in [&mut a.q_proj, &mut a.k_proj, &mut a.v_proj, &mut a.o_proj] {
            freeze(l);
        }
        for l in [&mut f.gate_proj, &mut f.up_proj, &mut f.down_proj] {
            freeze(l);
        }
    }
    m
}

/// A frozen model prepared for decoding (packed and stacked projections, the fused attention
/// kernel) decodes to the full forward's logits, padding included; a trainable one is left as
/// it is.
#[test]
fn a_model_prepared_for_decoding_gives_the_full_forward_logits() {
    let dev = Device::Cpu;
    let (model, _) = checkpoint::new_model(&qwen_like(16), &dev, 7).unwrap();
    let mut prepared = frozen(&model);
    prepared.pack_frozen().unwrap();
    let a = &prepared.layers[0].self_attn;
    assert!(a.fused_decoding && a.qkv.is_some() && prepared.layers[0].mlp.gate_up.is_some());
    let mut trainable = model.clone();
    trainable.pack_frozen().unwrap();
    let a = &trainable.layers[0].self_attn;
    assert!(!a.fused_decoding && a.qkv.is_none() && trainable.layers[0].mlp.gate_up.is_none());
    assert_full_forward(&model, &decoded(&prepared));
}

#[test]
fn cache_grows_past_one_chunk() {
    let dev = Device::Cpu;
    let mut cfg = Config::tiny(16);
    cfg.num_hidden_layers = 1;
    let (model, _) = checkpoint::new_model(&cfg, &dev, 6).unwrap();
    let n = KvCache::CHUNK + 3;
    let row: Vec<u32> = (0..n as u32).map(|i| i % 16).collect();
    let mut cache = KvCache::new(1, 1);
    let ids = Tensor::new(&row[..n - 1], &dev).unwrap().unsqueeze(0).unwrap();
    model.forward_cached(&ids.narrow(1, 0, KvCache::CHUNK - 1).unwrap(), None, &mut cache, true).unwrap();
    let rest = ids.narrow(1, KvCache::CHUNK - 1, n - KvCache::CHUNK).unwrap();
    let last = model.forward_cached(&rest, None, &mut cache, true).unwrap();
    let full = alone(&model, &row[..n - 1]);
    assert!(max_diff(&last.squeeze(0).unwrap().squeeze(0).unwrap(), &full.get(n - 2).unwrap()) < 1e-4);
}

/// Tiny random checkpoints written by `transformers` (`tests/fixtures/make_hf_fixtures.py`)
/// load through `checkpoint::load` and give `transformers`' logits, padding included.
#[test]
fn transformers_reference_logits() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for name in ["tiny-llama", "tiny-qwen2", "tiny-qwen3"] {
        let dir = root.join(name);
        let (model, _, cfg) = checkpoint::load(&dir, &Device::Cpu).unwrap();
        let text = std::fs::read_to_string(dir.join("logits.json")).unwrap();
        let want: serde_json::Value = serde_json::from_str(&text).unwrap();
        let ids: Vec<Vec<u32>> = serde_json::from_value(want["ids"].clone()).unwrap();
        let mask: Vec<Vec<u8>> = serde_json::from_value(want["mask"].clone()).unwrap();
        let logits: Vec<Vec<Vec<f32>>> = serde_json::from_value(want["logits"].clone()).unwrap();
        let ids = Tensor::new(ids, &Device::Cpu).unwrap();
        let mask = Tensor::new(mask.clone(), &Device::Cpu).unwrap();
        let want = Tensor::new(logits, &Device::Cpu).unwrap();
        let got = model.forward(&ids, Some(&mask)).unwrap();
        // Row 1 is left-padded by two tokens: compare its real positions only.
        let d0 = max_diff(&got.get(0).unwrap(), &want.get(0).unwrap());
        let d1 = max_diff(
            &got.get(1).unwrap().narrow(0, 2, 5).unwrap(),
            &want.get(1).unwrap().narrow(0, 2, 5).unwrap(),
        );
        assert!(d0 < 1e-4 && d1 < 1e-4, "{name} ({}): logits differ by {d0} / {d1}", cfg.model_type);
    }
}

#[test]
fn forward_at_gives_the_full_forwards_logits_at_those_positions() {
    let dev = Device::Cpu;
    let (model, _vm) = checkpoint::new_model(&qwen_like(16), &dev, 3).unwrap();
    let ids = batch(&dev);
    let full = model.forward(&ids, None).unwrap().reshape((16, 16)).unwrap();
    // Row r's position i is r·8 + i: some of row 0, all of row 1's tail, one repeated.
    let picks = [0u32, 3, 7, 9, 15, 3];
    let at = model.forward_at(&ids, &Tensor::new(&picks, &dev).unwrap()).unwrap();
    assert_eq!(at.dims2().unwrap(), (6, 16));
    let want = full.index_select(&Tensor::new(&picks, &dev).unwrap(), 0).unwrap();
    assert!(max_diff(&at, &want) < 1e-5);
}

/// A long sequence under autograd takes the memory-efficient attention: the same logits and the
/// same gradients as the composite attention.
#[test]
fn long_sequences_train_through_memory_efficient_attention_with_the_same_gradients() {
    let dev = Device::Cpu;
    let t = 520; // t · t ≥ MEMORY_EFFICIENT_FROM
    assert!(t * t >= crate::attention::MEMORY_EFFICIENT_FROM);
    let ids: Vec<u32> = (0..t as u32).map(|i| (i * 7 + 3) % 16).collect();
    let ids = Tensor::from_vec(ids, (1, t), &dev).unwrap();
    let run = |from: usize| {
        let (mut model, vm) = checkpoint::new_model(&qwen_like(16), &dev, 3).unwrap();
        for block in &mut model.layers {
            block.self_attn.memory_efficient_from = from;
        }
        let z = model.forward_at(&ids, &Tensor::arange(0u32, t as u32, &dev).unwrap()).unwrap();
        let grads = z.sqr().unwrap().mean_all().unwrap().backward().unwrap();
        let data = vm.data().lock().unwrap();
        let mut names: Vec<&String> = data.keys().collect();
        names.sort();
        let g: Vec<Tensor> = names.iter().map(|n| grads.get(data[*n].as_tensor()).unwrap().clone()).collect();
        (z.detach(), g)
    };
    let (fast, g_fast) = run(crate::attention::MEMORY_EFFICIENT_FROM);
    let (slow, g_slow) = run(usize::MAX);
    assert!(max_diff(&fast, &slow) < 1e-4, "logits differ by {}", max_diff(&fast, &slow));
    for (a, b) in g_fast.iter().zip(&g_slow) {
        let scale = b.abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap().max(1e-6);
        assert!(max_diff(a, b) / scale < 1e-3, "a gradient differs by {} (of {scale})", max_diff(a, b));
    }
}

/// Activation checkpointing gives every parameter (embedding, blocks, norm, head) the plain
/// backward's gradient, with short sequences (composite attention) and long ones
/// (memory-efficient attention), and the same logits.
#[test]
fn activation_checkpointing_gives_the_plain_backwards_gradients() {
    let dev = Device::Cpu;
    let long: Vec<u32> = (0..2 * 520u32).map(|i| (i * 7 + 3) % 16).collect();
    for ids in [batch(&dev), Tensor::from_vec(long, (2, 520), &dev).unwrap()] {
        let (b, t) = ids.dims2().unwrap();
        let picks: Vec<u32> = (0..(b * t) as u32).step_by(3).collect();
        let picks = Tensor::new(picks.as_slice(), &dev).unwrap();
        let (model, vm) = checkpoint::new_model(&qwen_like(16), &dev, 3).unwrap();
        let loss = |z: &Tensor| z.sqr().unwrap().mean_all().unwrap();
        let z = model.forward_at(&ids, &picks).unwrap();
        let plain = loss(&z).backward().unwrap();
        let (zr, remat) = model.forward_at_remat(&ids, &picks).unwrap();
        assert!(max_diff(&z, &zr) < 1e-6, "logits differ by {}", max_diff(&z, &zr));
        let rematted = remat.backward(&model, &loss(&zr)).unwrap();
        let vars = sorted_vars(&vm);
        assert!(vars.iter().any(|(n, _)| n.contains("embed_tokens")));
        for (name, v) in vars {
            let (a, r) = (plain.get(v.as_tensor()).unwrap(), rematted.get(v.as_tensor()).unwrap());
            let scale = a.abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap().max(1e-6);
            assert!(
                max_diff(a, r) / scale < 1e-5,
                "{name}: gradients differ by {} (of {scale})",
                max_diff(a, r)
            );
        }
    }
}
