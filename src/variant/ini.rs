//! The variants.ini file format: `[name]` or `[name:parent]` sections of `key = value` lines.
//! `#` and `;` start comments. Errors name the file and line.

use std::fmt;

/// One `key = value` line.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Key as written.
    pub key: String,
    /// Value, trimmed.
    pub value: String,
    /// 1-based line number.
    pub line: usize,
}

/// One `[name:parent]` section.
#[derive(Clone, Debug)]
pub struct Section {
    /// Variant name.
    pub name: String,
    /// Parent variant, if any.
    pub parent: Option<String>,
    /// Line of the header.
    pub line: usize,
    /// Its entries in file order.
    pub entries: Vec<Entry>,
}

/// A parsed file.
#[derive(Clone, Debug)]
pub struct IniFile {
    /// File name used in error messages.
    pub file: String,
    /// Sections in file order.
    pub sections: Vec<Section>,
}

/// An error in a variants.ini file, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IniError {
    /// File name.
    pub file: String,
    /// 1-based line (0 when the error concerns the whole file).
    pub line: usize,
    /// The key involved, if any.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for IniError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.key {
            Some(k) => write!(
                f,
                "{}:{}: key '{}': {}",
                self.file, self.line, k, self.message
            ),
            None => write!(f, "{}:{}: {}", self.file, self.line, self.message),
        }
    }
}

impl std::error::Error for IniError {}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Parses the text of a variants.ini file.
pub fn parse_ini(file: &str, text: &str) -> Result<IniFile, IniError> {
    let err = |line: usize, key: Option<&str>, message: String| IniError {
        file: file.to_string(),
        line,
        key: key.map(str::to_string),
        message,
    };
    let mut sections: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.split(['#', ';']).next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let Some(inner) = rest.strip_suffix(']') else {
                let message = match rest.split_once(']') {
                    Some((_, after)) => {
                        format!(
                            "unexpected '{}' after the section header's ']'",
                            after.trim()
                        )
                    }
                    None => format!("section header '{line}' lacks its closing ']'"),
                };
                return Err(err(line_no, None, message));
            };
            let (name, parent) = match inner.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim())),
                None => (inner.trim(), None),
            };
            if !valid_name(name) {
                return Err(err(
                    line_no,
                    None,
                    format!("bad variant name '{name}' (letters, digits, '-' and '_' only)"),
                ));
            }
            if let Some(p) = parent {
                if !valid_name(p) {
                    return Err(err(
                        line_no,
                        None,
                        format!(
                            "bad parent name '{p}' in '[{inner}]' (expected [name] or \
                             [name:parent]; letters, digits, '-' and '_' only)"
                        ),
                    ));
                }
            }
            if sections.iter().any(|s| s.name == name) {
                return Err(err(
                    line_no,
                    None,
                    format!("variant '{name}' is defined twice"),
                ));
            }
            sections.push(Section {
                name: name.to_string(),
                parent: parent.map(str::to_string),
                line: line_no,
                entries: Vec::new(),
            });
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(err(
                line_no,
                None,
                format!("expected 'key = value' or '[section]', found '{line}'"),
            ));
        };
        let key = key.trim();
        let value = value.trim();
        if key.is_empty() {
            return Err(err(
                line_no,
                None,
                format!("expected 'key = value', found no key before '=' in '{line}'"),
            ));
        }
        let Some(section) = sections.last_mut() else {
            return Err(err(line_no, Some(key), "key outside any [section]".into()));
        };
        if section.entries.iter().any(|e| e.key == key) {
            return Err(err(
                line_no,
                Some(key),
                format!("set twice in [{}]", section.name),
            ));
        }
        section.entries.push(Entry {
            key: key.to_string(),
            value: value.to_string(),
            line: line_no,
        });
    }
    Ok(IniFile {
        file: file.to_string(),
        sections,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_and_entries() {
        let f = parse_ini("t.ini", "# c\n[a]\nx = 1 # note\n[b:a]\ny=2\n").unwrap();
        assert_eq!(f.sections.len(), 2);
        assert_eq!(f.sections[1].parent.as_deref(), Some("a"));
        assert_eq!(f.sections[0].entries[0].value, "1");
        assert_eq!(f.sections[1].entries[0].line, 5);
    }

    #[test]
    fn errors_have_lines() {
        let e = parse_ini("t.ini", "[a]\nbogus line\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse_ini("t.ini", "x = 1\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("x"));
        let e = parse_ini("t.ini", "[a\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse_ini("t.ini", "[a]\nx=1\nx=2\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(parse_ini("t.ini", "[a]\n[a]\n").is_err());
    }
}
