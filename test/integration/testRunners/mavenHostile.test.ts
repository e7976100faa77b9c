import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import { detectProjectProfile } from '../../../src/core/project/detectProjectProfile';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';
import { requireMaven } from '../../support/javaToolchain';
import { createWorktree, requireBubblewrap, type WorktreeFixture } from '../osSandbox/fixture';

/** The Maven project of the suite (com.acme:textcase, 36 JUnit 5 tests), which builds offline from ~/.m2. */
const PROJECT = resolve('test/fixtures/projects/java-maven');
const KEY = 'PRIVATE KEY OF THE PERSON\n';

/** A loopback HTTP server that counts the connections made to it (a Maven repository the pom names, or a test's socket). */
async function countingServer(): Promise<{ server: Server; url: string; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('connection', () => connections++);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/maven2`, port, connections: () => connections };
}

/** The person's files a repository's code must not reach: beside the worktree, HOME's key, the checkout. */
function targets(fixture: WorktreeFixture): { outside: string; key: string; checkout: string } {
  return {
    outside: join(fixture.root, 'written-outside'),
    key: join(fixture.home, '.ssh', 'id_ed25519'),
    checkout: join(fixture.repo, 'planted'),
  };
}

/** HOME's Maven folder: its local repository (this machine's ~/.m2/repository) and settings that hold passwords. */
function mavenHome(fixture: WorktreeFixture): { repository: string; settings: string; security: string } {
  const m2 = join(fixture.home, '.m2');
  return {
    repository: join(m2, 'repository'),
    settings: join(m2, 'settings.xml'),
    security: join(m2, 'settings-security.xml'),
  };
}

function fillMavenHome(fixture: WorktreeFixture): void {
  const { repository, settings, security } = mavenHome(fixture);
  mkdirSync(join(fixture.home, '.m2'));
  // The plugins and JUnit the build reads offline, as links to this machine's (a copy across file systems).
  const source = realpathSync(join(homedir(), '.m2', 'repository'));
  try {
    execFileSync('cp', ['-al', source, repository], { stdio: 'ignore' });
  } catch {
    rmSync(repository, { recursive: true, force: true });
    execFileSync('cp', ['-a', source, repository]);
  }
  writeFileSync(settings, SETTINGS);
  writeFileSync(security, '<settingsSecurity><master>{MASTER-PASSWORD}</master></settingsSecurity>\n');
}

const SETTINGS =
  '<settings><servers><server><id>corp</id><username>person</username><password>SERVER-PASSWORD</password></server></servers></settings>\n';

function assertNothingOutside(fixture: WorktreeFixture): void {
  const { outside, key, checkout } = targets(fixture);
  assert.ok(!existsSync(outside), 'nothing written beside the worktree');
  assert.equal(readFileSync(key, 'utf8'), KEY, "HOME's key unchanged");
  assert.ok(!existsSync(checkout), "nothing written in the person's checkout");
}

/**
 * A JUnit 5 test of the repository that proves it ran (a report in the worktree) and tries the person's files, HOME's
 * Maven settings and a server on the host's loopback; each attempt's outcome is a line of the report.
 */
function plantedTest(fixture: WorktreeFixture, port: number): string {
  const { outside, key, checkout } = targets(fixture);
  const { settings, security, repository } = mavenHome(fixture);
  const java = (s: string): string => JSON.stringify(s);
  return `package com.acme.textcase;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlantedTest {
    interface Attempt {
        void run() throws Exception;
    }

    private static String attempt(String what, Attempt attempt) {
        try {
            attempt.run();
            return what + ": done";
        } catch (Exception e) {
            return what + ": refused";
        }
    }

    @Test
    void triesThePersonsFiles() throws Exception {
        List<String> report = new ArrayList<>();
        report.add(attempt("outside", () -> Files.writeString(Path.of(${java(outside)}), "pwned\\n")));
        report.add(attempt("key", () -> Files.writeString(Path.of(${java(key)}), "pwned\\n", StandardOpenOption.APPEND)));
        report.add(attempt("checkout", () -> Files.writeString(Path.of(${java(checkout)}), "pwned\\n")));
        report.add(attempt("settings", () -> Files.readString(Path.of(${java(settings)}))));
        report.add(attempt("settings-security", () -> Files.readString(Path.of(${java(security)}))));
        report.add(attempt("m2", () -> {
            Path planted = Path.of(${java(repository)}, "com", "acme", "planted", "planted.pom");
            Files.createDirectories(planted.getParent());
            Files.writeString(planted, "<project/>\\n");
        }));
        report.add(attempt("network", () -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", ${port}), 2000);
            }
        }));
        Files.write(Path.of("ran-in-sandbox"), report);
    }
}
`;
}

describe('a hostile Maven repository: its code runs only in the sandbox (real mvn, bubblewrap)', function () {
  this.timeout(300_000);

  before(async function () {
    requireMaven(this);
    await requireBubblewrap(this);
  });

  it('a test class of the repository writes nowhere but the worktree, reads no Maven settings and reaches no server', async () => {
    const fixture = createWorktree();
    const server = await countingServer();
    try {
      cpSync(PROJECT, fixture.worktree, { recursive: true });
      const planted = join(fixture.worktree, 'src/test/java/com/acme/textcase/PlantedTest.java');
      writeFileSync(planted, plantedTest(fixture, server.port));
      fillMavenHome(fixture);
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox, env: { HOME: fixture.home } });
      assert.equal(runner.command, 'mvn -o -B test');
      const result = await runner.run();
      assert.equal(result.status, 'passed', result.output);
      assert.equal(result.passed, 37, result.output);
      // Its writes beside the worktree and into the checkout may land in the sandbox's private /tmp, thrown away after
      // the run (the fixture lives under /tmp): what counts is that none reached the host's files, checked after.
      const report = readFileSync(join(fixture.worktree, 'ran-in-sandbox'), 'utf8').trim().split('\n');
      assert.deepEqual(report.slice(3), ['settings: refused', 'settings-security: refused', 'm2: refused', 'network: refused']);
      assertNothingOutside(fixture);
      assert.ok(!existsSync(join(mavenHome(fixture).repository, 'com', 'acme', 'planted')), '~/.m2/repository stays as it was');
      assert.equal(readFileSync(mavenHome(fixture).settings, 'utf8'), SETTINGS);
      assert.doesNotMatch(result.output, /SERVER-PASSWORD|MASTER-PASSWORD/);
      assert.equal(server.connections(), 0, 'no connection reached the host');
    } finally {
      server.server.close();
      fixture.cleanup();
    }
  });

  it("the repository's pom naming <repositories> and its .mvn/maven.config reach no server: the build stays offline", async () => {
    const fixture = createWorktree();
    const server = await countingServer();
    try {
      cpSync(PROJECT, fixture.worktree, { recursive: true });
      // A dependency no cache holds, from a repository the pom names; the repository's own settings (through
      // .mvn/maven.config) turn offline off and mirror everything to the same server, updates forced.
      const repository = (tag: string): string =>
        `<${tag}><id>bait</id><url>${server.url}</url><snapshots><enabled>true</enabled><updatePolicy>always</updatePolicy></snapshots></${tag}>`;
      const pomPath = join(fixture.worktree, 'pom.xml');
      const pom = readFileSync(pomPath, 'utf8')
        .replace(
          '  <dependencies>\n',
          '  <dependencies>\n    <dependency><groupId>com.acme.bait</groupId><artifactId>bait</artifactId><version>1.0-SNAPSHOT</version><scope>test</scope></dependency>\n',
        )
        .replace(
          '  <build>\n',
          `  <repositories>${repository('repository')}</repositories>\n  <pluginRepositories>${repository('pluginRepository')}</pluginRepositories>\n  <build>\n`,
        );
      assert.match(pom, /bait<\/artifactId>[\s\S]*<repositories>/, 'the pom names the dependency and the repository');
      writeFileSync(pomPath, pom);
      mkdirSync(join(fixture.worktree, '.mvn'));
      writeFileSync(
        join(fixture.worktree, '.mvn', 'settings.xml'),
        `<settings><offline>false</offline><mirrors><mirror><id>bait-mirror</id><mirrorOf>*</mirrorOf><url>${server.url}</url></mirror></mirrors></settings>\n`,
      );
      writeFileSync(join(fixture.worktree, '.mvn', 'maven.config'), '--settings .mvn/settings.xml\n--update-snapshots\n');
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      const result = await runner.run();
      assert.equal(result.status, 'error', result.output);
      assert.match(result.output, /com\.acme\.bait:bait:jar:1\.0-SNAPSHOT/, 'Maven looked for the dependency');
      assert.match(result.output, /offline/, 'and found it only offline');
      assert.equal(server.connections(), 0, 'no connection reached the server the pom and the settings name');
      assert.ok(!existsSync(join(homedir(), '.m2', 'repository', 'com', 'acme', 'bait')), 'nothing cached in ~/.m2');
    } finally {
      server.server.close();
      fixture.cleanup();
    }
  });

  it("the repository's ./mvnw, run when no mvn is installed, runs only in the sandbox", async () => {
    const fixture = createWorktree();
    try {
      cpSync(PROJECT, fixture.worktree, { recursive: true });
      const { outside, key, checkout } = targets(fixture);
      const script = [
        '#!/bin/sh',
        'echo ran > "$PWD/ran-in-sandbox"',
        `echo pwned > ${JSON.stringify(outside)}`,
        `echo pwned >> ${JSON.stringify(key)}`,
        `echo pwned > ${JSON.stringify(checkout)}`,
        'cat "$HOME/.m2/settings.xml" >> "$PWD/ran-in-sandbox"',
        'exit 0',
        '',
      ].join('\n');
      writeFileSync(join(fixture.worktree, 'mvnw'), script, { mode: 0o755 });
      // A PATH without mvn: the person has only the wrapper.
      const bin = join(fixture.root, 'bin');
      mkdirSync(bin);
      fillMavenHome(fixture);
      const profile = await detectProjectProfile(fixture.worktree, { env: { PATH: bin } });
      assert.equal(profile.testCommand, './mvnw -o -B test', "the project's own wrapper, as the person runs it");
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, {
        sandbox,
        testCommand: profile.testCommand,
        env: { HOME: fixture.home },
      });
      assert.equal(runner.kind, 'maven');
      assert.ok(!existsSync(join(fixture.worktree, 'ran-in-sandbox')), 'detecting the runner runs nothing');
      await runner.run();
      assert.equal(
        readFileSync(join(fixture.worktree, 'ran-in-sandbox'), 'utf8'),
        'ran\n',
        "it ran (in the sandbox), HOME's settings unread",
      );
      assertNothingOutside(fixture);
    } finally {
      fixture.cleanup();
    }
  });
});
