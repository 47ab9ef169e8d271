//! One OpenEnv episode over a gauntlet task, environment or game: the reset and action
//! messages decoded as OpenEnv's pydantic models would decode them, and the observation
//! payload `{"observation": {...}, "reward", "done"}` with the seat to act and per-seat
//! rewards. The episode itself is the server's [`LiveEpisode`] (the kernel's `EpisodeRunner`
//! behind the guards the native sessions share), so `observation.text` is the user message the
//! kernel renders: the environment's message about the seat's last action, a blank line, then
//! the new observation.

use crate::catalog::Target;
use crate::live::{LiveEpisode, Options, Refusal};
use gauntlet_core::{Difficulty, Feedback};
use serde_json::{json, Map, Value};

/// Why a message was refused: OpenEnv's `VALIDATION_ERROR` (with pydantic-style `errors`),
/// `EXECUTION_ERROR` (the message was well formed but the episode refuses it) or
/// `FACTORY_ERROR` (the environment could not be built or reset).
#[derive(Debug, Clone, PartialEq)]
pub enum OeError {
    /// The message does not match the schema: pydantic-style `{type, loc, msg, input}` items.
    Validation(Vec<Value>),
    /// A well-formed message the episode refuses (no reset yet, episode over, not your turn).
    Execution(String),
    /// The environment could not be built or reset, or it panicked.
    Factory(String),
}

impl OeError {
    /// The OpenEnv `WSErrorCode`.
    pub fn code(&self) -> &'static str {
        match self {
            OeError::Validation(_) => "VALIDATION_ERROR",
            OeError::Execution(_) => "EXECUTION_ERROR",
            OeError::Factory(_) => "FACTORY_ERROR",
        }
    }

    /// A sentence for a person.
    pub fn message(&self) -> String {
        match self {
            OeError::Validation(errs) => {
                let parts: Vec<String> = errs
                    .iter()
                    .map(|e| {
                        let loc: Vec<String> = e["loc"]
                            .as_array()
                            .map(|l| l.iter().map(|p| p.to_string().trim_matches('"').to_string()).collect())
                            .unwrap_or_default();
                        format!("{}: {}", loc.join("."), e["msg"].as_str().unwrap_or(""))
                    })
                    .collect();
                format!("Invalid message: {}", parts.join("; "))
            }
            OeError::Execution(m) | OeError::Factory(m) => m.clone(),
        }
    }
}

/// One pydantic-style validation error item.
pub fn invalid(kind: &str, loc: &[&str], msg: impl Into<String>, input: &Value) -> Value {
    json!({"type": kind, "loc": loc, "msg": msg.into(), "input": input})
}

/// What `reset` accepts: OpenEnv's `ResetRequest` (`seed`, `episode_id`; other keys are ignored,
/// as OpenEnv ignores keys the environment's `reset` does not take) plus gauntlet's `level`.
#[derive(Debug, Clone, PartialEq)]
pub struct ResetArgs {
    /// Seed of the episode; `None` draws a fresh one (reported in the observation).
    pub seed: Option<u64>,
    /// The client's episode id, echoed in the state.
    pub episode_id: Option<String>,
    /// Level 1..=5 (default 1).
    pub level: Difficulty,
}

fn opt<'a>(o: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    o.get(key).filter(|v| !v.is_null())
}

/// Decode reset data (an object, or `null`/absent for all defaults); `loc` prefixes error
/// locations (`["data"]` on the WebSocket, `["body"]` over HTTP).
pub fn reset_args(data: Option<&Value>, loc: &str) -> Result<ResetArgs, OeError> {
    let empty = Map::new();
    let o = match data {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(o)) => o,
        Some(v) => {
            return Err(OeError::Validation(vec![invalid(
                "dict_type",
                &[loc],
                "Input should be a valid dictionary",
                v,
            )]))
        }
    };
    let mut errs = Vec::new();
    let seed = match opt(o, "seed") {
        None => None,
        Some(v) => match v.as_u64() {
            Some(s) => Some(s),
            None if v.as_i64().is_some() => {
                errs.push(invalid(
                    "greater_than_equal",
                    &[loc, "seed"],
                    "Input should be greater than or equal to 0",
                    v,
                ));
                None
            }
            None => {
                errs.push(invalid("int_type", &[loc, "seed"], "Input should be a valid integer", v));
                None
            }
        },
    };
    let episode_id = match opt(o, "episode_id") {
        None => None,
        Some(Value::String(s)) if s.chars().count() <= 255 => Some(s.clone()),
        Some(v @ Value::String(_)) => {
            errs.push(invalid(
                "string_too_long",
                &[loc, "episode_id"],
                "String should have at most 255 characters",
                v,
            ));
            None
        }
        Some(v) => {
            errs.push(invalid("string_type", &[loc, "episode_id"], "Input should be a valid string", v));
            None
        }
    };
    let level = match opt(o, "level") {
        None => Difficulty::MIN,
        Some(v) => {
            match v.as_u64().and_then(|l| u8::try_from(l).ok()).and_then(|l| Difficulty::new(l).ok()) {
                Some(d) => d,
                None => {
                    errs.push(invalid(
                        "value_error",
                        &[loc, "level"],
                        "level must be an integer in 1..=5",
                        v,
                    ));
                    Difficulty::MIN
                }
            }
        }
    };
    if errs.is_empty() {
        Ok(ResetArgs { seed, episode_id, level })
    } else {
        Err(OeError::Validation(errs))
    }
}

/// An action: `{"response": str, "seat"?: int|null, "metadata"?: object}`, unknown fields
/// refused (pydantic `extra="forbid"`, as OpenEnv's `Action`).
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    /// The model's response text (what `act` parses).
    pub response: String,
    /// The seat the response is for; when given it must be the seat to act.
    pub seat: Option<usize>,
}

/// `loc` followed by `key`.
fn at<'a>(loc: &[&'a str], key: &'a str) -> Vec<&'a str> {
    loc.iter().copied().chain([key]).collect()
}

/// Decode an action; `loc` is the location prefix of errors (`["data"]`, `["body", "action"]`).
pub fn action(data: &Value, loc: &[&str], max_bytes: usize) -> Result<Action, OeError> {
    let Some(o) = data.as_object() else {
        return Err(OeError::Validation(vec![invalid(
            "dict_type",
            loc,
            "Input should be a valid dictionary",
            data,
        )]));
    };
    let mut errs = Vec::new();
    for (k, v) in o {
        if !matches!(k.as_str(), "response" | "seat" | "metadata") {
            errs.push(invalid("extra_forbidden", &at(loc, k), "Extra inputs are not permitted", v));
        }
    }
    let response = match o.get("response") {
        Some(Value::String(s)) if s.len() <= max_bytes => s.clone(),
        Some(Value::String(_)) => {
            let msg = format!("`response` is longer than the server's `max_response_bytes` ({max_bytes})");
            errs.push(invalid("string_too_long", &at(loc, "response"), msg, &Value::Null));
            String::new()
        }
        Some(v) => {
            errs.push(invalid("string_type", &at(loc, "response"), "Input should be a valid string", v));
            String::new()
        }
        None => {
            errs.push(invalid("missing", &at(loc, "response"), "Field required", data));
            String::new()
        }
    };
    let seat = match opt(o, "seat") {
        None => None,
        Some(v) => match v.as_u64() {
            Some(s) => Some(s as usize),
            None => {
                errs.push(invalid(
                    "int_type",
                    &at(loc, "seat"),
                    "Input should be a valid non-negative integer",
                    v,
                ));
                None
            }
        },
    };
    if let Some(m) = opt(o, "metadata") {
        if !m.is_object() {
            errs.push(invalid("dict_type", &at(loc, "metadata"), "Input should be a valid dictionary", m));
        }
    }
    if errs.is_empty() {
        Ok(Action { response, seat })
    } else {
        Err(OeError::Validation(errs))
    }
}

/// A live OpenEnv episode: the server's [`LiveEpisode`] (the kernel's runner behind the
/// server's guards) plus the client's episode id; this type only words the payloads and errors
/// in OpenEnv's terms.
pub struct Episode {
    live: LiveEpisode,
    episode_id: Option<String>,
}

/// The outcome of the last step, for the observation payload.
struct Step {
    fb: Feedback,
    acted: usize,
    rewards: Vec<f64>,
}

/// OpenEnv's wording of a refused request on `name`.
fn refused(r: Refusal, name: &str) -> OeError {
    match r {
        Refusal::NoSuchSeat { seat, seats, name } => OeError::Validation(vec![invalid(
            "value_error",
            &["seat"],
            format!("seat {seat} does not exist: `{name}` has {seats} seat(s), numbered from 0"),
            &json!(seat),
        )]),
        Refusal::Over { turns } => OeError::Execution(format!(
            "the episode is over after {turns} step(s); send `reset` to start another"
        )),
        Refusal::NotYourTurn { to_act, asked } => {
            OeError::Execution(format!("it is seat {to_act}'s turn, not seat {asked}'s"))
        }
        Refusal::ResetFailed(e) => OeError::Factory(format!("`{name}` could not reset: {e}")),
        Refusal::Panicked(what) => {
            OeError::Factory(format!("the environment panicked in `{what}`; reset to start a new episode"))
        }
    }
}

impl Episode {
    /// Build and reset an episode of `target` (named `name`); `seed` already drawn, `max_turns`
    /// the server's turn cap.
    pub fn start(
        target: &Target,
        name: &str,
        seed: u64,
        args: &ResetArgs,
        max_turns: u32,
    ) -> Result<(Episode, Value), OeError> {
        let opts = Options { max_turns, legal_actions: true };
        let live = LiveEpisode::start(target, name, seed, args.level, opts).map_err(|r| refused(r, name))?;
        let mut ep = Episode { live, episode_id: args.episode_id.clone() };
        let payload = ep.payload(None)?;
        Ok((ep, payload))
    }

    /// Whether the episode is over.
    pub fn done(&mut self) -> bool {
        self.live.to_act().is_none()
    }

    /// The per-seat returns so far.
    pub fn returns(&self) -> Vec<f64> {
        self.live.returns()
    }

    /// Apply `action` for the seat to act (the server's turn cap was set at the start).
    pub fn step(&mut self, action: &Action) -> Result<Value, OeError> {
        let before = self.returns();
        let acted = self.live.act(action.seat, &action.response).map_err(|r| refused(r, self.live.name()))?;
        let after = self.returns();
        let rewards =
            after.iter().zip(before.iter().chain(std::iter::repeat(&0.0))).map(|(a, b)| a - b).collect();
        self.payload(Some(Step { fb: acted.feedback, acted: acted.seat, rewards }))
    }

    /// `{"observation": {...}, "reward", "done"}` (OpenEnv's `serialize_observation` form).
    /// `text` is the user message the kernel renders for `seat` (see [`LiveEpisode::observation`]).
    fn payload(&mut self, step: Option<Step>) -> Result<Value, OeError> {
        let to_act = self.live.to_act();
        let seat = to_act.or(step.as_ref().map(|s| s.acted)).unwrap_or(0);
        let view = self.live.guarded(|l| (l.observation(seat), l.legal_actions()));
        let (obs, legal) = view.map_err(|r| refused(r, self.live.name()))?;
        let returns = self.returns();
        let (reward, fb, acted, rewards) = match step {
            Some(s) => (json!(s.fb.reward), Some(s.fb), Some(s.acted), s.rewards),
            None => (Value::Null, None, None, vec![0.0; self.live.seats()]),
        };
        let fb = fb.unwrap_or_default();
        Ok(json!({
            "observation": {
                "text": obs.text,
                "anchor": obs.anchor,
                "task": self.live.name(),
                "kind": self.live.kind(),
                "seats": self.live.seats(),
                "seed": self.live.seed(),
                "level": self.live.level().level(),
                "turn": self.live.turns(),
                "to_act": to_act,
                "seat": seat,
                "acted": acted,
                "rewards": rewards,
                "returns": returns,
                "message": fb.message,
                "format_error": fb.format_error,
                "invalid": fb.invalid,
                "truncated": fb.truncated,
                "legal_actions": legal,
            },
            "reward": reward,
            "done": to_act.is_none(),
        }))
    }

    /// OpenEnv's `State` (`episode_id`, `step_count`) with gauntlet's fields.
    pub fn state(&mut self) -> Value {
        let to_act = self.live.to_act();
        json!({
            "episode_id": self.episode_id,
            "step_count": self.live.turns(),
            "task": self.live.name(),
            "kind": self.live.kind(),
            "seats": self.live.seats(),
            "seed": self.live.seed(),
            "level": self.live.level().level(),
            "done": to_act.is_none(),
            "to_act": to_act,
            "returns": self.returns(),
        })
    }
}

/// The state before any reset.
pub fn empty_state(name: &str) -> Value {
    json!({"episode_id": null, "step_count": 0, "task": name})
}
