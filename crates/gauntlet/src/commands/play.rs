//! `gauntlet play`: a human at one seat of any environment or game, in the terminal.

use std::path::Path;

use anyhow::{bail, Context};
use clap::Args;
use gauntlet_core::{AgentId, Difficulty, Rng};
use gauntlet_envs::ScriptedEnv;
use gauntlet_model::{ChatMessage, SamplingParams};
use gauntlet_rollout::LocalPolicy;

/// Arguments of `gauntlet play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Environment or game (`gauntlet tasks` lists them).
    env: String,
    /// Your seat (0 moves first).
    #[arg(long, default_value_t = 0)]
    seat: usize,
    /// Who plays the other seats: `random`, `oracle`, `local:RUN_DIR` (a trained policy) or
    /// `openai:URL#MODEL` (a model behind an OpenAI-compatible server).
    #[arg(long, default_value = "oracle")]
    vs: String,
    /// Difficulty level 1..=5.
    #[arg(long, default_value_t = 1)]
    level: u8,
    /// Seed of the episode (and of the opponent's choices).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    http: super::eval::HttpArgs,
}

/// Runs `gauntlet play`.
pub fn exec(args: PlayArgs) -> anyhow::Result<()> {
    let Some(mut env) = gauntlet_envs::make(&args.env) else {
        let names: Vec<&str> = gauntlet_envs::registry().iter().map(|e| e.name).collect();
        bail!("no interactive environment `{}`; choose one of: {}", args.env, names.join(", "));
    };
    let level = Difficulty::new(args.level).map_err(anyhow::Error::msg)?;
    env.reset(args.seed, level).map_err(|e| anyhow::anyhow!("{e}"))?;
    if args.seat >= env.spec().seats {
        bail!("`{}` has {} seat(s); --seat must be below that", args.env, env.spec().seats);
    }
    let mut rng = Rng::new(args.seed ^ 0x5eed);
    let params = SamplingParams { temperature: 0.0, max_tokens: 64, ..Default::default() };
    let http = match args.vs.starts_with("openai:") {
        true => Some(args.http.policy(&args.vs, params.clone(), 1)?),
        false => None,
    };
    let mut local = match args.vs.strip_prefix("local:") {
        Some(dir) => {
            let dir = Path::new(dir);
            let model = if dir.join("final").exists() { dir.join("final") } else { dir.to_path_buf() };
            let (chat, _, _) = gauntlet_model::checkpoint::load_chat(&model, &candle_core::Device::Cpu)
                .with_context(|| format!("cannot load the policy in `{}`", model.display()))?;
            Some(LocalPolicy::new(chat, params, args.vs.clone()))
        }
        None if args.vs == "random" || args.vs == "oracle" || http.is_some() => None,
        None => bail!("--vs must be random, oracle, local:RUN_DIR or openai:URL#MODEL, got `{}`", args.vs),
    };
    let vs = args.vs.clone();
    let mut turn = 0u64;
    let mut opponent = |e: &dyn ScriptedEnv, seat: AgentId| -> String {
        turn += 1;
        if let Some(h) = &http {
            let obs = e.observe(seat).text;
            return match h.reply(&[ChatMessage::new("user", obs)], args.seed ^ turn) {
                Ok(r) => r.text,
                Err(err) => {
                    eprintln!("the opponent's server failed: {err}");
                    String::new()
                }
            };
        }
        match &mut local {
            Some(p) => {
                let obs = e.observe(seat).text;
                p.reply(&[ChatMessage::new("user", obs)], args.seed ^ turn).unwrap_or_default()
            }
            None if vs == "random" => e.random_action(&mut rng),
            None => e.oracle_action(&mut rng),
        }
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    gauntlet_envs::play::play(env.as_mut(), args.seat, &mut opponent, &mut input, &mut out)?;
    Ok(())
}
