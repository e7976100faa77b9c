import type { Kata } from '../kata/kataSchema';
import { type Language } from '../../vocabulary';

/** What a scaffold needs from the kata. */
export type ScaffoldKata = Pick<Kata, 'slug' | 'title' | 'sourceDir' | 'testDir'>;

/** The files of a minimal project, and how its tests run. */
export interface ScaffoldPlan {
  files: Record<string, string>;
  testCommand: string;
  /** True when `npm install` must run before the tests can (TypeScript needs tsx). */
  needsInstall: boolean;
  notes: string[];
}

const keep = (dir: string): string => (dir === '.' ? '.gitkeep' : `${dir}/.gitkeep`);
const packageName = (slug: string): string => `${slug}-kata`.replace(/^[._]/, 'x');
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * JavaScript: ES modules and `node --test`, nothing to install. node --test finds `*.test.js` anywhere
 * and every `.js` under `test/`; with no test files it reports zero tests, which the runner reads as
 * "no tests yet".
 */
function javascript(kata: ScaffoldKata): ScaffoldPlan {
  return {
    files: {
      'package.json': json({
        name: packageName(kata.slug),
        version: '0.0.0',
        private: true,
        type: 'module',
        scripts: { test: 'node --test' },
      }),
      '.gitignore': 'node_modules/\ncoverage/\n*.log\n',
      [keep(kata.sourceDir)]: '',
      [keep(kata.testDir)]: '',
    },
    testCommand: 'node --test',
    needsInstall: false,
    notes:
      kata.testDir === 'test'
        ? []
        : [`Name test files *.test.js: node --test only finds other files under test/, not ${kata.testDir}/.`],
  };
}

/**
 * TypeScript: Node 20 cannot run `.ts` by itself (type stripping arrived in Node 22.6), and node --test
 * does not discover `.ts` files before Node 23, so tests run through `tsx --test` on the files `find`
 * lists (a POSIX shell is assumed). tsx and typescript are devDependencies: `npm install` first — until
 * then the runner reports "test runner not installed".
 */
function typescript(kata: ScaffoldKata): ScaffoldPlan {
  const testCommand = `tsx --test $(find ${kata.testDir} -name '*.test.ts' -not -path '*/node_modules/*' 2>/dev/null)`;
  return {
    files: {
      'package.json': json({
        name: packageName(kata.slug),
        version: '0.0.0',
        private: true,
        type: 'module',
        scripts: { test: testCommand, typecheck: 'tsc --noEmit' },
        devDependencies: { '@types/node': '^20.19.0', tsx: '^4.19.0', typescript: '^5.6.0' },
      }),
      'tsconfig.json': json({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          types: ['node'],
        },
        include: [kata.sourceDir, kata.testDir],
      }),
      '.gitignore': 'node_modules/\ncoverage/\n*.log\n',
      [keep(kata.sourceDir)]: '',
      [keep(kata.testDir)]: '',
    },
    testCommand,
    needsInstall: true,
    notes: ['Run `npm install` in the workspace first: TypeScript tests run through tsx (a devDependency).'],
  };
}

/**
 * Python: pytest with `pythonpath` holding the workspace root and the source folder (pytest ≥ 7), so tests
 * import modules by their plain name (`from fizzbuzz import fizzbuzz`) wherever the kata puts them. No
 * `testpaths`: pytest collects `test_*.py` at the root and under the test folder alike, so a kata that asks
 * for files at the root is never contradicted. With no tests pytest says "no tests ran", which the runner
 * reads as "no tests yet".
 */
function python(kata: ScaffoldKata): ScaffoldPlan {
  const list = (dirs: string[]): string => `[${[...new Set(dirs)].map((d) => `"${d.replace(/"/g, '')}"`).join(', ')}]`;
  return {
    files: {
      'pyproject.toml':
        `[project]\nname = "${packageName(kata.slug)}"\nversion = "0.0.0"\nrequires-python = ">=3.9"\n\n` +
        `[tool.pytest.ini_options]\npythonpath = ${list(['.', kata.sourceDir])}\n`,
      '.gitignore': '__pycache__/\n*.pyc\n.pytest_cache/\n.venv/\n',
      [keep(kata.sourceDir)]: '',
      [keep(kata.testDir)]: '',
    },
    testCommand: 'python3 -m pytest',
    needsInstall: false,
    notes: [],
  };
}

/**
 * Go: a module (`go.mod`, named after the kata, `go 1.18` so that any toolchain from then on builds it) and nothing
 * else: the Tester's first `_test.go` file makes the package, beside the code. `go test ./...` with no package says
 * "no packages to test", which the runner reads as "no tests yet".
 */
function go(kata: ScaffoldKata): ScaffoldPlan {
  const module = kata.slug.replace(/[^A-Za-z0-9._~/-]/g, '-').replace(/^[-./]+/, '') || 'kata';
  return {
    files: { 'go.mod': `module ${module}\n\ngo 1.18\n`, '.gitignore': '*.test\n*.out\n' },
    testCommand: 'go test ./...',
    needsInstall: false,
    notes: [],
  };
}

/**
 * Ruby: a Gemfile that names RSpec (for the person's `bundle install` later; a session runs the installed `rspec`
 * directly, offline) and `.rspec` loading `spec_helper`, which puts nothing in the way: rspec already has `lib/` and
 * `spec/` on the load path, so a spec's `require 'fizzbuzz'` finds `lib/fizzbuzz.rb`.
 */
function ruby(kata: ScaffoldKata): ScaffoldPlan {
  const dir = (folder: string): string => (folder === '.' ? '' : `${folder}/`);
  return {
    files: {
      Gemfile: 'source "https://rubygems.org"\n\ngem "rspec", "~> 3.12"\n',
      '.rspec': '--require spec_helper\n',
      [`${dir(kata.testDir)}spec_helper.rb`]: `RSpec.configure do |config|\n  config.disable_monkey_patching!\nend\n`,
      [keep(kata.sourceDir)]: '',
    },
    testCommand: 'rspec',
    needsInstall: false,
    notes: [],
  };
}

/**
 * The bootstrap of a PHP kata (`tests/bootstrap.php`, named by phpunit.xml): Composer's autoloader when `composer
 * install` made one, else the PSR-4 folders of composer.json's `autoload` and `autoload-dev` registered as Composer
 * would, and its `autoload.files`, so that the system's `phpunit` runs the tests with no `vendor/` (a session installs
 * nothing).
 */
export const PHP_BOOTSTRAP = `<?php
// Loads the code under test: Composer's autoloader when there is one, else composer.json's PSR-4 folders, as Composer
// maps them, so that the tests run without \`composer install\`.
declare(strict_types=1);

$root = dirname(__DIR__);
if (is_file($root . '/vendor/autoload.php')) {
    require $root . '/vendor/autoload.php';
    return;
}
$composer = json_decode((string) @file_get_contents($root . '/composer.json'), true);
$composer = is_array($composer) ? $composer : [];
$prefixes = array_merge($composer['autoload']['psr-4'] ?? [], $composer['autoload-dev']['psr-4'] ?? []);
spl_autoload_register(static function (string $class) use ($root, $prefixes): void {
    foreach ($prefixes as $prefix => $dirs) {
        if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
            continue;
        }
        foreach ((array) $dirs as $dir) {
            $file = $root . '/' . rtrim($dir, '/') . '/' . str_replace('\\\\', '/', substr($class, strlen($prefix))) . '.php';
            if (is_file($file)) {
                require $file;
                return;
            }
        }
    }
});
foreach ($composer['autoload']['files'] ?? [] as $file) {
    require_once $root . '/' . $file;
}
`;

/**
 * PHP: a Composer package whose classes are in the source folder, in the global namespace (`"psr-4": {"": "src/"}`:
 * `FizzBuzz` is `src/FizzBuzz.php`), and PHPUnit's `phpunit.xml` naming the test folder (`*Test.php`) and the bootstrap
 * above; no `vendor/`, so the system's `phpunit` runs it offline. With no test file PHPUnit says "No tests executed!",
 * which the runner reads as "no tests yet".
 */
function php(kata: ScaffoldKata): ScaffoldPlan {
  const dir = (folder: string): string => (folder === '.' ? '' : `${folder}/`);
  const tests = kata.testDir === '.' ? '.' : kata.testDir;
  return {
    files: {
      'composer.json': json({
        name: `kata/${
          kata.slug
            .toLowerCase()
            .replace(/[^a-z0-9_.-]+/g, '-')
            .replace(/^[^a-z0-9]+/, '') || 'kata'
        }`,
        description: kata.title,
        type: 'project',
        autoload: { 'psr-4': { '': dir(kata.sourceDir) || './' } },
        'require-dev': { 'phpunit/phpunit': '^9.6' },
      }),
      'phpunit.xml': [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<phpunit bootstrap="${dir(kata.testDir)}bootstrap.php" colors="false" cacheResult="false">`,
        '    <testsuites>',
        '        <testsuite name="kata">',
        `            <directory suffix="Test.php">${tests}</directory>`,
        '        </testsuite>',
        '    </testsuites>',
        '</phpunit>',
        '',
      ].join('\n'),
      [`${dir(kata.testDir)}bootstrap.php`]: PHP_BOOTSTRAP,
      '.gitignore': 'vendor/\n.phpunit.result.cache\n.phpunit.cache/\n',
      [keep(kata.sourceDir)]: '',
    },
    testCommand: 'phpunit',
    needsInstall: false,
    notes: [],
  };
}

/** A Cargo package name for a kata: its slug, with what a crate name may not hold as `_` (`leap-year`). */
export function crateNameOf(slug: string): string {
  const name = slug.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^[-_]+/, '');
  return /^[A-Za-z]/.test(name) ? name : `kata_${name}`;
}

/**
 * Rust: a library crate (`Cargo.toml` named after the kata, edition 2021, no dependencies; an empty `src/lib.rs`, since
 * a package needs a target) and its `Cargo.lock` (version 3, which every cargo from 1.53 on reads and none rewrites
 * offline), so that the first run writes nothing the roles would seem to have changed. The tests: a file under `tests/`
 * (`use <crate>::…`), or a `#[cfg(test)] mod tests` in `src/lib.rs` that only the Tester changes. `cargo test` with no
 * test says `running 0 tests`: no tests yet.
 */
function rust(kata: ScaffoldKata): ScaffoldPlan {
  const name = crateNameOf(kata.slug);
  return {
    files: {
      'Cargo.toml': `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n`,
      'Cargo.lock':
        '# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 3\n\n' +
        `[[package]]\nname = "${name}"\nversion = "0.1.0"\n`,
      'src/lib.rs': '',
      '.gitignore': '/target\n',
      [keep(kata.testDir)]: '',
    },
    testCommand: 'cargo test',
    needsInstall: false,
    notes: [],
  };
}

/** A Maven artifactId for a kata: its slug in lower case, with what an id may not hold as `-`. */
export function artifactIdOf(slug: string): string {
  return (
    slug
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '') || 'kata'
  );
}

/**
 * Java: a Maven project (`pom.xml`: JUnit Jupiter 5.10.2 for the tests, Java 17, UTF-8) whose test run is
 * `mvn -o -B test`. The plugins are pinned because a session builds offline, from the person's `~/.m2/repository`:
 * Maven's own defaults (surefire 2.12.4, resources 2.6) predate JUnit 5 and are rarely complete in a local
 * repository, while surefire 3.2.5, resources 3.3.1 and compiler 3.11.0 are what a Maven 3.8–3.9 user's builds have
 * fetched (and what the CI machine's repository holds). `target/` is Maven's build folder, ignored. With no test
 * Surefire says `No tests to run.`: no tests yet.
 */
function java(kata: ScaffoldKata): ScaffoldPlan {
  const plugin = (id: string, version: string): string[] => [
    '      <plugin>',
    '        <groupId>org.apache.maven.plugins</groupId>',
    `        <artifactId>${id}</artifactId>`,
    `        <version>${version}</version>`,
    '      </plugin>',
  ];
  const folder = (tag: string, dir: string, usual: string): string[] => (dir === usual ? [] : [`    <${tag}>${dir}</${tag}>`]);
  const pom = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<project xmlns="http://maven.apache.org/POM/4.0.0">',
    '  <modelVersion>4.0.0</modelVersion>',
    '  <groupId>kata</groupId>',
    `  <artifactId>${artifactIdOf(kata.slug)}</artifactId>`,
    '  <version>0.1.0</version>',
    '  <properties>',
    '    <maven.compiler.release>17</maven.compiler.release>',
    '    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>',
    '  </properties>',
    '  <dependencies>',
    '    <dependency>',
    '      <groupId>org.junit.jupiter</groupId>',
    '      <artifactId>junit-jupiter</artifactId>',
    '      <version>5.10.2</version>',
    '      <scope>test</scope>',
    '    </dependency>',
    '  </dependencies>',
    '  <build>',
    ...folder('sourceDirectory', kata.sourceDir, 'src/main/java'),
    ...folder('testSourceDirectory', kata.testDir, 'src/test/java'),
    '    <plugins>',
    ...plugin('maven-surefire-plugin', '3.2.5'),
    ...plugin('maven-resources-plugin', '3.3.1'),
    ...plugin('maven-compiler-plugin', '3.11.0'),
    '    </plugins>',
    '  </build>',
    '</project>',
    '',
  ].join('\n');
  return {
    files: { 'pom.xml': pom, '.gitignore': 'target/\n', [keep(kata.sourceDir)]: '', [keep(kata.testDir)]: '' },
    testCommand: 'mvn -o -B test',
    needsInstall: false,
    notes: [],
  };
}

/** The minimal project for a language (pure: nothing is written). */
export function scaffoldPlan(language: Language, kata: ScaffoldKata): ScaffoldPlan {
  switch (language) {
    case 'javascript':
      return javascript(kata);
    case 'typescript':
      return typescript(kata);
    case 'python':
      return python(kata);
    case 'go':
      return go(kata);
    case 'rust':
      return rust(kata);
    case 'java':
      return java(kata);
    case 'php':
      return php(kata);
    case 'ruby':
      return ruby(kata);
  }
}
