//! What Chariot's JSON files share: `serde_json` reads and writes them from typed structs
//! (the match report, `chariot match merge`, SPSA state, `chariot judge --json`); this
//! module holds only the few things serde does not decide for them:
//!
//! - [`to_text`]'s layout, one record a line: the top object's members and the items of the
//!   lists and objects directly inside it each on a line, anything deeper on that line, as
//!   the files were laid out before serde (a game, an engine pair, an SPSA iteration one
//!   line each; `grep` and line tools keep working);
//! - [`Num`], a number written as before: whole values without `.0`, null when not finite;
//! - [`Ordered`], an object whose members keep their order (engines, tuned parameters);
//! - [`read`], whose errors are one line, and the [`Header`] every file starts with.

use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::io::{self, Write};

/// Containers this deep or less (the top object is 1) put each item on a line of its own.
const LINE_DEPTH: usize = 2;

/// serde_json's layout hooks for [`to_text`].
#[derive(Default)]
struct Lines {
    /// Per open container: has it an item yet?
    open: Vec<bool>,
}

impl Lines {
    fn breaks(&self) -> bool {
        self.open.len() <= LINE_DEPTH
    }

    fn newline<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.open.len() {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn begin<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.open.push(false);
        w.write_all(bracket)
    }

    fn end<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        let breaks = self.breaks();
        let any = self.open.pop().unwrap_or(false);
        if breaks && any {
            self.newline(w)?;
        }
        w.write_all(bracket)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.breaks() {
            self.newline(w)
        } else if first {
            Ok(())
        } else {
            w.write_all(b" ")
        }
    }

    fn item_done(&mut self) {
        if let Some(any) = self.open.last_mut() {
            *any = true;
        }
    }
}

impl serde_json::ser::Formatter for Lines {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.item_done();
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.item_done();
        Ok(())
    }
}

/// `value` as the text of a JSON file (see the module's layout), ending in a newline.
pub fn to_text<T: Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Lines::default());
    // the files' types have string keys only and no serializer of their own that fails
    value
        .serialize(&mut ser)
        .expect("Chariot's JSON types always serialize");
    let mut text = String::from_utf8(out).expect("serde_json writes UTF-8");
    text.push('\n');
    text
}

/// Reads a JSON document into `T`. The error is one line: text that is not JSON says so
/// and where; a document of the wrong shape says which member and where (`missing field
/// \`games\` at line 3 column 1`). Members `T` does not name are passed over.
pub fn read<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| match e.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            format!("not valid JSON: {e}")
        }
        _ => e.to_string(),
    })
}

/// The `format` and `version` members a file of Chariot's starts with: read before the
/// rest, so that a file of another kind, or of an older layout, is refused as such rather
/// than for a member it lacks.
#[derive(Deserialize)]
pub struct Header {
    #[serde(default)]
    format: Option<serde_json::Value>,
    #[serde(default)]
    version: Option<serde_json::Value>,
}

impl Header {
    pub fn format(&self) -> Option<&str> {
        self.format.as_ref().and_then(|v| v.as_str())
    }

    pub fn version(&self) -> Option<u64> {
        self.version.as_ref().and_then(|v| v.as_u64())
    }
}

/// A number as the files write it: the shortest text that reads back as the same `f64`,
/// whole values without a fraction (`-5`, not `-5.0`: what the hand-written files had, and
/// what an old SPSA state's settings are compared with), null when not finite (JSON has no
/// infinity). Reads any JSON number.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Num(pub f64);

/// Whole values up to this size are written as integers (all of them are exact in `f64`).
const WHOLE_MAX: f64 = 9_007_199_254_740_992.0; // 2^53

impl Num {
    /// `x` rounded to 4 decimals (statistics: more digits would be noise).
    pub fn round4(x: f64) -> Num {
        // + 0.0 turns -0.0 into 0.0
        Num((x * 10_000.0).round() / 10_000.0 + 0.0)
    }
}

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let x = self.0;
        if !x.is_finite() {
            s.serialize_none()
        } else if x.fract() == 0.0 && x.abs() <= WHOLE_MAX {
            s.serialize_i64(x as i64)
        } else {
            s.serialize_f64(x)
        }
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Num, D::Error> {
        f64::deserialize(d).map(Num)
    }
}

/// A JSON object whose members keep the order they were given or read in (serde_json's own
/// map sorts them by name).
#[derive(Clone, Debug, PartialEq)]
pub struct Ordered<V>(pub Vec<(String, V)>);

impl<V> Default for Ordered<V> {
    fn default() -> Self {
        Ordered(Vec::new())
    }
}

impl<V> Ordered<V> {
    /// The first member named `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Ordered<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Members<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for Members<V> {
            type Value = Ordered<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered<V>, A::Error> {
                let mut out = Vec::new();
                while let Some(member) = map.next_entry::<String, V>()? {
                    out.push(member);
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(Members(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Doc {
        name: String,
        values: Ordered<Num>,
        rows: Vec<Row>,
        empty: Vec<u32>,
        none: Ordered<u32>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Row {
        id: u32,
        pair: (u64, u64),
        deep: Ordered<Vec<u32>>,
    }

    fn doc() -> Doc {
        Doc {
            name: "q\"\\\n\t\u{1}炮".into(),
            values: Ordered(vec![
                ("z".into(), Num(-5.0)),
                ("a".into(), Num(0.1 + 0.2)),
                ("m".into(), Num(f64::INFINITY)),
            ]),
            rows: vec![
                Row {
                    id: 1,
                    pair: (6, 4),
                    deep: Ordered(vec![("x".into(), vec![1, 2])]),
                },
                Row {
                    id: 2,
                    pair: (7, 19),
                    deep: Ordered::default(),
                },
            ],
            empty: vec![],
            none: Ordered::default(),
        }
    }

    #[test]
    fn files_have_a_record_a_line() {
        let text = to_text(&doc());
        let want = "{\n  \"name\": \"q\\\"\\\\\\n\\t\\u0001炮\",\n  \"values\": {\n    \"z\": -5,\n    \"a\": 0.30000000000000004,\n    \"m\": null\n  },\n  \"rows\": [\n    {\"id\": 1, \"pair\": [6, 4], \"deep\": {\"x\": [1, 2]}},\n    {\"id\": 2, \"pair\": [7, 19], \"deep\": {}}\n  ],\n  \"empty\": [],\n  \"none\": {}\n}\n";
        assert_eq!(text, want);
    }

    #[test]
    fn what_is_written_reads_back_in_order_and_exactly() {
        let mut d = doc();
        d.values.0.pop(); // null reads back as no number
        let back: Doc = read(&to_text(&d)).unwrap();
        assert_eq!(back, d);
        assert_eq!(back.values.0[0].0, "z", "members keep their order");
        assert_eq!(back.values.get("a"), Some(&Num(0.1 + 0.2)));
        assert_eq!(back.values.get("b"), None);
        // numbers read back to the last bit
        for x in [112.94982212961825, 1.0 / 3.0, 2.5e-8, 61.05017787038175] {
            let n: Num = read(&to_text(&Num(x))).unwrap();
            assert_eq!(n.0.to_bits(), x.to_bits(), "{x}");
        }
        assert_eq!(to_text(&Num::round4(0.123_456)), "0.1235\n");
        assert_eq!(to_text(&Num::round4(-0.000_01)), "0\n");
        assert_eq!(to_text(&Num(f64::NAN)), "null\n");
        assert_eq!(to_text(&Num(1e300)), "1e+300\n");
    }

    #[test]
    fn bad_documents_are_one_line_errors_not_panics() {
        let mut d = doc();
        d.values.0.pop(); // null is no f64
        let good = to_text(&d);
        assert!(read::<Doc>(&to_text(&doc())).is_err());
        for bad in [
            String::new(),
            "{".into(),
            "garbage".into(),
            "[1,]".into(),
            "\"\\ud800\\u0041\"".into(),
            good[..good.len() / 2].to_string(),
            good.replace("\"rows\"", "\"roes\""),
            good.replace("\"id\": 2", "\"id\": -2"),
            good.replace("\"z\": -5", "\"z\": \"-5\""),
            "[".repeat(10_000),
        ] {
            let e = read::<Doc>(&bad).unwrap_err();
            assert_eq!(e.lines().count(), 1, "{e}");
            assert!(e.contains("line"), "{e}");
        }
        assert!(
            read::<Doc>("{\n  \"name\": x}")
                .unwrap_err()
                .starts_with("not valid JSON: expected value at line 2 column 11")
        );
        let e = read::<Doc>(&good.replace("\"rows\"", "\"roes\"")).unwrap_err();
        assert!(e.starts_with("missing field `rows`"), "{e}");
        // members the type does not name are passed over
        let more = good.replacen('{', "{\"later\": [1, {\"x\": null}], ", 1);
        assert!(read::<Doc>(&more).is_ok());
    }
}
