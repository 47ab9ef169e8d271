//! Chat templates: the Jinja program in `tokenizer_config.json` that turns messages into text.
//!
//! Pretrained chat models ship their prompt format as a Jinja template (`chat_template`);
//! `transformers` renders it with `jinja2` (`trim_blocks`, `lstrip_blocks`, loop controls, a
//! `raise_exception` helper, Python string methods such as `.strip()`). [`ChatTemplate`] renders
//! the same template with minijinja configured the same way (Python methods through
//! `minijinja-contrib`'s `pycompat`), with the variables `messages`, `add_generation_prompt`,
//! `bos_token` and `eos_token`. `strftime_now` returns a fixed date so that prompts are
//! reproducible.
//!
//! [`ChatTemplate::chatml`] is the built-in template for from-scratch models with the byte
//! tokenizer:
//!
//! ```text
//! <|im_start|>{role}\n{content}<|im_end|>\n   … for each message, then, with
//! <|im_start|>assistant\n                       add_generation_prompt
//! ```
//!
//! ```
//! use gauntlet_model::{ChatMessage, ChatTemplate};
//! let t = ChatTemplate::chatml();
//! let text = t.render(&[ChatMessage::new("user", "2+2?")], true).unwrap();
//! assert_eq!(text, "<|im_start|>user\n2+2?<|im_end|>\n<|im_start|>assistant\n");
//! ```

use std::path::Path;

use minijinja::{Environment, ErrorKind};

use crate::{Error, Result};

/// The built-in ChatML template.
pub const CHATML: &str = "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/// The date `strftime_now` returns, whatever the format (reproducible prompts).
pub const FIXED_DATE: &str = "01 Jan 2025";

pub use gauntlet_core::ChatMessage;

/// A compiled chat template with its special tokens.
#[derive(Debug)]
pub struct ChatTemplate {
    source: String,
    bos_token: String,
    eos_token: String,
    env: Environment<'static>,
}

impl Clone for ChatTemplate {
    fn clone(&self) -> Self {
        ChatTemplate::new(&self.source, &self.bos_token, &self.eos_token).expect("compiled once already")
    }
}

fn raise_exception(msg: String) -> std::result::Result<String, minijinja::Error> {
    Err(minijinja::Error::new(ErrorKind::InvalidOperation, msg))
}

fn strftime_now(_format: String) -> String {
    FIXED_DATE.to_string()
}

/// A token field of `tokenizer_config.json`: a string or `{"content": …}`.
fn token_text(v: Option<&serde_json::Value>) -> String {
    match v {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Object(o)) => {
            o.get("content").and_then(|c| c.as_str()).unwrap_or("").to_string()
        }
        _ => String::new(),
    }
}

impl ChatTemplate {
    /// Compiles a template; `bos_token`/`eos_token` are visible to it as variables.
    pub fn new(source: &str, bos_token: &str, eos_token: &str) -> Result<Self> {
        let mut env = Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        env.add_function("raise_exception", raise_exception);
        env.add_function("strftime_now", strftime_now);
        env.add_template_owned("chat", source.to_string())
            .map_err(|e| Error::Template(format!("compile: {e}")))?;
        Ok(ChatTemplate {
            source: source.into(),
            bos_token: bos_token.into(),
            eos_token: eos_token.into(),
            env,
        })
    }

    /// The built-in ChatML template (EOS `<|im_end|>`), for the byte tokenizer.
    pub fn chatml() -> Self {
        ChatTemplate::new(CHATML, "", "<|im_end|>").expect("built-in template compiles")
    }

    /// Reads `chat_template`, `bos_token` and `eos_token` from a `tokenizer_config.json`.
    /// A list of named templates uses the one named `default`.
    pub fn from_tokenizer_config(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))?;
        let json: serde_json::Value =
            serde_json::from_str(&text).map_err(|source| Error::Json { path: path.into(), source })?;
        let source = match &json["chat_template"] {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Array(list) => list
                .iter()
                .find(|t| t["name"] == "default")
                .and_then(|t| t["template"].as_str())
                .map(str::to_string)
                .ok_or_else(|| {
                    Error::Template(format!("`{}` has no template named `default`", path.display()))
                })?,
            _ => {
                return Err(Error::Template(format!(
                    "`{}` has no `chat_template` (use the built-in ChatML instead)",
                    path.display()
                )))
            }
        };
        ChatTemplate::new(&source, &token_text(json.get("bos_token")), &token_text(json.get("eos_token")))
    }

    /// Renders `messages`; with `add_generation_prompt` the text ends where the assistant's reply
    /// begins.
    pub fn render(&self, messages: &[ChatMessage], add_generation_prompt: bool) -> Result<String> {
        let t = self.env.get_template("chat").map_err(|e| Error::Template(e.to_string()))?;
        t.render(minijinja::context! {
            messages => messages,
            add_generation_prompt => add_generation_prompt,
            bos_token => &self.bos_token,
            eos_token => &self.eos_token,
        })
        .map_err(|e| Error::Template(format!("render: {e}")))
    }

    /// The template's source.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The end-of-sequence token's text (a natural stop for sampling).
    pub fn eos_token(&self) -> &str {
        &self.eos_token
    }

    /// The beginning-of-sequence token's text.
    pub fn bos_token(&self) -> &str {
        &self.bos_token
    }

    /// A `tokenizer_config.json` carrying this template and its tokens (for checkpoints).
    pub fn to_tokenizer_config(&self) -> serde_json::Value {
        serde_json::json!({
            "chat_template": self.source,
            "bos_token": if self.bos_token.is_empty() { serde_json::Value::Null } else { self.bos_token.clone().into() },
            "eos_token": self.eos_token,
            "add_bos_token": false,
            "add_eos_token": false,
            "tokenizer_class": "PreTrainedTokenizerFast",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SmolLM2-Instruct's template as shipped in its `tokenizer_config.json`.
    const SMOLLM2: &str = "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";

    #[test]
    fn renders_smollm2_template_with_default_system_prompt() {
        let t = ChatTemplate::new(SMOLLM2, "<|im_start|>", "<|im_end|>").unwrap();
        let text = t.render(&[ChatMessage::new("user", "Hi")], true).unwrap();
        assert_eq!(
            text,
            "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n\
             <|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
        );
    }

    #[test]
    fn python_methods_blocks_and_raise_exception_work() {
        let src = "{% for m in messages %}\n  {% if m.role not in ['user', 'assistant'] %}{{ raise_exception('bad role ' + m.role) }}{% endif %}\n[{{ m.content.strip() | upper }}]{{ eos_token }}\n{% endfor %}";
        let t = ChatTemplate::new(src, "", "</s>").unwrap();
        assert_eq!(t.render(&[ChatMessage::new("user", "  hi ")], false).unwrap(), "[HI]</s>\n");
        let err = t.render(&[ChatMessage::new("tool", "x")], false).unwrap_err().to_string();
        assert!(err.contains("bad role tool"), "{err}");
    }

    #[test]
    fn reads_tokenizer_config_and_writes_it_back() {
        let dir = std::env::temp_dir().join(format!("gauntlet-tpl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tokenizer_config.json");
        let cfg = serde_json::json!({"chat_template": CHATML, "eos_token": {"content": "<|im_end|>"}, "bos_token": null});
        std::fs::write(&path, cfg.to_string()).unwrap();
        let t = ChatTemplate::from_tokenizer_config(&path).unwrap();
        assert_eq!(t.eos_token(), "<|im_end|>");
        std::fs::write(&path, t.to_tokenizer_config().to_string()).unwrap();
        let back = ChatTemplate::from_tokenizer_config(&path).unwrap();
        assert_eq!(back.source(), CHATML);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
