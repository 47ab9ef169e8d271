//! A two-seat game served through `router_with_envs`: seats, turns, private observations, the
//! turn cap and returns over HTTP (the registries may hold no game on this branch).

use crate::util::{bounded, Server};
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};
use gauntlet_envs::{EnvEntry, ScriptedEnv};
use gauntlet_serve::{router_with_envs, EnvServerConfig};
use serde_json::json;
use std::time::Duration;

/// Nim with one pile: take 1 or 2 stones; whoever takes the last stone wins (+1, the other -1).
/// Seat 1's observation says "you move second" so the test can tell the seats' views apart.
struct Nim {
    spec: EnvSpec,
    pile: u32,
    turn: usize,
    done: bool,
    returns: Vec<f64>,
}

impl Env for Nim {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }
    fn reset(&mut self, seed: u64, d: Difficulty) -> Result<(), EnvError> {
        let mut rng = Rng::for_instance("nim", seed, d.level());
        self.pile = 4 + rng.below(3 * u64::from(d.level())) as u32;
        self.turn = 0;
        self.done = false;
        self.returns = vec![0.0, 0.0];
        Ok(())
    }
    fn to_act(&self) -> Option<AgentId> {
        (!self.done).then_some(AgentId(self.turn % 2))
    }
    fn observe(&self, agent: AgentId) -> Observation {
        let order = if agent.0 == 0 { "first" } else { "second" };
        Observation {
            text: format!("pile {}; you move {order}; take 1 or 2", self.pile),
            anchor: format!("{}:{}", self.pile, self.turn % 2),
        }
    }
    fn act(&mut self, agent: AgentId, response: &str) -> Feedback {
        if self.done {
            return Feedback { done: true, invalid: true, message: "over".into(), ..Feedback::default() };
        }
        let Some(n) = gauntlet_envs::action::parse_action(response).and_then(|a| a.parse::<u32>().ok())
        else {
            return Feedback { format_error: true, message: "say 1 or 2".into(), ..Feedback::default() };
        };
        if !(1..=2).contains(&n) || n > self.pile {
            return Feedback { invalid: true, message: format!("cannot take {n}"), ..Feedback::default() };
        }
        self.pile -= n;
        self.turn += 1;
        if self.pile == 0 {
            self.done = true;
            self.returns[agent.0] = 1.0;
            self.returns[1 - agent.0] = -1.0;
            return Feedback {
                reward: 1.0,
                done: true,
                message: "took the last stone".into(),
                ..Feedback::default()
            };
        }
        Feedback { message: format!("{} left", self.pile), ..Feedback::default() }
    }
    fn returns(&self) -> Vec<f64> {
        self.returns.clone()
    }
}

impl ScriptedEnv for Nim {
    fn legal_actions(&self) -> Vec<String> {
        (1..=self.pile.min(2)).map(|n| n.to_string()).collect()
    }
    fn oracle_action(&self, _rng: &mut Rng) -> String {
        let take = if self.pile.is_multiple_of(3) { 1 } else { self.pile % 3 };
        take.to_string()
    }
    fn success(&self) -> bool {
        self.returns[0] > 0.0
    }
}

fn make() -> Box<dyn ScriptedEnv> {
    Box::new(Nim {
        spec: EnvSpec {
            name: "test_nim".into(),
            category: "game".into(),
            kind: EnvKind::Game,
            seats: 2,
            description: "One-pile Nim, take 1 or 2.".into(),
        },
        pile: 0,
        turn: 0,
        done: true,
        returns: vec![0.0, 0.0],
    })
}

const NIM: EnvEntry =
    EnvEntry { name: "test_nim", kind: EnvKind::Game, seats: 2, oracle_success: [1.0; 5], make };

async fn start_with_nim(config: EnvServerConfig) -> (Server, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let app = router_with_envs(config, vec![NIM]);
    tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = rx.await;
            })
            .await
    });
    let client = reqwest::Client::builder().timeout(Duration::from_secs(20)).build().unwrap();
    (Server::from_parts(format!("http://{addr}"), client), tx)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_seat_game_over_http() {
    bounded(20, async {
        let (s, _stop) = start_with_nim(EnvServerConfig::default()).await;
        let listed = s.get("/v1/tasks").await;
        let nim = listed.body["tasks"].as_array().unwrap().iter().find(|t| t["name"] == "test_nim").cloned();
        let nim = nim.expect("extra envs are listed");
        assert_eq!((nim["kind"].as_str(), nim["seats"].as_u64()), (Some("game"), Some(2)));
        s.post("/v1/generate", json!({"task": "test_nim"})).await.expect_error(400, "not_single_turn");

        let c = s.post("/v1/sessions", json!({"task": "test-nim", "seed": 4, "level": 2})).await;
        assert_eq!(c.status, 200, "{}", c.body);
        assert_eq!((c.body["kind"].as_str(), c.body["seats"].as_u64()), (Some("game"), Some(2)));
        assert_eq!(c.body["to_act"], 0);
        let id = c.body["id"].as_str().unwrap().to_string();
        let first = s.get(&format!("/v1/sessions/{id}?seat=1")).await;
        assert_eq!(first.body["seat"], 1);
        assert!(first.body["observation"]["text"].as_str().unwrap().contains("second"), "{}", first.body);
        s.get(&format!("/v1/sessions/{id}?seat=2")).await.expect_error(400, "bad_seat");
        let act = format!("/v1/sessions/{id}/act");
        s.post(&act, json!({"seat": 1, "response": "1"})).await.expect_error(409, "not_your_turn");

        // An illegal move leaves the turn with seat 0; then both play the oracle to the end.
        let bad = s.post(&act, json!({"seat": 0, "response": "<answer>7</answer>"})).await;
        assert_eq!(bad.body["feedback"]["invalid"], true, "{}", bad.body);
        assert_eq!(bad.body["to_act"], 0);
        let mut local = make();
        local.reset(4, Difficulty::new(2).unwrap()).unwrap();
        let mut rng = Rng::new(0);
        let mut last = bad.body;
        let mut turns = 1; // the illegal move counted as a turn
        while let Some(a) = local.to_act() {
            let action = local.oracle_action(&mut rng);
            let fb = local.act(a, &action);
            last = s
                .post(&act, json!({"seat": a.0, "response": format!("<answer>{action}</answer>")}))
                .await
                .body;
            turns += 1;
            assert_eq!(last["turns"], turns, "{last}");
            assert_eq!(last["feedback"]["reward"], fb.reward, "{last}");
            assert_eq!(last["feedback"]["message"], fb.message, "{last}");
        }
        assert_eq!(last["done"], true);
        assert_eq!(last["returns"], json!(local.returns()));
        let sum: f64 = last["returns"].as_array().unwrap().iter().map(|r| r.as_f64().unwrap()).sum();
        assert_eq!(sum, 0.0);
        s.post(&act, json!({"response": "1"})).await.expect_error(409, "episode_over");
        assert_eq!(s.call("DELETE", &format!("/v1/sessions/{id}"), None).await.status, 200);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_turn_cap_truncates_over_http() {
    bounded(20, async {
        let (s, _stop) = start_with_nim(EnvServerConfig { max_turns: 2, ..Default::default() }).await;
        let c = s.post("/v1/sessions", json!({"task": "test_nim", "seed": 0, "level": 5})).await;
        let id = c.body["id"].as_str().unwrap().to_string();
        let act = format!("/v1/sessions/{id}/act");
        let one = s.post(&act, json!({"response": "1"})).await;
        assert_eq!((one.body["done"].as_bool(), one.body["to_act"].as_u64()), (Some(false), Some(1)));
        let two = s.post(&act, json!({"response": "1"})).await;
        assert_eq!(two.body["done"], true, "{}", two.body);
        assert_eq!(two.body["feedback"]["truncated"], true);
        assert!(two.body["feedback"]["message"].as_str().unwrap().contains("turn cap of 2"));
        s.post(&act, json!({"response": "1"})).await.expect_error(409, "episode_over");
    })
    .await;
}
