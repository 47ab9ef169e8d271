//! Process set-up before model compute: malloc tunables, candle's thread pool.

/// glibc malloc settings that keep freed tensors' memory instead of returning it to the kernel
/// and page-faulting it back every step (a fifth of a training step otherwise; see
/// `docs/benchmarks.md`).
pub const MALLOC_TUNABLES: &str =
    "glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295";

/// Prepares the process for model compute: re-executes itself (same pid, same arguments) with
/// [`MALLOC_TUNABLES`] unless `GLIBC_TUNABLES` is already set, sizes candle's thread pool
/// (`threads` = 0: all cores) and keeps its idle workers from spinning through the matmuls
/// ([`gauntlet_model::limit_candle_spinning`]).
pub fn setup_compute(threads: usize) -> anyhow::Result<()> {
    #[cfg(target_os = "linux")]
    if std::env::var_os("GLIBC_TUNABLES").is_none() {
        use std::os::unix::process::CommandExt;
        let exe = std::env::current_exe()?;
        let err = std::process::Command::new(exe)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", MALLOC_TUNABLES)
            .exec();
        // Only reached when exec failed: go on with the default allocator.
        eprintln!("note: could not re-execute with malloc tunables ({err}); training will be slower");
    }
    gauntlet_model::limit_candle_spinning();
    if threads > 0 {
        std::env::set_var("RAYON_NUM_THREADS", threads.to_string());
    }
    // Model code runs on a worker of this pool (`gauntlet_model::on_pool`): give its threads a
    // main thread's stack.
    let _ = rayon::ThreadPoolBuilder::new().num_threads(threads).stack_size(COMPUTE_STACK).build_global();
    Ok(())
}

/// Stack size of rayon's worker threads, which run the model code (`gauntlet_model::on_pool`): a
/// main thread's.
const COMPUTE_STACK: usize = 8 << 20;
