//! The JSON gauntlet answers with: chat completions, stream chunks and log-prob entries, in
//! OpenAI's shapes plus vLLM's token-id fields.

use serde_json::{json, Value};

use gauntlet_model::{FinishReason, Tokenizer};

/// The OpenAI name of a finish reason.
pub fn finish_name(f: FinishReason) -> &'static str {
    match f {
        FinishReason::Stop => "stop",
        FinishReason::Length => "length",
    }
}

/// GPT-2's byte-to-character table of byte-level BPE vocabularies, inverted: the byte each
/// printable stand-in character means.
fn byte_of(c: char) -> Option<u8> {
    let c = c as u32;
    let direct = |b: u32| (33..=126).contains(&b) || (0xA1..=0xAC).contains(&b) || (0xAE..=0xFF).contains(&b);
    if c < 256 && direct(c) {
        return Some(c as u8);
    }
    // The other 68 bytes map to 256, 257, … in increasing byte order.
    let n = c.checked_sub(256)?;
    (0u32..256).filter(|&b| !direct(b)).nth(n as usize).map(|b| b as u8)
}

/// A token as OpenAI reports it: its text (decoded alone; an incomplete UTF-8 piece shows as
/// U+FFFD) and its exact bytes. For byte-level BPE vocabularies the bytes come from the
/// vocabulary entry, so a character split over several tokens keeps its real bytes; with
/// `as_id` the text is vLLM's `token_id:123` instead.
pub fn token_piece(tokenizer: &Tokenizer, id: u32, as_id: bool) -> (String, Vec<u8>) {
    let decoded = tokenizer.decode(&[id], false).unwrap_or_default();
    let bytes = match tokenizer {
        Tokenizer::Bytes if id < 256 => vec![id as u8],
        Tokenizer::Hf(t) => t
            .id_to_token(id)
            .and_then(|s| s.chars().map(byte_of).collect::<Option<Vec<u8>>>())
            .filter(|b| String::from_utf8_lossy(b) == decoded)
            .unwrap_or_else(|| decoded.clone().into_bytes()),
        _ => decoded.clone().into_bytes(),
    };
    let text = if as_id { format!("token_id:{id}") } else { decoded };
    (text, bytes)
}

/// One `logprobs.content` entry: the token, its log-prob, bytes and alternatives.
pub fn logprob_entry(
    tokenizer: &Tokenizer,
    token: u32,
    logprob: f32,
    top: &[(u32, f32)],
    as_id: bool,
) -> Value {
    let (text, bytes) = token_piece(tokenizer, token, as_id);
    let top: Vec<Value> = top
        .iter()
        .map(|&(id, lp)| {
            let (t, b) = token_piece(tokenizer, id, as_id);
            json!({"token": t, "logprob": finite(lp), "bytes": b})
        })
        .collect();
    json!({"token": text, "logprob": finite(logprob), "bytes": bytes, "top_logprobs": top})
}

/// JSON has no infinities: a log-prob of −∞ (a masked token) is reported as −9999, as vLLM does.
pub fn finite(lp: f32) -> f64 {
    if lp.is_finite() {
        lp as f64
    } else {
        -9999.0
    }
}

/// `usage` of a request.
pub fn usage(prompt: usize, completion: usize) -> Value {
    json!({"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion})
}

/// One server-sent event frame.
pub fn sse(v: &Value) -> String {
    format!("data: {v}\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_table_inverts_gpt2s() {
        assert_eq!(byte_of('a'), Some(b'a'));
        assert_eq!(byte_of('Ġ'), Some(b' ')); // U+0120
        assert_eq!(byte_of('Ċ'), Some(b'\n')); // U+010A
        assert_eq!(byte_of('\u{100}'), Some(0));
        let all: std::collections::HashSet<u8> =
            (0u32..400).filter_map(char::from_u32).filter_map(byte_of).collect();
        assert_eq!(all.len(), 256);
    }

    #[test]
    fn byte_tokens_keep_their_bytes() {
        let tok = Tokenizer::bytes();
        assert_eq!(token_piece(&tok, 0xC3, false), ("\u{FFFD}".to_string(), vec![0xC3]));
        assert_eq!(token_piece(&tok, b'h' as u32, true), ("token_id:104".to_string(), vec![b'h']));
        assert_eq!(token_piece(&tok, 258, false).0, "<|im_end|>");
        let e = logprob_entry(&tok, 104, f32::NEG_INFINITY, &[(104, -0.1)], false);
        assert_eq!(e["logprob"], -9999.0);
        assert_eq!(e["top_logprobs"][0]["token"], "h");
    }
}
