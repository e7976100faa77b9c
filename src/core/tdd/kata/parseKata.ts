import { basename, extname } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { KataError } from './errors';
import { KataFrontMatterSchema, type Kata, type KataFrontMatter } from './kataSchema';
import { DEFAULT_KATA_LANGUAGE, LANGUAGE_DEFAULTS } from './languageDefaults';
import { type Language } from '../../vocabulary';

/** Options of parseKata. */
export interface ParseKataOptions {
  /** Used in error messages and as the slug when the front matter has none. */
  fileName?: string;
  /**
   * Run the kata in this language instead (the CLI's `--language`). Front-matter fields tied to another
   * language (`test_command`, `source_dir`, `test_dir`) are then dropped in favour of the defaults.
   */
  language?: Language;
}

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Lowercase words joined by dashes: "Roman Numerals!" → "roman-numerals". */
export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'kata'
  );
}

function splitFrontMatter(markdown: string, where: string): { data: unknown; body: string } {
  const match = FRONT_MATTER.exec(markdown);
  if (!match) {
    if (/^\uFEFF?---[ \t]*\r?\n/.test(markdown)) {
      throw new KataError(`Kata ${where}: the front matter starts with '---' but has no closing '---' line.`, { file: where });
    }
    return { data: {}, body: markdown };
  }
  let data: unknown;
  try {
    data = parseYaml(match[1]) ?? {};
  } catch (cause) {
    const at = cause instanceof YAMLParseError && cause.linePos ? cause.linePos[0] : undefined;
    const line = at ? ` (front matter line ${at.line}, column ${at.col})` : '';
    // The parser's first line ends "at line 2, column 12:" before a snippet of the file: the place is said once, above.
    const first = cause instanceof Error ? (cause.message.split('\n')[0] ?? '') : String(cause);
    const reason = `${first.replace(/\s*at line \d+, column \d+:?\s*$/, '').replace(/[.:]?$/, '')}.`;
    throw new KataError(`Kata ${where}: the front matter is not valid YAML${line}: ${reason}`, { file: where }, { cause });
  }
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new KataError(`Kata ${where}: the front matter must be a YAML mapping (key: value lines).`, { file: where });
  }
  return { data, body: markdown.slice(match[0].length) };
}

function validateFrontMatter(data: unknown, where: string): KataFrontMatter {
  const parsed = KataFrontMatterSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')} (known: ${Object.keys(KataFrontMatterSchema.shape).join(', ')})`;
    }
    const field = issue.path.join('.') || '(front matter)';
    const got = issue.path.length ? ` (got ${JSON.stringify((data as Record<string, unknown>)[String(issue.path[0])])})` : '';
    return `field '${field}': ${issue.message}${got}`;
  });
  throw new KataError(`Kata ${where}: ${problems.join('; ')}.`, { file: where, problems });
}

/**
 * Reads a kata from markdown with optional YAML front matter (`title`, `slug`, `language`,
 * `test_command`, `source_dir`, `test_dir`, `max_cycles`). The title falls back to the first `#`
 * heading, the slug to the file name; folders fall back to the language's defaults. Throws KataError
 * naming the field for anything invalid.
 */
export function parseKata(markdown: string, options: ParseKataOptions = {}): Kata {
  const where = options.fileName ?? '(inline)';
  if (typeof markdown !== 'string') throw new KataError(`Kata ${where}: expected markdown text.`, { file: where });
  const { data, body } = splitFrontMatter(markdown, where);
  const front = validateFrontMatter(data, where);
  const description = body.trim();
  if (!description)
    throw new KataError(`Kata ${where}: the description (the markdown after the front matter) is empty.`, { file: where });

  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(description)?.[1];
  const stem = options.fileName ? basename(options.fileName, extname(options.fileName)) : undefined;
  const title = front.title ?? heading ?? stem;
  if (!title)
    throw new KataError(`Kata ${where}: no title — add 'title:' to the front matter or a '# Heading'.`, { file: where });

  const language = options.language ?? front.language ?? DEFAULT_KATA_LANGUAGE;
  const ownFields = !options.language || !front.language || front.language === options.language;
  const defaults = LANGUAGE_DEFAULTS[language];
  const declared = {
    ...(front.language && ownFields ? { language: front.language } : {}),
    ...(ownFields && front.test_command ? { testCommand: front.test_command } : {}),
    ...(ownFields && front.source_dir ? { sourceDir: front.source_dir } : {}),
    ...(ownFields && front.test_dir ? { testDir: front.test_dir } : {}),
  };
  return {
    title,
    slug: front.slug ?? slugify(stem ?? title),
    description,
    language,
    testCommand: ownFields ? front.test_command : undefined,
    sourceDir: (ownFields ? front.source_dir : undefined) ?? defaults.sourceDir,
    testDir: (ownFields ? front.test_dir : undefined) ?? defaults.testDir,
    maxCycles: front.max_cycles,
    fileName: options.fileName,
    declared,
  };
}
