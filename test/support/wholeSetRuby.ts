/**
 * The Ruby part of the scripted players of wholeSetPlayers.ts: the Tester's spec (the acceptance file's first example
 * only, in spec/<slug>_spec.rb), the hard-coder's module (the reference solution, each of its module methods wrapped
 * to answer its first outcome ever after, an ArgumentError included), the test-editor's stub (methods that answer nil)
 * and its weakened spec (that the module responds to each method).
 */

/** `Leap.leap?` as module and method name. */
const split = (name: string): { module: string; method: string } => {
  const dot = name.indexOf('.');
  return { module: name.slice(0, dot), method: name.slice(dot + 1) };
};

/** The RSpec acceptance file cut to its first example, its group named without "(acceptance)". */
export function firstRubyCase(text: string): string {
  const lines = text.split('\n');
  const body = lines.slice(lines.findIndex((line) => !line.startsWith('#')));
  const end = body.indexOf('  end');
  if (end < 0) throw new Error('wholeSetRuby: no example in the acceptance file');
  return `${[...body.slice(0, end + 1), 'end'].join('\n').replace(' (acceptance)"', '"')}\n`;
}

/** The reference solution with each of `exports` (`Module.method`) answering its first outcome to every call. */
export function hardcodedRuby(exports: string[], reference: string): string {
  const { module } = split(exports[0]);
  const methods = exports.map((name) => `:${JSON.stringify(split(name).method)}`).join(', ');
  return [
    reference.trimEnd(),
    '',
    '# Hard-coded: the first answer, whatever the input.',
    `module ${module}`,
    '  class << self',
    '    first = {}',
    `    [${methods}].each do |name|`,
    '      reference = instance_method(name)',
    '      define_method(name) do |*args|',
    '        outcome = first[name] ||= begin',
    '          [:value, reference.bind_call(self, *args)]',
    '        rescue ArgumentError => e',
    '          [:error, e]',
    '        end',
    '        raise outcome[1] if outcome[0] == :error',
    '',
    '        outcome[1]',
    '      end',
    '    end',
    '  end',
    'end',
    '',
  ].join('\n');
}

/** A module whose methods answer nil. */
export function stubRuby(exports: string[]): string {
  const { module } = split(exports[0]);
  const methods = exports.map((name) => `  def self.${split(name).method}(*)\n    nil\n  end\n`);
  return `module ${module}\n${methods.join('\n')}end\n`;
}

/** The spec rewritten to expect what the stub gives: that the module responds to each method. */
export function weakenedRubyTest(file: string, exports: string[]): string {
  const { module } = split(exports[0]);
  const checks = exports.map((name) => `    expect(${module}).to respond_to(:${JSON.stringify(split(name).method)})\n`);
  return `require_relative "../lib/${file}"\n\nRSpec.describe ${module} do\n  it "has its methods" do\n${checks.join('')}  end\nend\n`;
}
