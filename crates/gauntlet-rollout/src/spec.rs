//! Policy specs: the one parser of the strings that name a policy (`gauntlet eval --policy`,
//! `gauntlet play --vs`, `gauntlet serve policy --model`).
//!
//! | spec | policy |
//! |---|---|
//! | `local:PATH` | weights on disk: a training run (its `final/`, else its latest checkpoint), one checkpoint, a Hugging Face model folder, or a PEFT adapter folder (over the base its `adapter_config.json` names) |
//! | `gguf:FILE` | a llama.cpp file (quantized weights as stored) |
//! | `openai:URL#MODEL` | a model behind an OpenAI-compatible server (`URL` ends in `/v1`) |
//! | `oracle` | the environment's own solver |
//! | `random` | a random legal action |
//!
//! Parsing looks at the text only (no file is opened and no weights are loaded): which folder a
//! `local:` path stands for is decided when it is loaded, by whoever has the model code
//! (the `gauntlet` binary). `${VAR}` in a path is kept as written and expanded when loading.
//! [`PolicySpec::parse_model`] is the parser of the places that want weights (`serve policy
//! --model`), where a bare path means `local:PATH`.
//!
//! ```
//! use gauntlet_rollout::PolicySpec;
//! let spec = PolicySpec::parse("openai:http://127.0.0.1:8000/v1#smol").unwrap();
//! assert_eq!(spec, PolicySpec::OpenAi { base_url: "http://127.0.0.1:8000/v1".into(), model: "smol".into() });
//! assert_eq!(spec.to_string(), "openai:http://127.0.0.1:8000/v1#smol");
//! assert!(PolicySpec::parse("local:runs/default").unwrap().loads_weights());
//! let err = PolicySpec::parse("runs/default").unwrap_err().to_string();
//! assert!(err.contains("local:runs/default"), "{err}");
//! ```

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::{OpenAiConfig, OpenAiError, OraclePolicy, Policy, RandomPolicy};

/// The accepted forms, for help texts and error messages.
pub const POLICY_FORMS: &str =
    "`local:PATH` (a training run, checkpoint, Hugging Face model or PEFT adapter folder), \
     `gguf:FILE`, `openai:URL#MODEL`, `oracle` or `random`";

/// The accepted forms where weights are wanted ([`PolicySpec::parse_model`]).
pub const MODEL_FORMS: &str =
    "`PATH` or `local:PATH` (a training run, checkpoint, Hugging Face model or PEFT \
     adapter folder) or `gguf:FILE`";

/// A parsed policy spec (see the [module docs](self) for the forms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicySpec {
    /// `local:PATH`: a training run, a checkpoint, a Hugging Face model folder or a PEFT adapter
    /// folder (the path as written; `${VAR}` not yet expanded).
    Local(PathBuf),
    /// `gguf:FILE`: a llama.cpp model file (the path as written).
    Gguf(PathBuf),
    /// `openai:URL#MODEL`: an OpenAI-compatible server (`base_url` without a trailing `/`).
    OpenAi {
        /// The server's base URL, e.g. `http://127.0.0.1:8000/v1`.
        base_url: String,
        /// The model id the requests name.
        model: String,
    },
    /// `oracle`: the environment's solver.
    Oracle,
    /// `random`: a random legal action.
    Random,
}

/// Why a policy spec was refused; every message lists the accepted forms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    /// The spec is empty.
    #[error("the policy is empty; use {forms}")]
    Empty {
        /// The accepted forms.
        forms: &'static str,
    },
    /// `local:` or `gguf:` without a path.
    #[error("`{prefix}` needs a path after it (e.g. `{prefix}{example}`); use {forms}")]
    NoPath {
        /// `local:` or `gguf:`.
        prefix: &'static str,
        /// An example path.
        example: &'static str,
        /// The accepted forms.
        forms: &'static str,
    },
    /// A malformed `openai:URL#MODEL`.
    #[error("bad policy `{spec}`: {reason}; the form is `openai:URL#MODEL`, URL ending in `/v1`")]
    OpenAi {
        /// The spec as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// None of the forms.
    #[error("unknown policy `{spec}`{hint}; use {forms}")]
    Unknown {
        /// The spec as given.
        spec: String,
        /// A suggestion (` (did you mean ...?)`), or empty.
        hint: String,
        /// The accepted forms.
        forms: &'static str,
    },
    /// A policy without weights where weights are wanted ([`PolicySpec::parse_model`]).
    #[error("`{spec}` is not a model; use {forms}")]
    NotAModel {
        /// The spec as given.
        spec: String,
        /// The accepted forms.
        forms: &'static str,
    },
}

impl PolicySpec {
    /// Parses a policy spec: `local:PATH`, `gguf:FILE`, `openai:URL#MODEL`, `oracle` or `random`.
    /// A bare path is refused (with a hint to write `local:PATH`), so that a misspelt `oracle`
    /// is not taken for a folder.
    pub fn parse(spec: &str) -> Result<Self, SpecError> {
        let forms = POLICY_FORMS;
        if spec.trim().is_empty() {
            return Err(SpecError::Empty { forms });
        }
        if let Some(path) = spec.strip_prefix("local:") {
            return nonempty(path, "local:", "runs/default", forms).map(PolicySpec::Local);
        }
        if let Some(path) = spec.strip_prefix("gguf:") {
            return nonempty(path, "gguf:", "model.gguf", forms).map(PolicySpec::Gguf);
        }
        if spec.starts_with("openai:") {
            return OpenAiConfig::from_spec(spec)
                .map(|c| PolicySpec::OpenAi { base_url: c.base_url, model: c.model })
                .map_err(|e| match e {
                    OpenAiError::Spec { reason, .. } => SpecError::OpenAi { spec: spec.to_string(), reason },
                    other => SpecError::OpenAi { spec: spec.to_string(), reason: other.to_string() },
                });
        }
        match spec {
            "oracle" => Ok(PolicySpec::Oracle),
            "random" => Ok(PolicySpec::Random),
            _ => Err(SpecError::Unknown { spec: spec.to_string(), hint: hint(spec), forms }),
        }
    }

    /// Parses a spec that must name weights: `local:PATH`, `gguf:FILE`, or a bare `PATH` (read as
    /// `local:PATH`), as `gauntlet serve policy --model` takes them.
    pub fn parse_model(spec: &str) -> Result<Self, SpecError> {
        let forms = MODEL_FORMS;
        if spec.trim().is_empty() {
            return Err(SpecError::Empty { forms });
        }
        let not_a_model = || SpecError::NotAModel { spec: spec.to_string(), forms };
        match spec {
            "oracle" | "random" => return Err(not_a_model()),
            s if s.starts_with("openai:") => return Err(not_a_model()),
            _ => {}
        }
        match PolicySpec::parse(spec) {
            Ok(p) => Ok(p),
            Err(SpecError::Unknown { .. }) => Ok(PolicySpec::Local(PathBuf::from(spec))),
            Err(SpecError::NoPath { prefix, example, .. }) => {
                Err(SpecError::NoPath { prefix, example, forms })
            }
            Err(e) => Err(e),
        }
    }

    /// Whether the policy is weights loaded into this process (`local:` or `gguf:`), the only
    /// kind a LoRA adapter (`--adapter`) can be applied to.
    pub fn loads_weights(&self) -> bool {
        matches!(self, PolicySpec::Local(_) | PolicySpec::Gguf(_))
    }

    /// The path of a `local:` spec (a run, checkpoint, model or adapter folder).
    pub fn local_path(&self) -> Option<&Path> {
        match self {
            PolicySpec::Local(p) => Some(p),
            _ => None,
        }
    }

    /// The scripted policy of `oracle` or `random`, drawing from `seed`; `None` for the others.
    pub fn scripted(&self, seed: u64) -> Option<Box<dyn Policy + Send>> {
        match self {
            PolicySpec::Oracle => Some(Box::new(OraclePolicy::new(seed))),
            PolicySpec::Random => Some(Box::new(RandomPolicy::new(seed))),
            _ => None,
        }
    }

    /// The HTTP settings of `openai:URL#MODEL` (defaults elsewhere); `None` for the others.
    pub fn openai_config(&self) -> Option<OpenAiConfig> {
        match self {
            PolicySpec::OpenAi { base_url, model } => Some(OpenAiConfig::new(base_url, model)),
            _ => None,
        }
    }

    /// A short name for the model, e.g. the id `gauntlet serve policy` serves it under: a GGUF
    /// file's stem, a folder's name (`runs/default` → `default`), the model of `openai:`, or the
    /// scripted policy's name. A path ending in `..` or `/` is named by what it resolves to when
    /// it exists.
    pub fn short_name(&self) -> String {
        let name = |p: &Path, stem: bool| {
            let full = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
            let part = if stem { full.file_stem() } else { full.file_name() };
            part.and_then(|s| s.to_str()).unwrap_or("gauntlet").to_string()
        };
        match self {
            PolicySpec::Local(p) => name(p, false),
            PolicySpec::Gguf(p) => name(p, true),
            PolicySpec::OpenAi { model, .. } => model.clone(),
            PolicySpec::Oracle => "oracle".into(),
            PolicySpec::Random => "random".into(),
        }
    }
}

fn nonempty(
    path: &str,
    prefix: &'static str,
    example: &'static str,
    forms: &'static str,
) -> Result<PathBuf, SpecError> {
    if path.trim().is_empty() {
        return Err(SpecError::NoPath { prefix, example, forms });
    }
    Ok(PathBuf::from(path))
}

/// A suggestion for an unknown spec: the form it most likely meant.
fn hint(spec: &str) -> String {
    let lower = spec.to_ascii_lowercase();
    let meant = if lower == "oracle" || lower == "random" {
        lower
    } else if let Some((prefix, rest)) = spec.split_once(':').filter(|(p, _)| p.len() > 1) {
        match prefix.to_ascii_lowercase().as_str() {
            "http" | "https" => format!("openai:{spec}#MODEL"),
            "local" | "dir" | "path" | "file" | "run" => format!("local:{rest}"),
            "gguf" => format!("gguf:{rest}"),
            "openai" | "vllm" | "sglang" => format!("openai:{rest}"),
            _ => return String::new(),
        }
    } else if lower.ends_with(".gguf") {
        format!("gguf:{spec}")
    } else if spec.contains('/') || spec.contains('\\') || Path::new(spec).exists() {
        format!("local:{spec}")
    } else {
        return String::new();
    };
    format!(" (did you mean `{meant}`?)")
}

impl FromStr for PolicySpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        PolicySpec::parse(s)
    }
}

impl fmt::Display for PolicySpec {
    /// The spec in its canonical form (what [`PolicySpec::parse`] reads back to the same value).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicySpec::Local(p) => write!(f, "local:{}", p.display()),
            PolicySpec::Gguf(p) => write!(f, "gguf:{}", p.display()),
            PolicySpec::OpenAi { base_url, model } => write!(f, "openai:{base_url}#{model}"),
            PolicySpec::Oracle => f.write_str("oracle"),
            PolicySpec::Random => f.write_str("random"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(s: &str) -> PolicySpec {
        PolicySpec::parse(s).unwrap_or_else(|e| panic!("`{s}`: {e}"))
    }

    fn refused(s: &str) -> String {
        match PolicySpec::parse(s) {
            Ok(p) => panic!("`{s}` parsed as {p:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn every_form_parses_and_prints_back() {
        let cases = [
            ("local:runs/default", PolicySpec::Local("runs/default".into())),
            ("local:/abs/run/checkpoints/step-40", PolicySpec::Local("/abs/run/checkpoints/step-40".into())),
            ("local:runs/lora/final", PolicySpec::Local("runs/lora/final".into())),
            ("local:${MODELS}/smollm2-hf", PolicySpec::Local("${MODELS}/smollm2-hf".into())),
            (
                "gguf:SmolLM2-135M-Instruct.Q4_1.gguf",
                PolicySpec::Gguf("SmolLM2-135M-Instruct.Q4_1.gguf".into()),
            ),
            ("gguf:${G:-a.gguf}", PolicySpec::Gguf("${G:-a.gguf}".into())),
            (
                "openai:http://127.0.0.1:8000/v1#Qwen/Qwen2.5-0.5B-Instruct",
                PolicySpec::OpenAi {
                    base_url: "http://127.0.0.1:8000/v1".into(),
                    model: "Qwen/Qwen2.5-0.5B-Instruct".into(),
                },
            ),
            ("oracle", PolicySpec::Oracle),
            ("random", PolicySpec::Random),
        ];
        for (text, spec) in cases {
            assert_eq!(parsed(text), spec, "{text}");
            assert_eq!(spec.to_string(), text);
            assert_eq!(text.parse::<PolicySpec>().unwrap(), spec);
        }
        // A trailing `/` of the URL is dropped, as the HTTP backend does.
        let s = parsed("openai:http://h:1/v1/#m");
        assert_eq!(s.to_string(), "openai:http://h:1/v1#m");
        assert_eq!(s.openai_config().unwrap().spec(), "openai:http://h:1/v1#m");
    }

    #[test]
    fn kinds_and_names() {
        assert!(parsed("local:a").loads_weights() && parsed("gguf:a.gguf").loads_weights());
        for s in ["oracle", "random", "openai:http://h/v1#m"] {
            assert!(!parsed(s).loads_weights(), "{s}");
        }
        assert_eq!(parsed("local:runs/x").local_path(), Some(Path::new("runs/x")));
        assert_eq!(parsed("gguf:x.gguf").local_path(), None);
        assert_eq!(parsed("oracle").scripted(1).unwrap().name(), "oracle");
        assert_eq!(parsed("random").scripted(1).unwrap().name(), "random");
        assert!(parsed("local:x").scripted(1).is_none());
        assert!(parsed("local:x").openai_config().is_none());
        assert_eq!(parsed("gguf:/m/SmolLM2.Q4_1.gguf").short_name(), "SmolLM2.Q4_1");
        assert_eq!(parsed("local:/no/such/runs/default").short_name(), "default");
        assert_eq!(parsed("openai:http://h/v1#smol").short_name(), "smol");
        assert_eq!(parsed("oracle").short_name(), "oracle");
    }

    #[test]
    fn errors_list_the_accepted_forms_and_suggest_a_fix() {
        for (bad, says) in [
            ("", "empty"),
            ("   ", "empty"),
            ("local:", "`local:` needs a path"),
            ("gguf:", "`gguf:` needs a path"),
            ("openai:http://127.0.0.1:8000/v1", "no model"),
            ("openai:http://h/v1#", "empty"),
            ("openai:127.0.0.1:8000/v1#m", "not an `http://` URL"),
            ("openai:https://api.example.com/v1#m", "HTTPS"),
            ("orcale", "unknown policy `orcale`"),
            ("self", "unknown policy `self`"),
            ("hf:Qwen/Qwen2.5", "unknown policy"),
        ] {
            let e = refused(bad);
            assert!(e.contains(says), "`{bad}`: {e}");
            assert!(e.contains("openai:URL#MODEL"), "`{bad}` does not list the forms: {e}");
        }
        for (bad, meant) in [
            ("runs/default", "local:runs/default"),
            ("model.Q4_1.gguf", "gguf:model.Q4_1.gguf"),
            ("Oracle", "`oracle`"),
            ("RANDOM", "`random`"),
            ("http://127.0.0.1:8000/v1", "openai:http://127.0.0.1:8000/v1#MODEL"),
            ("vllm:http://h/v1#m", "openai:http://h/v1#m"),
            ("Local:runs/x", "local:runs/x"),
            ("GGUF:a.gguf", "gguf:a.gguf"),
        ] {
            let e = refused(bad);
            assert!(e.contains(&format!("did you mean `{}", meant.trim_matches('`'))), "`{bad}`: {e}");
        }
        assert!(!refused("orcale").contains("did you mean"));
    }

    #[test]
    fn model_specs_take_bare_paths_and_refuse_policies_without_weights() {
        let m = |s: &str| PolicySpec::parse_model(s);
        assert_eq!(m("runs/default").unwrap(), PolicySpec::Local("runs/default".into()));
        assert_eq!(m("local:runs/default").unwrap(), PolicySpec::Local("runs/default".into()));
        assert_eq!(m("gguf:a.gguf").unwrap(), PolicySpec::Gguf("a.gguf".into()));
        // A folder that happens to be called like a keyword needs its `local:` (or `./`).
        assert_eq!(m("./oracle").unwrap(), PolicySpec::Local("./oracle".into()));
        for bad in ["oracle", "random", "openai:http://h/v1#m", "", "local:", "gguf:"] {
            let e = m(bad).unwrap_err().to_string();
            assert!(e.contains("gguf:FILE") && !e.contains("openai:URL"), "`{bad}`: {e}");
        }
    }
}
