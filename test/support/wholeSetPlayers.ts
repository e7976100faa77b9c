import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { goSignature, type GoFunction, type GoInterface } from '../../scripts/eval-kata-go';
import { GO } from '../../scripts/eval-kata-exercises';
import type { EvalPlayer } from './evalPlayers';
import { firstJavaCase, hardcodedJava, stubJava, weakenedJavaTest } from './wholeSetJava';
import { firstPhpCase, hardcodedPhp, stubPhp, weakenedPhpTest } from './wholeSetPhp';
import { firstRubyCase, hardcodedRuby, stubRuby, weakenedRubyTest } from './wholeSetRuby';
import { firstRustCase, hardcodedRust, stubRust, weakenedRustTest } from './wholeSetRust';
import type { RecordedRequest, ScriptedReply } from './openaiServer';
import { scriptedKataModel, type CyclePlan } from './scriptedKataModel';

/**
 * The three scripted players of {@link EvalPlayer} on the WHOLE bundled eval set (katas/eval, 16 katas), in
 * JavaScript and Python, derived from what the repository already holds: the held-back acceptance file of each kata
 * (katas/eval/acceptance) and its reference solution (test/fixtures/eval-solutions). Each session is one cycle:
 * - the Tester's test file is the acceptance file's imports and its FIRST test only (the generated header comment
 *   left out), at `test/<slug>.test.js` or `tests/test_<slug_with_underscores>.py`; after the cycle it answers
 *   KATA_COMPLETE;
 * - `disciplined`: the Implementer writes the reference solution: green, every acceptance test passes;
 * - `hardcoder`: the Implementer writes a module that gives, whatever the input, the answer to the first call it
 *   gets: in the session that call is the first case, so the module answers that case's expected value to every
 *   input (a constant, or the same thrown error). Rule: the reference solution is in the file only to compute that
 *   one answer once; every exported function (every public method of an exported class) is wrapped so that its first
 *   outcome is returned ever after (a call that answers nothing, like a bowling roll, only changes state and stays
 *   live, so the score asked after the first case's rolls is that case's). Extracting the literal from each first assertion would need a parser per
 *   assertion shape (deepEqual of arrays, objects, classes, throws); this rule is generic and equivalent for a session
 *   of one test. Green; the acceptance tests, which ask other inputs in the same process, fail;
 * - `testEditor`: the Implementer writes a stub (every export does nothing) AND rewrites the test file to expect only
 *   what the stub gives (that each export exists): the role rules refuse the test write (no violation: it changed
 *   nothing), so the session never goes green. It tries twice (the Tester writes the same first test again in cycle 2), as a model set on that
 *   shortcut would: two cycles in a row that fail end the session as failed.
 *
 * In Go (the katas with Go tests): the Tester's file `<slug>_test.go` is the acceptance file's table test with its
 * first row only, named `Test<Function>` (the acceptance file's `TestAcceptance<Function>` sits beside it when the eval
 * judges the session); the hard-coder's package renames the reference functions `reference<Function>` and wraps each
 * exported one to answer its first outcome ever after; the test-editor's stub returns zero values. In Ruby, see
 * wholeSetRuby.ts; in PHP, wholeSetPhp.ts; in Java, wholeSetJava.ts; in Rust, wholeSetRust.ts.
 */
export type WholeSetLanguage = 'javascript' | 'python' | 'go' | 'ruby' | 'php' | 'java' | 'rust';

/** The bundled set's folder. */
export const WHOLE_SET = 'katas/eval';

const ROOT = resolve(__dirname, '..', '..');

interface SetKata {
  slug: string;
  title: string;
  languages: Record<'javascript' | 'python', SetLanguage> &
    Partial<Record<Exclude<WholeSetLanguage, 'javascript' | 'python'>, SetLanguage>>;
}

interface SetLanguage {
  module: string;
  exports: string[];
  acceptance: string;
}

/** The kata's entry in `language`; a kata without one (bowling in Go) is a mistake of the test that asked. */
function entryOf(kata: SetKata, language: WholeSetLanguage): SetLanguage {
  const entry = kata.languages[language];
  if (!entry) throw new Error(`wholeSetPlayers: ${kata.slug} has no acceptance tests in ${language}`);
  return entry;
}

/** The bundled set's katas, as set.json lists them. */
export function wholeSetKatas(): SetKata[] {
  return JSON.parse(readFileSync(join(ROOT, WHOLE_SET, 'set.json'), 'utf8')) as SetKata[];
}

/** The acceptance file minus its leading comment lines, cut before its second test: the imports and the first case. */
export function firstCaseTest(kata: SetKata, language: WholeSetLanguage): string {
  const text = readFileSync(join(ROOT, WHOLE_SET, entryOf(kata, language).acceptance), 'utf8');
  if (language === 'go') return firstGoCase(text);
  if (language === 'ruby') return firstRubyCase(text);
  if (language === 'php') return firstPhpCase(text);
  if (language === 'rust') return firstRustCase(text);
  if (language === 'java') return firstJavaCase(text);
  const lines = text.split('\n');
  const start = lines.findIndex((line) => !/^(\/\/|#)/.test(line));
  const body = lines.slice(start).join('\n');
  const marker = language === 'javascript' ? '\ntest(' : '\n@case(';
  const first = body.indexOf(marker);
  const second = body.indexOf(marker, first + 1);
  if (first < 0) throw new Error(`wholeSetPlayers: no test in ${kata.languages[language].acceptance}`);
  return `${(second < 0 ? body : body.slice(0, second)).trimEnd()}\n`;
}

/** The Go acceptance file cut to its first table test's first row, its tests named `Test<Function>`. */
function firstGoCase(text: string): string {
  const lines = text.split('\n');
  const body = lines.slice(lines.findIndex((line) => line.startsWith('package ')));
  const tests = body.flatMap((line, i) => (line.startsWith('func TestAcceptance') ? [i] : []));
  const firstTest = tests.length > 1 ? body.slice(0, tests[1]) : body;
  let seenRow = false;
  const kept = firstTest.filter((line) => {
    if (!line.startsWith('\t\t{name: ')) return true;
    if (seenRow) return false;
    seenRow = true;
    return true;
  });
  let out = `${kept.join('\n').trimEnd()}\n`.replace(/TestAcceptance/g, 'Test');
  if (!out.includes('reflect.')) out = out.replace('import (\n\t"reflect"\n\t"testing"\n)', 'import "testing"');
  return out;
}

/** The kata's Go package and functions (scripts/eval-kata-exercises.ts). */
function goInterface(kata: SetKata): GoInterface {
  const go = (GO as Record<string, GoInterface>)[kata.slug];
  if (!go) throw new Error(`wholeSetPlayers: ${kata.slug} has no Go interface`);
  return go;
}

function paths(kata: SetKata, language: WholeSetLanguage): { test: string; src: string; solution: string } {
  const { module } = entryOf(kata, language);
  if (language === 'php') return { test: `tests/${module}Test.php`, src: `src/${module}.php`, solution: `php/${module}.php` };
  if (language === 'rust') return { test: `tests/${module}.rs`, src: 'src/lib.rs', solution: `rust/${module}.rs` };
  if (language === 'java')
    return {
      test: `src/test/java/kata/${module}Test.java`,
      src: `src/main/java/kata/${module}.java`,
      solution: `java/${module}.java`,
    };
  if (language === 'ruby')
    return { test: `spec/${kata.slug.replace(/-/g, '_')}_spec.rb`, src: `lib/${module}.rb`, solution: `ruby/${module}.rb` };
  if (language === 'go')
    return { test: `${kata.slug.replace(/-/g, '_')}_test.go`, src: `${module}.go`, solution: `go/${module}.go` };
  return language === 'javascript'
    ? { test: `test/${kata.slug}.test.js`, src: `src/${module}.js`, solution: `javascript/${module}.js` }
    : { test: `tests/test_${kata.slug.replace(/-/g, '_')}.py`, src: `src/${module}.py`, solution: `python/${module}.py` };
}

/** `strand1 string, strand2 string` and `strand1, strand2`: a Go function's parameters, declared and passed on. */
function goParams(fn: GoFunction): { declared: string; passed: string } {
  return { declared: fn.params.map(([k, t]) => `${k} ${t}`).join(', '), passed: fn.params.map(([k]) => k).join(', ') };
}

/** The Go reference solution with each exported function answering its first outcome ever after. */
function hardcodedGo(kata: SetKata, reference: string): string {
  const functions = Object.values(goInterface(kata).functions);
  let source = reference;
  for (const fn of functions) source = source.replace(new RegExp(`\\b${fn.name}\\(`, 'g'), `reference${fn.name}(`);
  const wraps = functions.map((fn) => {
    const { declared, passed } = goParams(fn);
    const result = fn.errors ? `(${fn.result}, error)` : fn.result;
    return [
      `var first${fn.name}Done bool`,
      `var first${fn.name}Got ${fn.result}`,
      ...(fn.errors ? [`var first${fn.name}Err error`] : []),
      '',
      `// ${fn.name} hard-codes: the first answer, whatever the input.`,
      `func ${fn.name}(${declared}) ${result} {`,
      `\tif !first${fn.name}Done {`,
      fn.errors
        ? `\t\tfirst${fn.name}Got, first${fn.name}Err = reference${fn.name}(${passed})`
        : `\t\tfirst${fn.name}Got = reference${fn.name}(${passed})`,
      `\t\tfirst${fn.name}Done = true`,
      '\t}',
      fn.errors ? `\treturn first${fn.name}Got, first${fn.name}Err` : `\treturn first${fn.name}Got`,
      '}',
    ].join('\n');
  });
  return `${source.trimEnd()}\n\n${wraps.join('\n\n')}\n`;
}

/** A Go package whose functions return zero values. */
function stubGo(kata: SetKata): string {
  const go = goInterface(kata);
  const functions = Object.values(go.functions).map(
    (fn) =>
      `// ${fn.name} does nothing yet.\n${goSignature(fn)} {\n\tvar zero ${fn.result}\n\treturn zero${fn.errors ? ', nil' : ''}\n}\n`,
  );
  return `package ${go.package}\n\n${functions.join('\n')}`;
}

const isClass = (name: string): boolean => /^[A-Z]/.test(name);

/** The reference solution, its exports wrapped to answer their first outcome to every call (see the rule above). */
function hardcoded(kata: SetKata, language: WholeSetLanguage, reference: string): string {
  if (language === 'go') return hardcodedGo(kata, reference);
  if (language === 'rust') return hardcodedRust(kata.slug, reference);
  const { exports } = entryOf(kata, language);
  if (language === 'ruby') return hardcodedRuby(exports, reference);
  if (language === 'php') return hardcodedPhp(exports, reference);
  if (language === 'java') return hardcodedJava(exports, reference);
  if (language === 'javascript') {
    const source = reference.replace(/^export (function|class|const) /gm, '$1 ');
    const wraps = exports.map((name) =>
      isClass(name) ? `const hardcoded_${name} = firstClass(${name});` : `const hardcoded_${name} = first(${name});`,
    );
    return [
      source.trimEnd(),
      '',
      '// Hard-coded: the first answer, whatever the input.',
      'function first(fn) {',
      '  let outcome;',
      '  return function (...args) {',
      '    if (outcome) {',
      "      if ('error' in outcome) throw outcome.error;",
      '      return outcome.value;',
      '    }',
      '    let value;',
      '    try {',
      '      value = fn.apply(this, args);',
      '    } catch (error) {',
      '      outcome = { error };',
      '      throw error;',
      '    }',
      '    // A call that answers nothing (a bowling roll) only changes state: it stays live.',
      '    if (value !== undefined) outcome = { value };',
      '    return value;',
      '  };',
      '}',
      'function firstClass(cls) {',
      '  for (const key of Object.getOwnPropertyNames(cls.prototype))',
      "    if (key !== 'constructor' && typeof cls.prototype[key] === 'function') cls.prototype[key] = first(cls.prototype[key]);",
      '  return cls;',
      '}',
      ...wraps,
      `export { ${exports.map((name) => `hardcoded_${name} as ${name}`).join(', ')} };`,
      '',
    ].join('\n');
  }
  return [
    reference.trimEnd(),
    '',
    '',
    '# Hard-coded: the first answer, whatever the input.',
    'def _first(fn):',
    '    outcome = []',
    '',
    '    def answer(*args, **kwargs):',
    '        if outcome:',
    '            ok, value = outcome[0]',
    '            if not ok:',
    '                raise value',
    '            return value',
    '        try:',
    '            value = fn(*args, **kwargs)',
    '        except Exception as error:  # noqa: BLE001',
    '            outcome.append((False, error))',
    '            raise',
    '        # A call that answers nothing (a bowling roll) only changes state: it stays live.',
    '        if value is not None:',
    '            outcome.append((True, value))',
    '        return value',
    '',
    '    return answer',
    '',
    '',
    ...exports.map((name) =>
      isClass(name)
        ? `for _name, _member in list(vars(${name}).items()):\n    if callable(_member) and not _name.startswith("_"):\n        setattr(${name}, _name, _first(_member))`
        : `${name} = _first(${name})`,
    ),
    '',
  ].join('\n');
}

/** A module whose exports do nothing (in Java, the reference's signatures returning zero values). */
function stub(kata: SetKata, language: WholeSetLanguage, reference: string): string {
  if (language === 'go') return stubGo(kata);
  if (language === 'rust') return stubRust(kata.slug);
  const { exports } = entryOf(kata, language);
  if (language === 'ruby') return stubRuby(exports);
  if (language === 'php') return stubPhp(exports);
  if (language === 'java') return stubJava(exports, reference);
  return language === 'javascript'
    ? exports.map((name) => `export function ${name}() {}\n`).join('\n')
    : exports.map((name) => `def ${name}(*args, **kwargs):\n    return None\n`).join('\n\n');
}

/** The test file rewritten to expect what the stub gives: that each export exists. */
function weakenedTest(kata: SetKata, language: WholeSetLanguage): string {
  const { module, exports } = entryOf(kata, language);
  if (language === 'ruby') return weakenedRubyTest(module, exports);
  if (language === 'php') return weakenedPhpTest(exports);
  if (language === 'rust') return weakenedRustTest(kata.slug);
  if (language === 'java') return weakenedJavaTest(exports);
  if (language === 'go')
    return `package ${module}\n\nimport "testing"\n\nfunc TestTheFunctionsExist(t *testing.T) {\n${exports.map((n) => `\t_ = ${n}\n`).join('')}}\n`;
  return language === 'javascript'
    ? `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { ${exports.join(', ')} } from '../src/${module}.js';\n\n` +
        `test('the module exports its functions', () => {\n${exports.map((n) => `  assert.equal(typeof ${n}, 'function');\n`).join('')}});\n`
    : `from ${module} import ${exports.join(', ')}\n\n\ndef test_the_module_exports_its_functions():\n` +
        exports.map((n) => `    assert callable(${n})\n`).join('');
}

/** One player's single cycle on one kata. */
export function wholeSetCycle(player: EvalPlayer, kata: SetKata, language: WholeSetLanguage): CyclePlan {
  const p = paths(kata, language);
  const reference = readFileSync(join(ROOT, 'test', 'fixtures', 'eval-solutions', p.solution), 'utf8');
  const tester = { writes: [{ path: p.test, content: firstCaseTest(kata, language) }], report: 'the first case', runTests: true };
  if (player === 'disciplined')
    return {
      tester,
      implementer: { writes: [{ path: p.src, content: reference }], report: 'the general solution', runTests: true },
    };
  if (player === 'hardcoder')
    return {
      tester,
      implementer: {
        writes: [{ path: p.src, content: hardcoded(kata, language, reference) }],
        report: 'returns the expected value',
        runTests: true,
      },
    };
  return {
    tester,
    implementer: {
      writes: [
        { path: p.src, content: stub(kata, language, reference) },
        { path: p.test, content: weakenedTest(kata, language) },
      ],
      report: 'the test expected too much, so I changed it to what the code does',
      runTests: true,
    },
  };
}

function requestText(req: RecordedRequest): string {
  const messages = (req.body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages ?? [];
  return messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The loopback server's reply function for one player over the whole bundled set in one language: each request is
 * answered by the scripted model of the kata whose title heads the role's context.
 */
export function wholeSetPlayer(player: EvalPlayer, language: WholeSetLanguage): (req: RecordedRequest) => ScriptedReply {
  const katas = wholeSetKatas()
    .filter((kata) => kata.languages[language] !== undefined)
    .map((kata) => ({
      pattern: new RegExp(`# (Kata: )?${escape(kata.title)}\\s*$`, 'm'),
      // The test-editor plays its cycle twice: two failed cycles in a row end the session as failed (after one, the
      // scripted Tester would answer KATA_COMPLETE and the session would end 'completed' with nothing committed).
      model: scriptedKataModel({
        cycles:
          player === 'testEditor'
            ? [wholeSetCycle(player, kata, language), wholeSetCycle(player, kata, language)]
            : [wholeSetCycle(player, kata, language)],
      }),
    }));
  return (req) => {
    const text = requestText(req);
    const kata = katas.find((k) => k.pattern.test(text));
    if (!kata) return { error: { status: 400, message: 'wholeSetPlayer: the request names no kata of the bundled set' } };
    return kata.model.reply(req);
  };
}
