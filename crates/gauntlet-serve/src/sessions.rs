//! The session store: live episodes in a sharded map, with a capacity, idle expiry and ids.
//!
//! Design: 64 shards, each a `Mutex<HashMap<u64, Arc<Entry>>>` chosen by the id's low bits, so
//! concurrent requests on different sessions rarely touch the same lock, and a shard lock is
//! held only for a map operation (never while an environment runs). Each session sits behind
//! its own mutex, which serialises concurrent `act` calls on one episode. The live count is an
//! atomic reserved *before* a session is built ([`SessionStore::reserve`]), so the capacity
//! holds under any interleaving of concurrent creates.
//!
//! Ids are 16 hex digits: a per-process random salt mixed into a counter by a bijective
//! function, so ids never repeat within a process and are not guessable from one another
//! (authentication is the bearer token, not the id).

use crate::error::{ApiError, ApiResult};
use crate::live::LiveEpisode;
use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

const SHARDS: usize = 64;

/// One live episode: the kernel's runner behind the server's guards (see [`crate::live`]).
pub type Session = LiveEpisode;

/// A stored session: the session behind its own lock, plus its last-use time.
pub struct Entry {
    session: Mutex<Session>,
    last_used_ms: AtomicU64,
}

impl Entry {
    /// Lock the session (a lock poisoned by a panic is recovered: environment panics are
    /// caught inside the episode, which closes itself, before they reach the lock).
    pub fn lock(&self) -> MutexGuard<'_, Session> {
        self.session.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Counters of the store's lifetime.
#[derive(Debug, Default)]
pub struct StoreStats {
    /// Sessions created.
    pub created: AtomicU64,
    /// Sessions removed by `DELETE`.
    pub deleted: AtomicU64,
    /// Sessions removed because they sat idle past the timeout.
    pub expired: AtomicU64,
    /// Creates refused because the store was full.
    pub rejected: AtomicU64,
}

/// Live sessions, sharded by id.
pub struct SessionStore {
    shards: Vec<Mutex<HashMap<u64, Arc<Entry>>>>,
    live: AtomicUsize,
    max: usize,
    idle: Duration,
    epoch: Instant,
    counter: AtomicU64,
    salt: u64,
    /// Lifetime counters.
    pub stats: StoreStats,
}

/// A reserved place in the store; dropping it unused gives the place back.
pub struct Slot<'a> {
    store: &'a SessionStore,
    used: bool,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        if !self.used {
            self.store.live.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// A place in the store held by a session that lives outside the map (an OpenEnv WebSocket
/// connection owns its episode); dropping it gives the place back.
pub struct Lease(Arc<SessionStore>);

impl Drop for Lease {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::AcqRel);
        self.0.stats.deleted.fetch_add(1, Ordering::Relaxed);
    }
}

fn mix(mut z: u64) -> u64 {
    // splitmix64's finaliser: a bijection on u64.
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The external form of a session id.
pub fn format_id(id: u64) -> String {
    format!("{id:016x}")
}

/// Parse an external id; anything malformed is an unknown session.
pub fn parse_id(s: &str) -> ApiResult<u64> {
    if s.len() == 16 {
        if let Ok(id) = u64::from_str_radix(s, 16) {
            return Ok(id);
        }
    }
    Err(unknown(s))
}

fn unknown(s: &str) -> ApiError {
    let shown = crate::body::show(&serde_json::Value::String(s.to_string()));
    ApiError::not_found(
        "unknown_session",
        format!("no session {shown}: it was deleted, expired after sitting idle, or never existed"),
    )
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl SessionStore {
    /// An empty store holding at most `max` sessions, each dropped after `idle` untouched.
    pub fn new(max: usize, idle: Duration) -> Self {
        SessionStore {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
            live: AtomicUsize::new(0),
            max,
            idle,
            epoch: Instant::now(),
            counter: AtomicU64::new(0),
            salt: RandomState::new().hash_one(0x5e55_1045_u64),
            stats: StoreStats::default(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn shard(&self, id: u64) -> &Mutex<HashMap<u64, Arc<Entry>>> {
        &self.shards[(id as usize) % SHARDS]
    }

    fn expired(&self, e: &Entry, now: u64) -> bool {
        let last = e.last_used_ms.load(Ordering::Relaxed);
        Duration::from_millis(now.saturating_sub(last)) > self.idle
    }

    /// Live sessions.
    pub fn len(&self) -> usize {
        self.live.load(Ordering::Acquire)
    }

    /// Whether no session is live.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The capacity.
    pub fn capacity(&self) -> usize {
        self.max
    }

    /// Reserve a place for a new session, sweeping expired sessions first when full; 503
    /// `too_many_sessions` when there is still no room.
    pub fn reserve(&self) -> ApiResult<Slot<'_>> {
        for attempt in 0..2 {
            let got = self
                .live
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < self.max).then_some(n + 1))
                .is_ok();
            if got {
                return Ok(Slot { store: self, used: false });
            }
            if attempt == 0 {
                self.sweep();
            }
        }
        self.stats.rejected.fetch_add(1, Ordering::Relaxed);
        Err(ApiError::capacity(
            "too_many_sessions",
            format!(
                "the server holds its maximum of {} sessions; delete finished sessions \
                 (`DELETE /v1/sessions/{{id}}`) or retry later",
                self.max
            ),
        ))
    }

    /// Hold a place for a session kept outside the map (counted in [`SessionStore::len`] and
    /// against the capacity until the [`Lease`] is dropped); 503 `too_many_sessions` when full.
    pub fn lease(self: &Arc<Self>) -> ApiResult<Lease> {
        let mut slot = self.reserve()?;
        slot.used = true;
        drop(slot);
        self.stats.created.fetch_add(1, Ordering::Relaxed);
        Ok(Lease(self.clone()))
    }

    /// A fresh seed for an episode whose client gave none (distinct within the process).
    pub fn fresh_seed(&self) -> u64 {
        mix(self.counter.fetch_add(1, Ordering::Relaxed) ^ self.salt.rotate_left(17))
    }

    /// Store a session in a reserved slot; returns its id and entry.
    pub fn insert(&self, mut slot: Slot<'_>, session: Session) -> (u64, Arc<Entry>) {
        slot.used = true;
        let id = mix(self.counter.fetch_add(1, Ordering::Relaxed) ^ self.salt);
        let entry =
            Arc::new(Entry { session: Mutex::new(session), last_used_ms: AtomicU64::new(self.now_ms()) });
        lock(self.shard(id)).insert(id, entry.clone());
        self.stats.created.fetch_add(1, Ordering::Relaxed);
        (id, entry)
    }

    /// The session `id` (marking it used now), or 404 `unknown_session`; a session found
    /// past its idle timeout is removed and reported unknown.
    pub fn get(&self, id: &str) -> ApiResult<Arc<Entry>> {
        let n = parse_id(id)?;
        let now = self.now_ms();
        let mut shard = lock(self.shard(n));
        let entry = shard.get(&n).cloned().ok_or_else(|| unknown(id))?;
        if self.expired(&entry, now) {
            shard.remove(&n);
            drop(shard);
            self.live.fetch_sub(1, Ordering::AcqRel);
            self.stats.expired.fetch_add(1, Ordering::Relaxed);
            return Err(unknown(id));
        }
        entry.last_used_ms.store(now, Ordering::Relaxed);
        Ok(entry)
    }

    /// Mark a session used now (after a long `act`).
    pub fn touch(&self, entry: &Entry) {
        entry.last_used_ms.store(self.now_ms(), Ordering::Relaxed);
    }

    /// Remove session `id`; 404 `unknown_session` if there is none.
    pub fn remove(&self, id: &str) -> ApiResult<()> {
        let n = parse_id(id)?;
        let removed = lock(self.shard(n)).remove(&n);
        match removed {
            Some(_) => {
                self.live.fetch_sub(1, Ordering::AcqRel);
                self.stats.deleted.fetch_add(1, Ordering::Relaxed);
                Ok(())
            }
            None => Err(unknown(id)),
        }
    }

    /// Remove every session idle past the timeout; returns how many went.
    pub fn sweep(&self) -> usize {
        let now = self.now_ms();
        let mut gone = 0;
        for shard in &self.shards {
            let mut map = lock(shard);
            let before = map.len();
            map.retain(|_, e| !self.expired(e, now));
            gone += before - map.len();
        }
        if gone > 0 {
            self.live.fetch_sub(gone, Ordering::AcqRel);
            self.stats.expired.fetch_add(gone as u64, Ordering::Relaxed);
        }
        gone
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Target;
    use crate::live::Options;
    use gauntlet_core::Difficulty;

    fn session() -> Session {
        let target = Target::Task(gauntlet_tasks::get("countdown").unwrap());
        let opts = Options { max_turns: 10, legal_actions: false };
        LiveEpisode::start(&target, "countdown", 0, Difficulty::MIN, opts).unwrap()
    }

    #[test]
    fn capacity_ids_and_expiry() {
        let store = SessionStore::new(2, Duration::from_millis(30));
        let (a, _) = store.insert(store.reserve().unwrap(), session());
        {
            let _unused = store.reserve().unwrap();
            assert!(store.reserve().is_err());
        }
        let (b, _) = store.insert(store.reserve().unwrap(), session());
        assert_ne!(a, b);
        assert_eq!(store.len(), 2);
        assert_eq!(store.reserve().err().unwrap().code, "too_many_sessions");
        assert!(store.get(&format_id(a)).is_ok());
        store.remove(&format_id(a)).unwrap();
        assert_eq!(store.remove(&format_id(a)).unwrap_err().code, "unknown_session");
        assert_eq!(store.get("zz").err().unwrap().code, "unknown_session");
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(store.sweep(), 1);
        assert!(store.is_empty());
        assert_eq!(store.stats.expired.load(Ordering::Relaxed), 1);
    }
}
