//! File helpers for the CLI: atomic writes and line-numbered JSONL reading.
