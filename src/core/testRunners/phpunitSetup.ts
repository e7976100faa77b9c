import { access, constants } from 'node:fs/promises';
import { join } from 'node:path';
import { readTreeText } from '../workspaceSandbox/untrustedTree';
import { readXml, type XmlElement } from './reports/xmlReader';

/** How a PHP project's tests run, from PHPUnit's configuration and what Composer installed. */
export interface PhpunitSetup {
  /** PHPUnit's configuration file (`phpunit.xml` before `phpunit.xml.dist`, as PHPUnit reads them), when there is one. */
  config?: string;
  /** The configuration's `bootstrap`. */
  bootstrap?: string;
  /** The configuration's test folders (`<testsuite><directory>`), relative. */
  directories: string[];
  /** The test files' suffix (`Test.php`, or the configuration's). */
  suffix: string;
  /** True when Composer made an autoloader (`vendor/autoload.php`). */
  autoload: boolean;
  /**
   * The command: the project's own `vendor/bin/phpunit` when Composer installed it, else the system's `phpunit`
   * (with `--bootstrap vendor/autoload.php` when the configuration names no bootstrap and Composer made an autoloader;
   * with the test folder when there is no configuration). Nothing is ever installed: the tests run offline.
   */
  command: string;
}

const MAX_CONFIG_BYTES = 1024 * 1024;

/** A folder as PHPUnit's configuration names it, relative without `./` or a trailing slash; undefined outside the project. */
export function phpFolder(dir: string): string | undefined {
  const clean = dir.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  if (clean.startsWith('/') || clean.split('/').includes('..')) return undefined;
  return clean === '' || clean === '.' ? '.' : clean;
}

function* elements(element: XmlElement, name: string, depth = 0): Generator<XmlElement> {
  for (const child of element.children) {
    if (child.name === name) yield child;
    if (depth < 6) yield* elements(child, name, depth + 1);
  }
}

/** What a PHPUnit configuration says: its bootstrap, test folders and suffix (undefined when it is not one). */
function readConfig(text: string): { bootstrap?: string; directories: string[]; suffix?: string } | undefined {
  let root: XmlElement;
  try {
    root = readXml(text);
  } catch {
    return undefined;
  }
  if (root.name !== 'phpunit') return undefined;
  const directories: string[] = [];
  let suffix: string | undefined;
  for (const suite of elements(root, 'testsuite'))
    for (const dir of elements(suite, 'directory')) {
      const name = phpFolder(dir.text);
      if (name) directories.push(name);
      suffix ??= dir.attributes.suffix;
    }
  return { bootstrap: root.attributes.bootstrap, directories, suffix };
}

const exists = (path: string, mode: number): Promise<boolean> =>
  access(path, mode).then(
    () => true,
    () => false,
  );

/**
 * How the PHP project at `root` runs its tests (see {@link PhpunitSetup}), or undefined when it has neither a
 * composer.json nor a PHPUnit configuration. The files are read as a session's worktree is (no link followed).
 */
export async function phpunitSetup(root: string, testFolder = 'tests'): Promise<PhpunitSetup | undefined> {
  const [composer, xml, dist] = await Promise.all(
    ['composer.json', 'phpunit.xml', 'phpunit.xml.dist'].map((name) => readTreeText(root, name, MAX_CONFIG_BYTES)),
  );
  if (composer === undefined && xml === undefined && dist === undefined) return undefined;
  const config = xml !== undefined ? 'phpunit.xml' : dist !== undefined ? 'phpunit.xml.dist' : undefined;
  const read = readConfig(xml ?? dist ?? '');
  const [own, autoload] = await Promise.all([
    exists(join(root, 'vendor/bin/phpunit'), constants.X_OK),
    exists(join(root, 'vendor/autoload.php'), constants.R_OK),
  ]);
  const bootstrap = read?.bootstrap;
  const command = own
    ? 'vendor/bin/phpunit'
    : `phpunit${!bootstrap && autoload ? ' --bootstrap vendor/autoload.php' : ''}${config ? '' : ` ${testFolder}`}`;
  const suffix = read?.suffix && /^[\w.-]*\.php$/.test(read.suffix) ? read.suffix : 'Test.php';
  return {
    ...(config ? { config } : {}),
    ...(bootstrap ? { bootstrap } : {}),
    directories: read?.directories ?? [],
    suffix,
    autoload,
    command,
  };
}
