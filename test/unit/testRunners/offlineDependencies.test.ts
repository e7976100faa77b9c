import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { missingOfflineDependency } from '../../../src/core/testRunners/offlineDependencies';

/** Each toolchain's own words, recorded offline on this machine (test/fixtures/offline-output). */
const recorded = (name: string): string => readFileSync(join(__dirname, '../../fixtures/offline-output', name), 'utf8');

describe('missingOfflineDependency: a dependency the offline caches lack, and the command that fetches it', () => {
  const cases: Array<[file: string, fetch: string, line: RegExp]> = [
    ['cargo-no-matching-package.txt', 'cargo fetch', /^error: no matching package named `itoa` found$/],
    ['go-module-lookup-disabled.txt', 'go mod download', /^g\.go:2:8: module lookup disabled by GOPROXY=off$/],
    [
      'maven-not-downloaded.txt',
      'mvn dependency:go-offline',
      /^Cannot access central \(https:\/\/repo.maven.apache.org\/maven2\) in offline mode and the artifact org\.apache\.maven:maven-project:jar:2\.0\.6 has not/,
    ],
    ['phpunit-no-vendor.txt', 'composer install', /^Cannot open file "vendor\/autoload\.php"\.$/],
  ];
  for (const [file, fetch, line] of cases) {
    it(`${file}: ${fetch}`, () => {
      const found = missingOfflineDependency(recorded(file));
      assert.equal(found?.fetch, fetch);
      assert.match(found.line, line);
    });
  }

  it('a failing test that merely prints such words is not taken for one (the line must be the toolchain’s own)', () => {
    const output = '--- FAIL: TestLookup (0.00s)\n    shop_test.go:9: want "no matching package named `x` found", got ""\nFAIL\n';
    assert.equal(missingOfflineDependency(output), undefined);
  });

  it('a run with nothing missing says nothing', () => {
    assert.equal(missingOfflineDependency('ok  \texample.com/shop\t0.003s\n'), undefined);
  });
});
