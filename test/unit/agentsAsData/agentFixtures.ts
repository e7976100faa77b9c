import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The checked-in fixture agents (a Chooser, an Extractor and a free-text Writer with tools). */
export const FIXTURES_ROOT = join(__dirname, 'fixtures', 'agents');

/** A small valid config; tests override fields to break it one way or another. */
export function validConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agent_name: 'demo',
    version: 'v1',
    mode: 'Writer',
    system_text: 'You are a test agent.',
    purpose_text: 'Do the thing.',
    output_schema: {
      type: 'object',
      properties: { answer: { type: 'string' }, score: { type: 'number', minimum: 0, maximum: 1 }, note: { type: 'string' } },
      required: ['answer', 'score'],
    },
    enums: {},
    defaults: { note: 'none' },
    model_name: 'test-model',
    temperature: 0,
    max_output_tokens: 100,
    ...overrides,
  };
}

/** A temporary agents folder; `write` adds `{name}/{version}.json` (objects are JSON-encoded, strings written as is). */
export class TempAgents {
  readonly root = mkdtempSync(join(tmpdir(), 'agents-'));

  write(agentName: string, version: string, content: unknown): string {
    const file = join(this.root, agentName, `${version}.json`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return file;
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
