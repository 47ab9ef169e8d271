//! Binding and serving: what `gauntlet serve env` calls.

use crate::app::router;
use crate::config::EnvServerConfig;
use crate::error::ServeError;
use std::future::Future;
use std::net::SocketAddr;
use tokio::net::TcpListener;

/// Bind `config.host:config.port` (port 0 picks a free port; read it from
/// `listener.local_addr()`).
pub async fn bind(config: &EnvServerConfig) -> Result<TcpListener, ServeError> {
    let addr = config.addr();
    TcpListener::bind(&addr).await.map_err(|source| ServeError::Bind { addr, source })
}

/// Serve [`router`]`(config)` on `listener` until the process ends.
pub async fn serve(config: EnvServerConfig, listener: TcpListener) -> Result<(), ServeError> {
    serve_with_shutdown(config, listener, std::future::pending()).await
}

/// Serve on `listener` until `shutdown` completes, then finish the requests in flight and
/// return.
pub async fn serve_with_shutdown(
    config: EnvServerConfig,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let app = router(config);
    axum::serve(listener, app).with_graceful_shutdown(shutdown).await?;
    Ok(())
}

/// The whole of `gauntlet serve env`: build a multi-thread tokio runtime, bind, call
/// `on_listening` with the bound address (print it there), and serve until Ctrl-C.
pub fn run(config: EnvServerConfig, on_listening: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move {
        let listener = bind(&config).await?;
        on_listening(listener.local_addr()?);
        serve_with_shutdown(config, listener, async {
            // If the signal handler cannot be installed, serve until killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await
    })
}
