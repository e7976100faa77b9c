import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { MAVEN_TEST_COMMAND, mavenModules, sourceFolder, testSourceFolder } from '../testRunners/mavenSetup';
import { readProjectFile } from './projectFiles';

/** What a Java project's build (Maven's `pom.xml`, else Gradle's `build.gradle(.kts)`) says. */
export interface JavaProjectFacts {
  build: 'maven' | 'gradle';
  /** The manifests found at the root: `pom.xml`, `build.gradle`, `build.gradle.kts`. */
  manifests: string[];
  /**
   * Maven: the system's `mvn -o -B test` (offline, no colours), the repository's `./mvnw` only when no `mvn` is
   * installed; Gradle: `gradle test --offline`, else `./gradlew test --offline`.
   */
  command: string;
  /** Every module's test folder, whole: its classes and its resources (`src/test/**`). */
  patterns: string[];
  /** Each module's `src/main/java` (or its POM's `sourceDirectory`). */
  sourceRoots: string[];
  /** The first module's `src/test/java` (or its POM's `testSourceDirectory`). */
  testDir: string;
}

async function onPath(program: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  for (const dir of (env.PATH ?? '').split(delimiter))
    if (
      isAbsolute(dir) &&
      (await access(join(dir, program), constants.X_OK).then(
        () => true,
        () => false,
      ))
    )
      return true;
  return false;
}

/**
 * The facts of a Java project at `root` (its `pom.xml`, else its `build.gradle(.kts)`), or undefined when there is
 * neither. A wrapper script the repository ships (`mvnw`, `gradlew`) is the repository's code: it is named only when
 * the tool itself is not installed, and then runs in the sandbox like any test command. Gradle's is read from the
 * convention only (its build script is a program): untested with a real gradle.
 */
export async function readJavaProject(root: string, env: NodeJS.ProcessEnv = process.env): Promise<JavaProjectFacts | undefined> {
  const modules = await mavenModules(root);
  if (modules.length > 0) {
    const command =
      (await onPath('mvn', env)) || (await readProjectFile(root, 'mvnw')) === undefined
        ? MAVEN_TEST_COMMAND
        : './mvnw -o -B test';
    // A module without code of its own (a parent POM) still counts: its folders are where they would be.
    const withCode = modules.length > 1 ? modules.filter((m) => m.dir !== '.') : modules;
    return {
      build: 'maven',
      manifests: ['pom.xml'],
      command,
      patterns: [...new Set(modules.map((m) => `${testSourceFolder(m).replace(/\/java$/, '')}/**`))],
      sourceRoots: [...new Set(withCode.map(sourceFolder))],
      testDir: testSourceFolder(withCode[0]!),
    };
  }
  const gradle = (
    await Promise.all(
      ['build.gradle', 'build.gradle.kts'].map(async (n) => ((await readProjectFile(root, n)) === undefined ? [] : [n])),
    )
  ).flat();
  if (gradle.length === 0) return undefined;
  const command =
    (await onPath('gradle', env)) || (await readProjectFile(root, 'gradlew')) === undefined
      ? 'gradle test --offline'
      : './gradlew test --offline';
  return {
    build: 'gradle',
    manifests: gradle,
    command,
    patterns: ['src/test/**'],
    sourceRoots: ['src/main/java'],
    testDir: 'src/test/java',
  };
}
