//! The `gauntlet` command line.
fn main() {}
