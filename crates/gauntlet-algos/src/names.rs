//! The registry enums as their names in configuration files (feature `serde`).
//!
//! Each registry enum serialises as its registry name ([`AdvantageEstimator::name`], ...) and
//! deserialises through its [`FromStr`](std::str::FromStr), so the names (and aliases) a
//! configuration accepts are exactly those the registry looks up, and a wrong name fails with
//! the registry's message: the valid names and the nearest one ("did you mean").
//!
//! ```
//! use gauntlet_algos::AdvantageEstimator;
//! let e: AdvantageEstimator = serde_json::from_str("\"dr_grpo\"").unwrap();
//! assert_eq!(serde_json::to_string(&e).unwrap(), "\"dr-grpo\"");
//! let err = serde_json::from_str::<AdvantageEstimator>("\"gpro\"").unwrap_err();
//! assert!(err.to_string().contains("did you mean `grpo`"), "{err}");
//! ```

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, Visitor};

use crate::AdvantageEstimator;
#[cfg(feature = "tensors")]
use crate::{AggMode, KlEstimator, PolicyLoss};

/// Reads a registry name and looks it up.
struct ByName<T>(PhantomData<T>);

impl<T: FromStr> Visitor<'_> for ByName<T>
where
    T::Err: fmt::Display,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a registry name (a string)")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        v.parse().map_err(E::custom)
    }
}

macro_rules! by_name {
    ($($ty:ty),*) => {$(
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_str(ByName(PhantomData))
            }
        }
    )*};
}

by_name!(AdvantageEstimator);
#[cfg(feature = "tensors")]
by_name!(AggMode, KlEstimator, PolicyLoss);

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T>(all: &[T])
    where
        T: serde::Serialize + for<'de> serde::Deserialize<'de> + fmt::Display + PartialEq + fmt::Debug,
    {
        for v in all {
            let text = serde_json::to_string(v).unwrap();
            assert_eq!(text, format!("\"{v}\""));
            assert_eq!(&serde_json::from_str::<T>(&text).unwrap(), v);
        }
    }

    #[test]
    fn every_registry_name_round_trips() {
        round_trip(AdvantageEstimator::ALL);
        #[cfg(feature = "tensors")]
        {
            round_trip(PolicyLoss::ALL);
            round_trip(AggMode::ALL);
            round_trip(KlEstimator::ALL);
        }
    }

    #[test]
    fn aliases_read_and_wrong_names_suggest() {
        let e: AdvantageEstimator = serde_json::from_str("\"reinforce_plus_plus\"").unwrap();
        assert_eq!(e, AdvantageEstimator::ReinforcePp);
        #[cfg(feature = "tensors")]
        {
            let l: PolicyLoss = serde_json::from_str("\"ppo\"").unwrap();
            assert_eq!(l, PolicyLoss::Vanilla);
            let err = serde_json::from_str::<PolicyLoss>("\"gspoo\"").unwrap_err().to_string();
            assert!(err.contains("unknown policy loss `gspoo` (did you mean `gspo`?)"), "{err}");
        }
        let err = serde_json::from_str::<AdvantageEstimator>("3").unwrap_err().to_string();
        assert!(err.contains("a registry name"), "{err}");
    }
}
