/** The order the kata picker lists the bundled katas in (pure: no `vscode`). */

/** Bundled katas from the gentlest to the hardest: the picker pre-selects the first, so a new user starts easy. */
export const BUNDLED_KATA_ORDER: readonly string[] = ['fizzbuzz', 'leap-year', 'string-calculator', 'roman-numerals', 'bowling'];

/** `katas` sorted easiest first by {@link BUNDLED_KATA_ORDER}; katas not in it follow, by slug. */
export function easiestFirst<K extends { slug: string }>(katas: readonly K[]): K[] {
  const rank = (slug: string): number => {
    const i = BUNDLED_KATA_ORDER.indexOf(slug);
    return i === -1 ? BUNDLED_KATA_ORDER.length : i;
  };
  return [...katas].sort((a, b) => rank(a.slug) - rank(b.slug) || a.slug.localeCompare(b.slug));
}
