//! `gauntlet play`: a human at one seat of any environment or game, in the terminal.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;
use gauntlet_core::{AgentId, Difficulty, Rng};
use gauntlet_envs::ScriptedEnv;
use gauntlet_model::{ChatMessage, SamplingParams};
use gauntlet_rollout::{LocalPolicy, OpenAiPolicy, PolicySpec};

/// Arguments of `gauntlet play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Environment or game (`gauntlet tasks` lists them).
    env: String,
    /// Your seat (0 moves first).
    #[arg(long, default_value_t = 0)]
    seat: usize,
    /// Who plays the other seats: `oracle`, `random`, `local:PATH` (a training run, a checkpoint,
    /// a Hugging Face model folder or a PEFT adapter folder), `gguf:FILE` or `openai:URL#MODEL`
    /// (a model behind an OpenAI-compatible server).
    #[arg(long, default_value = "oracle")]
    vs: String,
    /// A PEFT LoRA adapter folder applied to a `local:` or `gguf:` opponent's model.
    #[arg(long)]
    adapter: Option<PathBuf>,
    /// Difficulty level 1..=5.
    #[arg(long, default_value_t = 1)]
    level: u8,
    /// Seed of the episode (and of the opponent's choices).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    http: crate::policy::HttpArgs,
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
    let spec = crate::policy::parse("--vs", &args.vs)?;
    let mut model = Opponent::new(&spec, &args)?;
    let mut turn = 0u64;
    let mut opponent = |e: &dyn ScriptedEnv, seat: AgentId| -> String {
        turn += 1;
        let seed = args.seed ^ turn;
        match (&mut model, &spec) {
            (Some(m), _) => m.reply(&e.observe(seat).text, seed),
            (None, PolicySpec::Random) => e.random_action(&mut rng),
            (None, _) => e.oracle_action(&mut rng),
        }
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    gauntlet_envs::play::play(env.as_mut(), args.seat, &mut opponent, &mut input, &mut out)?;
    Ok(())
}

/// A model at the other seats: weights in this process or a server.
enum Opponent {
    Local(Box<LocalPolicy>),
    Http(OpenAiPolicy),
}

impl Opponent {
    /// The model of `spec` (greedy, 64 tokens a move); `None` for `oracle` and `random`.
    fn new(spec: &PolicySpec, args: &PlayArgs) -> anyhow::Result<Option<Opponent>> {
        crate::policy::check_adapter(spec, args.adapter.as_deref())?;
        let params = SamplingParams { temperature: 0.0, max_tokens: 64, ..Default::default() };
        Ok(match spec {
            PolicySpec::Local(_) | PolicySpec::Gguf(_) => {
                let chat = crate::policy::load_model(spec, args.adapter.as_deref())?;
                let name = crate::policy::display_name(spec, args.adapter.as_deref());
                Some(Opponent::Local(Box::new(LocalPolicy::new(chat, params, name))))
            }
            PolicySpec::OpenAi { .. } => Some(Opponent::Http(args.http.policy(spec, params, 1)?)),
            _ => None,
        })
    }

    /// The model's move for an observation (empty, with a note on stderr, when it fails).
    fn reply(&mut self, observation: &str, seed: u64) -> String {
        let messages = [ChatMessage::new("user", observation)];
        let reply = match self {
            Opponent::Local(p) => p.reply(&messages, seed).map_err(|e| e.to_string()),
            Opponent::Http(h) => h.reply(&messages, seed).map(|r| r.text).map_err(|e| e.to_string()),
        };
        reply.unwrap_or_else(|err| {
            eprintln!("the opponent failed: {err}");
            String::new()
        })
    }
}
