/**
 * The project profile: what a session needs to know about the repository it works in (languages, package
 * manager or interpreter, test runner and command, test file patterns, source folders), read from its
 * manifests and runner configuration, overridable by `tdd-agent.json`, the kata, settings and flags.
 */
export {
  FIELD_SOURCES,
  PACKAGE_MANAGERS,
  PROFILE_FIELDS,
  type FieldSource,
  type PackageManager,
  type ProfileField,
  type ProjectOverrides,
  type ProjectProfile,
  type ProjectSettings,
  type PythonEnvironment,
} from './projectProfile';
export {
  detectProjectProfile,
  resolveProjectProfile,
  shellWord,
  testsBesideSource,
  type ResolveProfileOptions,
} from './detectProjectProfile';
export {
  PROJECT_CONFIG_FILE,
  ProjectConfigSchema,
  normalizeFolder,
  readProjectConfig,
  relativePathProblem,
  type ProjectConfig,
} from './projectConfigFile';
export { commonPatternFolder, DEFAULT_TEST_PATTERNS, matchesTestPattern, normalizeProjectPath } from './testFilePatterns';
export { describeProjectProfile, type ProfileDescription } from './describeProfile';
export { isPythonManifest } from './pythonProject';
export { isManifestName, projectManifests } from './projectFiles';
export { readIniSections, iniWords } from './iniSections';
