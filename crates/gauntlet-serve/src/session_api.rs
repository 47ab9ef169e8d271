//! Episode sessions over any environment: each session is a [`LiveEpisode`], the kernel's
//! `EpisodeRunner` behind the server's guards (single-turn tasks, multi-turn environments and
//! games alike).
//!
//! | call | body / query | answer |
//! |---|---|---|
//! | `POST /v1/sessions` | `{"task", "seed"?: 0, "level"?: 1}` | a [`SessionView`] |
//! | `GET /v1/sessions/{id}` | `?seat=N` (default: the seat to act) | a [`SessionView`] |
//! | `POST /v1/sessions/{id}/act` | `{"response", "seat"?}` | a [`SessionView`] with `feedback` |
//! | `DELETE /v1/sessions/{id}` | — | `{"id", "deleted": true}` |
//!
//! The observation in a view is the one of the seat to act (or of `seat`), `null` once the
//! episode is over and no seat was asked for. Its `text` is the user message the kernel renders
//! for that seat (`gauntlet_episode::render_user_message`): the environment's message about the
//! seat's last action, a blank line, then the new observation; the observation alone on the
//! seat's first turn. It is byte for byte what `gauntlet train` shows a policy. `returns` is the per-seat return so far; it is
//! final when `done` is true. Acting on a finished episode answers 409 `episode_over`, acting
//! for a seat whose turn it is not 409 `not_your_turn`. The server's turn cap
//! (`max_turns`) ends an episode with `feedback.truncated: true`. Finished sessions stay
//! readable until deleted or expired.

use crate::blocking::blocking;
use crate::body::{JsonBody, Obj};
use crate::catalog::{resolve, Target};
use crate::error::{ApiError, ApiResult};
use crate::live::{LiveEpisode, Options, Refusal};
use crate::sessions::{format_id, parse_id, Entry, Session};
use crate::state::AppState;
use axum::extract::{Path, RawQuery, State};
use axum::Json;
use gauntlet_core::{EnvKind, Feedback, Observation};
use serde::Serialize;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The state of a session as the API shows it.
#[derive(Debug, Serialize)]
pub struct SessionView {
    /// Session id (16 hex digits).
    pub id: String,
    /// Task or environment name.
    pub task: String,
    /// Episode shape.
    pub kind: EnvKind,
    /// Number of seats.
    pub seats: usize,
    /// Seed of the episode.
    pub seed: u64,
    /// Level of the episode.
    pub level: u8,
    /// `act` calls so far.
    pub turns: u32,
    /// Whether the episode is over.
    pub done: bool,
    /// The seat to act next; `null` once the episode is over.
    pub to_act: Option<usize>,
    /// The seat `observation` belongs to.
    pub seat: Option<usize>,
    /// What that seat sees: `{"text", "anchor"}`.
    pub observation: Option<Observation>,
    /// Per-seat return so far (final when `done`).
    pub returns: Vec<f64>,
    /// The environment's answer to the action (only in answers to `act`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feedback: Option<Feedback>,
}

fn view(id: u64, s: &mut Session, seat: Option<usize>, feedback: Option<Feedback>) -> SessionView {
    let to_act = s.to_act();
    let seat = seat.or(to_act);
    SessionView {
        id: format_id(id),
        task: s.name().to_string(),
        kind: s.kind(),
        seats: s.seats(),
        seed: s.seed(),
        level: s.level().level(),
        turns: s.turns(),
        done: to_act.is_none(),
        to_act,
        seat,
        observation: seat.map(|a| s.observation(a)),
        returns: s.returns(),
        feedback,
    }
}

/// [`view`] under the episode's panic guard.
fn guarded_view(
    id: u64,
    s: &mut Session,
    seat: Option<usize>,
    fb: Option<Feedback>,
) -> ApiResult<SessionView> {
    s.guarded(|s| view(id, s, seat, fb)).map_err(refused)
}

/// The HTTP answer to a refused request.
fn refused(r: Refusal) -> ApiError {
    match r {
        Refusal::NoSuchSeat { seat, seats, name } => ApiError::bad_request(
            "bad_seat",
            format!("seat {seat} does not exist: `{name}` has {seats} seat(s), numbered from 0"),
        ),
        Refusal::Over { turns } => ApiError::conflict(
            "episode_over",
            format!("the episode is over after {turns} turn(s); read it with GET or delete it"),
        ),
        Refusal::NotYourTurn { to_act, asked } => {
            ApiError::conflict("not_your_turn", format!("it is seat {to_act}'s turn, not seat {asked}'s"))
        }
        Refusal::ResetFailed(e) => ApiError::bad_request("reset_failed", e),
        Refusal::Panicked(what) => ApiError::internal(
            "environment_panic",
            format!("the environment panicked in `{what}`; the session is closed"),
        ),
    }
}

/// `POST /v1/sessions`: start an episode.
pub async fn create(State(st): State<AppState>, JsonBody(body): JsonBody) -> ApiResult<Json<SessionView>> {
    let o = Obj::new(&body, "")?;
    o.only(&["task", "seed", "level"])?;
    let name = o.str_req("task")?;
    let target = resolve(name, &st.extra_envs)?;
    let seed = o.u64_opt("seed")?.unwrap_or(0);
    let level = o.level("level")?;
    let canonical = match &target {
        Target::Task(t) => t.spec().name.to_string(),
        Target::Env(e) => e.name.to_string(),
    };
    let opts = Options { max_turns: st.config.max_turns, legal_actions: false };
    // Reserve before building so that the capacity holds under concurrent creates.
    let slot = st.sessions.reserve()?;
    let session = blocking(move || {
        LiveEpisode::start(&target, &canonical, seed, level, opts).map_err(|r| match r {
            Refusal::ResetFailed(e) => refused(Refusal::ResetFailed(format!("`{canonical}`: {e}"))),
            other => refused(other),
        })
    })
    .await?;
    let (id, entry) = st.sessions.insert(slot, session);
    let mut s = entry.lock();
    guarded_view(id, &mut s, None, None).map(Json)
}

fn seat_query(raw: Option<String>) -> ApiResult<Option<usize>> {
    let Some(q) = raw else { return Ok(None) };
    let mut seat = None;
    for pair in q.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        if k != "seat" {
            return Err(ApiError::bad_request(
                "unknown_field",
                format!("unknown query parameter `{}`; expected `seat`", crate::body::show(&k.into())),
            ));
        }
        seat = Some(v.parse::<usize>().map_err(|_| {
            ApiError::bad_request(
                "bad_seat",
                format!("query `seat`: expected a seat number, got `{}`", crate::body::show(&v.into())),
            )
        })?);
    }
    Ok(seat)
}

/// `GET /v1/sessions/{id}`: the observation of the seat to act (or of `?seat=N`).
pub async fn observe(
    State(st): State<AppState>,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
) -> ApiResult<Json<SessionView>> {
    let seat = seat_query(q)?;
    let entry = st.sessions.get(&id)?;
    let n = parse_id(&id)?;
    let mut s = entry.lock();
    if let Some(a) = seat {
        s.check_seat(a).map_err(refused)?;
    }
    guarded_view(n, &mut s, seat, None).map(Json)
}

/// `POST /v1/sessions/{id}/act`: apply the response of the seat to act.
pub async fn act(
    State(st): State<AppState>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody,
) -> ApiResult<Json<SessionView>> {
    let o = Obj::new(&body, "")?;
    o.only(&["response", "seat"])?;
    let response = o.str_req("response")?.to_string();
    let seat = o.seat_opt("seat")?;
    let max = st.config.max_response_bytes;
    if response.len() > max {
        return Err(ApiError::bad_request(
            "response_too_long",
            format!("`response` is {} bytes; the server's `max_response_bytes` is {max}", response.len()),
        ));
    }
    let entry = st.sessions.get(&id)?;
    let n = parse_id(&id)?;
    let entry2: Arc<Entry> = entry.clone();
    let out = blocking(move || step(&entry2, n, seat, &response)).await;
    st.sessions.touch(&entry);
    if out.is_ok() {
        st.stats.acts.fetch_add(1, Ordering::Relaxed);
    }
    out.map(Json)
}

/// Apply `response` for `seat` (or the seat to act) and view the episode after it.
fn step(entry: &Entry, id: u64, seat: Option<usize>, response: &str) -> ApiResult<SessionView> {
    let mut s = entry.lock();
    let acted = s.act(seat, response).map_err(refused)?;
    guarded_view(id, &mut s, None, Some(acted.feedback))
}

/// `DELETE /v1/sessions/{id}`.
pub async fn delete(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    st.sessions.remove(&id)?;
    Ok(Json(serde_json::json!({"id": id, "deleted": true})))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvSpec, Rng};

    /// A two-seat environment that never ends and panics on the action `boom`.
    struct Endless {
        spec: EnvSpec,
        turn: usize,
    }

    impl Env for Endless {
        fn spec(&self) -> &EnvSpec {
            &self.spec
        }
        fn reset(&mut self, _seed: u64, _d: Difficulty) -> Result<(), EnvError> {
            Ok(())
        }
        fn to_act(&self) -> Option<AgentId> {
            Some(AgentId(self.turn % 2))
        }
        fn observe(&self, agent: AgentId) -> Observation {
            Observation { text: format!("turn {} for {agent}", self.turn), anchor: self.turn.to_string() }
        }
        fn act(&mut self, _agent: AgentId, response: &str) -> Feedback {
            assert_ne!(response, "boom", "test panic");
            self.turn += 1;
            Feedback { reward: 0.5, ..Feedback::default() }
        }
        fn returns(&self) -> Vec<f64> {
            vec![0.0, 0.0]
        }
    }

    impl gauntlet_envs::ScriptedEnv for Endless {
        fn legal_actions(&self) -> Vec<String> {
            vec!["x".into()]
        }
        fn oracle_action(&self, _rng: &mut Rng) -> String {
            "x".into()
        }
        fn success(&self) -> bool {
            false
        }
    }

    fn entry(max_turns: u32) -> (crate::sessions::SessionStore, Arc<Entry>) {
        let store = crate::sessions::SessionStore::new(4, std::time::Duration::from_secs(60));
        let spec = EnvSpec {
            name: "endless".into(),
            category: "test".into(),
            kind: EnvKind::Game,
            seats: 2,
            description: "never ends".into(),
        };
        let opts = Options { max_turns, legal_actions: false };
        let env = Box::new(Endless { spec, turn: 0 });
        let session = LiveEpisode::with_env(env, "endless", 0, Difficulty::MIN, opts).unwrap();
        let slot = store.reserve().unwrap();
        let (_, e) = store.insert(slot, session);
        (store, e)
    }

    #[test]
    fn the_turn_cap_truncates() {
        let (_store, e) = entry(3);
        assert_eq!(step(&e, 1, Some(1), "x").unwrap_err().code, "not_your_turn");
        let v = step(&e, 1, Some(0), "x").unwrap();
        assert_eq!((v.to_act, v.done), (Some(1), false));
        assert_eq!(v.observation.unwrap().text, "turn 1 for seat 1");
        step(&e, 1, None, "x").unwrap();
        let last = step(&e, 1, None, "x").unwrap();
        let fb = last.feedback.unwrap();
        assert!(fb.done && fb.truncated, "{fb:?}");
        assert!(fb.message.contains("turn cap of 3"));
        assert!(last.done && last.to_act.is_none() && last.observation.is_none());
        assert_eq!(step(&e, 1, None, "x").unwrap_err().code, "episode_over");
    }

    #[test]
    fn a_panicking_env_closes_only_its_session() {
        let (_store, e) = entry(10);
        let err = step(&e, 1, None, "boom").unwrap_err();
        assert_eq!(err.status, axum::http::StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(err.code, "environment_panic");
        assert_eq!(step(&e, 1, None, "x").unwrap_err().code, "episode_over");
    }
}
