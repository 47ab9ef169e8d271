//! Policies named on the command line: a [`PolicySpec`] (parsed by `gauntlet-rollout`, the one
//! parser) turned into weights or a policy, the same way for `eval --policy`, `play --vs` and
//! `serve policy --model`.
//!
//! [`load_model`] is the one loader of the specs with weights: `local:PATH` (a training run →
//! its `final/`, else its latest checkpoint; a checkpoint; a Hugging Face model folder; a PEFT
//! adapter folder over the base its `adapter_config.json` names) and `gguf:FILE`, each optionally
//! with a separate `--adapter`. [`load_lanes`] turns any spec into the policy an evaluation plays,
//! once per lane (`eval --policy`, `--opponent`, `--seat-policy` and `--cross-play` alike).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Args;
use gauntlet_model::{ChatModel, SamplingParams};
use gauntlet_rollout::{LocalPolicy, OpenAiPolicy, Policy, PolicySpec};
use gauntlet_train::TrainConfig;

/// Settings of an `openai:URL#MODEL` policy (shared by the commands that take a policy).
#[derive(Debug, Args)]
#[command(next_help_heading = "HTTP policy (openai:URL#MODEL)")]
pub struct HttpArgs {
    /// Environment variable holding the API key (sent as `Authorization: Bearer`).
    #[arg(long, default_value = "OPENAI_API_KEY")]
    pub api_key_env: String,
    /// Seconds one attempt of a request may take.
    #[arg(long, default_value_t = 300.0)]
    pub request_timeout: f64,
    /// Retries of a request after connection errors, timeouts, 429 and 5xx.
    #[arg(long, default_value_t = 4)]
    pub retries: u32,
    /// Failed attempts in a row that open the circuit breaker (0 = none).
    #[arg(long, default_value_t = 8)]
    pub breaker_failures: u32,
    /// Seconds an open breaker fails requests at once before probing the server again.
    #[arg(long, default_value_t = 5.0)]
    pub breaker_cooldown: f64,
    /// Do not ask for vLLM's token-id extensions (for servers that refuse unknown fields).
    #[arg(long)]
    pub no_token_ids: bool,
}

impl HttpArgs {
    /// The HTTP policy of an `openai:URL#MODEL` spec with these settings, sampling with `params`.
    pub fn policy(
        &self,
        spec: &PolicySpec,
        params: SamplingParams,
        concurrency: usize,
    ) -> anyhow::Result<OpenAiPolicy> {
        let seconds = |what: &str, s: f64| {
            if s.is_finite() && s > 0.0 {
                Ok(Duration::from_secs_f64(s))
            } else {
                bail!("{what} must be a positive number of seconds, got {s}")
            }
        };
        let Some(config) = spec.openai_config() else {
            bail!("`{spec}` is not an `openai:URL#MODEL` policy");
        };
        let mut config = config.api_key_from_env(&self.api_key_env);
        config.params = params;
        config.concurrency = concurrency;
        config.timeout = seconds("--request-timeout", self.request_timeout)?;
        config.retries = self.retries;
        config.breaker_failures = self.breaker_failures;
        config.breaker_cooldown = seconds("--breaker-cooldown", self.breaker_cooldown)?;
        config.token_ids = !self.no_token_ids;
        Ok(OpenAiPolicy::new(config)?)
    }
}

/// Parses a policy spec (`--policy`, `--vs`), the error naming the flag.
pub fn parse(flag: &str, spec: &str) -> anyhow::Result<PolicySpec> {
    PolicySpec::parse(spec).with_context(|| format!("bad `{flag}`"))
}

/// The model folder of a `local:` path: a run's `final/`, else its latest checkpoint, else the
/// folder itself. Any of them may be a full model (`config.json`) or, for a LoRA run, an adapter
/// (`adapter_config.json`, whose `base_model_name_or_path` names the base).
pub fn model_dir(dir: &Path) -> anyhow::Result<PathBuf> {
    let is_model = |d: &Path| d.join("config.json").exists() || d.join("adapter_config.json").exists();
    if is_model(&dir.join("final")) {
        return Ok(dir.join("final"));
    }
    if let Some(c) = gauntlet_train::latest_checkpoint(dir)? {
        return Ok(c);
    }
    if is_model(dir) {
        return Ok(dir.to_path_buf());
    }
    if !dir.exists() {
        bail!("`{}` does not exist (`local:PATH` takes a training run or a model folder)", dir.display());
    }
    bail!(
        "`{}` is neither a training run nor a model folder (no `config.json` or `adapter_config.json`)",
        dir.display()
    )
}

/// The path of a `local:` spec with `${VAR}` and `${VAR:-default}` expanded.
fn expanded(path: &Path) -> anyhow::Result<PathBuf> {
    let text = path.to_str().with_context(|| format!("`{}` is not valid UTF-8", path.display()))?;
    Ok(PathBuf::from(gauntlet_model::pretrained::expand_env(text)?))
}

/// Refuses `--adapter` for a policy without weights, or a folder that is not a PEFT adapter.
pub fn check_adapter(spec: &PolicySpec, adapter: Option<&Path>) -> anyhow::Result<()> {
    let Some(a) = adapter else { return Ok(()) };
    if !spec.loads_weights() {
        bail!("--adapter needs a `local:` or `gguf:` policy, got `{spec}`");
    }
    if !a.join("adapter_config.json").exists() {
        bail!("`--adapter {}` has no `adapter_config.json` (expected a PEFT adapter folder)", a.display());
    }
    Ok(())
}

/// Loads the weights of a `local:` or `gguf:` spec for inference (the one loader of the CLI):
/// `gguf:FILE` quantized as stored (with an adapter, dequantized to `f32`); `local:PATH` resolved
/// by [`model_dir`]. `adapter` is a PEFT adapter folder applied on top (folded into the weights,
/// as the trainer samples). Model code runs on candle's CPU device.
pub fn load_model(spec: &PolicySpec, adapter: Option<&Path>) -> anyhow::Result<ChatModel> {
    check_adapter(spec, adapter)?;
    let dev = candle_core::Device::Cpu;
    let with = || adapter.map(|a| format!(" with the adapter `{}`", a.display())).unwrap_or_default();
    match spec {
        PolicySpec::Gguf(file) => gauntlet_model::pretrained::load_policy(&spec.to_string(), adapter, &dev)
            .with_context(|| format!("cannot load the GGUF model `{}`{}", file.display(), with())),
        PolicySpec::Local(path) => {
            let dir = model_dir(&expanded(path)?)?;
            let dir_str = dir.to_str().with_context(|| format!("`{}` is not valid UTF-8", dir.display()))?;
            gauntlet_model::pretrained::load_policy(dir_str, adapter, &dev)
                .with_context(|| format!("cannot load the model in `{}`{}", dir.display(), with()))
        }
        other => bail!("`{other}` has no weights to load (expected `local:PATH` or `gguf:FILE`)"),
    }
}

/// The training run's config when `spec` is `local:RUN` (a folder with `config.toml`), so its
/// evaluation settings can be reproduced; `None` for anything else.
pub fn run_config(spec: &PolicySpec) -> anyhow::Result<Option<TrainConfig>> {
    let Some(path) = spec.local_path() else { return Ok(None) };
    let p = expanded(path)?.join("config.toml");
    match std::fs::read_to_string(&p) {
        Ok(text) => {
            Ok(Some(TrainConfig::from_toml(&text, &p.display().to_string()).map_err(anyhow::Error::msg)?))
        }
        Err(_) => Ok(None),
    }
}

/// The name a loaded policy reports (and `--results` files record): the spec, plus the adapter.
pub fn display_name(spec: &PolicySpec, adapter: Option<&Path>) -> String {
    match adapter {
        Some(a) => format!("{spec}+adapter:{}", a.display()),
        None => spec.to_string(),
    }
}

/// How an evaluation plays a loaded policy.
pub struct PlaySettings<'a> {
    /// Sampling of a model (`local:`, `gguf:`, `openai:`).
    pub params: SamplingParams,
    /// Sequences a local model samples together.
    pub micro_batch: usize,
    /// Seed of a scripted policy's choices (`oracle`, `random`).
    pub seed: u64,
    /// Requests in flight for an HTTP policy.
    pub concurrency: usize,
    /// The HTTP settings of an `openai:` policy.
    pub http: &'a HttpArgs,
}

/// A policy loaded for an evaluation: one copy per lane.
pub struct LanePolicies {
    /// The name it reports (and `--results` files record).
    pub name: String,
    /// One policy per lane: clones of one HTTP policy (sharing its connection limit), fresh
    /// scripted policies with the same seed, or the one local model (one lane).
    pub lanes: Vec<Box<dyn Policy + Send>>,
    /// The HTTP policy, for its request counts.
    pub http: Option<OpenAiPolicy>,
}

/// The lanes an evaluation of these policies plays on: one when any of them holds weights in
/// this process (there is one copy of the model), two when an HTTP policy is among them (so one
/// chunk's slowest request does not idle the server), else one. Results do not depend on it.
pub fn lane_count<'a>(specs: impl IntoIterator<Item = &'a PolicySpec>) -> usize {
    let specs: Vec<&PolicySpec> = specs.into_iter().collect();
    if specs.iter().any(|s| s.loads_weights()) {
        1
    } else if specs.iter().any(|s| matches!(s, PolicySpec::OpenAi { .. })) {
        2
    } else {
        1
    }
}

/// Loads or connects `spec` (with `adapter` for `local:`/`gguf:`) for an evaluation on `lanes`
/// lanes ([`lane_count`]). Weights are loaded by [`load_model`]; the caller sets up the compute
/// pool first (`commands::compute::setup_compute`).
pub fn load_lanes(
    spec: &PolicySpec,
    adapter: Option<&Path>,
    settings: &PlaySettings,
    lanes: usize,
) -> anyhow::Result<LanePolicies> {
    let lanes = lanes.max(1);
    let mut http = None;
    let copies: Vec<Box<dyn Policy + Send>> = match spec {
        PolicySpec::Local(_) | PolicySpec::Gguf(_) => {
            if lanes > 1 {
                bail!("`{spec}` holds its weights in this process: it plays on one lane");
            }
            let chat = load_model(spec, adapter)?;
            let mut lp = LocalPolicy::new(chat, settings.params.clone(), display_name(spec, adapter));
            lp.micro_batch = settings.micro_batch;
            vec![Box::new(lp)]
        }
        PolicySpec::OpenAi { .. } => {
            let p = settings.http.policy(spec, settings.params.clone(), settings.concurrency)?;
            http = Some(p.clone());
            (0..lanes).map(|_| -> Box<dyn Policy + Send> { Box::new(p.clone()) }).collect()
        }
        scripted => match (0..lanes).map(|_| scripted.scripted(settings.seed)).collect::<Option<Vec<_>>>() {
            Some(copies) => copies,
            None => bail!("`{scripted}` cannot be evaluated"),
        },
    };
    let name = copies[0].name();
    Ok(LanePolicies { name, lanes: copies, http })
}
