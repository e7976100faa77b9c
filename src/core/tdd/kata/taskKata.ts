import { KataError } from './errors';
import type { Kata } from './kataSchema';
import { DEFAULT_KATA_LANGUAGE, LANGUAGE_DEFAULTS } from './languageDefaults';
import { slugify } from './parseKata';
import { type Language } from '../../vocabulary';

/** A task in plain words: what to build, and optionally what it is about (selected code, a file). */
export interface TaskSpec {
  /** The sentence a person typed: "Add a foreign_key helper that …". */
  text: string;
  /** More for the agents to read, after the sentence (e.g. the code selected in the editor, with its file and lines). */
  context?: string;
}

/** Longest task sentence (the agents read it every turn). */
export const MAX_TASK_CHARS = 4000;
/** Words of the sentence that make the session's slug (and so its branch name). */
const SLUG_WORDS = 6;

/**
 * A task as a kata without a file: the title is the sentence (its first line, at most 200 characters), the slug
 * comes from its first words (`add-a-foreign-key-helper`), the description is the sentence and its context.
 * Folders and the test command come from the project profile (see `kataWithProfile`). An empty or overlong
 * sentence is a KataError.
 */
export function taskKata(task: string | TaskSpec, options: { language?: Language } = {}): Kata {
  const spec: TaskSpec = typeof task === 'string' ? { text: task } : task;
  const text = (spec.text ?? '').trim();
  if (!text) throw new KataError('The task is empty: say in a sentence what to build, e.g. "Add a slugify helper".', {});
  if (text.length > MAX_TASK_CHARS)
    throw new KataError(
      `The task is ${text.length} characters long; keep it under ${MAX_TASK_CHARS} (put the details in a kata file).`,
      {
        length: text.length,
      },
    );
  const firstLine = text.split('\n')[0]!.trim();
  const title = firstLine.length > 200 ? `${firstLine.slice(0, 199).trimEnd()}…` : firstLine;
  const slug = slugify(text.split(/\s+/).slice(0, SLUG_WORDS).join(' '));
  const language = options.language ?? DEFAULT_KATA_LANGUAGE;
  const context = spec.context?.trim();
  return {
    title,
    slug: slug === 'kata' ? 'task' : slug,
    description: context ? `${text}\n\n${context}` : text,
    language,
    ...LANGUAGE_DEFAULTS[language],
    declared: options.language ? { language: options.language } : {},
    task: true,
  };
}
