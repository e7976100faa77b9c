import { readTreeText } from '../workspaceSandbox/untrustedTree';
import { readXml, type XmlElement } from './reports/xmlReader';

/** Maven's test run in a session: offline (`-o`: only the local repository), in batch mode (`-B`: no colours, no progress). */
export const MAVEN_TEST_COMMAND = 'mvn -o -B test';

const MAX_POM_BYTES = 1024 * 1024;
/** How deep `<modules>` are followed, and how many modules at most: a build's shape, never a walk of the disk. */
const MAX_MODULE_DEPTH = 4;
const MAX_MODULES = 200;

/** What one POM says that the runs need: its modules, and its source and test folders when it moves them. */
export interface PomFacts {
  modules: string[];
  sourceDirectory?: string;
  testSourceDirectory?: string;
}

function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((c) => c.name === name);
}

/** A folder a POM names, relative to its own folder without `./` or a trailing slash; undefined outside it or with a property in it. */
export function pomFolder(dir: string): string | undefined {
  const clean = dir.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  if (clean === '' || clean.startsWith('/') || clean.includes('${') || clean.split('/').includes('..')) return undefined;
  return clean;
}

/** A POM's modules and folders (undefined when the text is not a POM). */
export function readPom(text: string): PomFacts | undefined {
  let root: XmlElement;
  try {
    root = readXml(text);
  } catch {
    return undefined;
  }
  if (root.name !== 'project') return undefined;
  const modules = (child(root, 'modules')?.children ?? [])
    .filter((c) => c.name === 'module')
    .map((c) => pomFolder(c.text))
    .filter((m): m is string => m !== undefined);
  const build = child(root, 'build');
  const folder = (name: string): string | undefined => {
    const text = child(build, name)?.text;
    return text === undefined ? undefined : pomFolder(text);
  };
  const sourceDirectory = folder('sourceDirectory');
  const testSourceDirectory = folder('testSourceDirectory');
  return {
    modules,
    ...(sourceDirectory ? { sourceDirectory } : {}),
    ...(testSourceDirectory ? { testSourceDirectory } : {}),
  };
}

/** One module of a Maven build: its folder (`.` for the root) and its POM's facts. */
export interface MavenModule {
  dir: string;
  pom: PomFacts;
}

const joined = (dir: string, sub: string): string => (dir === '.' ? sub : `${dir}/${sub}`);

/**
 * The modules of the Maven build at `root`: the root's POM, then each `<modules>` entry's, depth first (a module's own
 * modules too). Read as a session's worktree is (no link followed, at most 1 MiB a POM); a module whose POM is missing
 * or not a POM is left out. Empty when there is no `pom.xml` at the root.
 */
export async function mavenModules(root: string): Promise<MavenModule[]> {
  const found: MavenModule[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (found.length >= MAX_MODULES || found.some((m) => m.dir === dir)) return;
    const text = await readTreeText(root, joined(dir, 'pom.xml'), MAX_POM_BYTES);
    const pom = text === undefined ? undefined : readPom(text);
    if (!pom) return;
    found.push({ dir, pom });
    if (depth < MAX_MODULE_DEPTH) for (const m of pom.modules) await visit(joined(dir, m), depth + 1);
  };
  await visit('.', 0);
  return found;
}

/** A module's folder of test classes (`src/test/java`, or its POM's `testSourceDirectory`), relative to the root. */
export function testSourceFolder(module: MavenModule): string {
  return joined(module.dir, module.pom.testSourceDirectory ?? 'src/test/java');
}

/** A module's folder of code (`src/main/java`, or its POM's `sourceDirectory`), relative to the root. */
export function sourceFolder(module: MavenModule): string {
  return joined(module.dir, module.pom.sourceDirectory ?? 'src/main/java');
}

/** A module's build folder, relative to the root (Maven's `target/`; a POM can move it, the command line cannot). */
export function buildFolder(module: MavenModule): string {
  return joined(module.dir, 'target');
}
