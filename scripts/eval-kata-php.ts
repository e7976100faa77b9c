/**
 * The PHP part of the eval kata set: an exercise's PHP interface (a class in src/<Class>.php with static methods)
 * and the PHPUnit acceptance file made from its canonical cases. scripts/generate-eval-katas.ts calls it as the
 * `php` row of its emitters.
 *
 * The file goes to acceptance/<Class>AcceptanceTest.php and loads the code with
 * `require_once __DIR__ . '/../src/<Class>.php'`. Each method has a test method fed by a data provider whose keys are
 * the canonical cases' descriptions ending with `[<case uuid>]`, so PHPUnit's --log-junit names each case
 * `test<Method> with data set "<description> [<uuid>]"`. A method that can fail throws `InvalidArgumentException`
 * whose message is exactly the canonical text (its cases go to a second method, `test<Method>Refuses`).
 */

/** One static method: its name (`isLeap`), parameters (canonical input key, PHP name, type) and return type. */
export interface PhpMethod {
  name: string;
  params: Array<[key: string, name: string, type: string]>;
  result: string;
  /** It throws `InvalidArgumentException`: the exercise has cases that expect an error. */
  errors?: boolean;
}

/** An exercise in PHP: its class (src/<Class>.php) and a static method per canonical property. */
export interface PhpInterface {
  class: string;
  methods: Record<string, PhpMethod>;
}

/** What the PHP emitter reads of a canonical case. */
export interface PhpCase {
  uuid: string;
  property: string;
  input: Record<string, unknown>;
  expected: unknown;
}

/** `Leap::isLeap(int $year): bool`, as the kata's interface section states it. */
export function phpSignature(php: PhpInterface, method: PhpMethod): string {
  const params = method.params.map(([, name, type]) => `${type} $${name}`).join(', ');
  return `${php.class}::${method.name}(${params}): ${method.result}`;
}

/** A PHP literal: double-quoted strings (JSON's escapes, `$` escaped, `\u{..}`), lists and `=>` arrays. */
export function phpValue(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value)
      .replace(/\$/g, '\\$')
      .replace(/\\u([0-9a-f]{4})/g, '\\u{$1}');
  }
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`not a PHP int: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(phpValue).join(', ')}]`;
  if (typeof value === 'object')
    return `[${Object.entries(value)
      .map(([k, v]) => `${phpValue(k)} => ${phpValue(v)}`)
      .join(', ')}]`;
  throw new Error(`no PHP literal for ${String(value)}`);
}

const errorOf = (expected: unknown): string | undefined =>
  expected &&
  typeof expected === 'object' &&
  !Array.isArray(expected) &&
  typeof (expected as { error?: unknown }).error === 'string'
    ? (expected as { error: string }).error
    : undefined;

const capital = (name: string): string => name[0]!.toUpperCase() + name.slice(1);

/** The args of one case's call, in the method's order. */
function args(method: PhpMethod, c: PhpCase): string[] {
  return method.params.map(([key]) => {
    if (!(key in c.input)) throw new Error(`case ${c.uuid} has no input '${key}'`);
    return phpValue(c.input[key]);
  });
}

/** A provider and its test: `returns` compares (assertSame; assertEquals for a map, whose order is not the case's). */
function methodTests(php: PhpInterface, method: PhpMethod, cases: PhpCase[], name: (c: PhpCase) => string): string[] {
  const params = method.params.map(([, p]) => `$${p}`);
  const call = `${php.class}::${method.name}(${params.join(', ')})`;
  const returns = cases.filter((c) => errorOf(c.expected) === undefined);
  const refuses = cases.filter((c) => errorOf(c.expected) !== undefined);
  if (refuses.length && !method.errors)
    throw new Error(`case ${refuses[0]!.uuid} expects an error, but ${method.name} throws none`);
  const isMap = returns.some((c) => c.expected && typeof c.expected === 'object' && !Array.isArray(c.expected));
  const blocks: string[] = [];
  const provider = (suffix: string, rows: string[]): string =>
    [
      `    public static function ${method.name}${suffix}(): array`,
      '    {',
      '        return [',
      ...rows,
      '        ];',
      '    }',
    ].join('\n');
  const row = (c: PhpCase, last: string): string =>
    `            ${phpValue(name(c))} => [${[...args(method, c), last].join(', ')}],`;
  if (returns.length) {
    blocks.push(
      provider(
        'Cases',
        returns.map((c) => row(c, phpValue(c.expected))),
      ),
      [
        `    /** @dataProvider ${method.name}Cases */`,
        `    public function test${capital(method.name)}(${[...params, '$expected'].join(', ')}): void`,
        '    {',
        `        $this->${isMap ? 'assertEquals' : 'assertSame'}($expected, ${call});`,
        '    }',
      ].join('\n'),
    );
  }
  if (refuses.length) {
    blocks.push(
      provider(
        'Refusals',
        refuses.map((c) => row(c, phpValue(errorOf(c.expected)))),
      ),
      [
        `    /** @dataProvider ${method.name}Refusals */`,
        `    public function test${capital(method.name)}Refuses(${[...params, '$message'].join(', ')}): void`,
        '    {',
        '        $this->expectException(\\InvalidArgumentException::class);',
        '        $this->expectExceptionMessage($message);',
        `        ${call};`,
        '    }',
      ].join('\n'),
    );
  }
  return blocks;
}

/** The PHPUnit acceptance file: `header` (comment lines), the require of the code, a provider and test per method. */
export function phpTests(php: PhpInterface, header: string, cases: PhpCase[], name: (c: PhpCase) => string): string {
  const blocks = Object.entries(php.methods).flatMap(([property, method]) =>
    methodTests(
      php,
      method,
      cases.filter((c) => c.property === property),
      name,
    ),
  );
  const unknown = cases.find((c) => !php.methods[c.property]);
  if (unknown) throw new Error(`no PHP method for the property '${unknown.property}'`);
  return [
    '<?php',
    '',
    header,
    `require_once __DIR__ . ${phpValue(`/../src/${php.class}.php`)};`,
    '',
    'use PHPUnit\\Framework\\TestCase;',
    '',
    `final class ${php.class}AcceptanceTest extends TestCase`,
    '{',
    blocks.join('\n\n'),
    '}',
    '',
  ].join('\n');
}
