//! `metrics.jsonl`: one JSON object per line, appended and flushed as the run goes.
//!
//! Every line has `phase` (`sft`, `rl`, `eval`, `level`) and `step`; wall-clock fields are named
//! `*time_s` and `*_per_s` so that comparisons between runs can drop them (everything else is
//! deterministic). On resume the file is cut back to the lines the checkpoint had seen.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// An append-only metrics file.
pub struct MetricsLog {
    path: PathBuf,
    lines: usize,
}

impl MetricsLog {
    /// Opens `path`, keeping only its first `keep` lines (all lines of a fresh file).
    pub fn open(path: &Path, keep: usize) -> std::io::Result<Self> {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let kept: Vec<&str> = text.lines().take(keep).collect();
        let mut body = kept.join("\n");
        if !body.is_empty() {
            body.push('\n');
        }
        crate::write_atomic(path, body.as_bytes())?;
        Ok(MetricsLog { path: path.to_path_buf(), lines: kept.len() })
    }

    /// Lines written so far.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// Appends one record.
    pub fn write(&mut self, record: Map<String, Value>) -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new().append(true).create(true).open(&self.path)?;
        let mut line = Value::Object(record).to_string();
        line.push('\n');
        f.write_all(line.as_bytes())?;
        f.flush()?;
        self.lines += 1;
        Ok(())
    }
}

/// Reads a metrics file back (for reports and tests).
pub fn read(path: &Path) -> std::io::Result<Vec<Map<String, Value>>> {
    let text = std::fs::read_to_string(path)?;
    text.lines()
        .enumerate()
        .map(|(i, l)| match serde_json::from_str::<Value>(l) {
            Ok(Value::Object(m)) => Ok(m),
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{}:{}: not a JSON object", path.display(), i + 1),
            )),
        })
        .collect()
}

/// A record without its wall-clock fields (`*time_s`, `*_per_s`).
pub fn without_timing(mut m: Map<String, Value>) -> Map<String, Value> {
    m.retain(|k, _| !k.ends_with("time_s") && !k.ends_with("_per_s"));
    m
}
