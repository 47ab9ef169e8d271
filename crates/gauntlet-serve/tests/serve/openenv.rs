//! The OpenEnv mounts (`/openenv/{name}/...`): whole episodes of a task, an environment and two
//! games over the WebSocket and over stateless HTTP, each step checked against the same episode
//! played in process; the descriptive routes as `openenv validate` reads them; the capacity
//! error; and every kind of bad message answered with its code on a connection that survives.

use crate::util::{bounded, oracle, start, Server};
use futures_util::{SinkExt, StreamExt};
use gauntlet_core::{AgentId, Difficulty, Env, Rng, TaskEnv};
use gauntlet_episode::render_user_message;
use gauntlet_serve::EnvServerConfig;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(s: &Server, name: &str) -> Ws {
    let url = format!("{}/openenv/{name}/ws", s.base.replace("http://", "ws://"));
    tokio_tungstenite::connect_async(url).await.expect("the WebSocket opens").0
}

/// Send a text frame, read the answer (`None` once the server closed the connection).
async fn ask(ws: &mut Ws, text: &str) -> Option<Value> {
    ws.send(Message::Text(text.into())).await.ok()?;
    next(ws).await
}

async fn next(ws: &mut Ws) -> Option<Value> {
    loop {
        match ws.next().await? {
            Ok(Message::Text(t)) => return Some(serde_json::from_str(t.as_str()).expect("JSON frames")),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => continue,
        }
    }
}

async fn call(ws: &mut Ws, msg: Value) -> Value {
    ask(ws, &msg.to_string()).await.expect("an answer")
}

/// An episode played in process next to the served one: its environment and the oracle's
/// next action.
struct Local {
    env: Box<dyn Env>,
    scripted: Option<Box<dyn gauntlet_envs::ScriptedEnv>>,
    task: Option<(String, u64, u8)>,
    rng: Rng,
    /// Each seat's last message from the environment (its next prompt opens with it).
    notes: Vec<String>,
}

impl Local {
    fn new(name: &str, seed: u64, level: u8) -> Local {
        let d = Difficulty::new(level).unwrap();
        let rng = Rng::for_instance("openenv-test", seed, level);
        match gauntlet_envs::make(name) {
            Some(mut e) => {
                e.reset(seed, d).unwrap();
                let mut shadow = gauntlet_envs::make(name).unwrap();
                shadow.reset(seed, d).unwrap();
                let notes = vec![String::new(); shadow.spec().seats];
                Local { env: shadow, scripted: Some(e), task: None, rng, notes }
            }
            None => {
                let mut env = TaskEnv::new(gauntlet_tasks::get(name).unwrap());
                env.reset(seed, d).unwrap();
                let notes = vec![String::new()];
                Local {
                    env: Box::new(env),
                    scripted: None,
                    task: Some((name.into(), seed, level)),
                    rng,
                    notes,
                }
            }
        }
    }

    fn action(&mut self) -> String {
        match (&mut self.scripted, &self.task) {
            (Some(e), _) => e.oracle_action(&mut self.rng),
            (None, Some((t, seed, level))) => oracle(t, *seed, *level),
            _ => unreachable!(),
        }
    }

    /// Apply `action` to the local copy (and the scripted twin that chooses the oracle moves).
    fn act(&mut self, action: &str) -> gauntlet_core::Feedback {
        let seat = self.env.to_act().unwrap();
        if let Some(e) = &mut self.scripted {
            e.act(seat, action);
        }
        let fb = self.env.act(seat, action);
        self.notes[seat.0] = fb.message.clone();
        fb
    }
}

/// Check a served observation payload against the local episode after the same steps.
fn check(name: &str, p: &Value, local: &Local, fb: Option<&gauntlet_core::Feedback>) {
    let o = &p["observation"];
    let to_act = local.env.to_act();
    assert_eq!(o["to_act"], json!(to_act.map(|a| a.0)), "{name}: {p}");
    assert_eq!(p["done"], to_act.is_none(), "{name}: {p}");
    assert_eq!(o["returns"], json!(local.env.returns()), "{name}: {p}");
    let seat = o["seat"].as_u64().unwrap() as usize;
    // The kernel's rendering: the seat's last message, a blank line, its observation.
    let shown = render_user_message(&local.notes[seat], &local.env.observe(AgentId(seat)).text);
    assert_eq!(o["text"], shown, "{name}: {p}");
    match fb {
        None => assert!(p["reward"].is_null(), "{name}: {p}"),
        Some(fb) => {
            assert_eq!(p["reward"], json!(fb.reward), "{name}: {p}");
            assert_eq!(o["message"], fb.message, "{name}: {p}");
        }
    }
}

const EPISODES: [(&str, u64, u8); 5] = [
    ("countdown", 4, 2),
    ("sokoban_play", 1, 2),
    ("tic_tac_toe", 2, 3),
    ("kuhn_poker", 5, 1),
    ("wordle", 3, 1),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_episodes_over_the_websocket_match_in_process() {
    bounded(60, async {
        let s = start(EnvServerConfig::default()).await;
        for (name, seed, level) in EPISODES {
            let mut ws = connect(&s, name).await;
            for round in 0..2 {
                let mut local = Local::new(name, seed + round, level);
                let r = call(&mut ws, json!({"type": "reset", "data": {"seed": seed + round, "level": level, "episode_id": "e"}})).await;
                assert_eq!(r["type"], "observation", "{r}");
                check(name, &r["data"], &local, None);
                let (mut steps, mut total) = (0, 0.0);
                while let Some(seat) = local.env.to_act() {
                    let action = local.action();
                    let fb = local.act(&action);
                    let a = call(&mut ws, json!({"type": "step", "data": {"response": action, "seat": seat.0}})).await;
                    assert_eq!(a["type"], "observation", "{name}: {a}");
                    check(name, &a["data"], &local, Some(&fb));
                    total += a["data"]["reward"].as_f64().unwrap();
                    steps += 1;
                    assert!(steps < 500, "{name} does not end");
                }
                if local.env.returns().len() == 1 {
                    assert!((total - local.env.returns()[0]).abs() < 1e-9, "{name}: rewards sum to the return");
                }
                let st = call(&mut ws, json!({"type": "state"})).await;
                assert_eq!(st["data"]["step_count"], steps, "{st}");
                assert_eq!(st["data"]["episode_id"], "e", "{st}");
                assert_eq!(st["data"]["returns"], json!(local.env.returns()), "{st}");
            }
            assert_eq!(s.sessions().await, 1);
            assert!(ask(&mut ws, r#"{"type":"close"}"#).await.is_none(), "close ends the connection");
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert_eq!(s.sessions().await, 0, "closed connections give their places back");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_episodes_over_stateless_http_match_in_process() {
    bounded(60, async {
        let s = start(EnvServerConfig::default()).await;
        for (name, seed, level) in EPISODES {
            let base = format!("/openenv/{name}");
            let mut local = Local::new(name, seed, level);
            let r = s.post(&format!("{base}/reset"), json!({"seed": seed, "level": level})).await;
            assert_eq!(r.status, 200, "{}", r.body);
            check(name, &r.body, &local, None);
            let mut history: Vec<Value> = Vec::new();
            while local.env.to_act().is_some() {
                let action = local.action();
                let fb = local.act(&action);
                let body =
                    json!({"action": {"response": action}, "seed": seed, "level": level, "history": history});
                let a = s.post(&format!("{base}/step"), body).await;
                assert_eq!(a.status, 200, "{name}: {}", a.body);
                check(name, &a.body, &local, Some(&fb));
                history.push(json!({"response": action}));
            }
        }
        assert_eq!(s.sessions().await, 0);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn descriptive_routes_follow_openenv_validate() {
    bounded(30, async {
        let s = start(EnvServerConfig::default()).await;
        for name in ["countdown", "sokoban_play", "tic_tac_toe"] {
            let base = format!("/openenv/{name}");
            let api = s.get(&format!("{base}/openapi.json")).await;
            assert_eq!(api.status, 200);
            assert!(api.body["info"]["version"].is_string());
            for p in ["/reset", "/step", "/state"] {
                assert!(api.body["paths"][p].is_object(), "{p} missing");
            }
            assert_eq!(api.body["servers"][0]["url"], base);
            assert_eq!(s.get(&format!("{base}/health")).await.body, json!({"status": "healthy"}));
            let meta = s.get(&format!("{base}/metadata")).await.body;
            assert_eq!(meta["name"], name);
            assert!(meta["description"].as_str().is_some_and(|d| !d.is_empty()));
            let schema = s.get(&format!("{base}/schema")).await.body;
            for k in ["action", "observation", "state"] {
                assert!(schema[k].is_object(), "{k}");
            }
            assert_eq!(schema["action"]["required"], json!(["response"]));
            let st = s.get(&format!("{base}/state")).await;
            assert_eq!((st.body["step_count"].clone(), st.body["episode_id"].clone()), (json!(0), Value::Null));
            let mcp = s.post(&format!("{base}/mcp"), json!({})).await;
            assert_eq!(mcp.status, 200);
            assert_eq!(mcp.body["jsonrpc"], "2.0");
            assert_eq!(mcp.body["error"]["code"], -32600);
            let tools = s.post(&format!("{base}/mcp"), json!({"jsonrpc": "2.0", "method": "tools/list", "id": 7})).await;
            assert_eq!(tools.body["id"], 7);
            assert_eq!(tools.body["result"]["tools"][0]["name"], "act");
        }
        // MCP over HTTP is stateless like /step; the oracle's answer scores 1.
        let call = json!({"jsonrpc": "2.0", "method": "tools/call", "id": "c",
                          "params": {"name": "act", "arguments": {"response": oracle("countdown", 9, 1), "seed": 9}}});
        let r = s.post("/openenv/countdown/mcp", call).await.body;
        assert_eq!(r["result"]["structuredContent"]["reward"], 1.0, "{r}");
        assert_eq!(r["result"]["structuredContent"]["done"], true, "{r}");
        let unknown = json!({"jsonrpc": "2.0", "method": "nope", "id": 1});
        assert_eq!(s.post("/openenv/countdown/mcp", unknown).await.body["error"]["code"], -32601);
        let list = s.get("/openenv").await.body;
        let n = gauntlet_tasks::registry().len() + gauntlet_envs::registry().len();
        assert_eq!(list["environments"].as_array().unwrap().len(), n);
        // Names are forgiven as everywhere; unknown names are 404 with suggestions.
        assert_eq!(s.get("/openenv/Tic-Tac-Toe/health").await.status, 200);
        s.get("/openenv/sokobam_play/schema").await.expect_error(404, "unknown_task");
        let url = format!("{}/openenv/sokobam_play/ws", s.base.replace("http://", "ws://"));
        // Over the WebSocket, an unknown name gets an error message and a close frame whose
        // reason carries the suggestion (issue 33: a client showed only "HTTP 404").
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let first = ws.next().await.unwrap().unwrap();
        let v: serde_json::Value = serde_json::from_str(first.to_text().unwrap()).unwrap();
        assert_eq!(v["data"]["code"], "FACTORY_ERROR");
        assert!(v["data"]["message"].as_str().unwrap().contains("`sokoban_play`"), "{v}");
        match ws.next().await.unwrap().unwrap() {
            tokio_tungstenite::tungstenite::Message::Close(Some(f)) => {
                assert_eq!(u16::from(f.code), 4004);
                assert!(f.reason.contains("did you mean"), "{}", f.reason);
            }
            other => panic!("expected a close frame, got {other:?}"),
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_http_requests_get_422_and_codes() {
    bounded(30, async {
        let s = start(EnvServerConfig::default()).await;
        let b = "/openenv/sokoban_play";
        for (path, body) in [
            ("reset", json!({"seed": -1})),
            ("reset", json!({"seed": "x"})),
            ("reset", json!({"level": 9})),
            ("reset", json!([1])),
            ("step", json!({})),
            ("step", json!({"action": {"response": 3}})),
            ("step", json!({"action": {"response": "x", "extra": 1}})),
            ("step", json!({"action": {"response": "x"}, "history": "no"})),
        ] {
            let a = s.post(&format!("{b}/{path}"), body.clone()).await;
            assert_eq!(a.status, 422, "{path} {body}: {}", a.body);
            assert!(a.body["detail"][0]["loc"].is_array(), "{}", a.body);
        }
        let bad_json = s.client.post(format!("{}{b}/reset", s.base)).body("{nope");
        assert_eq!(s.send(bad_json).await.status, 422);
        let over = s.post(&format!("{b}/step"), json!({"action": {"response": "x", "seat": 1}})).await;
        assert_eq!(over.status, 422, "{}", over.body);
        let parse = s.client.post(format!("{}{b}/mcp", s.base)).body("{nope");
        assert_eq!(s.send(parse).await.body["error"]["code"], -32700);
        assert_eq!(s.get("/v1/stats").await.body["panics"], 0);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_get_error_codes_and_the_connection_survives() {
    bounded(30, async {
        let s = start(EnvServerConfig { max_turns: 3, ..Default::default() }).await;
        let mut ws = connect(&s, "tic_tac_toe").await;
        let code = |v: &Value| v["data"]["code"].as_str().unwrap_or("").to_string();
        let cases: [(&str, &str); 12] = [
            ("{not json", "INVALID_JSON"),
            (r#"{"type":"dance"}"#, "UNKNOWN_TYPE"),
            ("[1,2]", "UNKNOWN_TYPE"),
            (r#"{"type":"step","data":{"response":"a1"}}"#, "EXECUTION_ERROR"),
            (r#"{"type":"reset","data":{"seed":-3}}"#, "VALIDATION_ERROR"),
            (r#"{"type":"reset","data":7}"#, "VALIDATION_ERROR"),
            (r#"{"type":"reset","extra":1}"#, "VALIDATION_ERROR"),
            (r#"{"type":"state","data":{}}"#, "VALIDATION_ERROR"),
            (r#"{"type":"step"}"#, "VALIDATION_ERROR"),
            (r#"{"type":"step","data":{"message":"a1"}}"#, "VALIDATION_ERROR"),
            (r#"{"type":"step","data":{"response":null}}"#, "VALIDATION_ERROR"),
            (r#"{"type":"mcp"}"#, "VALIDATION_ERROR"),
        ];
        for (msg, want) in cases {
            let a = ask(&mut ws, msg).await.expect("still open");
            assert_eq!((a["type"].as_str(), code(&a).as_str()), (Some("error"), want), "{msg}: {a}");
            assert!(a["data"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{a}");
        }
        let r = call(&mut ws, json!({"type": "reset", "data": {"seed": 1, "unknown_kwarg": true}})).await;
        assert_eq!(r["type"], "observation", "unknown reset keys are ignored, as OpenEnv does: {r}");
        let wrong_seat = call(&mut ws, json!({"type": "step", "data": {"response": "x", "seat": 1}})).await;
        assert_eq!(code(&wrong_seat), "EXECUTION_ERROR", "{wrong_seat}");
        let no_seat = call(&mut ws, json!({"type": "step", "data": {"response": "x", "seat": 5}})).await;
        assert_eq!(code(&no_seat), "VALIDATION_ERROR", "{no_seat}");
        // Nonsense is a move that the game refuses, not an error of the protocol.
        for _ in 0..3 {
            let a =
                call(&mut ws, json!({"type": "step", "data": {"response": "🙃 <answer>zz</answer>"}})).await;
            assert_eq!(a["type"], "observation", "{a}");
        }
        let capped = call(&mut ws, json!({"type": "state"})).await;
        assert_eq!(
            capped["data"]["done"], true,
            "the third bad move forfeits, at the turn cap of 3: {capped}"
        );
        let over = call(&mut ws, json!({"type": "step", "data": {"response": "a1"}})).await;
        assert_eq!(code(&over), "EXECUTION_ERROR", "{over}");
        let mcp = call(
            &mut ws,
            json!({"type": "mcp", "data": {"jsonrpc": "2.0", "method": "tools/list", "id": 1}}),
        )
        .await;
        assert_eq!(mcp["data"]["result"]["tools"][0]["name"], "act", "{mcp}");
        ws.send(Message::Binary(vec![0xff, 0xfe].into())).await.unwrap();
        assert_eq!(code(&next(&mut ws).await.unwrap()), "INVALID_JSON");
        let r = call(&mut ws, json!({"type": "reset"})).await;
        assert!(r["data"]["observation"]["seed"].is_u64(), "a reset without a seed draws one: {r}");
        assert_eq!(s.get("/v1/stats").await.body["panics"], 0);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capacity_is_shared_with_sessions_and_refused_with_capacity_reached() {
    bounded(30, async {
        let s = start(EnvServerConfig { max_sessions: 2, ..Default::default() }).await;
        let mut a = connect(&s, "nim").await;
        let created = s.post("/v1/sessions", json!({"task": "countdown"})).await;
        assert_eq!(created.status, 200);
        assert_eq!(call(&mut a, json!({"type": "reset", "data": {"seed": 0}})).await["type"], "observation");
        let mut b = connect(&s, "nim").await;
        let refused = ask(&mut b, r#"{"type":"reset"}"#).await.expect("an error before the close");
        assert_eq!(refused["data"]["code"], "CAPACITY_REACHED", "{refused}");
        assert_eq!(
            (refused["data"]["active_sessions"].clone(), refused["data"]["max_sessions"].clone()),
            (json!(2), json!(2))
        );
        assert!(next(&mut b).await.is_none(), "then the server closes");
        s.post("/v1/sessions", json!({"task": "countdown"})).await.expect_error(503, "too_many_sessions");
        drop(a);
        let mut ok = None;
        for _ in 0..50 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            if s.sessions().await < 2 {
                ok = Some(connect(&s, "nim").await);
                break;
            }
        }
        let mut c = ok.expect("a dropped connection gives its place back");
        assert_eq!(call(&mut c, json!({"type": "reset"})).await["type"], "observation");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_connection_is_closed_with_session_error() {
    bounded(30, async {
        let s = start(EnvServerConfig { idle_timeout_secs: 0.2, ..Default::default() }).await;
        let mut ws = connect(&s, "countdown").await;
        let a = next(&mut ws).await.expect("the idle error");
        assert_eq!(a["data"]["code"], "SESSION_ERROR", "{a}");
        assert!(next(&mut ws).await.is_none());
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert_eq!(s.sessions().await, 0);
    })
    .await;
}
