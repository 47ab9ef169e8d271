//! `gauntlet export`: a base model plus a LoRA adapter merged into one Hugging Face model folder
//! (`model.safetensors`, `config.json`, `tokenizer.json`, `tokenizer_config.json` with the chat
//! template) that `transformers`, vLLM or `gauntlet eval --policy local:OUT` load without `peft`.
//!
//! The merge folds each update into its weight, `W + (alpha / r) · B A`, in `f32`; without
//! `--adapter` the base is written as it is (a GGUF file becomes a `transformers` folder). The
//! folder is written under a temporary name and renamed into place, so `--out` never holds half
//! an export.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::Args;

/// Arguments of `gauntlet export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The base model: a Hugging Face model folder or `gguf:FILE` (default: the adapter's
    /// `base_model_name_or_path`, which a LoRA run sets to its `model.init`).
    #[arg(long)]
    base: Option<String>,
    /// The PEFT adapter folder to merge (`adapter_config.json`, `adapter_model.safetensors`),
    /// e.g. a LoRA run's `final/`.
    #[arg(long)]
    adapter: Option<PathBuf>,
    /// The folder to write.
    #[arg(long)]
    out: PathBuf,
    /// Replace `--out` when it already exists and is not empty.
    #[arg(long)]
    force: bool,
}

/// The base model to merge into: `--base`, else the adapter's `base_model_name_or_path`.
fn base_spec(args: &ExportArgs) -> anyhow::Result<String> {
    if let Some(b) = &args.base {
        return Ok(b.clone());
    }
    let Some(adapter) = &args.adapter else {
        bail!("nothing to export: give `--base` (and `--adapter` to merge one)");
    };
    let (_, base) = gauntlet_model::lora::read_config(adapter)?;
    if base.is_empty() {
        bail!(
            "`{}` has no `base_model_name_or_path`; name the base model with `--base`",
            adapter.join("adapter_config.json").display()
        );
    }
    Ok(base)
}

fn non_empty_dir(p: &Path) -> bool {
    std::fs::read_dir(p).map(|mut d| d.next().is_some()).unwrap_or(false)
}

/// Runs `gauntlet export`.
pub fn exec(args: ExportArgs) -> anyhow::Result<()> {
    let base = base_spec(&args)?;
    if args.out.is_file() {
        bail!("`--out {}` is a file; name a folder", args.out.display());
    }
    if non_empty_dir(&args.out) && !args.force {
        bail!("`--out {}` already exists and is not empty; add `--force` to replace it", args.out.display());
    }
    let t0 = std::time::Instant::now();
    gauntlet_model::pretrained::export(&base, args.adapter.as_deref(), &args.out)
        .with_context(|| format!("cannot export `{base}` to `{}`", args.out.display()))?;
    let what = match &args.adapter {
        Some(a) => format!("`{base}` + adapter `{}`", a.display()),
        None => format!("`{base}`"),
    };
    eprintln!("exported {what} to {} in {:.1} s", args.out.display(), t0.elapsed().as_secs_f64());
    Ok(())
}
