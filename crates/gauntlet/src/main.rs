//! The `gauntlet` command line: one subcommand per file under `commands/`.

mod commands;
mod io;
mod policy;
mod progress;

use clap::Parser;

fn main() {
    let cli = commands::Cli::parse();
    if let Err(err) = commands::run(cli) {
        // Print the whole cause chain; a closed pipe (`| head`) is not an error.
        if err.chain().any(|c| {
            c.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
        }) {
            std::process::exit(0);
        }
        eprintln!("error: {err}");
        for cause in err.chain().skip(1) {
            eprintln!("  caused by: {cause}");
        }
        std::process::exit(2);
    }
}
