//! Dataset rows in the columns verl and TRL read.
//!
//! ```json
//! {"data_source": "gauntlet/sudoku",
//!  "prompt": [{"role": "user", "content": "…"}],
//!  "ability": "grid",
//!  "reward_model": {"style": "rule", "ground_truth": "{…serialized problem…}"},
//!  "extra_info": {"task": "sudoku", "seed": 7, "level": 3, "index": 0}}
//! ```
//!
//! `ground_truth` is the serialized problem instance (a JSON string, which Parquet and verl's
//! reward functions handle as a plain string column), so any consumer can call the verifier
//! later. Rows read back may carry extra columns; [`RowView`] extracts what gauntlet needs and
//! names the offending field when something is missing or malformed.

use gauntlet_core::{Instance, TaskSpec};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One chat message of a prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// Message text.
    pub content: String,
}

/// The `reward_model` column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RewardModel {
    /// Always `rule`: scored by a rule-based verifier.
    pub style: String,
    /// The serialized problem instance (JSON text).
    pub ground_truth: String,
}

/// The `extra_info` column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExtraInfo {
    /// Family name.
    pub task: String,
    /// Generation seed.
    pub seed: u64,
    /// Difficulty level.
    pub level: u8,
    /// Position of the row in its dataset.
    pub index: u64,
}

/// A dataset row (the verl/TRL columns) plus an optional `response` to score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// `gauntlet/<task>`.
    pub data_source: String,
    /// The prompt as chat messages.
    pub prompt: Vec<ChatMessage>,
    /// The task's category.
    pub ability: String,
    /// Rule-based reward model with the serialized problem.
    pub reward_model: RewardModel,
    /// Seed, level, index and task name.
    pub extra_info: ExtraInfo,
    /// A model (or oracle) response, when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
}

impl Row {
    /// The row for a generated instance at position `index`.
    pub fn from_instance(spec: &TaskSpec, inst: &Instance, index: u64) -> Self {
        Row {
            data_source: format!("gauntlet/{}", inst.task),
            prompt: vec![ChatMessage { role: "user".into(), content: inst.prompt.clone() }],
            ability: spec.category.name().to_string(),
            reward_model: RewardModel {
                style: "rule".into(),
                ground_truth: serde_json::to_string(&inst.problem).expect("JSON values serialize"),
            },
            extra_info: ExtraInfo { task: inst.task.clone(), seed: inst.seed, level: inst.level, index },
            response: None,
        }
    }
}

/// A malformed row: which field and what is wrong with it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("field `{field}`: {message}")]
pub struct FieldError {
    /// Dotted path of the field (`reward_model.ground_truth`).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

fn ferr(field: &str, message: impl Into<String>) -> FieldError {
    FieldError { field: field.to_string(), message: message.into() }
}

/// What gauntlet needs from a row read back from a file (other columns are left alone).
#[derive(Debug, Clone, PartialEq)]
pub struct RowView {
    /// Family name (from `extra_info.task`, else from `data_source` = `gauntlet/<task>`).
    pub task: String,
    /// The problem (from `reward_model.ground_truth`, a JSON string or an object).
    pub problem: Value,
    /// The `response` field, if any.
    pub response: Option<String>,
}

impl RowView {
    /// Extract the view from a parsed JSON row, naming the field at fault on error.
    pub fn from_value(row: &Value) -> Result<Self, FieldError> {
        let obj = row.as_object().ok_or_else(|| ferr("(row)", "expected a JSON object"))?;
        let task = match obj.get("extra_info").and_then(|e| e.get("task")) {
            Some(Value::String(t)) => t.clone(),
            Some(_) => return Err(ferr("extra_info.task", "expected a string")),
            None => match obj.get("data_source") {
                Some(Value::String(ds)) => ds
                    .strip_prefix("gauntlet/")
                    .ok_or_else(|| ferr("data_source", format!("expected `gauntlet/<task>`, got `{ds}`")))?
                    .to_string(),
                Some(_) => return Err(ferr("data_source", "expected a string")),
                None => return Err(ferr("data_source", "missing (and no `extra_info.task`)")),
            },
        };
        let gt = obj
            .get("reward_model")
            .ok_or_else(|| ferr("reward_model", "missing"))?
            .get("ground_truth")
            .ok_or_else(|| ferr("reward_model.ground_truth", "missing"))?;
        let problem = match gt {
            Value::String(s) => serde_json::from_str(s)
                .map_err(|e| ferr("reward_model.ground_truth", format!("not valid JSON: {e}")))?,
            Value::Object(_) => gt.clone(),
            _ => return Err(ferr("reward_model.ground_truth", "expected a JSON string or object")),
        };
        let response = match obj.get("response") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(ferr("response", "expected a string")),
        };
        Ok(RowView { task, problem, response })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn view_names_the_bad_field() {
        let e = RowView::from_value(&json!({"data_source": "x"})).unwrap_err();
        assert_eq!(e.field, "data_source");
        let e = RowView::from_value(&json!({"data_source": "gauntlet/a"})).unwrap_err();
        assert_eq!(e.field, "reward_model");
        let e =
            RowView::from_value(&json!({"data_source": "gauntlet/a", "reward_model": {"ground_truth": "{"}}))
                .unwrap_err();
        assert_eq!(e.field, "reward_model.ground_truth");
        let e = RowView::from_value(
            &json!({"data_source": "gauntlet/a", "reward_model": {"ground_truth": {}}, "response": 3}),
        )
        .unwrap_err();
        assert_eq!(e.field, "response");
        let ok = RowView::from_value(
            &json!({"data_source": "gauntlet/a", "reward_model": {"ground_truth": "{\"x\":1}"}, "response": "r"}),
        )
        .unwrap();
        assert_eq!(ok.task, "a");
        assert_eq!(ok.problem, json!({"x": 1}));
    }
}
