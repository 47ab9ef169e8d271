//! Test support: a server on a loopback port of its own, and a client for it.

use gauntlet_model::{checkpoint, ChatModel, ChatTemplate, Config, Tokenizer};
use gauntlet_serve::{bind, policy, serve_with_shutdown, EnvServerConfig, PolicyServerConfig};
use serde_json::Value;
use std::future::Future;
use std::time::Duration;
use tokio::sync::oneshot;

/// A running server; dropping it shuts the server down.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// A pooled client.
    pub client: reqwest::Client,
    _stop: oneshot::Sender<()>,
}

/// Start a server for `config` on a free loopback port.
pub async fn start(config: EnvServerConfig) -> Server {
    let config = EnvServerConfig { host: "127.0.0.1".into(), port: 0, ..config };
    let listener = bind(&config).await.expect("bind a loopback port");
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = oneshot::channel::<()>();
    tokio::spawn(serve_with_shutdown(config, listener, async move {
        let _ = rx.await;
    }));
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    Server { base: format!("http://{addr}"), client, _stop: tx }
}

/// A tiny random Llama (vocabulary 260, hidden 64, 2 layers) with the byte tokenizer and
/// ChatML: fast enough that every policy-server test runs in a fraction of a second.
pub fn tiny_chat() -> ChatModel {
    let (model, _) = checkpoint::new_model(&Config::tiny(260), &candle_core::Device::Cpu, 7).unwrap();
    ChatModel { model, tokenizer: Tokenizer::bytes(), template: ChatTemplate::chatml() }
}

/// Start a policy server for `config` serving [`tiny_chat`] (named `tiny`) on a free loopback
/// port.
pub async fn start_policy(config: PolicyServerConfig) -> Server {
    let config = PolicyServerConfig { host: "127.0.0.1".into(), port: 0, name: "tiny".into(), ..config };
    let listener = policy::bind(&config).await.expect("bind a loopback port");
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = oneshot::channel::<()>();
    tokio::spawn(policy::serve_with_shutdown(
        config,
        std::sync::Arc::new(tiny_chat()),
        listener,
        async move {
            let _ = rx.await;
        },
    ));
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    Server { base: format!("http://{addr}"), client, _stop: tx }
}

/// A status and a parsed JSON body.
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

impl Answer {
    /// The `error.code` of an error body.
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }

    /// Assert a JSON error with this status and code, carrying a message and a type.
    #[track_caller]
    pub fn expect_error(&self, status: u16, code: &str) {
        assert_eq!(self.status, status, "{}", self.body);
        assert_eq!(self.code(), code, "{}", self.body);
        assert!(!self.body["error"]["message"].as_str().unwrap_or("").is_empty(), "{}", self.body);
        assert!(self.body["error"]["type"].is_string(), "{}", self.body);
    }
}

impl Server {
    /// A client for a server started elsewhere (the caller keeps it alive).
    pub fn from_parts(base: String, client: reqwest::Client) -> Server {
        let (tx, _rx) = oneshot::channel();
        Server { base, client, _stop: tx }
    }

    /// Send a request; the body must be JSON (error bodies included).
    pub async fn call(&self, method: &str, path: &str, body: Option<Value>) -> Answer {
        let rb = self.client.request(method.parse().unwrap(), format!("{}{path}", self.base));
        let rb = match body {
            Some(b) => rb.json(&b),
            None => rb,
        };
        self.send(rb).await
    }

    /// Send a prepared request and parse its JSON answer.
    pub async fn send(&self, rb: reqwest::RequestBuilder) -> Answer {
        let resp = rb.send().await.expect("the server answers");
        let status = resp.status().as_u16();
        let text = resp.text().await.expect("a body");
        let body = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text:?}"));
        Answer { status, body }
    }

    /// POST a JSON body.
    pub async fn post(&self, path: &str, body: Value) -> Answer {
        self.call("POST", path, Some(body)).await
    }

    /// GET.
    pub async fn get(&self, path: &str) -> Answer {
        self.call("GET", path, None).await
    }

    /// The live session count from `/health`.
    pub async fn sessions(&self) -> u64 {
        self.get("/health").await.body["sessions"].as_u64().unwrap()
    }
}

/// Run a test body with a deadline so that a hang fails instead of blocking the suite.
pub async fn bounded<F: Future<Output = ()>>(secs: u64, f: F) {
    tokio::time::timeout(Duration::from_secs(secs), f).await.expect("test took too long");
}

/// The oracle's response for `(task, seed, level)`, computed locally.
pub fn oracle(task: &str, seed: u64, level: u8) -> String {
    let t = gauntlet_tasks::get(task).unwrap();
    let inst = t.instance(seed, gauntlet_core::Difficulty::new(level).unwrap());
    t.oracle_response_of(&inst.problem).unwrap()
}
