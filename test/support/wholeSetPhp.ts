/**
 * The PHP part of the scripted players of wholeSetPlayers.ts: the Tester's test (the acceptance file's first test
 * method with its provider's first data set only, as tests/<Class>Test.php, the class loaded by the kata's bootstrap), the hard-coder's class (the reference
 * class renamed Reference<Class>, each static method of <Class> answering its first outcome ever after, an
 * InvalidArgumentException included), the test-editor's stub (methods that answer null) and its weakened test (that
 * the class has each method).
 */

/** `Leap::isLeap` as class and method name. */
const split = (name: string): { cls: string; method: string } => {
  const [cls, method] = name.split('::');
  return { cls: cls!, method: method! };
};

/** The PHPUnit acceptance file cut to its first test method and its first data set, the class named `<Class>Test`. */
export function firstPhpCase(text: string): string {
  // No require_once: the kata's tests/bootstrap.php loads src/<Class>.php, and a require of a file not written yet is
  // a fatal error, not the errored test a red is.
  const lines = text.split('\n').filter((line) => !line.startsWith('//') && !line.startsWith('require_once '));
  const rows = lines.flatMap((line, i) => (/^ {12}"/.test(line) ? [i] : []));
  if (!rows.length) throw new Error('wholeSetPhp: no data set in the acceptance file');
  const kept = lines.filter((line, i) => !/^ {12}"/.test(line) || i === rows[0]);
  const method = kept.findIndex((line) => /^ {4}public function test/.test(line));
  const end = kept.indexOf('    }', method);
  return `${[...kept.slice(0, end + 1), '}', '']
    .join('\n')
    .replace(/AcceptanceTest extends/, 'Test extends')
    .replace(/\n{3,}/g, '\n\n')}`;
}

/** The reference solution renamed, and `<Class>` whose `exports` (`Class::method`) answer their first outcome to every call. */
export function hardcodedPhp(exports: string[], reference: string): string {
  const { cls } = split(exports[0]!);
  const wraps = exports.map((name) => {
    const { method } = split(name);
    return [
      `    public static function ${method}(...$args)`,
      '    {',
      `        $outcome = self::$first[${JSON.stringify(method)}] ??= self::outcome(fn () => Reference${cls}::${method}(...$args));`,
      "        if ($outcome[0] === 'error') {",
      '            throw $outcome[1];',
      '        }',
      '        return $outcome[1];',
      '    }',
    ].join('\n');
  });
  return [
    reference.replace(new RegExp(`^final class ${cls}$`, 'm'), `final class Reference${cls}`).trimEnd(),
    '',
    '// Hard-coded: the first answer, whatever the input.',
    `final class ${cls}`,
    '{',
    '    private static array $first = [];',
    '',
    wraps.join('\n\n'),
    '',
    '    private static function outcome(callable $call): array',
    '    {',
    '        try {',
    "            return ['value', $call()];",
    '        } catch (\\InvalidArgumentException $e) {',
    "            return ['error', $e];",
    '        }',
    '    }',
    '}',
    '',
  ].join('\n');
}

/** A class whose static methods answer null. */
export function stubPhp(exports: string[]): string {
  const { cls } = split(exports[0]!);
  const methods = exports.map(
    (name) => `    public static function ${split(name).method}(...$args)\n    {\n        return null;\n    }\n`,
  );
  return `<?php\n\nfinal class ${cls}\n{\n${methods.join('\n')}}\n`;
}

/** The test rewritten to expect what the stub gives: that the class has each method. */
export function weakenedPhpTest(exports: string[]): string {
  const { cls } = split(exports[0]!);
  const checks = exports.map(
    (name) => `        $this->assertTrue(method_exists(${cls}::class, ${JSON.stringify(split(name).method)}));\n`,
  );
  return (
    `<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\n` +
    `final class ${cls}Test extends TestCase\n{\n    public function testHasItsMethods(): void\n    {\n${checks.join('')}    }\n}\n`
  );
}
