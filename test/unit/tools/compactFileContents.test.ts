import { strict as assert } from 'node:assert';
import type { ChatMessage } from '../../../src/core/llm/types';
import { compactFileContents } from '../../../src/core/tools/builtin/compactFileContents';

const big = (tag: string) => `${tag}\n${'x'.repeat(400)}\n`;
const call = (id: string, name: string, args: unknown): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});
const result = (id: string, content: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content });

describe('compactFileContents: earlier whole versions of a file become a one-line note', () => {
  it('a write superseded by a later write or read becomes path, size and hash; the latest stays; ids stay', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
      call('1', 'write_file', { path: 'src/a.ts', content: big('v1') }),
      result('1', 'Wrote src/a.ts'),
      call('2', 'read_file', { path: 'src/a.ts' }),
      result('2', big('v1 as read')),
      call('3', 'edit_file', { path: 'src/a.ts', search: 'v1', replace: 'v2' }),
      result('3', 'Edited'),
      call('4', 'write_file', { path: 'src/a.ts', content: big('v3') }),
      result('4', 'Wrote src/a.ts'),
      call('5', 'read_file', { path: 'src/b.ts' }),
      result('5', big('b only once')),
    ];
    const out = compactFileContents(messages);
    assert.equal(out.length, messages.length);
    const args = (i: number) =>
      JSON.parse((out[i] as { tool_calls: Array<{ function: { arguments: string } }> }).tool_calls[0]!.function.arguments);
    assert.match(args(2).content, /^\[src\/a\.ts, 404 bytes, sha256 [0-9a-f]{12}; superseded by a newer version/);
    assert.equal(args(2).path, 'src/a.ts');
    assert.match(String(out[5]!.content), /^\[read_file result: src\/a\.ts, \d+ bytes, sha256 [0-9a-f]{12}; superseded/);
    assert.deepEqual(args(6), { path: 'src/a.ts', search: 'v1', replace: 'v2' }, 'an edit is kept as it is');
    assert.equal(args(8).content, big('v3'), 'the latest version stays whole');
    assert.equal(out[11]!.content, big('b only once'), 'a file with one version stays whole');
    assert.deepEqual(out.slice(0, 2), messages.slice(0, 2), 'the prefix is untouched');
    assert.equal((out[4] as { tool_calls: Array<{ id: string }> }).tool_calls[0]!.id, '2');
  });

  it('returns the same messages when nothing is superseded, and leaves short versions alone', () => {
    const messages: ChatMessage[] = [
      call('1', 'write_file', { path: 'a', content: 'short' }),
      result('1', 'ok'),
      call('2', 'write_file', { path: 'a', content: 'short 2' }),
    ];
    const alone = messages.slice(0, 2);
    assert.equal(compactFileContents(alone), alone, 'the same array: nothing to compact');
    const out = compactFileContents(messages);
    assert.deepEqual(out, messages, 'versions under 200 characters cost less than their note');
  });

  it('a read that repeats the version above is answered with a note saying so and where; the version above stays whole', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'u' },
      call('1', 'read_file', { path: 'src/a.ts' }),
      result('1', big('a')),
      call('2', 'read_file', { path: 'src/a.ts' }),
      result('2', big('a')),
      call('3', 'read_file', { path: 'src/a.ts' }),
      result('3', 'tiny'),
      call('4', 'read_file', { path: 'src/a.ts' }),
      result('4', 'tiny'),
    ];
    const out = compactFileContents(messages);
    assert.equal(out.length, messages.length);
    assert.match(String(out[2]!.content), /superseded/, 'the first read is superseded by the file as changed later');
    assert.equal(
      out[4]!.content,
      '[read_file result: src/a.ts is unchanged since you read it at call 1; its content is above, not sent again.]',
    );
    assert.equal(out[6]!.content, 'tiny', 'a changed file is sent whole, however small');
    assert.match(
      String(out[8]!.content),
      /^\[read_file result: src\/a\.ts is unchanged since you read it at call 3; its content is above/,
    );
  });

  it('a read of what the model wrote says it is unchanged since it wrote it; a failed read is never called unchanged', () => {
    const messages: ChatMessage[] = [
      call('1', 'write_file', { path: 'src/a.ts', content: big('w') }),
      result('1', 'Wrote src/a.ts'),
      call('2', 'read_file', { path: 'src/a.ts' }),
      result('2', big('w')),
      call('3', 'read_file', { path: 'src/b.ts' }),
      result('3', "Error: Cannot read 'src/b.ts': it does not exist."),
      call('4', 'read_file', { path: 'src/b.ts' }),
      result('4', "Error: Cannot read 'src/b.ts': it does not exist."),
    ];
    const out = compactFileContents(messages);
    assert.match(String(out[3]!.content), /^\[read_file result: src\/a\.ts is unchanged since you wrote it at call 1;/);
    const written = (out[0] as { tool_calls: Array<{ function: { arguments: string } }> }).tool_calls[0]!.function.arguments;
    assert.equal((JSON.parse(written) as { content: string }).content, big('w'), 'the written version stays whole');
    assert.equal(out[7]!.content, messages[7]!.content);
  });
});
