import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeProjectProfile } from '../../../src/core/project/describeProfile';
import { detectProjectProfile, resolveProjectProfile } from '../../../src/core/project/detectProjectProfile';
import { toolchainsUnderHome } from '../../../src/core/osSandbox/policyPaths';
import { sandboxEnvironment } from '../../../src/core/osSandbox/sandboxEnvironment';
import { isTestFile } from '../../../src/core/tdd/boundaries/isTestFile';
import { parseKata } from '../../../src/core/tdd/kata/parseKata';
import { scaffoldPlan } from '../../../src/core/tdd/scaffold/scaffoldFiles';
import { checkTestRunner } from '../../../src/core/tdd/supervisor/preflight';
import { cargoOffline } from '../../../src/core/testRunners/commandTestRunner';

describe('a Cargo crate: its profile, its scaffold, its offline test runs', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rust-profile-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads Cargo.toml: language rust, `cargo test`, tests/**/*.rs, src/ as source', async () => {
    await writeFile(join(dir, 'Cargo.toml'), '[package]\nname = "sizes"\nversion = "0.1.0"\nedition = "2021"\n');
    await mkdir(join(dir, 'src'));
    await mkdir(join(dir, 'tests'));
    await writeFile(join(dir, 'src/lib.rs'), '');
    await writeFile(join(dir, 'tests/parse.rs'), '');
    const profile = await detectProjectProfile(dir);
    assert.equal(profile.language, 'rust');
    assert.deepEqual(profile.languages, ['rust']);
    assert.equal(profile.testRunner, 'cargo-test');
    assert.equal(profile.testCommand, 'cargo test');
    assert.deepEqual(profile.testFilePatterns, ['tests/**/*.rs', 'tests/**']); // tests/common/mod.rs: support code
    assert.deepEqual(profile.sourceRoots, ['src']);
    assert.equal(profile.testDir, 'tests');
    assert.deepEqual(profile.manifests, ['Cargo.toml']);
    assert.equal(profile.fields.testCommand, 'detected');
    assert.match(describeProjectProfile(profile).summary, /^Rust, cargo test \(`cargo test`\)/);
    const rules = { testDir: profile.testDir, sourceDir: profile.sourceRoots[0], testFilePatterns: profile.testFilePatterns };
    assert.ok(isTestFile('tests/parse.rs', rules));
    assert.ok(!isTestFile('src/lib.rs', rules), 'a file with a mod tests is code; only its module is the tests’');
  });

  it('a workspace root runs every member, and takes each member’s tests/ as tests', async () => {
    await writeFile(join(dir, 'Cargo.toml'), '[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n');
    const profile = await resolveProjectProfile(dir, { readConfigFile: false });
    assert.equal(profile.language, 'rust');
    assert.equal(profile.testCommand, 'cargo test --workspace');
    assert.ok(isTestFile('crates/a/tests/it.rs', { testDir: profile.testDir, testFilePatterns: profile.testFilePatterns }));
  });

  it('a machine without cargo says so in one line, and what to install', async () => {
    const kata = parseKata(readFileSync('katas/fizzbuzz.md', 'utf8'), { fileName: 'fizzbuzz.md', language: 'rust' });
    assert.deepEqual([kata.sourceDir, kata.testDir], ['src', 'tests']);
    await assert.rejects(checkTestRunner(kata, { env: { PATH: dir } }), (e: Error) => {
      assert.equal(
        e.message,
        "The tests run with 'cargo test', but 'cargo' is not installed or not on PATH. Install Rust (Debian and Ubuntu: apt-get install cargo; macOS: brew install rust; or https://rustup.rs), or name another test command (testCommand in tdd-agent.json), then start again.",
      );
      return true;
    });
  });

  it('a kata in Rust gets a library crate with its lock file, so that the first run writes nothing', () => {
    const plan = scaffoldPlan('rust', { slug: 'leap-year', title: 'Leap Year', sourceDir: 'src', testDir: 'tests' });
    assert.deepEqual(Object.keys(plan.files).sort(), ['.gitignore', 'Cargo.lock', 'Cargo.toml', 'src/lib.rs', 'tests/.gitkeep']);
    assert.match(plan.files['Cargo.toml']!, /^\[package\]\nname = "leap-year"\n/);
    assert.match(plan.files['Cargo.lock']!, /\nversion = 3\n\n\[\[package\]\]\nname = "leap-year"\nversion = "0.1.0"\n$/);
    assert.equal(plan.testCommand, 'cargo test');
  });

  it('runs cargo offline, building in the session’s .tdd, and the sandbox passes what cargo reads, no token', () => {
    const env = cargoOffline({ HOME: '/home/ada' }, '/work/ws');
    assert.deepEqual(env, {
      CARGO_HOME: '/home/ada/.cargo',
      RUSTUP_HOME: '/home/ada/.rustup',
      CARGO_NET_OFFLINE: 'true',
      CARGO_TARGET_DIR: '/work/ws/.tdd/cargo-target',
      CARGO_TERM_COLOR: 'never',
      RUST_BACKTRACE: '0',
    });
    assert.equal(cargoOffline({ HOME: '/h', CARGO_HOME: '/opt/cargo' }, '/w').CARGO_HOME, '/opt/cargo');
    const inside = sandboxEnvironment({ ...env, CARGO_REGISTRY_TOKEN: 'cio-x', CARGO_REGISTRIES_CORP_TOKEN: 'y' });
    assert.equal(inside.CARGO_NET_OFFLINE, 'true');
    assert.equal(inside.RUSTUP_HOME, '/home/ada/.rustup');
    assert.equal(inside.CARGO_REGISTRY_TOKEN, undefined);
    assert.equal(inside.CARGO_REGISTRIES_CORP_TOKEN, undefined);
  });

  it('shows rustup’s toolchains and the registry cache under the hidden HOME, never the rest of ~/.cargo', async () => {
    const home = dir;
    for (const d of ['.cargo/bin', '.cargo/registry', '.cargo/git', '.rustup/toolchains'])
      await mkdir(join(home, d), { recursive: true });
    await writeFile(join(home, '.cargo/bin/cargo'), '');
    await writeFile(join(home, '.cargo/credentials.toml'), 'token = "x"\n');
    const shown = toolchainsUnderHome({ PATH: `${join(home, '.cargo/bin')}:/usr/bin` }, home);
    assert.deepEqual(
      shown.sort(),
      [join(home, '.cargo/bin'), join(home, '.cargo/git'), join(home, '.cargo/registry'), join(home, '.rustup')].sort(),
    );
    assert.deepEqual(toolchainsUnderHome({ PATH: '/usr/bin' }, home), [], 'no cargo on PATH: nothing of Rust’s');
  });
});
