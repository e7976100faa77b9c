/** Katas: markdown with optional YAML front matter, the bundled set, and per-language defaults. */
export { parseKata, slugify, type ParseKataOptions } from './parseKata';
export { loadKata } from './loadKata';
export { bundledKatasDir, listBundledKatas, resolveKata, type BundledKata } from './bundledKatas';
export { KataFrontMatterSchema, type Kata, type KataFrontMatter } from './kataSchema';
export { DEFAULT_KATA_LANGUAGE, LANGUAGE_DEFAULTS, type LanguageDefaults } from './languageDefaults';
export { KataError } from './errors';
export { taskKata, MAX_TASK_CHARS, type TaskSpec } from './taskKata';
export { kataInFolder, kataWithProfile } from './kataProfile';
