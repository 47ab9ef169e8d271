//! What the CLI's end-to-end tests share.

/// The `[model]` section of the runs these tests train: a 30k-parameter model (1 layer, width
/// 32, 512 positions) that trains in seconds on one thread.
pub const TINY_MODEL: &str = "[model]
hidden_size = 32
num_hidden_layers = 1
num_attention_heads = 2
intermediate_size = 64
max_position_embeddings = 512
";
