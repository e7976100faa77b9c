/**
 * Reads the sections of an INI file the way Python's configparser does for pytest's purposes (`pytest.ini`,
 * `setup.cfg`, `tox.ini`): `[section]` headers, `key = value` or `key: value`, values continued on indented lines,
 * whole-line comments starting with `#` or `;`. Keys are lowercased; values keep their lines joined by `\n`.
 */
export function readIniSections(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  let lastKey: string | undefined;
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (/^\s*[#;]/.test(raw) || raw.trim() === '') {
      if (raw.trim() === '') lastKey = undefined;
      continue;
    }
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      const name = header[1]!.trim();
      current = sections.get(name) ?? new Map<string, string>();
      sections.set(name, current);
      lastKey = undefined;
      continue;
    }
    if (!current) continue;
    if (/^\s/.test(raw) && lastKey !== undefined) {
      current.set(lastKey, `${current.get(lastKey) ?? ''}\n${raw.trim()}`.replace(/^\n/, ''));
      continue;
    }
    const entry = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(raw);
    if (!entry) continue;
    lastKey = entry[1]!.trim().toLowerCase();
    current.set(lastKey, entry[2]!.trim());
  }
  return sections;
}

/** A configparser value that lists words (pytest's `testpaths`, `python_files`): split on whitespace. */
export function iniWords(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(/\s+/).filter(Boolean);
}
