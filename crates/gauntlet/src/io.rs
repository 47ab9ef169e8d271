//! File helpers for the CLI: atomic writes, line-numbered JSONL reading, Parquet rows.
//!
//! Every output file is written to a temporary file in the same folder and renamed into place,
//! so a crash or a full disk never leaves a half-written dataset behind. Inputs are read with
//! their line numbers so that every error can name the file, the line and the field.

use anyhow::{bail, Context, Result};
use arrow_array::RecordBatch;
use arrow_schema::{DataType, Field, Fields, Schema};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Write `bytes` to `path` atomically: temp file in the same folder, fsync, rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create folder `{}`", dir.display()))?;
    let name = path.file_name().with_context(|| format!("`{}` is not a file path", path.display()))?;
    let tmp = dir.join(format!(".{}.tmp-{}", name.to_string_lossy(), std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write `{}`", path.display()));
    }
    Ok(())
}

/// Where output goes: a file (written atomically at the end) or stdout.
pub fn emit(output: Option<&Path>, bytes: &[u8]) -> Result<()> {
    match output {
        Some(p) => write_atomic(p, bytes),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()?;
            Ok(())
        }
    }
}

/// The file format of a dataset, from a flag or a file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One JSON object per line.
    Jsonl,
    /// Apache Parquet (the columns verl reads).
    Parquet,
}

impl Format {
    /// `.parquet` files are Parquet, everything else JSONL.
    pub fn from_path(path: Option<&Path>) -> Format {
        match path.and_then(|p| p.extension()).and_then(|e| e.to_str()) {
            Some("parquet") => Format::Parquet,
            _ => Format::Jsonl,
        }
    }
}

/// A row read from an input, with a label for error messages (`file.jsonl:12`).
pub struct InputRow {
    /// `FILE:LINE` (or `FILE:row N` for Parquet).
    pub at: String,
    /// The parsed row.
    pub value: Value,
}

/// Read rows from `input` (stdin when `None` or `-`), JSONL or Parquet by extension.
pub fn read_rows(input: Option<&Path>) -> Result<Vec<InputRow>> {
    let input = input.filter(|p| p.as_os_str() != "-");
    let label = input.map(|p| p.display().to_string()).unwrap_or_else(|| "<stdin>".into());
    if Format::from_path(input) == Format::Parquet {
        return read_parquet(input.unwrap(), &label);
    }
    let reader: Box<dyn Read> = match input {
        Some(p) => Box::new(std::fs::File::open(p).with_context(|| format!("cannot open `{label}`"))?),
        None => Box::new(std::io::stdin()),
    };
    let mut rows = Vec::new();
    for (i, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.with_context(|| format!("{label}:{}: cannot read line", i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value =
            serde_json::from_str(&line).with_context(|| format!("{label}:{}: not valid JSON", i + 1))?;
        rows.push(InputRow { at: format!("{label}:{}", i + 1), value });
    }
    Ok(rows)
}

/// Serialize rows as JSONL.
pub fn to_jsonl<T: serde::Serialize>(rows: &[T]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for r in rows {
        serde_json::to_writer(&mut out, r)?;
        out.push(b'\n');
    }
    Ok(out)
}

/// The Arrow schema of dataset rows (the verl/TRL columns, plus `response` when present).
pub fn row_schema(with_response: bool) -> Schema {
    let msg = Fields::from(vec![
        Field::new("role", DataType::Utf8, false),
        Field::new("content", DataType::Utf8, false),
    ]);
    let mut fields = vec![
        Field::new("data_source", DataType::Utf8, false),
        Field::new(
            "prompt",
            DataType::List(Arc::new(Field::new("item", DataType::Struct(msg), true))),
            false,
        ),
        Field::new("ability", DataType::Utf8, false),
        Field::new(
            "reward_model",
            DataType::Struct(Fields::from(vec![
                Field::new("style", DataType::Utf8, false),
                Field::new("ground_truth", DataType::Utf8, false),
            ])),
            false,
        ),
        Field::new(
            "extra_info",
            DataType::Struct(Fields::from(vec![
                Field::new("task", DataType::Utf8, false),
                Field::new("seed", DataType::UInt64, false),
                Field::new("level", DataType::UInt8, false),
                Field::new("index", DataType::UInt64, false),
            ])),
            false,
        ),
    ];
    if with_response {
        fields.push(Field::new("response", DataType::Utf8, true));
    }
    Schema::new(fields)
}

/// Encode rows (serde-serializable to the row schema) as a Parquet file in memory.
pub fn to_parquet<T: serde::Serialize>(rows: &[T], with_response: bool) -> Result<Vec<u8>> {
    let schema = Arc::new(row_schema(with_response));
    let mut decoder = arrow_json::ReaderBuilder::new(schema.clone()).build_decoder()?;
    decoder.serialize(rows)?;
    let mut out = Vec::new();
    let props = parquet::file::properties::WriterProperties::builder()
        .set_compression(parquet::basic::Compression::SNAPPY)
        .build();
    let mut writer = parquet::arrow::ArrowWriter::try_new(&mut out, schema, Some(props))?;
    while let Some(batch) = decoder.flush()? {
        writer.write(&batch)?;
    }
    writer.close()?;
    Ok(out)
}

fn read_parquet(path: &Path, label: &str) -> Result<Vec<InputRow>> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open `{label}`"))?;
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .with_context(|| format!("`{label}` is not a Parquet file"))?
        .build()?;
    let mut rows = Vec::new();
    for batch in reader {
        let batch: RecordBatch = batch.with_context(|| format!("`{label}`: cannot decode a row group"))?;
        let mut buf = Vec::new();
        let mut w = arrow_json::LineDelimitedWriter::new(&mut buf);
        w.write(&batch)?;
        w.finish()?;
        for line in buf.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let value: Value = serde_json::from_slice(line)?;
            rows.push(InputRow { at: format!("{label}:row {}", rows.len() + 1), value });
        }
    }
    if rows.is_empty() && std::fs::metadata(path)?.len() == 0 {
        bail!("`{label}` is empty");
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.jsonl");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
