//! The run: phases, checkpoints and exact resume.
//!
//! A run goes: evaluate the initial policy → SFT steps → evaluate ("after SFT", checkpoint
//! `checkpoints/sft`) → RL steps with periodic evaluation and curriculum updates → evaluate
//! ("after RL", checkpoint `final`) → report. Step checkpoints (`checkpoints/step-NNNNNN`) hold
//! the weights, the AdamW moments and [`TrainerState`]; every random choice of a step is derived
//! from `(seed, phase, step)`, so resuming from a checkpoint replays exactly the steps a run
//! without interruption would have taken, and `metrics.jsonl` ends up line for line the same
//! (wall-clock fields aside).

use std::path::{Path, PathBuf};
use std::time::Instant;

use candle_core::Device;
use candle_nn::VarMap;
use gauntlet_model::{checkpoint, lora, ChatModel, ChatTemplate, Llama, SamplingParams, Tokenizer};
use gauntlet_rollout::LocalPolicy;
use serde_json::{json, Map, Value};

use crate::config::{TaskMix, TrainConfig};
use crate::curriculum::Curriculum;
use crate::eval::{self, TaskEval, HELD_OUT_BASE};
use crate::metrics::MetricsLog;
use crate::optim::AdamW;
pub use crate::state::TrainerState;
pub(crate) use crate::streams::step_seed;
use crate::{Progress, TrainError};

/// A training run in progress.
pub struct Trainer {
    /// The configuration.
    pub cfg: TrainConfig,
    /// The run folder.
    pub run_dir: PathBuf,
    /// The policy model (weights shared with `varmap`).
    pub chat: ChatModel,
    /// Trainable variables.
    pub varmap: VarMap,
    /// The model's configuration.
    pub model_cfg: gauntlet_model::Config,
    /// The optimiser.
    pub opt: AdamW,
    /// Progress counters and evaluations.
    pub state: TrainerState,
    /// Frozen reference policy for the KL penalty (when `rl.kl_coef > 0`).
    pub reference: Option<Llama>,
    /// Stop (as if killed) once this many SFT + RL steps are done; for resume tests.
    pub stop_after: Option<usize>,
    /// Frozen snapshots of the learner (`rl.opponent = "pool"`): `(RL step, model)`.
    pub pool: Vec<(usize, ChatModel)>,
    /// The endpoint over the current policy (`[serve]`), once the run has started it.
    pub serving: Option<crate::serving::Serving>,
    /// Agents' finished episodes not yet trained on (`rl.source = "agents"`).
    pub(crate) agent_episodes: crate::serving::AgentEpisodes,
    /// The rollout thread of `rl.mode = "async"`, once RL has started.
    pub(crate) rollouts: Option<crate::collect::RolloutWorker>,
    pub(crate) metrics: MetricsLog,
    pub(crate) started: Instant,
}

fn model_files(dir: &Path) -> bool {
    dir.join("config.json").exists() || dir.join("adapter_config.json").exists()
}

/// The policy saved in a checkpoint folder of this run: a full model, or (with `[model.lora]`)
/// the run's base model `model.init` plus the adapter saved there. Returns the trainable
/// variables (the adapter's for LoRA) and the model's configuration.
fn load_policy_dir(
    cfg: &TrainConfig,
    dir: &Path,
) -> Result<(ChatModel, VarMap, gauntlet_model::Config), TrainError> {
    if cfg.model.lora.is_some() {
        let (chat, adapter, _) =
            gauntlet_model::pretrained::load_adapted(&cfg.model.init, dir, &Device::Cpu)?;
        let model_cfg = chat.model.cfg.clone();
        return Ok((chat, adapter, model_cfg));
    }
    Ok(checkpoint::load_chat(dir, &Device::Cpu)?)
}

impl Trainer {
    /// Starts a fresh run in `cfg.run_dir` (refusing a folder that already holds a run).
    pub fn new(cfg: TrainConfig) -> Result<Self, TrainError> {
        cfg.validate().map_err(TrainError::Config)?;
        let run_dir = PathBuf::from(&cfg.run_dir);
        if run_dir.join("config.toml").exists() {
            return Err(TrainError::Config(format!(
                "`{}` already holds a run: resume it with `gauntlet train --resume {}`, or choose another \
                 `run_dir`",
                run_dir.display(),
                run_dir.display()
            )));
        }
        std::fs::create_dir_all(&run_dir).map_err(|e| TrainError::io("create", &run_dir, e))?;
        crate::write_atomic(&run_dir.join("config.toml"), cfg.to_toml().as_bytes())
            .map_err(|e| TrainError::io("write", &run_dir.join("config.toml"), e))?;
        let dev = Device::Cpu;
        let (chat, varmap, model_cfg) = if cfg.model.init == "scratch" {
            let template = ChatTemplate::chatml();
            let tokenizer = match cfg.model.tokenizer.as_str() {
                "bpe" => crate::vocab::learn_tokenizer(&cfg, &template)?,
                _ => Tokenizer::bytes(),
            };
            let m = &cfg.model;
            let mut mc = gauntlet_model::Config::llama(
                tokenizer.vocab_size(),
                m.hidden_size,
                m.num_hidden_layers,
                m.num_attention_heads,
                m.num_attention_heads,
                m.intermediate_size,
            );
            mc.max_position_embeddings = m.max_position_embeddings;
            let (model, varmap) = checkpoint::new_model(&mc, &dev, cfg.seed)?;
            (ChatModel { model, tokenizer, template }, varmap, mc)
        } else {
            gauntlet_model::pretrained::load_base(&cfg.model.init, &dev)?
        };
        let (chat, varmap) = match &cfg.model.lora {
            Some(l) => {
                let mut chat = chat;
                let adapter = lora::attach(&mut chat.model, l, cfg.seed)?;
                (chat, adapter)
            }
            None => (chat, varmap),
        };
        let opt = AdamW::new(vars(&varmap), cfg.sft.optim.clone())?;
        let metrics = MetricsLog::open(&run_dir.join("metrics.jsonl"), 0)
            .map_err(|e| TrainError::io("write", &run_dir.join("metrics.jsonl"), e))?;
        let state = TrainerState { curriculum: Curriculum::new(&cfg.tasks), ..Default::default() };
        Ok(Trainer {
            cfg,
            run_dir,
            chat,
            varmap,
            model_cfg,
            opt,
            state,
            reference: None,
            stop_after: None,
            pool: Vec::new(),
            serving: None,
            agent_episodes: Default::default(),
            rollouts: None,
            metrics,
            started: Instant::now(),
        })
    }

    /// Resumes the run in `run_dir` from its most advanced checkpoint.
    pub fn resume(run_dir: &Path) -> Result<Self, TrainError> {
        let cfg_path = run_dir.join("config.toml");
        let text = std::fs::read_to_string(&cfg_path).map_err(|e| TrainError::io("read", &cfg_path, e))?;
        let cfg =
            TrainConfig::from_toml(&text, &cfg_path.display().to_string()).map_err(TrainError::Config)?;
        let ckpt = latest_checkpoint(run_dir)?.ok_or_else(|| {
            TrainError::Config(format!(
                "`{}` has no checkpoint yet; start it again with `gauntlet train --config {}`",
                run_dir.display(),
                cfg_path.display()
            ))
        })?;
        let state_path = ckpt.join("trainer_state.json");
        let state: TrainerState = serde_json::from_str(
            &std::fs::read_to_string(&state_path).map_err(|e| TrainError::io("read", &state_path, e))?,
        )
        .map_err(|e| TrainError::Config(format!("{}: {e}", state_path.display())))?;
        let (chat, varmap, model_cfg) = load_policy_dir(&cfg, &ckpt)?;
        let optim = if state.sft_step < cfg.sft.steps { &cfg.sft.optim } else { &cfg.rl.optim };
        let mut opt = AdamW::new(vars(&varmap), optim.clone())?;
        let moments = ckpt.join("optimizer.safetensors");
        if moments.exists() {
            opt.load(&moments)?;
        }
        opt.step = state.opt_step;
        opt.moments_from = state.moments_from;
        let metrics = MetricsLog::open(&run_dir.join("metrics.jsonl"), state.metrics_lines)
            .map_err(|e| TrainError::io("write", &run_dir.join("metrics.jsonl"), e))?;
        let mut t = Trainer {
            cfg,
            run_dir: run_dir.to_path_buf(),
            chat,
            varmap,
            model_cfg,
            opt,
            state,
            reference: None,
            stop_after: None,
            pool: Vec::new(),
            serving: None,
            agent_episodes: Default::default(),
            rollouts: None,
            metrics,
            started: Instant::now(),
        };
        if t.cfg.rl.opponent == "pool" {
            let p = &t.cfg.rl.pool;
            t.pool = crate::opponents::load_snapshots(run_dir, t.state.rl_step, p.snapshot_every, p.keep)?;
        }
        if t.cfg.rl.kl_coef > 0.0 && t.state.sft_step >= t.cfg.sft.steps {
            t.reference =
                Some(load_policy_dir(&t.cfg, &t.run_dir.join("checkpoints").join("rl-start"))?.0.model);
        }
        Ok(t)
    }

    /// Runs (or finishes) the whole schedule, then writes the report.
    pub fn run(&mut self, progress: &mut dyn Progress) -> Result<(), TrainError> {
        // Agents' episodes train only from the RL phase on: the endpoint opens there.
        if self.cfg.rl.source != "agents" {
            self.start_serving(progress)?;
        }
        if self.cfg.eval.before_sft && !self.state.evals.contains_key("before_sft") {
            self.report_eval("before_sft", progress)?;
        }
        let sft_steps = self.cfg.sft.steps;
        if self.state.sft_step < sft_steps {
            progress.start("sft", sft_steps as u64, self.state.sft_step as u64);
            self.opt.set_config(self.cfg.sft.optim.clone());
            while self.state.sft_step < sft_steps {
                let line = self.sft_step()?;
                self.state.sft_step += 1;
                progress.advance(&line);
                self.maybe_checkpoint()?;
                if self.should_stop() {
                    return Ok(());
                }
            }
            progress.finish();
        }
        if self.state.rl_step == 0 && !self.state.evals.contains_key("after_sft") {
            if self.cfg.eval.after_sft {
                self.report_eval("after_sft", progress)?;
            }
            self.save_checkpoint(&self.run_dir.join("checkpoints").join("sft"))?;
        }
        let rl_steps = self.cfg.rl.steps;
        if self.state.rl_step < rl_steps {
            if self.state.rl_step == 0 && self.cfg.rl.kl_coef > 0.0 {
                let dir = self.run_dir.join("checkpoints").join("rl-start");
                self.save_checkpoint(&dir)?;
                // A deep copy: the live model's tensors share storage with the trained variables.
                self.reference = Some(load_policy_dir(&self.cfg, &dir)?.0.model);
            }
            if self.state.rl_step == 0 {
                // RL starts with fresh moments, as a separate RL job from the SFT checkpoint
                // would: SFT's gradient statistics (larger, other targets) would otherwise set
                // the step size of the first hundred RL updates.
                self.opt.reset_moments()?;
                self.state.moments_from = self.opt.moments_from;
            }
            self.opt.set_config(self.cfg.rl.optim.clone());
            if self.cfg.rl.aggregation == gauntlet_rollout::Granularity::Trajectory && !self.cfg.full_history
            {
                let multi = self.cfg.tasks.iter().any(|t| {
                    gauntlet_rollout::make_env(&t.name)
                        .is_ok_and(|e| e.spec().kind != gauntlet_core::EnvKind::SingleTurn)
                });
                if multi {
                    progress.note(
                        "rl.aggregation = \"trajectory\": the conversations are windowed (full_history = false), \
                         so multi-turn episodes train one row per turn",
                    );
                }
            }
            // The endpoint serves the weights RL starts from (SFT moved them; agents' episodes
            // must be sampled by the version being trained).
            self.start_serving(progress)?;
            self.swap_served()?;
            if self.cfg.rl.mode == "async" && self.rollouts.is_none() {
                self.rollouts = Some(crate::collect::RolloutWorker::start(
                    self.state.rl_step,
                    rl_steps,
                    self.cfg.rl.max_staleness,
                )?);
            }
            progress.start("rl", rl_steps as u64, self.state.rl_step as u64);
            while self.state.rl_step < rl_steps {
                let line = self.rl_step()?;
                self.state.rl_step += 1;
                progress.advance(&line);
                let every = self.cfg.eval.every;
                if every > 0 && self.state.rl_step.is_multiple_of(every) && self.state.rl_step < rl_steps {
                    progress.suspend(&mut || self.periodic_eval())?;
                }
                self.maybe_checkpoint()?;
                if self.should_stop() {
                    return Ok(());
                }
            }
            progress.finish();
        }
        if !self.state.evals.contains_key("after_rl") {
            self.report_eval("after_rl", progress)?;
            self.save_checkpoint(&self.run_dir.join("final"))?;
        }
        crate::report::write(&self.run_dir, &self.cfg, &self.state)?;
        Ok(())
    }

    fn should_stop(&self) -> bool {
        self.stop_after.is_some_and(|n| self.state.sft_step + self.state.rl_step >= n)
    }

    /// The model to sample with at the current weights, and whether it shares storage with the
    /// trained variables (a full-weight model, or a quantized base sampling through its
    /// adapters) rather than being a frozen copy.
    pub(crate) fn sampling_chat(&self) -> Result<(ChatModel, bool), TrainError> {
        // LoRA adapters folded into their base weights: one matmul per projection when sampling
        // (a base that cannot merge, i.e. quantized, samples through the adapters as they are).
        let (mut model, shared) = match lora::merge(&self.chat.model) {
            Ok(m) => (m, self.cfg.model.lora.is_none()),
            Err(_) => (self.chat.model.clone(), true),
        };
        // Merged weights are frozen copies: prepared for decoding (packed projections, fused
        // attention), they sample faster. Full-weight models (variables) are left as they are.
        model.pack_frozen()?;
        Ok((ChatModel { model, ..self.chat.clone() }, shared))
    }

    /// Opens `[serve]`'s endpoint over the current weights (version: the optimiser step);
    /// [`Trainer::run`] calls it first, or when RL starts with `rl.source = "agents"` (a no-op
    /// when already open or without `[serve]`).
    pub fn start_serving(&mut self, progress: &mut dyn Progress) -> Result<(), TrainError> {
        let Some(mut config) = self.cfg.serve.clone() else { return Ok(()) };
        if self.serving.is_some() {
            return Ok(());
        }
        // The run keeps what it served: every finished episode, in the run folder by default.
        config.traces.get_or_insert_with(|| self.run_dir.join("traces.jsonl"));
        let (chat, shared) = self.sampling_chat()?;
        let s = crate::serving::Serving::start(&config, chat, shared, self.state.opt_step)?;
        progress.note(&format!(
            "serving the policy on http://{}/v1 as model `{}` (version {}){}",
            s.addr,
            config.name,
            self.state.opt_step,
            if self.cfg.rl.source == "agents" {
                format!(
                    "; RL steps train on agents' episodes ({} per step, tag calls with `x-gauntlet-episode`)",
                    self.cfg.rl.prompts_per_step * self.cfg.rl.group_size
                )
            } else {
                String::new()
            }
        ));
        self.serving = Some(s);
        Ok(())
    }

    /// Puts the current weights behind `[serve]`'s endpoint, as version `opt_step`.
    pub(crate) fn swap_served(&self) -> Result<(), TrainError> {
        if let Some(s) = self.serving.as_ref().filter(|s| s.live.version() != self.state.opt_step) {
            let (chat, _) = self.sampling_chat()?;
            s.live.swap(std::sync::Arc::new(chat), self.state.opt_step);
        }
        Ok(())
    }

    /// A sampling copy of the current weights that does not move with the trained variables:
    /// what the rollout thread of `rl.mode = "async"` samples with while the update runs. A LoRA
    /// run's merged copy is one already; a full-weight model's variables are copied.
    pub(crate) fn frozen_sampling_chat(&self) -> Result<ChatModel, TrainError> {
        let (chat, shared) = self.sampling_chat()?;
        if !shared {
            return Ok(chat);
        }
        if self.cfg.model.lora.is_some() {
            return Err(TrainError::Config(
                "`rl.mode = \"async\"` samples with a copy of the weights while the update runs, and this \
                 base cannot fold its LoRA adapter in (a quantized base): use `rl.mode = \"sync\"`"
                    .into(),
            ));
        }
        let vars = self
            .varmap
            .data()
            .lock()
            .map_err(|_| TrainError::Config("the weights' lock is poisoned".into()))?;
        let tensors = vars
            .iter()
            .map(|(name, v)| Ok((name.clone(), v.as_tensor().copy()?)))
            .collect::<candle_core::Result<std::collections::HashMap<_, _>>>()?;
        drop(vars);
        let (model, _) =
            checkpoint::from_tensors(&self.model_cfg, &tensors, "the trained weights", &Device::Cpu)?;
        Ok(ChatModel { model, ..self.chat.clone() })
    }

    /// A local policy over the current weights with the given sampling settings.
    pub(crate) fn policy(&self, temperature: f64, max_tokens: usize) -> Result<LocalPolicy, TrainError> {
        let (chat, _) = self.sampling_chat()?;
        Ok(self.policy_over(chat, temperature, max_tokens))
    }

    /// A local policy over `chat` (the current weights) with the given sampling settings.
    pub(crate) fn policy_over(&self, chat: ChatModel, temperature: f64, max_tokens: usize) -> LocalPolicy {
        let params = SamplingParams {
            temperature,
            top_p: if temperature > 0.0 { self.cfg.rl.top_p } else { 1.0 },
            max_tokens,
            ..Default::default()
        };
        let mut p = LocalPolicy::new(chat, params, format!("local:{}", self.run_dir.display()));
        p.micro_batch = self.cfg.rl.micro_batch;
        p.version = self.state.opt_step;
        p
    }

    /// The reported evaluation: every task at its starting level on held-out problems; the
    /// episodes go to `samples/NAME.jsonl`.
    fn report_eval(&mut self, name: &str, progress: &mut dyn Progress) -> Result<(), TrainError> {
        let (rows, episodes) = self.logged_eval(name)?;
        let mut text = String::new();
        for e in &episodes {
            let line = eval::sample_line(e);
            text += &format!("{line}\n");
        }
        let path = self.run_dir.join("samples").join(format!("{name}.jsonl"));
        crate::write_atomic(&path, text.as_bytes()).map_err(|e| TrainError::io("write", &path, e))?;
        progress.note(&format!("evaluation {name}:\n{}", eval::table(&rows)));
        self.state.evals.insert(name.to_string(), rows);
        Ok(())
    }

    /// Runs the reported evaluation and logs it to `metrics.jsonl` under `name`.
    fn logged_eval(
        &mut self,
        name: &str,
    ) -> Result<(Vec<TaskEval>, Vec<gauntlet_rollout::Episode>), TrainError> {
        let t0 = Instant::now();
        let e = &self.cfg.eval;
        let n = match name {
            "periodic" => e.periodic_n,
            "before_sft" if e.before_sft_n > 0 => e.before_sft_n,
            _ => e.n,
        };
        let (rows, episodes) = run_eval(self, n)?;
        let mut rec = Map::new();
        rec.insert("phase".into(), json!("eval"));
        rec.insert("name".into(), json!(name));
        rec.insert("step".into(), json!(self.state.sft_step + self.state.rl_step));
        for r in &rows {
            rec.insert(format!("{}/pass@1", r.task), json!(r.pass_at_1));
            rec.insert(format!("{}/mean@k", r.task), json!(r.mean_at_k));
            rec.insert(format!("{}/format_error_rate", r.task), json!(r.format_error_rate));
        }
        rec.insert("time_s".into(), json!(t0.elapsed().as_secs_f64()));
        self.log(rec)?;
        Ok((rows, episodes))
    }

    /// Every `eval.every` RL steps: the reported evaluation's tasks at their starting levels, plus
    /// curriculum probes at the current levels.
    fn periodic_eval(&mut self) -> Result<(), TrainError> {
        self.logged_eval("periodic")?;
        self.curriculum_probe()
    }

    fn curriculum_probe(&mut self) -> Result<(), TrainError> {
        let c = self.cfg.curriculum.clone();
        if !c.enabled || c.probe == 0 {
            return Ok(());
        }
        // Held-out tasks are never trained, so their levels never matter.
        let trained: Vec<TaskMix> = self.cfg.tasks.iter().filter(|t| !t.held_out()).cloned().collect();
        let tasks: Vec<(String, u8)> =
            trained.iter().map(|t| (t.name.clone(), self.state.curriculum.level(&t.name))).collect();
        let base = eval::PROBE_BASE + self.state.probe_round * c.probe as u64;
        self.state.probe_round += 1;
        let opts = self.cfg.rollout_options(step_seed(self.cfg.seed, "probe", self.state.rl_step));
        let mut policy = self.policy(self.cfg.eval.temperature, self.cfg.eval.max_tokens)?;
        let mut opponent = crate::config::opponent_policy(&self.cfg.eval.opponent, opts.seed);
        let rows = eval::evaluate_vs(
            &mut policy,
            opponent.as_deref_mut().map(|p| p as &mut dyn gauntlet_rollout::Policy),
            &tasks,
            c.probe,
            1,
            base,
            &opts,
        )?;
        for (task, r) in trained.iter().zip(&rows) {
            let successes = (r.mean_at_k * c.probe as f64).round() as usize;
            let results: Vec<bool> = (0..c.probe).map(|i| i < successes).collect();
            if let Some(change) = self.state.curriculum.record(task, &results, &c) {
                let mut rec = Map::new();
                rec.insert("phase".into(), json!("level"));
                rec.insert("step".into(), json!(self.state.sft_step + self.state.rl_step));
                rec.insert("task".into(), json!(change.task));
                rec.insert("from".into(), json!(change.from));
                rec.insert("to".into(), json!(change.to));
                rec.insert("rate".into(), json!(change.rate));
                self.log(rec)?;
            }
        }
        Ok(())
    }

    pub(crate) fn log(&mut self, rec: Map<String, Value>) -> Result<(), TrainError> {
        let path = self.run_dir.join("metrics.jsonl");
        self.metrics.write(rec).map_err(|e| TrainError::io("write", &path, e))?;
        self.state.metrics_lines = self.metrics.lines();
        Ok(())
    }

    fn maybe_checkpoint(&mut self) -> Result<(), TrainError> {
        let every = self.cfg.checkpoint.every;
        let g = self.state.sft_step + self.state.rl_step;
        if every > 0 && g.is_multiple_of(every) {
            let dir = self.run_dir.join("checkpoints").join(format!("step-{g:06}"));
            self.save_checkpoint(&dir)?;
            self.prune_checkpoints()?;
        }
        Ok(())
    }

    /// Writes weights, tokenizer, template, AdamW moments and the trainer state atomically.
    pub fn save_checkpoint(&mut self, dir: &Path) -> Result<(), TrainError> {
        self.state.opt_step = self.opt.step;
        self.state.elapsed_s += self.started.elapsed().as_secs_f64();
        self.started = Instant::now();
        let tmp = std::env::temp_dir().join(format!("gauntlet-moments-{}.safetensors", std::process::id()));
        self.opt.save(&tmp)?;
        let moments = std::fs::read(&tmp).map_err(|e| TrainError::io("read", &tmp, e))?;
        let _ = std::fs::remove_file(&tmp);
        let state = serde_json::to_vec_pretty(&self.state).expect("state serialises");
        if let Some(l) = &self.cfg.model.lora {
            // Only the adapter (PEFT layout) and its moments: the base is `model.init`.
            let base = gauntlet_model::pretrained::expand_env(&self.cfg.model.init)?;
            let files = vec![
                ("tokenizer.json".to_string(), self.chat.tokenizer.to_json()?.into_bytes()),
                (
                    "tokenizer_config.json".to_string(),
                    self.chat.template.to_tokenizer_config().to_string().into_bytes(),
                ),
                ("trainer_state.json".into(), state),
                ("optimizer.safetensors".into(), moments),
            ];
            lora::save_adapter(dir, &self.varmap, l, &base, &files)?;
            return Ok(());
        }
        checkpoint::save_chat(
            dir,
            &self.varmap,
            &self.model_cfg,
            &self.chat.tokenizer,
            &self.chat.template,
            &[("trainer_state.json".into(), state), ("optimizer.safetensors".into(), moments)],
        )?;
        Ok(())
    }

    fn prune_checkpoints(&self) -> Result<(), TrainError> {
        let mut steps = step_checkpoints(&self.run_dir)?;
        let keep = self.cfg.checkpoint.keep.max(1);
        while steps.len() > keep {
            let old = steps.remove(0);
            // Hidden first (one atomic rename), then removed: a run killed mid-removal leaves no
            // half-deleted checkpoint where a resume or a reader would look.
            let name = old.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            let hidden = old.with_file_name(format!(".removing-{name}"));
            std::fs::rename(&old, &hidden).map_err(|e| TrainError::io("rename", &old, e))?;
            std::fs::remove_dir_all(&hidden).map_err(|e| TrainError::io("remove", &hidden, e))?;
        }
        Ok(())
    }
}

/// The held-out evaluation of the trainer's current policy on `n` problems per task.
fn run_eval(t: &Trainer, n: usize) -> Result<(Vec<TaskEval>, Vec<gauntlet_rollout::Episode>), TrainError> {
    let tasks: Vec<(String, u8)> = t.cfg.tasks.iter().map(|m| (m.name.clone(), m.level)).collect();
    let mut policy = t.policy(t.cfg.eval.temperature, t.cfg.eval.max_tokens)?;
    let seed = eval_seed(t.cfg.seed);
    let opts = t.cfg.rollout_options(seed);
    let mut opponent = crate::config::opponent_policy(&t.cfg.eval.opponent, seed);
    Ok(eval::evaluate_episodes(
        &mut policy,
        opponent.as_deref_mut().map(|p| p as &mut dyn gauntlet_rollout::Policy),
        &tasks,
        n,
        t.cfg.eval.k,
        HELD_OUT_BASE,
        &opts,
    )?)
}

/// The rollout seed of reported evaluations of a run with seed `seed` (what `gauntlet eval
/// --policy local:RUN` uses to reproduce them).
pub fn eval_seed(seed: u64) -> u64 {
    step_seed(seed, "eval", 0)
}

fn vars(varmap: &VarMap) -> Vec<(String, candle_core::Var)> {
    let data = varmap.data().lock().unwrap_or_else(|e| e.into_inner());
    data.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

fn step_checkpoints(run_dir: &Path) -> Result<Vec<PathBuf>, TrainError> {
    let dir = run_dir.join("checkpoints");
    let mut out: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("step-")))
            .filter(|p| model_files(p))
            .collect(),
        Err(_) => vec![],
    };
    out.sort();
    Ok(out)
}

/// The most advanced checkpoint of a run (`final`, then step and phase checkpoints by the steps
/// their state records).
pub fn latest_checkpoint(run_dir: &Path) -> Result<Option<PathBuf>, TrainError> {
    let mut candidates = step_checkpoints(run_dir)?;
    candidates.push(run_dir.join("checkpoints").join("sft"));
    candidates.push(run_dir.join("checkpoints").join("rl-start"));
    candidates.push(run_dir.join("final"));
    let mut best: Option<(usize, usize, PathBuf)> = None;
    for c in candidates.into_iter().filter(|c| c.join("trainer_state.json").exists()) {
        let text = std::fs::read_to_string(c.join("trainer_state.json"))
            .map_err(|e| TrainError::io("read", &c.join("trainer_state.json"), e))?;
        let s: TrainerState = serde_json::from_str(&text)
            .map_err(|e| TrainError::Config(format!("{}: {e}", c.join("trainer_state.json").display())))?;
        let key = (s.sft_step + s.rl_step, s.metrics_lines);
        if best.as_ref().is_none_or(|(a, b, _)| key > (*a, *b)) {
            best = Some((key.0, key.1, c));
        }
    }
    Ok(best.map(|b| b.2))
}
