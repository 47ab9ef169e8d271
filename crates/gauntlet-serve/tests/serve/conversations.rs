//! One rendering of an episode (issue 32): the oracle's actions played through the native
//! session API, OpenEnv over stateless HTTP and OpenEnv over the WebSocket show, at every turn,
//! exactly the user message `gauntlet_episode::EpisodeRunner` renders for the same environment,
//! seed, level and actions (the message `gauntlet train` shows a policy): the environment's
//! message about the seat's last action, a blank line, then the new observation.

use crate::util::{bounded, start, Server};
use futures_util::{SinkExt, StreamExt};
use gauntlet_core::Rng;
use gauntlet_episode::{EpisodeRunner, EpisodeSpec, Response, RolloutOptions, Roster};
use gauntlet_serve::EnvServerConfig;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The episodes compared: name, seed, level.
const EPISODES: [(&str, u64, u8); 4] =
    [("guess_number", 5, 2), ("frozen_lake", 5, 2), ("hangman", 5, 1), ("tic_tac_toe", 5, 1)];

/// An episode played by the kernel alone: at each turn, the seat to act, the user message the
/// runner opened its turn with, and the oracle's response.
struct Reference {
    turns: Vec<(usize, String, String)>,
    returns: Vec<f64>,
}

fn reference(name: &str, seed: u64, level: u8) -> Reference {
    let spec = EpisodeSpec { env: name.into(), seed, level, group: 0 };
    let opts = RolloutOptions::default();
    let mut run = EpisodeRunner::start(&spec, 0, &|t: &[usize]| Roster::self_play(t), &opts).unwrap();
    let mut rng = Rng::new(seed);
    let mut turns = Vec::new();
    while let Some((seat, _)) = run.to_act() {
        run.open_turn(seat);
        let shown = run.messages(seat).last().unwrap().content.clone();
        let answer = run.env().oracle_response(&mut rng);
        run.submit(seat, 0, Ok(Response::scripted(answer.clone())));
        turns.push((seat.0, shown, answer));
    }
    let episode = run.finish();
    assert!(episode.error.is_none() && !episode.truncated, "{name}: {:?}", episode.error);
    assert!(
        episode.turns.iter().any(|t| !t.message.is_empty()),
        "{name}: the environment says something, so the rendering is tested"
    );
    Reference { turns, returns: episode.returns }
}

/// The text shown after turn `k` while the episode goes on, or `None` after the last turn.
fn next_prompt(r: &Reference, k: usize) -> Option<&(usize, String, String)> {
    r.turns.get(k + 1)
}

async fn through_sessions(s: &Server, name: &str, seed: u64, level: u8, r: &Reference) {
    let c = s.post("/v1/sessions", json!({"task": name, "seed": seed, "level": level})).await;
    assert_eq!(c.status, 200, "{name}: {}", c.body);
    assert_eq!(c.body["observation"]["text"], r.turns[0].1, "{name}: the first prompt");
    let id = c.body["id"].as_str().unwrap().to_string();
    let again = s.get(&format!("/v1/sessions/{id}")).await;
    assert_eq!(again.body["observation"], c.body["observation"], "{name}: reading twice changes nothing");
    let mut last = c.body;
    for (k, (seat, _, answer)) in r.turns.iter().enumerate() {
        let a = s.post(&format!("/v1/sessions/{id}/act"), json!({"seat": seat, "response": answer})).await;
        assert_eq!(a.status, 200, "{name} turn {k}: {}", a.body);
        match next_prompt(r, k) {
            Some((next, shown, _)) => {
                assert_eq!(a.body["to_act"], *next, "{name} turn {k}");
                assert_eq!(a.body["observation"]["text"], *shown, "{name}: the prompt after turn {k}");
            }
            None => assert_eq!(a.body["done"], true, "{name}: {}", a.body),
        }
        last = a.body;
    }
    assert_eq!(last["returns"], json!(r.returns), "{name}");
    assert_eq!(s.call("DELETE", &format!("/v1/sessions/{id}"), None).await.status, 200);
}

async fn through_openenv_http(s: &Server, name: &str, seed: u64, level: u8, r: &Reference) {
    let base = format!("/openenv/{name}");
    let reset = s.post(&format!("{base}/reset"), json!({"seed": seed, "level": level})).await;
    assert_eq!(reset.status, 200, "{name}: {}", reset.body);
    assert_eq!(reset.body["observation"]["text"], r.turns[0].1, "{name}: the first prompt over HTTP");
    let mut history: Vec<Value> = Vec::new();
    for (k, (seat, _, answer)) in r.turns.iter().enumerate() {
        let action = json!({"response": answer, "seat": seat});
        let body = json!({"action": action, "seed": seed, "level": level, "history": history});
        let a = s.post(&format!("{base}/step"), body).await;
        assert_eq!(a.status, 200, "{name} turn {k}: {}", a.body);
        match next_prompt(r, k) {
            Some((_, shown, _)) => {
                assert_eq!(a.body["observation"]["text"], *shown, "{name}: the HTTP prompt after turn {k}")
            }
            None => {
                assert_eq!(a.body["done"], true, "{name}: {}", a.body);
                assert_eq!(a.body["observation"]["returns"], json!(r.returns), "{name}");
            }
        }
        history.push(action);
    }
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn call(ws: &mut Ws, msg: Value) -> Value {
    ws.send(Message::Text(msg.to_string().into())).await.unwrap();
    loop {
        match ws.next().await.expect("an answer").unwrap() {
            Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
            Message::Close(_) => panic!("the server closed the connection"),
            _ => continue,
        }
    }
}

async fn through_openenv_ws(s: &Server, name: &str, seed: u64, level: u8, r: &Reference) {
    let url = format!("{}/openenv/{name}/ws", s.base.replace("http://", "ws://"));
    let mut ws = tokio_tungstenite::connect_async(url).await.unwrap().0;
    let reset = call(&mut ws, json!({"type": "reset", "data": {"seed": seed, "level": level}})).await;
    assert_eq!(
        reset["data"]["observation"]["text"], r.turns[0].1,
        "{name}: the first prompt over the WebSocket"
    );
    for (k, (seat, _, answer)) in r.turns.iter().enumerate() {
        let a = call(&mut ws, json!({"type": "step", "data": {"response": answer, "seat": seat}})).await;
        assert_eq!(a["type"], "observation", "{name} turn {k}: {a}");
        match next_prompt(r, k) {
            Some((_, shown, _)) => {
                assert_eq!(
                    a["data"]["observation"]["text"], *shown,
                    "{name}: the WebSocket prompt after turn {k}"
                )
            }
            None => {
                assert_eq!(a["data"]["done"], true, "{name}: {a}");
                assert_eq!(a["data"]["observation"]["returns"], json!(r.returns), "{name}");
            }
        }
    }
    let _ = ws.send(Message::Text(r#"{"type":"close"}"#.into())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_driver_shows_the_kernels_user_messages() {
    bounded(60, async {
        let s = start(EnvServerConfig::default()).await;
        for (name, seed, level) in EPISODES {
            let r = reference(name, seed, level);
            assert!(r.turns.len() > 1, "{name}: a multi-turn episode");
            through_sessions(&s, name, seed, level, &r).await;
            through_openenv_http(&s, name, seed, level, &r).await;
            through_openenv_ws(&s, name, seed, level, &r).await;
        }
        assert_eq!(s.get("/v1/stats").await.body["panics"], 0);
    })
    .await;
}
