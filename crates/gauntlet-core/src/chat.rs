//! One chat message: the unit every conversation is made of, from the agent loop to the servers
//! and the Python package (which all render an episode the same way; see `gauntlet-episode`).

use serde::{Deserialize, Serialize};

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `system`, `user`, `assistant`, …
    pub role: String,
    /// The text.
    pub content: String,
}

impl ChatMessage {
    /// A message from a role and its text.
    pub fn new(role: impl Into<String>, content: impl Into<String>) -> Self {
        ChatMessage { role: role.into(), content: content.into() }
    }
}
