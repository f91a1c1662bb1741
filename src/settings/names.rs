//! Policy-family names: a config enum whose snake_case variant names are the stable config
//! values, with the list of them that error messages, `warpscope list policies` and the
//! page's form show.

/// A config enum with its names; the family registries declare theirs with it.
macro_rules! policy_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident => $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $($(#[$vm])* $var),+ }

        impl $name {
            /// Every valid config name of this family, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($s),+];
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$var => $s),+ }
            }
            /// The variant with config name `name`, for inputs that are not config documents.
            pub fn parse(name: &str) -> Option<Self> {
                match name { $($s => Some(Self::$var),)+ _ => None }
            }
        }

        impl $crate::settings::Named for $name {
            const NAMES: &'static [&'static str] = Self::NAMES;
            fn as_str(self) -> &'static str {
                Self::as_str(self)
            }
            fn parse(name: &str) -> Option<Self> {
                Self::parse(name)
            }
        }
    };
}
pub(crate) use policy_enum;

/// What `policy_enum!` gives every family, for code that takes any of them.
pub trait Named: Copy + 'static {
    const NAMES: &'static [&'static str];
    fn as_str(self) -> &'static str;
    fn parse(name: &str) -> Option<Self>;
}
