//! The vocabulary the cipher families draw plaintexts from.

/// Common short English words (uppercase), used as plaintext vocabulary.
pub const VOCAB: &[&str] = &[
    "THE", "QUICK", "BROWN", "FOX", "JUMPS", "OVER", "LAZY", "DOG", "CAT", "RED", "BLUE", "GREEN", "HOUSE",
    "RIVER", "STONE", "LIGHT", "NIGHT", "WATER", "FIRE", "EARTH", "WIND", "TREE", "BIRD", "FISH", "MOON",
    "STAR", "SUN", "RAIN", "SNOW", "CLOUD", "ROAD", "BOOK", "DOOR", "TABLE", "CHAIR", "APPLE", "BREAD",
    "MILK", "HONEY", "SALT", "GOLD", "SILVER", "IRON", "GLASS", "PAPER", "MUSIC", "DANCE", "SMILE", "HAPPY",
    "QUIET", "SLOW", "FAST", "COLD", "WARM", "OPEN", "CLOSE", "NORTH", "SOUTH", "EAST", "WEST", "KING",
    "QUEEN", "KNIGHT", "CASTLE", "GARDEN", "FOREST", "OCEAN", "ISLAND", "BRIDGE", "MARKET", "SCHOOL",
    "FRIEND", "FAMILY", "SUMMER", "WINTER", "SPRING", "AUTUMN", "MORNING", "EVENING", "PLANET", "ROCKET",
    "ENGINE", "SIGNAL", "SECRET", "PUZZLE",
];

/// Whether `w` is in [`VOCAB`].
pub fn is_vocab(w: &str) -> bool {
    VOCAB.contains(&w)
}
