//! One OpenEnv episode over a gauntlet task, environment or game: the reset and action
//! messages decoded as OpenEnv's pydantic models would decode them, and the observation
//! payload `{"observation": {...}, "reward", "done"}` with the seat to act and per-seat
//! rewards.

use crate::catalog::Target;
use gauntlet_core::{AgentId, Difficulty, Env, EnvKind, Feedback, Observation};
use gauntlet_envs::ScriptedEnv;
use serde_json::{json, Map, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};

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

/// The environment of an episode: a single-turn task (through `TaskEnv`) or a scripted
/// environment or game (which also lists its legal actions).
enum Game {
    Task(Box<dyn Env>),
    Scripted(Box<dyn ScriptedEnv>),
}

impl Game {
    fn env(&self) -> &dyn Env {
        match self {
            Game::Task(e) => e.as_ref(),
            Game::Scripted(e) => e.as_ref(),
        }
    }
    fn env_mut(&mut self) -> &mut dyn Env {
        match self {
            Game::Task(e) => e.as_mut(),
            Game::Scripted(e) => e.as_mut(),
        }
    }
    fn legal(&self) -> Vec<String> {
        match self {
            Game::Task(_) => Vec::new(),
            Game::Scripted(e) => e.legal_actions(),
        }
    }
}

/// A live episode.
pub struct Episode {
    name: String,
    kind: EnvKind,
    seats: usize,
    seed: u64,
    level: Difficulty,
    episode_id: Option<String>,
    game: Game,
    turns: u32,
    over: bool,
}

fn panicked(what: &str) -> OeError {
    OeError::Factory(format!("the environment panicked in `{what}`; reset to start a new episode"))
}

/// The outcome of the last step, for the observation payload.
struct Step {
    fb: Feedback,
    acted: usize,
    rewards: Vec<f64>,
}

impl Episode {
    /// Build and reset an episode of `target` (named `name`); `seed` already drawn.
    pub fn start(
        target: &Target,
        name: &str,
        seed: u64,
        args: &ResetArgs,
    ) -> Result<(Episode, Value), OeError> {
        let made = catch_unwind(AssertUnwindSafe(|| {
            let mut game = match target {
                Target::Task(_) => Game::Task(target.make_env()),
                Target::Env(e) => Game::Scripted((e.make)()),
            };
            game.env_mut().reset(seed, args.level).map(|()| game)
        }));
        let game = match made {
            Ok(Ok(g)) => g,
            Ok(Err(e)) => return Err(OeError::Factory(format!("`{name}` could not reset: {e}"))),
            Err(_) => return Err(panicked("reset")),
        };
        let spec = game.env().spec();
        let (kind, seats) = (spec.kind, spec.seats);
        let ep = Episode {
            name: name.to_string(),
            kind,
            seats,
            seed,
            level: args.level,
            episode_id: args.episode_id.clone(),
            game,
            turns: 0,
            over: false,
        };
        let payload = ep.payload(None)?;
        Ok((ep, payload))
    }

    /// Whether the episode is over.
    pub fn done(&self) -> bool {
        self.over
    }

    /// The per-seat returns so far.
    pub fn returns(&self) -> Vec<f64> {
        self.game.env().returns()
    }

    fn to_act(&self) -> Option<usize> {
        if self.over {
            None
        } else {
            self.game.env().to_act().map(|a| a.0)
        }
    }

    /// Apply `action` for the seat to act; `cap` is the server's turn cap.
    pub fn step(&mut self, action: &Action, cap: u32) -> Result<Value, OeError> {
        let Some(agent) = self.to_act() else {
            return Err(OeError::Execution(format!(
                "the episode is over after {} step(s); send `reset` to start another",
                self.turns
            )));
        };
        match action.seat {
            Some(s) if s >= self.seats => {
                return Err(OeError::Validation(vec![invalid(
                    "value_error",
                    &["seat"],
                    format!(
                        "seat {s} does not exist: `{}` has {} seat(s), numbered from 0",
                        self.name, self.seats
                    ),
                    &json!(s),
                )]))
            }
            Some(s) if s != agent => {
                return Err(OeError::Execution(format!("it is seat {agent}'s turn, not seat {s}'s")));
            }
            _ => {}
        }
        let before = self.returns();
        let acted =
            catch_unwind(AssertUnwindSafe(|| self.game.env_mut().act(AgentId(agent), &action.response)));
        let mut fb = match acted {
            Ok(fb) => fb,
            Err(_) => {
                self.over = true;
                return Err(panicked("act"));
            }
        };
        self.turns = self.turns.saturating_add(1);
        if self.game.env().to_act().is_none() {
            self.over = true;
        } else if self.turns >= cap {
            self.over = true;
            fb.done = true;
            fb.truncated = true;
            if !fb.message.is_empty() {
                fb.message.push_str("; ");
            }
            fb.message.push_str(&format!("turn cap of {cap} reached"));
        }
        let after = self.returns();
        let rewards =
            after.iter().zip(before.iter().chain(std::iter::repeat(&0.0))).map(|(a, b)| a - b).collect();
        self.payload(Some(Step { fb, acted: agent, rewards }))
    }

    /// `{"observation": {...}, "reward", "done"}` (OpenEnv's `serialize_observation` form).
    fn payload(&self, step: Option<Step>) -> Result<Value, OeError> {
        let to_act = self.to_act();
        let seat = to_act.or(step.as_ref().map(|s| s.acted)).unwrap_or(0);
        let view = catch_unwind(AssertUnwindSafe(|| {
            (self.game.env().observe(AgentId(seat)), if self.over { Vec::new() } else { self.game.legal() })
        }));
        let (obs, legal): (Observation, Vec<String>) = view.map_err(|_| panicked("observe"))?;
        let returns = self.returns();
        let (reward, fb, acted, rewards) = match step {
            Some(s) => (json!(s.fb.reward), Some(s.fb), Some(s.acted), s.rewards),
            None => (Value::Null, None, None, vec![0.0; self.seats]),
        };
        let fb = fb.unwrap_or_default();
        Ok(json!({
            "observation": {
                "text": obs.text,
                "anchor": obs.anchor,
                "task": self.name,
                "kind": self.kind,
                "seats": self.seats,
                "seed": self.seed,
                "level": self.level.level(),
                "turn": self.turns,
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
            "done": self.over,
        }))
    }

    /// OpenEnv's `State` (`episode_id`, `step_count`) with gauntlet's fields.
    pub fn state(&self) -> Value {
        json!({
            "episode_id": self.episode_id,
            "step_count": self.turns,
            "task": self.name,
            "kind": self.kind,
            "seats": self.seats,
            "seed": self.seed,
            "level": self.level.level(),
            "done": self.over,
            "to_act": self.to_act(),
            "returns": self.returns(),
        })
    }
}

/// The state before any reset.
pub fn empty_state(name: &str) -> Value {
    json!({"episode_id": null, "step_count": 0, "task": name})
}
