import { phpFolder, phpunitSetup } from '../testRunners/phpunitSetup';
import { isProjectFolder, readProjectFile } from './projectFiles';

/** What a PHP project's composer.json and PHPUnit's configuration say. */
export interface PhpProjectFacts {
  /** The manifests found at the root: `composer.json`, `phpunit.xml`, `phpunit.xml.dist`. */
  manifests: string[];
  /** How the tests run offline (see `phpunitSetup`): `vendor/bin/phpunit`, else the system's `phpunit`. */
  command: string;
  /** `**\/*Test.php` (PHPUnit's default suffix, or the configuration's). */
  patterns: string[];
  /** The folders composer.json's `autoload` maps (PSR-4, PSR-0, classmap folders), relative; empty when none. */
  sourceRoots: string[];
  /** The configuration's first test folder, else `autoload-dev`'s first, else `tests` when there is one. */
  testDir?: string;
  notes: string[];
}

/** A composer.json's `autoload` or `autoload-dev` folders, in order: PSR-4, PSR-0, then classmap entries that are folders. */
function autoloadFolders(section: unknown): string[] {
  if (typeof section !== 'object' || section === null) return [];
  const value = section as Record<string, unknown>;
  const folders: string[] = [];
  for (const kind of ['psr-4', 'psr-0']) {
    const map = value[kind];
    if (typeof map !== 'object' || map === null) continue;
    for (const dirs of Object.values(map as Record<string, unknown>))
      for (const dir of [dirs].flat()) if (typeof dir === 'string') folders.push(dir);
  }
  for (const dir of [value.classmap].flat()) if (typeof dir === 'string' && !dir.endsWith('.php')) folders.push(dir);
  return [...new Set(folders.map(phpFolder).filter((d): d is string => d !== undefined))];
}

/**
 * The facts of a PHP project at `root` (a `composer.json`, or PHPUnit's `phpunit.xml` or `phpunit.xml.dist`), or
 * undefined when there is neither. Nothing is installed: the tests run with what the person has (their `vendor/`),
 * else with the system's `phpunit`.
 */
export async function readPhpProject(root: string): Promise<PhpProjectFacts | undefined> {
  const composerText = await readProjectFile(root, 'composer.json');
  let composer: Record<string, unknown> = {};
  const notes: string[] = [];
  if (composerText !== undefined) {
    try {
      const parsed = JSON.parse(composerText) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) composer = parsed as Record<string, unknown>;
    } catch {
      notes.push('composer.json is not valid JSON: its autoload folders were not read.');
    }
  }
  const devFolders = autoloadFolders(composer['autoload-dev']);
  const guess = devFolders[0] ?? ((await isProjectFolder(root, 'tests')) ? 'tests' : undefined);
  const setup = await phpunitSetup(root, guess);
  if (!setup) return undefined;
  const sourceRoots = autoloadFolders(composer.autoload);
  if (!setup.bootstrap && !setup.autoload && !setup.command.startsWith('vendor/') && sourceRoots.length > 0)
    notes.push(
      `${setup.config ?? 'There is no phpunit.xml, which'} names no bootstrap and there is no vendor/autoload.php: the tests load only the classes they require themselves. Run composer install, or name a bootstrap in ${setup.config ?? 'phpunit.xml'}.`,
    );
  const manifests = [...(composerText !== undefined ? ['composer.json'] : []), ...(setup.config ? [setup.config] : [])];
  return {
    manifests,
    command: setup.command,
    patterns: [`**/*${setup.suffix}`],
    sourceRoots,
    ...((setup.directories[0] ?? guess) ? { testDir: setup.directories[0] ?? guess } : {}),
    notes,
  };
}
