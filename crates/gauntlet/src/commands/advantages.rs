//! `gauntlet advantages`: inspect the learning signal of logged rollouts.

use clap::Args;

/// Arguments of `gauntlet advantages`.
#[derive(Debug, Args)]
pub struct AdvantagesArgs {
    /// Estimator name.
    #[arg(long, default_value = "grpo")]
    pub estimator: String,
}

/// Run `gauntlet advantages`.
pub fn exec(args: AdvantagesArgs) -> anyhow::Result<()> {
    anyhow::bail!("estimator `{}`: not implemented yet", args.estimator)
}
