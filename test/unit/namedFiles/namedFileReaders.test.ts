import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentFactory } from '../../../src/core/agentsAsData/agentFactory';
import { AgentConfigError } from '../../../src/core/agentsAsData/errors';
import { isAgentError } from '../../../src/core/errors/agentError';
import { identifyEvalSet, loadEvalSet } from '../../../src/core/eval';
import { readProjectConfig } from '../../../src/core/project/projectConfigFile';
import { readProjectFile } from '../../../src/core/project/projectFiles';
import { readCassette } from '../../../src/core/replay';
import { KataError } from '../../../src/core/tdd/kata/errors';
import { loadKata, resolveKata } from '../../../src/core/tdd/kata';
import { makeFifo, releaseFifo } from '../../support/specialFiles';

// Each reader of a path a person or a file names takes the one bounded reader (readNamedFile.ts): a FIFO where the
// file should be is refused at once, in the words of the reader's own errors, naming the path.
describe('named files: every reader refuses a FIFO at once, naming the path', function () {
  this.timeout(20_000); // a reader blocked on a FIFO fails here, by the test's timeout
  let dir: string;
  const fifos: string[] = [];

  function fifoAt(path: string): string {
    fifos.push(makeFifo(path));
    return path;
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'named-readers-'));
  });
  afterEach(async () => {
    for (const fifo of fifos.splice(0)) await releaseFifo(fifo);
    AgentFactory.clearCache();
    await rm(dir, { recursive: true, force: true });
  });

  it('a kata file: a KataError, by path and by name', async () => {
    const kata = fifoAt(join(dir, 'fizz.md'));
    for (const load of [() => loadKata(kata), () => resolveKata(kata)]) {
      await assert.rejects(load(), (e: unknown) => {
        assert.ok(e instanceof KataError, String(e));
        assert.equal(e.message, `Kata file ${kata} is a FIFO (named pipe), not a file.`);
        assert.equal(e.details.problem, 'fifo');
        return true;
      });
    }
    await mkdir(join(dir, 'folder.md'));
    await assert.rejects(loadKata(join(dir, 'folder.md')), /folder\.md is a folder, not a file\./);
  });

  it('tdd-agent.json: a CONFIG error (a folder too); a manifest that is no file is not read', async () => {
    const config = fifoAt(join(dir, 'tdd-agent.json'));
    await assert.rejects(readProjectConfig(dir), (e: unknown) => {
      assert.ok(isAgentError(e) && e.error_code === 'CONFIG', String(e));
      assert.equal(e.message, `${config} is a FIFO (named pipe), not a file. Replace it with a JSON file or remove it.`);
      assert.equal(e.details.file, config);
      return true;
    });
    fifoAt(join(dir, 'package.json'));
    assert.equal(await readProjectFile(dir, 'package.json'), undefined);
    await rm(config);
    await mkdir(config);
    await assert.rejects(readProjectConfig(dir), /tdd-agent\.json is a folder, not a file/);
    await rm(config, { recursive: true });
    assert.equal(await readProjectConfig(dir), undefined, 'no tdd-agent.json: nothing to read');
    assert.equal(await readProjectConfig(join(dir, 'missing')), undefined);
  });

  it('an agent config: an AgentConfigError naming the file', async () => {
    await mkdir(join(dir, 'demo'));
    const file = fifoAt(join(dir, 'demo', 'v1.json'));
    assert.throws(
      () => AgentFactory.create('demo', 'v1', {}, { configRoot: dir }),
      (e: unknown) => {
        assert.ok(e instanceof AgentConfigError, String(e));
        assert.match(e.message, /^Agent config demo\/v1 cannot be read/);
        assert.deepEqual(e.problems, [`${file} is a FIFO (named pipe), not a file`]);
        assert.equal(e.details.problem, 'fifo');
        return true;
      },
    );
  });

  it('a cassette: a CONFIG error naming the file', async () => {
    const cassette = fifoAt(join(dir, 'session.json'));
    await assert.rejects(
      readCassette(cassette),
      (e: unknown) =>
        isAgentError(e) &&
        e.error_code === 'CONFIG' &&
        e.message ===
          `The cassette file '${cassette}' is a FIFO (named pipe), not a file. Record one with --record FILE, or check the path.`,
    );
  });

  it('an eval set: its set.json, and a kata or acceptance file it names', async () => {
    const setFile = fifoAt(join(dir, 'set.json'));
    await assert.rejects(loadEvalSet(dir), (e: unknown) => {
      assert.ok(isAgentError(e) && e.error_code === 'CONFIG', String(e));
      assert.equal(e.message, `Cannot read the eval set: ${setFile} is a FIFO (named pipe), not a file.`);
      return true;
    });
    await releaseFifo(setFile);
    await rm(setFile);
    const entry = { module: 'x', exports: ['x'], acceptance: 'x.test.js', cases: 1 };
    await writeFile(setFile, JSON.stringify([{ slug: 'x', title: 'X', languages: { javascript: entry } }]));
    await writeFile(join(dir, 'x.md'), '# X\n\nBuild x.\n');
    const acceptance = fifoAt(join(dir, 'x.test.js'));
    await assert.rejects(loadEvalSet(dir), (e: unknown) => {
      assert.ok(isAgentError(e) && e.error_code === 'CONFIG', String(e));
      assert.equal(e.message, `The eval set ${setFile}: 'x' names ${acceptance}, which is a FIFO (named pipe), not a file.`);
      assert.equal(e.details.problem, 'fifo');
      return true;
    });
    // A set loaded before its file became a FIFO: its digest refuses it too, instead of waiting on it.
    await releaseFifo(acceptance);
    await rm(acceptance);
    await writeFile(acceptance, 'test("x", () => {});\n');
    const set = await loadEvalSet(dir);
    await rm(acceptance);
    fifoAt(acceptance);
    await assert.rejects(identifyEvalSet(set), /x\.test\.js is a FIFO \(named pipe\), not a file\./);
  });
});
