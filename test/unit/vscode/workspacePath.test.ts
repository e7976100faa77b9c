import assert from 'node:assert/strict';
import path from 'node:path';
import { workspaceFilePath } from '../../../src/vscode/panel/workspacePath';
import { parseSourceLabel } from '../../../src/shared/panelProtocol';

describe('file labels of the panel', () => {
  it('a label names the file and its first line', () => {
    assert.deepEqual(parseSourceLabel('src/fizz.js:3-9'), { path: 'src/fizz.js', line: 3 });
    assert.deepEqual(parseSourceLabel('src/fizz.js:5'), { path: 'src/fizz.js', line: 5 });
    assert.deepEqual(parseSourceLabel('README.md'), { path: 'README.md' });
    assert.equal(parseSourceLabel('  '), undefined);
  });

  it('opens only files inside the workspace folder', () => {
    const root = path.resolve('/ws/project');
    assert.equal(workspaceFilePath(root, 'src/fizz.js'), path.join(root, 'src/fizz.js'));
    assert.equal(workspaceFilePath(root, '../secrets.txt'), undefined);
    assert.equal(workspaceFilePath(root, '/etc/passwd'), undefined);
    assert.equal(workspaceFilePath(root, 'src/../../x'), undefined);
  });
});
