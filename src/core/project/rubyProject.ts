import { folderEntries, isProjectFolder, readProjectFile } from './projectFiles';

/** What a Ruby project's root says: its manifests, which test framework it uses, and that framework's command and files. */
export interface RubyProjectFacts {
  /** The files that made it a Ruby project: `Gemfile`, `<name>.gemspec`, `.rspec`. */
  manifests: string[];
  /** `rspec` (a `.rspec`, a `spec/` folder, or rspec in the Gemfile or gemspec), else `minitest`. */
  framework: 'rspec' | 'minitest';
  /**
   * `rspec`, run directly rather than through `bundle exec`: a session has no network, so bundler could install nothing,
   * and the gems the tests need are the ones installed where ruby finds them (GEM_HOME, GEM_PATH, the user's gem
   * folder; the sandbox shows them read-only). minitest: `rake test` when there is a Rakefile, else ruby with `test/`
   * and `lib/` on the load path requiring each test file.
   */
  command: string;
  /** RSpec: `spec/**\/*_spec.rb`; minitest: `test/**\/*_test.rb`, `test/**\/test_*.rb`. */
  patterns: string[];
  /** `spec` or `test`. */
  testDir: string;
  /** `lib` when it is there, else the root. */
  sourceRoot: string;
}

/** The RSpec command a Ruby project runs, and where its examples are. */
export const RSPEC_COMMAND = 'rspec';
/** RSpec's files: `*_spec.rb` below `spec/` (its `--pattern` default). */
export const RSPEC_PATTERNS = ['spec/**/*_spec.rb'];
/** minitest's files, as `rake test` (Rake::TestTask) finds them: `test/**\/*_test.rb` and `test/**\/test_*.rb`. */
export const MINITEST_PATTERNS = ['test/**/*_test.rb', 'test/**/test_*.rb'];
/** minitest without a Rakefile: every test file required by one ruby, `lib/` and `test/` on the load path. */
export const MINITEST_COMMAND = `ruby -Ilib -Itest -e 'Dir.glob("test/**/{*_test,test_*}.rb").sort.each { |f| require_relative f }'`;

/** True when `name` is a Ruby project's manifest at its root: `Gemfile`, `<name>.gemspec`, `.rspec`. */
export function isRubyManifest(name: string): boolean {
  return name === 'Gemfile' || name === '.rspec' || /^[^/]+\.gemspec$/.test(name);
}

/**
 * The facts of a Ruby project at `root`, or undefined when it has no Gemfile, gemspec or `.rspec`. RSpec when `.rspec`
 * or `spec/` is there or the Gemfile or gemspec names rspec; otherwise minitest (Ruby's own, shipped with it).
 */
export async function readRubyProject(root: string): Promise<RubyProjectFacts | undefined> {
  const manifests = (await folderEntries(root)).filter(isRubyManifest).sort();
  if (manifests.length === 0) return undefined;
  const texts = await Promise.all(manifests.filter((m) => m !== '.rspec').map((m) => readProjectFile(root, m)));
  const namesRspec = texts.some((t) => t !== undefined && /['"]rspec(?:-core)?['"]/.test(t));
  const [hasSpec, hasTest, hasLib, rakefile] = await Promise.all([
    isProjectFolder(root, 'spec'),
    isProjectFolder(root, 'test'),
    isProjectFolder(root, 'lib'),
    readProjectFile(root, 'Rakefile'),
  ]);
  const rspec = manifests.includes('.rspec') || hasSpec || (namesRspec && !hasTest);
  const sourceRoot = hasLib ? 'lib' : '.';
  if (rspec)
    return { manifests, framework: 'rspec', command: RSPEC_COMMAND, patterns: [...RSPEC_PATTERNS], testDir: 'spec', sourceRoot };
  const rakeTest = rakefile !== undefined && /\bTestTask\b|\btask\s*[(:]?\s*:?test\b/.test(rakefile);
  return {
    manifests,
    framework: 'minitest',
    command: rakeTest ? 'rake test' : MINITEST_COMMAND,
    patterns: [...MINITEST_PATTERNS],
    testDir: 'test',
    sourceRoot,
  };
}
