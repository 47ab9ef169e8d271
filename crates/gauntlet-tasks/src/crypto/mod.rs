//! The `crypto` category: classical ciphers (Caesar, Vigenère, substitution, affine, Atbash, rail
//! fence, columnar transposition, Hill, Playfair), key recovery from a known plaintext, and
//! made-up ciphers described in words.

pub mod affine;
pub mod atbash;
pub mod caesar;
pub mod classical;
pub mod columnar_transposition;
pub mod custom_cipher;
pub mod hill;
pub mod known_plaintext;
pub mod playfair;
pub mod rail_fence;
pub mod substitution;
pub mod text;
pub mod vigenere;
pub mod words;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(caesar::Caesar),
        Arc::new(vigenere::Vigenere),
        Arc::new(substitution::Substitution),
        Arc::new(affine::Affine),
        Arc::new(atbash::Atbash),
        Arc::new(rail_fence::RailFence),
        Arc::new(columnar_transposition::ColumnarTransposition),
        Arc::new(hill::Hill),
        Arc::new(playfair::Playfair),
        Arc::new(known_plaintext::KnownPlaintext),
        Arc::new(custom_cipher::CustomCipher),
    ]
}
