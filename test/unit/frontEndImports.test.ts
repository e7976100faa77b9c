import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const ROOT = join(__dirname, '..', '..');

/**
 * The CLI and the extension import nothing under src/core but its entry points: the rule is eslint.config.mjs's
 * `no-restricted-imports` over src/cli and src/vscode. Linted here as text at a path under each front end (no type
 * information: the files are not on disk, and the rule needs none).
 */
describe('the front ends use the library through its entry points', () => {
  let eslint: ESLint;
  before(async function () {
    this.timeout(60_000);
    eslint = new ESLint({ cwd: ROOT, overrideConfig: tseslint.configs.disableTypeChecked });
    await eslint.calculateConfigForFile(join(ROOT, 'src/cli/main.ts')); // loads eslint.config.mjs once, here
  });

  async function restrictedImports(text: string, file: string): Promise<string[]> {
    const [result] = await eslint.lintText(text, { filePath: join(ROOT, file) });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  }

  it('fails a module of src/core imported by path from the CLI, and names the entry points to use instead', async () => {
    const messages = await restrictedImports(
      "import { runKataSession } from '../../core/tdd/supervisor/kataSession';\nvoid runKataSession;\n",
      'src/cli/commands/deepImport.ts',
    );
    assert.equal(messages.length, 1);
    assert.match(messages[0]!, /'\.\.\/\.\.\/core\/tdd\/supervisor\/kataSession' import is restricted/);
    assert.match(messages[0]!, /tdd-agent\/tdd \('…\/core\/tddApi'\)/);
  });

  it('fails a deep type import and a re-export from the extension', async () => {
    const messages = await restrictedImports(
      "import type { LoopState } from '../../core/tdd/phases/loopState';\nexport { redactSecrets } from '../../core/security/redact';\nexport type State = LoopState;\n",
      'src/vscode/session/deepImport.ts',
    );
    assert.equal(messages.length, 2);
  });

  it('passes the entry points: tdd-agent/core, tdd-agent/tdd, tdd-agent/testing', async () => {
    const text = [
      "import { AgentError } from '../../core';",
      "import { runKataSession } from '../../core/tddApi';",
      "import { createScriptedLlmClient } from '../../core/testingApi';",
      'void [AgentError, runKataSession, createScriptedLlmClient];',
      '',
    ].join('\n');
    assert.deepEqual(await restrictedImports(text, 'src/cli/commands/entryImports.ts'), []);
    assert.deepEqual(await restrictedImports(text, 'src/vscode/session/entryImports.ts'), []);
  });

  it('holds only the front ends to it: the core imports its own modules', async () => {
    const text = "import { SessionLock } from '../session/sessionLock';\nvoid SessionLock;\n";
    assert.deepEqual(await restrictedImports(text, 'src/core/tdd/supervisor/lockUser.ts'), []);
  });
});
