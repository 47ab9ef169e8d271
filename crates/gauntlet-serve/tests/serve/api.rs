//! The API's answers on good requests: listings, rows, verdicts and whole episodes.

use crate::util::{bounded, oracle, start};
use gauntlet_core::{AgentId, Difficulty, Rng};
use gauntlet_episode::render_user_message;
use gauntlet_serve::EnvServerConfig;
use gauntlet_tasks::rows::Row;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_task_listing() {
    bounded(20, async {
        let s = start(EnvServerConfig::default()).await;
        let h = s.get("/health").await;
        assert_eq!(h.status, 200);
        assert_eq!(h.body["status"], "ok");
        assert_eq!(h.body["sessions"], 0);

        let t = s.get("/v1/tasks").await;
        assert_eq!(t.status, 200);
        let tasks = t.body["tasks"].as_array().unwrap();
        assert_eq!(tasks.len(), gauntlet_tasks::registry().len() + gauntlet_envs::registry().len());
        let sudoku = tasks.iter().find(|t| t["name"] == "sudoku").unwrap();
        assert_eq!(sudoku["kind"], "single_turn");
        assert_eq!(sudoku["seats"], 1);
        assert_eq!(sudoku["category"], "grid");
        assert_eq!(sudoku["levels"].as_array().unwrap().len(), 5);
        assert_eq!(sudoku["generate"], true);
        for e in gauntlet_envs::registry() {
            let listed = tasks.iter().find(|t| t["name"] == e.name).unwrap();
            assert_eq!(listed["seats"], e.seats);
            assert_eq!(listed["generate"], false);
        }
        let st = s.get("/v1/stats").await;
        assert_eq!(st.status, 200);
        assert_eq!(st.body["sessions"]["live"], 0);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generate_gives_the_cli_rows() {
    bounded(20, async {
        let s = start(EnvServerConfig::default()).await;
        let a = s.post("/v1/generate", json!({"task": "sudoku", "n": 3, "seed": 5, "level": 2})).await;
        assert_eq!(a.status, 200, "{}", a.body);
        let task = gauntlet_tasks::get("sudoku").unwrap();
        let want: Vec<Value> = (0..3)
            .map(|i| {
                let inst = task.instance(5 + i, Difficulty::new(2).unwrap());
                serde_json::to_value(Row::from_instance(&task.spec(), &inst, i)).unwrap()
            })
            .collect();
        assert_eq!(a.body["rows"], Value::Array(want));

        // A list: indexes run across the whole answer; defaults n=1, seed=0, level=1.
        let b = s.post("/v1/generate", json!([{"task": "countdown", "n": 2}, {"task": "Game-Of-24"}])).await;
        assert_eq!(b.status, 200, "{}", b.body);
        let rows = b.body["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2]["extra_info"], json!({"task": "game_of_24", "seed": 0, "level": 1, "index": 2}));
        assert_eq!(rows[1]["extra_info"]["seed"], 1);
        let c = s.post("/v1/generate", json!({"requests": [{"task": "maze", "n": 0}]})).await;
        assert_eq!(c.body["rows"], json!([]));
        // Rows parse back as the library's Row type.
        let _: Vec<Row> = serde_json::from_value(b.body["rows"].clone()).unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_scores_rows_and_problems() {
    bounded(20, async {
        let s = start(EnvServerConfig::default()).await;
        let rows = s.post("/v1/generate", json!({"task": "countdown", "n": 2, "seed": 9, "level": 3})).await;
        let row0 = rows.body["rows"][0].clone();
        let mut row1 = rows.body["rows"][1].clone();
        row1["response"] = json!(oracle("countdown", 10, 3));
        let gt: Value = serde_json::from_str(row0["reward_model"]["ground_truth"].as_str().unwrap()).unwrap();
        let items = json!({"items": [
            {"row": row0, "response": oracle("countdown", 9, 3)},
            {"row": row1},
            {"task": "gauntlet/countdown", "problem": row0["reward_model"]["ground_truth"], "response": "<answer>1+1</answer>"},
            {"task": "countdown", "problem": gt, "response": "no tags here"},
        ]});
        let a = s.post("/v1/verify", items).await;
        assert_eq!(a.status, 200, "{}", a.body);
        let r = a.body["results"].as_array().unwrap();
        assert_eq!(r.len(), 4);
        assert_eq!(r[0]["correct"], true);
        assert_eq!(r[0]["reward"], 1.0);
        assert_eq!(r[1]["correct"], true);
        assert_eq!(r[2]["correct"], false);
        assert_eq!(r[2]["format_error"], false);
        assert_eq!(r[3]["format_error"], true);
        assert_eq!(r[3]["task"], "countdown");
        // One bare item works too.
        let one = s
            .post("/v1/verify", json!({"task": "countdown", "problem": gt, "response": oracle("countdown", 9, 3)}))
            .await;
        assert_eq!(one.body["results"][0]["correct"], true, "{}", one.body);

        // A big batch (a heavy job: > 32 items, a body > 64 KiB parsed off the reactor).
        let rows = s.post("/v1/generate", json!({"task": "sudoku", "n": 300, "seed": 0, "level": 3})).await;
        assert_eq!(rows.status, 200);
        let items: Vec<Value> = rows.body["rows"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, r)| json!({"row": r, "response": format!("{}{}", " ".repeat(200), oracle("sudoku", i as u64, 3))}))
            .collect();
        let big = s.post("/v1/verify", json!({ "items": items })).await;
        assert_eq!(big.status, 200, "{}", big.body);
        let r = big.body["results"].as_array().unwrap();
        assert_eq!(r.len(), 300);
        assert!(r.iter().all(|x| x["correct"] == true));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn single_turn_session_lifecycle() {
    bounded(20, async {
        let s = start(EnvServerConfig::default()).await;
        let c = s.post("/v1/sessions", json!({"task": "countdown", "seed": 3, "level": 2})).await;
        assert_eq!(c.status, 200, "{}", c.body);
        let id = c.body["id"].as_str().unwrap().to_string();
        assert_eq!(c.body["to_act"], 0);
        assert_eq!(c.body["done"], false);
        assert_eq!(c.body["kind"], "single_turn");
        let task = gauntlet_tasks::get("countdown").unwrap();
        let inst = task.instance(3, Difficulty::new(2).unwrap());
        assert_eq!(c.body["observation"]["text"], inst.prompt);
        assert_eq!(s.sessions().await, 1);

        let g = s.get(&format!("/v1/sessions/{id}")).await;
        assert_eq!(g.body["observation"], c.body["observation"]);
        let g0 = s.get(&format!("/v1/sessions/{id}?seat=0")).await;
        assert_eq!(g0.body["seat"], 0);

        let a =
            s.post(&format!("/v1/sessions/{id}/act"), json!({"response": oracle("countdown", 3, 2)})).await;
        assert_eq!(a.status, 200, "{}", a.body);
        assert_eq!(a.body["feedback"]["reward"], 1.0);
        assert_eq!(a.body["feedback"]["done"], true);
        assert_eq!(a.body["done"], true);
        assert_eq!(a.body["to_act"], Value::Null);
        assert_eq!(a.body["observation"], Value::Null);
        assert_eq!(a.body["returns"], json!([1.0]));
        assert_eq!(a.body["turns"], 1);

        let again = s.post(&format!("/v1/sessions/{id}/act"), json!({"response": "x"})).await;
        again.expect_error(409, "episode_over");
        // Finished sessions stay readable until deleted.
        assert_eq!(s.get(&format!("/v1/sessions/{id}")).await.body["done"], true);
        let d = s.call("DELETE", &format!("/v1/sessions/{id}"), None).await;
        assert_eq!(d.body, json!({"id": id, "deleted": true}));
        s.get(&format!("/v1/sessions/{id}")).await.expect_error(404, "unknown_session");
        assert_eq!(s.sessions().await, 0);
    })
    .await;
}

/// Every registered multi-turn environment and game, played by its oracle through the API,
/// matches the same episode played locally (the registry may be empty on some branches).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_environment_plays_through_the_api() {
    bounded(40, async {
        let s = start(EnvServerConfig::default()).await;
        for entry in gauntlet_envs::registry() {
            for (seed, level) in [(0u64, 1u8), (1, 3)] {
                let mut local = (entry.make)();
                local.reset(seed, Difficulty::new(level).unwrap()).unwrap();
                let c =
                    s.post("/v1/sessions", json!({"task": entry.name, "seed": seed, "level": level})).await;
                assert_eq!(c.status, 200, "{}: {}", entry.name, c.body);
                let id = c.body["id"].as_str().unwrap().to_string();
                let mut rng = Rng::for_instance("serve-test", seed, level);
                let mut last = c.body;
                let mut turns = 0;
                let mut notes = vec![String::new(); entry.seats];
                while let Some(agent) = local.to_act() {
                    assert_eq!(last["to_act"], agent.0, "{}", entry.name);
                    let obs = local.observe(agent);
                    // The kernel's rendering: the seat's last message, a blank line, the observation.
                    let shown = render_user_message(&notes[agent.0], &obs.text);
                    assert_eq!(last["observation"]["text"], shown, "{} turn {turns}", entry.name);
                    let action = local.oracle_action(&mut rng);
                    let fb = local.act(agent, &action);
                    notes[agent.0] = fb.message.clone();
                    let a = s
                        .post(&format!("/v1/sessions/{id}/act"), json!({"seat": agent.0, "response": action}))
                        .await;
                    assert_eq!(a.status, 200, "{}: {}", entry.name, a.body);
                    assert_eq!(a.body["feedback"]["reward"], fb.reward, "{}", entry.name);
                    assert_eq!(a.body["feedback"]["message"], fb.message, "{}", entry.name);
                    last = a.body;
                    turns += 1;
                    assert!(turns < 1000, "{} does not end", entry.name);
                }
                assert_eq!(last["done"], true, "{}", entry.name);
                let want: Vec<f64> = local.returns();
                assert_eq!(last["returns"], json!(want), "{}", entry.name);
                let _ = local.observe(AgentId(0));
                assert_eq!(s.call("DELETE", &format!("/v1/sessions/{id}"), None).await.status, 200);
            }
        }
        assert_eq!(s.sessions().await, 0);
    })
    .await;
}
