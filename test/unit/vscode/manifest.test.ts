import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  COMMANDS,
  COMMAND_CATEGORY,
  COMMAND_TITLES,
  PANEL_VIEW_ID,
  VIEW_CONTAINER_ID,
} from '../../../src/vscode/commands/commandIds';
import { SETTING_KEYS, SETTINGS_SECTION, USER_ONLY_SETTING_KEYS } from '../../../src/vscode/config/settings';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

describe('extension manifest (package.json) matches the code', () => {
  it("contributes every command, with the code's title, under one category", () => {
    const contributed = manifest.contributes.commands as Array<{ command: string; title: string; category: string }>;
    assert.deepEqual(contributed.map((c) => c.command).sort(), Object.values(COMMANDS).sort());
    for (const c of contributed) {
      assert.equal(c.category, COMMAND_CATEGORY);
      assert.equal(c.title, COMMAND_TITLES[c.command as keyof typeof COMMAND_TITLES]);
    }
  });

  it('activates only on its commands and its view: no "*", no onStartupFinished', () => {
    const events = manifest.activationEvents as string[];
    assert.ok(!events.includes('*'));
    assert.ok(!events.some((e) => e.startsWith('onStartupFinished')));
    assert.deepEqual(events.sort(), [...Object.values(COMMANDS).map((c) => `onCommand:${c}`), `onView:${PANEL_VIEW_ID}`].sort());
  });

  it('every setting\'s default is valid under its own schema (no red "URI expected" on an empty Base URL)', () => {
    const properties = manifest.contributes.configuration.properties as Record<
      string,
      { type?: string; default?: unknown; format?: string; pattern?: string }
    >;
    for (const [key, schema] of Object.entries(properties)) {
      if (schema.type !== 'string' || typeof schema.default !== 'string') continue;
      // VS Code's settings editor checks `format: uri` on every value, the empty default included.
      if (schema.default === '') assert.notEqual(schema.format, 'uri', `${key}: an empty default is not a URI`);
      if (schema.pattern) assert.match(schema.default, new RegExp(schema.pattern), `${key}: the default fails its pattern`);
    }
    const baseUrl = new RegExp(properties['tddAgent.baseUrl']!.pattern!);
    assert.match('http://127.0.0.1:8000/v1', baseUrl);
    assert.doesNotMatch('ftp://x', baseUrl);
  });

  it('QA and CoT are in the editor context menu when text is selected', () => {
    const menu = manifest.contributes.menus['editor/context'] as Array<{ command: string; when: string }>;
    for (const id of [COMMANDS.askSelection, COMMANDS.explainSelection]) {
      assert.equal(menu.find((m) => m.command === id)?.when, 'editorHasSelection');
    }
  });

  it('declares the activity-bar container with the panel as a webview view, and its icon exists', () => {
    const container = manifest.contributes.viewsContainers.activitybar.find((c: { id: string }) => c.id === VIEW_CONTAINER_ID);
    assert.ok(container);
    assert.ok(fs.existsSync(path.join(root, container.icon)), `${container.icon} is missing`);
    const view = manifest.contributes.views[VIEW_CONTAINER_ID].find((v: { id: string }) => v.id === PANEL_VIEW_ID);
    assert.equal(view?.type, 'webview');
  });

  it('declares exactly the settings the code reads, and no API key setting', () => {
    const keys = Object.keys(manifest.contributes.configuration.properties);
    assert.deepEqual(keys.sort(), SETTING_KEYS.map((k) => `${SETTINGS_SECTION}.${k}`).sort());
    assert.ok(!keys.some((k) => /key|token|secret/i.test(k)));
  });

  it('supports untrusted workspaces in a limited way, restricting settings that run or send things', () => {
    const trust = manifest.capabilities.untrustedWorkspaces;
    assert.equal(trust.supported, 'limited');
    assert.match(trust.description, /Restricted Mode/);
    for (const key of ['baseUrl', 'qualityGates', 'mcpServers', 'agentsDir', 'approvalPolicy', 'cassette']) {
      assert.ok(trust.restrictedConfigurations.includes(`${SETTINGS_SECTION}.${key}`), key);
    }
  });

  it('tddAgent.sandbox: auto (default) or off, says what off means, cannot be set by a workspace', () => {
    const setting = manifest.contributes.configuration.properties[`${SETTINGS_SECTION}.sandbox`];
    assert.deepEqual(setting.enum, ['auto', 'off']);
    assert.equal(setting.default, 'auto');
    assert.equal(setting.enumDescriptions.length, 2);
    assert.match(setting.enumDescriptions[0], /sandbox/i);
    assert.match(setting.enumDescriptions[1], /unconfined on your machine/);
    assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(`${SETTINGS_SECTION}.sandbox`));
    // application scope: only user settings can hold it (workspace and folder values are ignored), and
    // unlike machine scope it is listed under User in a remote window too, where "Open setting" looks.
    for (const key of USER_ONLY_SETTING_KEYS) {
      assert.equal(manifest.contributes.configuration.properties[`${SETTINGS_SECTION}.${key}`].scope, 'application', key);
    }
  });

  it('asks for a VS Code that code-server 4.139 provides, and @types/vscode is not newer', () => {
    const wanted = /^\^1\.(\d+)\.0$/.exec(manifest.engines.vscode);
    assert.ok(wanted, manifest.engines.vscode);
    assert.ok(Number(wanted[1]) <= 139);
    const types = /1\.(\d+)/.exec(manifest.devDependencies['@types/vscode'])!;
    assert.ok(Number(types[1]) <= Number(wanted[1]));
  });

  it('.vscodeignore keeps sources and tests out of the package and keeps dist, media, config, katas', () => {
    const lines = fs
      .readFileSync(path.join(root, '.vscodeignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const excluded of ['src/**', 'test/**', 'node_modules/**']) assert.ok(lines.includes(excluded), excluded);
    for (const kept of ['dist', 'media', 'config', 'katas']) assert.ok(!lines.includes(`${kept}/**`), `${kept} must be packaged`);
    assert.ok(lines.includes('**/*.map'), 'source maps are left out');
  });
});
