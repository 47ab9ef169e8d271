//! gauntlet's HTTP policy backend ([`OpenAiPolicy`]) against the policy server: the agent loop
//! gets the same token ids, log-probs and texts over HTTP as from the model in-process.

use crate::util::tiny_chat;
use gauntlet_model::SamplingParams;
use gauntlet_rollout::{play, EpisodeSpec, LocalPolicy, OpenAiConfig, OpenAiPolicy, Policy, RolloutOptions};
use gauntlet_serve::{policy, PolicyServerConfig};
use std::sync::Arc;

/// Serves the tiny model from a thread of its own (the agent loop blocks its caller); returns the
/// `/v1` base URL. The server lives until the test process ends.
fn serve_tiny(config: PolicyServerConfig) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        rt.block_on(async move {
            let config = PolicyServerConfig { port: 0, name: "tiny".into(), ..config };
            let listener = policy::bind(&config).await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let _ =
                policy::serve_with_shutdown(config, Arc::new(tiny_chat()), listener, std::future::pending())
                    .await;
        });
    });
    format!("http://{}/v1", rx.recv().unwrap())
}

#[test]
fn http_episodes_match_local_episodes_token_for_token() {
    let base = serve_tiny(PolicyServerConfig { batch_wait_ms: 5, ..Default::default() });
    let params = SamplingParams { temperature: 1.0, max_tokens: 16, ..Default::default() };
    let mut config = OpenAiConfig::from_spec(&format!("openai:{base}#tiny")).unwrap();
    config.params = params.clone();
    config.concurrency = 8;
    let mut http = OpenAiPolicy::new(config).unwrap();
    let mut local = LocalPolicy::new(tiny_chat(), params, "local");
    // Single-turn tasks and a multi-turn environment (the server re-renders the conversation).
    let mut specs = EpisodeSpec::groups("caesar", 1, &[11, 12], 3);
    specs.extend(EpisodeSpec::groups("guess_number", 1, &[5], 2));
    let opts = RolloutOptions {
        seed: 9,
        max_turns: 3,
        history: gauntlet_rollout::History::Window(0),
        ..Default::default()
    };
    let over_http = play(&specs, &mut http, &opts).unwrap();
    let in_process = play(&specs, &mut local, &opts).unwrap();
    assert_eq!(over_http.len(), specs.len());
    let mut turns = 0;
    for (h, l) in over_http.iter().zip(&in_process) {
        assert_eq!(h.error, None);
        assert_eq!(h.turns.len(), l.turns.len());
        for (a, b) in h.turns.iter().zip(&l.turns) {
            turns += 1;
            assert_eq!(a.prompt_ids, b.prompt_ids);
            assert_eq!(a.response_ids, b.response_ids);
            assert_eq!(a.response, b.response);
            assert_eq!(a.finish, b.finish);
            assert_eq!(a.logprobs.len(), b.logprobs.len());
            for (x, y) in a.logprobs.iter().zip(&b.logprobs) {
                assert!((x - y).abs() < 1e-4, "{x} vs {y}");
            }
            assert!(!a.response_ids.is_empty() && !a.prompt_ids.is_empty());
        }
        assert_eq!(h.returns, l.returns);
    }
    assert!(turns >= specs.len());
    let stats = http.stats();
    assert_eq!((stats.requests, stats.failed), (turns as u64, 0));
    assert!(http.name().starts_with("openai:http://127.0.0.1:"));
}

#[test]
fn without_the_extensions_only_text_and_logprobs_come_back() {
    let base = serve_tiny(PolicyServerConfig::default());
    let mut config = OpenAiConfig::new(&base, "tiny");
    config.params = SamplingParams { temperature: 0.0, max_tokens: 8, ..Default::default() };
    config.token_ids = false;
    let policy = OpenAiPolicy::new(config.clone()).unwrap();
    let msgs = [gauntlet_model::ChatMessage::new("user", "hi")];
    let plain = policy.reply(&msgs, 3).unwrap();
    assert!(plain.prompt_ids.is_empty() && plain.response_ids.is_empty());
    assert_eq!(plain.logprobs.len(), 8);
    config.token_ids = true;
    let full = OpenAiPolicy::new(config).unwrap().reply(&msgs, 3).unwrap();
    assert_eq!(full.text, plain.text);
    assert_eq!(full.response_ids.len(), 8);
    // A wrong model name is a client error: reported at once, not retried.
    let mut wrong = OpenAiConfig::new(&base, "nope");
    wrong.retries = 3;
    let p = OpenAiPolicy::new(wrong).unwrap();
    let e = p.reply(&msgs, 1).unwrap_err().to_string();
    assert!(e.contains("404") && e.contains("`tiny`"), "{e}");
    assert_eq!(p.stats().attempts, 1);
}
