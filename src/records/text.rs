//! Bytes to text for game records: a byte-order mark is honoured (UTF-8, UTF-16); without
//! one, text that is valid UTF-8 is UTF-8 and anything else is GBK, the code page of the
//! classic Windows tools (XiangQi Wizard, XQStudio). GBK is decoded by `encoding_rs`, the
//! WHATWG decoder browsers use (it reads GB18030's four-byte forms too). Line ends become
//! `\n` whether they were CRLF, LF or a lone CR.

use encoding_rs::{Encoding, GBK};
use std::borrow::Cow;

/// The encodings a record is read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextEncoding {
    Utf8,
    /// Named by a byte-order mark (UTF-8 or UTF-16).
    Bom(&'static str),
    Gbk,
}

/// Decodes a record's bytes: the text (line ends normalised) and the encoding found.
/// Never fails: bytes that are not valid in the encoding become U+FFFD.
pub fn decode(bytes: &[u8]) -> (String, TextEncoding) {
    let (text, enc): (Cow<str>, TextEncoding) = match Encoding::for_bom(bytes) {
        Some((enc, bom)) => {
            let (t, _) = enc.decode_without_bom_handling(&bytes[bom..]);
            (t, TextEncoding::Bom(enc.name()))
        }
        None => match std::str::from_utf8(bytes) {
            Ok(t) => (Cow::Borrowed(t), TextEncoding::Utf8),
            Err(_) => (GBK.decode_without_bom_handling(bytes).0, TextEncoding::Gbk),
        },
    };
    (normalise_line_ends(&text), enc)
}

/// GBK bytes of a fixed-size binary field (XQF headers and comments): up to the first NUL,
/// trimmed.
pub fn gbk_field(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let bytes = &bytes[..end];
    let text = match std::str::from_utf8(bytes) {
        // plain ASCII (and the rare UTF-8 writer) reads the same either way
        Ok(t) if t.is_ascii() => Cow::Borrowed(t),
        _ => GBK.decode_without_bom_handling(bytes).0,
    };
    // a multi-byte character cut off by the field's end is dropped, not shown as U+FFFD
    normalise_line_ends(text.trim_end_matches('\u{fffd}').trim())
        .trim()
        .to_string()
}

fn normalise_line_ends(text: &str) -> String {
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_gbk_and_boms_are_told_apart() {
        let cn = "炮二平五 马８进７";
        let (gbk, _, _) = GBK.encode(cn);
        assert_ne!(&gbk[..], cn.as_bytes());
        assert_eq!(decode(cn.as_bytes()), (cn.to_string(), TextEncoding::Utf8));
        assert_eq!(decode(&gbk), (cn.to_string(), TextEncoding::Gbk));
        let mut bom = vec![0xef, 0xbb, 0xbf];
        bom.extend_from_slice(cn.as_bytes());
        assert_eq!(decode(&bom), (cn.to_string(), TextEncoding::Bom("UTF-8")));
        let mut le = vec![0xff, 0xfe];
        le.extend(cn.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(decode(&le).0, cn);
        assert_eq!(decode(b"a\r\nb\rc\n").0, "a\nb\nc\n");
    }

    #[test]
    fn fields_stop_at_nul_and_read_gbk() {
        let (gbk, _, _) = GBK.encode("许银川");
        let mut field = gbk.to_vec();
        field.extend_from_slice(&[0, 0x41, 0x42]);
        assert_eq!(gbk_field(&field), "许银川");
        assert_eq!(gbk_field(b"  Hu Ronghua \0\0"), "Hu Ronghua");
        // a character cut off at the end of the field is dropped
        assert_eq!(gbk_field(&gbk[..gbk.len() - 1]), "许银");
    }
}
