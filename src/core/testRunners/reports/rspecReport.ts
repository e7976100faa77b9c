import { TestReportError } from '../errors';
import type { TestCaseOutcome } from '../types';
import {
  countsOf,
  failureMessage,
  json,
  onePerId,
  parseJsonReport,
  testCase,
  workspaceFile,
  type ParsedReport,
  type ReportContext,
} from './reportedTest';

const OUTCOMES: Record<string, TestCaseOutcome> = { passed: 'passed', failed: 'failed', pending: 'skipped' };

/**
 * A failure's message as RSpec's console shows it: the exception's class first unless it is RSpec's own expectation
 * error (`NameError: uninitialized constant FizzBuzz::Leap`), then its message.
 */
function exceptionText(exception: Record<string, unknown> | undefined): string | undefined {
  if (!exception) return undefined;
  const className = json.string(exception.class);
  const message = json.string(exception.message)?.trim();
  const own = className === undefined || className.startsWith('RSpec::');
  return failureMessage(own ? message : `${className}${message ? `: ${message}` : ''}`) ?? className;
}

/**
 * Reads RSpec's JSON report (`--format json --out <file>`, RSpec 3): each example has `full_description` (its groups'
 * descriptions and its own, joined by spaces), `description`, `status` (`passed`, `failed`, `pending`), `file_path`
 * (`./spec/fizzbuzz_spec.rb`, relative to the run's folder) and `line_number`. A test's name is its groups' words, then
 * its own (`FizzBuzz > says Fizz for three`), and its id `spec/fizzbuzz_spec.rb::FizzBuzz > says Fizz for three`: not
 * RSpec's `id` (`./spec/fizzbuzz_spec.rb[1:3]`), which is the example's position and changes when a test is added above
 * it. A pending example is `skipped`. A spec file that did not load has no examples (RSpec then runs none at all): the
 * console's `errors occurred outside of examples` says so, and the load error is diagnosed from the console. Throws
 * {@link TestReportError} when the text is not RSpec's report.
 */
export function parseRspecReport(text: string, ctx: ReportContext): ParsedReport {
  const root = json.object(parseJsonReport(text, 'rspec'));
  const examples = json.array(root?.examples);
  if (!root || !examples) throw new TestReportError('The RSpec report has no examples.', { runner: 'rspec' });
  const tests = examples.map((value) => {
    const example = json.object(value);
    const full = json.string(example?.full_description);
    const status = json.string(example?.status);
    if (!example || full === undefined || status === undefined)
      throw new TestReportError('The RSpec report has an example without a description or status.', { runner: 'rspec' });
    const own = json.string(example.description) ?? '';
    const groups = own && full.endsWith(own) ? full.slice(0, full.length - own.length).trim() : '';
    const outcome = OUTCOMES[status] ?? 'failed';
    return testCase({
      path: groups ? [groups, own] : [full],
      file: workspaceFile(ctx, json.string(example.file_path)),
      outcome,
      line: json.number(example.line_number),
      durationMs: (json.number(example.run_time) ?? NaN) * 1000,
      message:
        outcome === 'failed'
          ? (exceptionText(json.object(example.exception)) ?? 'failed')
          : outcome === 'skipped'
            ? (json.string(example.pending_message) ?? undefined)
            : undefined,
    });
  });
  return { tests: onePerId(tests), counts: countsOf(tests) };
}
