//! A policy's parameters: a struct its file declares with `params!`, under the policy's own
//! config path (`<section>.<policy>.<parameter>`, e.g. `dram.sbwas.alpha`), every field with
//! its default. Every such struct is read and written through the one visitor here rather
//! than its own derived serde code, which cost the wasm build about 5 KB per struct; the
//! messages are serde's own (unknown and duplicate fields, the value a field takes).

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserializer, Serialize, Serializer};
use std::fmt;

/// One parameter, borrowed to be read from a document.
pub enum Slot<'a> {
    U32(&'a mut u32),
    F64(&'a mut f64),
}

impl<'a> From<&'a mut u32> for Slot<'a> {
    fn from(v: &'a mut u32) -> Self {
        Slot::U32(v)
    }
}

impl<'a> From<&'a mut f64> for Slot<'a> {
    fn from(v: &'a mut f64) -> Self {
        Slot::F64(v)
    }
}

/// One parameter's value, to be written.
#[derive(Clone, Copy)]
pub enum Num {
    U32(u32),
    F64(f64),
}

impl From<u32> for Num {
    fn from(v: u32) -> Self {
        Num::U32(v)
    }
}

impl From<f64> for Num {
    fn from(v: f64) -> Self {
        Num::F64(v)
    }
}

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Num::U32(v) => s.serialize_u32(v),
            Num::F64(v) => s.serialize_f64(v),
        }
    }
}

/// Writes `values` as a section with `fields` as keys. Never inlined, like `deserialize`:
/// one copy serves every struct.
#[inline(never)]
pub fn serialize<S: Serializer>(fields: &'static [&'static str], values: &[Num], s: S) -> Result<S::Ok, S::Error> {
    let mut st = s.serialize_struct("Params", fields.len())?;
    for (name, v) in fields.iter().zip(values) {
        st.serialize_field(name, v)?;
    }
    st.end()
}

/// Reads a section into `slots` (named by `fields`); fields it leaves out keep their values.
/// Never inlined: serde's path tracking wraps each field type's read, and a copy of this
/// in every wrapper would cost about 3 KB per struct.
#[inline(never)]
pub fn deserialize<'de, D: Deserializer<'de>>(
    fields: &'static [&'static str],
    slots: Vec<Slot<'_>>,
    d: D,
) -> Result<(), D::Error> {
    d.deserialize_struct("Params", fields, Fields { fields, slots })
}

struct Fields<'a> {
    fields: &'static [&'static str],
    slots: Vec<Slot<'a>>,
}

impl<'de> Visitor<'de> for Fields<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct Params")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let mut seen = vec![false; self.fields.len()];
        while let Some(key) = map.next_key::<String>()? {
            let Some(i) = self.fields.iter().position(|f| *f == key) else {
                return Err(de::Error::unknown_field(&key, self.fields));
            };
            if std::mem::replace(&mut seen[i], true) {
                return Err(de::Error::duplicate_field(self.fields[i]));
            }
            match &mut self.slots[i] {
                Slot::U32(v) => **v = map.next_value()?,
                Slot::F64(v) => **v = map.next_value()?,
            }
        }
        Ok(())
    }
}

/// Declares a policy's parameter struct: its doc comment, then each field with its doc
/// comment, type (`u32` or `f64`) and default. It reads as a section whose left-out fields
/// take their defaults and whose unknown fields are errors.
macro_rules! params {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[$fm:meta])* pub $field:ident: $ty:ty = $default:expr,)+ }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name { $($(#[$fm])* pub $field: $ty,)+ }

        impl Default for $name {
            fn default() -> Self {
                Self { $($field: $default,)+ }
            }
        }

        impl $name {
            const FIELDS: &'static [&'static str] = &[$(stringify!($field)),+];
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $crate::settings::params::serialize(Self::FIELDS, &[$(self.$field.into()),+], s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let mut p = Self::default();
                $crate::settings::params::deserialize(Self::FIELDS, vec![$((&mut p.$field).into()),+], d)?;
                Ok(p)
            }
        }
    };
}
pub(crate) use params;

/// Declares a family's section macro, `$name!`, which declares a section struct with a
/// field for each of the family's parameterised policies (`<section>.<policy>`, each with
/// its defaults) between the fields it is given before and after, so the family's registry
/// is the only place that names them. `$d` is a `$` the registry passes in, which the
/// declared macro's own variables need.
macro_rules! section_macro {
    (($d:tt) $name:ident $($field:ident: $ty:ty),*) => {
        /// Declares the family's section struct: the fields in the first braces, then one per
        /// parameterised policy of the family's registry, then the fields in the second.
        macro_rules! $name {
            ($d(#[$d m:meta])* pub struct $d s:ident { $d($d before:tt)* } { $d($d after:tt)* }) => {
                $d(#[$d m])*
                pub struct $d s {
                    $d($d before)*
                    $(#[serde(default)] pub $field: $ty,)*
                    $d($d after)*
                }
            };
        }
        pub(crate) use $name;
    };
}
pub(crate) use section_macro;
