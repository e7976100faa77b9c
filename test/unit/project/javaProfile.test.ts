import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeProjectProfile } from '../../../src/core/project/describeProfile';
import { detectProjectProfile } from '../../../src/core/project/detectProjectProfile';
import { parseKata } from '../../../src/core/tdd/kata/parseKata';
import { scaffoldPlan } from '../../../src/core/tdd/scaffold/scaffoldFiles';
import { checkTestRunner } from '../../../src/core/tdd/supervisor/preflight';
import { sandboxEnvironment } from '../../../src/core/osSandbox/sandboxEnvironment';
import { mavenOffline } from '../../../src/core/testRunners/commandTestRunner';

const POM = (body = ''): string =>
  `<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n${body}</project>\n`;

describe('a Java project: its profile, its scaffold, its test command', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'java-profile-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads pom.xml: language java, mvn offline in batch mode, src/test as tests, src/main/java as source', async () => {
    await writeFile(join(dir, 'pom.xml'), POM());
    const profile = await detectProjectProfile(dir, { env: { PATH: '' } });
    assert.equal(profile.language, 'java');
    assert.equal(profile.testRunner, 'maven');
    assert.equal(profile.testCommand, 'mvn -o -B test');
    assert.deepEqual(profile.sourceRoots, ['src/main/java']);
    assert.equal(profile.testDir, 'src/test/java');
    assert.deepEqual(profile.testFilePatterns, ['src/test/**', 'src/test/java/**']);
    assert.deepEqual(profile.manifests, ['pom.xml']);
    assert.match(describeProjectProfile(profile).summary, /^Java, Maven Surefire \(`mvn -o -B test`\)/);
  });

  it("a multi-module build: each module's folders (as its POM moves them); a repository's ./mvnw only when no mvn is installed", async () => {
    await writeFile(
      join(dir, 'pom.xml'),
      POM('  <modules>\n    <module>core</module>\n    <module>app</module>\n  </modules>\n'),
    );
    await mkdir(join(dir, 'core'));
    await mkdir(join(dir, 'app'));
    await writeFile(join(dir, 'core/pom.xml'), POM());
    await writeFile(
      join(dir, 'app/pom.xml'),
      POM('  <build>\n    <testSourceDirectory>test</testSourceDirectory>\n  </build>\n'),
    );
    await writeFile(join(dir, 'mvnw'), '#!/bin/sh\n');
    const profile = await detectProjectProfile(dir, { env: { PATH: '' } });
    assert.equal(profile.testCommand, './mvnw -o -B test');
    assert.deepEqual(profile.sourceRoots, ['core/src/main/java', 'app/src/main/java']);
    assert.equal(profile.testDir, 'core/src/test/java');
    assert.deepEqual(profile.testFilePatterns, ['src/test/**', 'core/src/test/**', 'app/test/**', 'core/src/test/java/**']);
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'mvn'), '#!/bin/sh\n', { mode: 0o755 });
    assert.equal((await detectProjectProfile(dir, { env: { PATH: bin } })).testCommand, 'mvn -o -B test');
  });

  it('a Gradle build is Java too, run offline (read from the convention only)', async () => {
    await writeFile(join(dir, 'build.gradle.kts'), 'plugins { java }\n');
    const profile = await detectProjectProfile(dir, { env: { PATH: '' } });
    assert.equal(profile.language, 'java');
    assert.equal(profile.testCommand, 'gradle test --offline');
    assert.deepEqual(profile.manifests, ['build.gradle.kts']);
  });

  it('a kata in Java gets a pom.xml with the plugins pinned for offline builds, and target/ ignored', () => {
    const plan = scaffoldPlan('java', {
      slug: 'leap-year',
      title: 'Leap Year',
      sourceDir: 'src/main/java',
      testDir: 'src/test/java',
    });
    assert.deepEqual(Object.keys(plan.files).sort(), [
      '.gitignore',
      'pom.xml',
      'src/main/java/.gitkeep',
      'src/test/java/.gitkeep',
    ]);
    assert.equal(plan.testCommand, 'mvn -o -B test');
    assert.equal(plan.files['.gitignore'], 'target/\n');
    const pom = plan.files['pom.xml']!;
    assert.match(pom, /<artifactId>leap-year<\/artifactId>/);
    for (const pin of [
      'junit-jupiter</artifactId>\n      <version>5.10.2',
      'maven-surefire-plugin</artifactId>\n        <version>3.2.5',
    ])
      assert.ok(pom.includes(pin), pin);
    assert.doesNotMatch(pom, /sourceDirectory/);
  });

  it('a missing mvn says what to install, in one line', async () => {
    const kata = parseKata('---\ntitle: Leap\nlanguage: java\n---\n# Leap\n');
    await assert.rejects(checkTestRunner(kata, { env: { PATH: dir } }), (e: Error) => {
      assert.match(
        e.message,
        /^The tests run with 'mvn -o -B test', but 'mvn' is not installed or not on PATH\. Install a JDK and Maven \(Debian and Ubuntu: apt-get install default-jdk-headless maven;/,
      );
      return true;
    });
  });

  it("the sandbox gets MAVEN_OPTS only as a Maven run sets it (the local repository), never the person's own", () => {
    const opts = mavenOffline({ HOME: '/home/p' }).MAVEN_OPTS;
    assert.equal(opts, '-Dmaven.repo.local=/home/p/.m2/repository');
    assert.equal(sandboxEnvironment({ MAVEN_OPTS: opts }).MAVEN_OPTS, opts);
    assert.equal(sandboxEnvironment({ MAVEN_OPTS: '-Dhttp.proxyPassword=hunter2' }).MAVEN_OPTS, undefined);
    assert.equal(sandboxEnvironment({ JAVA_HOME: '/usr/lib/jvm/java-17' }).JAVA_HOME, '/usr/lib/jvm/java-17');
  });
});
