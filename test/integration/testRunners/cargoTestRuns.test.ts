import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';
import { requireCargo } from '../../support/rustToolchain';
import { createWorktree, requireBubblewrap } from '../osSandbox/fixture';

/** The crate recorded in test/fixtures/cargo-test-output: unit tests in two files, an integration test file, a doc-test. */
const CRATE = resolve('test/fixtures/cargo-test-output/crate');

describe('cargo test in the sandbox, with the real toolchain', function () {
  this.timeout(240_000);

  before(async function () {
    requireCargo(this);
    await requireBubblewrap(this);
  });

  it('runs offline in the bubblewrap sandbox, builds in the session’s .tdd, and judges each test by identity', async () => {
    const fixture = createWorktree();
    try {
      cpSync(CRATE, fixture.worktree, { recursive: true });
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      assert.equal(runner.kind, 'cargo-test');
      assert.equal(runner.command, 'cargo test');
      const result = await runner.run();
      assert.equal(result.status, 'failed', result.output);
      assert.deepEqual([result.passed, result.failed, result.total], [4, 3, 8]);
      assert.deepEqual(result.tests?.map((t) => `${t.id} ${t.outcome}`).sort(), [
        'src/counting.rs::tests > counts_words passed',
        'src/counting.rs::tests > prints_then_fails failed',
        'src/lib.rs::doc-test > shout passed',
        'src/lib.rs::tests > shouts_a_word passed',
        'src/lib.rs::tests > shouts_an_empty_word failed',
        'src/lib.rs::tests > shouts_in_greek skipped',
        'tests/shouting.rs::nested > panics_with_a_message failed',
        'tests/shouting.rs::shouts_twice passed',
      ]);
      // Every binary ran though the first failed (--no-fail-fast); the panic is the message, not a backtrace.
      assert.match(result.output, /^\s*Doc-tests words$/m);
      assert.doesNotMatch(result.output, /stack backtrace:/);
      // The build is the session's, out of the worktree's own target/ and out of every commit.
      assert.equal(existsSync(join(fixture.worktree, 'target')), false);
      assert.equal(readFileSync(join(fixture.worktree, '.tdd/cargo-target/.gitignore'), 'utf8'), '*\n');
    } finally {
      fixture.cleanup();
    }
  });

  it('a new test calling a function the crate does not have: a missing name, not a crash', async () => {
    const fixture = createWorktree();
    try {
      cpSync(CRATE, fixture.worktree, { recursive: true });
      const lib = join(fixture.worktree, 'src/lib.rs');
      writeFileSync(
        lib,
        readFileSync(lib, 'utf8').replace(
          '    #[test]\n    fn shouts_a_word',
          '    #[test]\n    fn whispers_a_word() {\n        assert_eq!(whisper("HEY"), "hey...");\n    }\n\n    #[test]\n    fn shouts_a_word',
        ),
      );
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const result = await (await detectTestRunner(fixture.worktree, { sandbox })).run();
      assert.equal(result.status, 'error', result.output);
      assert.equal(result.errorKind, 'missing_export');
      assert.equal(result.missingName, 'whisper');
      assert.match(
        result.reason ?? '',
        /'whisper' does not exist yet — src\/lib\.rs: error\[E0425\]: cannot find function `whisper`/,
      );
    } finally {
      fixture.cleanup();
    }
  });

  it("the person's registry cache under the hidden HOME is read-only, its tokens and HOME's key unreadable", async () => {
    const fixture = createWorktree();
    try {
      const cargoHome = join(fixture.home, '.cargo');
      mkdirSync(join(cargoHome, 'registry/cache'), { recursive: true });
      mkdirSync(join(cargoHome, 'bin'), { recursive: true });
      writeFileSync(join(cargoHome, 'credentials.toml'), '[registry]\ntoken = "cio-SECRET"\n');
      const ws = fixture.worktree;
      mkdirSync(join(ws, 'src'));
      writeFileSync(join(ws, 'Cargo.toml'), '[package]\nname = "guarded"\nversion = "0.1.0"\nedition = "2021"\n');
      writeFileSync(
        join(ws, 'src/lib.rs'),
        [
          '#[cfg(test)]',
          'mod tests {',
          '    use std::{env, fs, path::Path};',
          '',
          '    #[test]',
          '    fn the_registry_cache_is_readable_not_writable() {',
          '        let registry = Path::new(&env::var("CARGO_HOME").unwrap()).join("registry");',
          '        assert!(registry.join("cache").is_dir());',
          '        assert!(fs::write(registry.join("planted"), "x").is_err());',
          '    }',
          '',
          '    #[test]',
          '    fn the_registry_token_is_hidden() {',
          '        assert!(fs::read(Path::new(&env::var("CARGO_HOME").unwrap()).join("credentials.toml")).is_err());',
          '    }',
          '',
          '    #[test]',
          '    fn home_is_hidden() {',
          '        assert!(fs::read(Path::new(&env::var("HOME").unwrap()).join(".ssh/id_ed25519")).is_err());',
          '    }',
          '',
          '    #[test]',
          '    fn cargo_runs_offline() {',
          '        assert_eq!(env::var("CARGO_NET_OFFLINE").as_deref(), Ok("true"));',
          '    }',
          '}',
          '',
        ].join('\n'),
      );
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      // The person's cargo is on PATH under their HOME (rustup's proxies), its toolchains where rustup keeps them.
      const rustup = process.env.RUSTUP_HOME ?? join(homedir(), '.rustup');
      const env = { HOME: fixture.home, CARGO_HOME: cargoHome, ...(existsSync(rustup) ? { RUSTUP_HOME: rustup } : {}) };
      const result = await (await detectTestRunner(ws, { sandbox, env })).run();
      assert.equal(result.status, 'passed', result.output);
      assert.equal(result.tests?.length, 4, result.output);
      assert.equal(existsSync(join(cargoHome, 'registry/planted')), false);
    } finally {
      fixture.cleanup();
    }
  });
});
