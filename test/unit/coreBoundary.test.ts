import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The agent core must run without VS Code: no file under src/core imports 'vscode',
// and no file under src/core imports a higher layer (src/vscode, src/cli, webview).
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('core boundary', () => {
  const files = sourceFiles(join(__dirname, '..', '..', 'src', 'core'));

  it('finds the core sources', () => {
    assert.ok(files.length > 3, 'expected source files under src/core');
  });

  it('never imports vscode', () => {
    const offenders = files.filter((f) => /from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\)/.test(readFileSync(f, 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('never imports a higher layer', () => {
    const offenders = files.filter((f) => /from\s+['"][./]*(\.\.\/)+(vscode|cli|extension)\b|from\s+['"].*webview/.test(readFileSync(f, 'utf8')));
    assert.deepEqual(offenders, []);
  });
});
