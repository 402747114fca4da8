//! The text catalogues' macro, `catalogue!`: one declaration gives a catalogue's struct and its
//! English and Chinese values (the idiom: [`crate::kit::text`]). It lives in the shell, the
//! lowest of the shared folders, so that every catalogue can use it, the shell's own included.

/// Declares a text catalogue: the struct, its `EN` and `ZH` values and `of(lang)`.
///
/// Each field is written as in a struct, its doc, `pub`, its name and type, followed by its
/// English and its Chinese value in braces:
///
/// ```ignore
/// catalogue! {
///     /// The guided tour of a lesson.
///     #[derive(Debug)]
///     pub struct TourText {
///         /// The button that starts the tour.
///         pub start: &'static str {
///             "Tour", "导览"
///         }
///         /// "Step {0} of {1}".
///         pub step_of: fn(&str, &str) -> String {
///             |a0, a1| format!("Step {a0} of {a1}"), |a0, a1| format!("第 {a0} 步，共 {a1} 步")
///         }
///     }
/// }
/// ```
///
/// The values are `const` expressions of the field's type (a closure without captures, or a
/// function, for a `fn` field).
macro_rules! catalogue {
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$field_attr:meta])*
                pub $field:ident : $ty:ty { $en:expr, $zh:expr $(,)? }
            )*
        }
    ) => {
        $(#[$attr])*
        $vis struct $name {
            $(
                $(#[$field_attr])*
                pub $field: $ty,
            )*
        }

        impl $name {
            /// English.
            pub const EN: $name = $name { $($field: $en,)* };

            /// 简体中文.
            pub const ZH: $name = $name { $($field: $zh,)* };

            /// The texts in `lang`.
            pub fn of(lang: ::unroll_core::config::Lang) -> &'static $name {
                match lang {
                    ::unroll_core::config::Lang::En => &Self::EN,
                    ::unroll_core::config::Lang::Zh => &Self::ZH,
                }
            }
        }
    };
}
pub(crate) use catalogue;

#[cfg(test)]
mod tests {
    use unroll_core::config::Lang;

    catalogue! {
        /// A catalogue of two texts.
        #[derive(Debug)]
        pub struct Sample {
            /// A plain text.
            pub title: &'static str {
                "Gates", "门"
            }
            /// A sentence: {0} step, {1} steps.
            pub step_of: fn(&str, &str) -> String {
                |a, n| format!("Step {a} of {n}"), |a, n| format!("第 {a} 步，共 {n} 步")
            }
        }
    }

    #[test]
    fn each_language_reads_its_own_value_of_every_field() {
        assert_eq!(Sample::of(Lang::En).title, "Gates");
        assert_eq!(Sample::of(Lang::Zh).title, "门");
        assert_eq!((Sample::of(Lang::En).step_of)("2", "5"), "Step 2 of 5");
        assert_eq!((Sample::of(Lang::Zh).step_of)("2", "5"), "第 2 步，共 5 步");
    }
}
