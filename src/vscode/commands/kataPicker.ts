/**
 * Chooses what to run: "Describe a task…" (a task in plain words, in the open project) first, then a QuickPick of
 * kata files in the workspace (`**\/*.kata.md`, `katas/*.md`) and the katas bundled with the extension.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { listBundledKatas } from '../../core/tddApi';
import { easiestFirst } from './kataOrder';

interface KataItem extends vscode.QuickPickItem {
  kataPath?: string;
  task?: true;
}

/** What the picker chose: a kata file, or to describe a task in words. */
export type KataChoice = { kata: string } | { task: true };

/** The label of the picker's first entry (the e2e tests pick it by label). */
export const DESCRIBE_TASK_LABEL = 'Describe a task…';

const EXCLUDE = '**/{node_modules,.git,.tdd,dist,out}/**';

function titleOf(text: string, fallback: string): string {
  const front = /^---\s*\n([\s\S]*?)\n---/.exec(text)?.[1];
  const fromFront = front ? /^title:\s*["']?(.+?)["']?\s*$/m.exec(front)?.[1] : undefined;
  const heading = /^#\s+(.+)$/m.exec(text)?.[1];
  return (fromFront ?? heading ?? fallback).trim();
}

/** Kata files in the open workspace, as QuickPick items. */
async function workspaceKatas(): Promise<KataItem[]> {
  const [named, folder] = await Promise.all([
    vscode.workspace.findFiles('**/*.kata.md', EXCLUDE, 200),
    vscode.workspace.findFiles('**/katas/*.md', EXCLUDE, 200),
  ]);
  const seen = new Set<string>();
  const items: KataItem[] = [];
  for (const uri of [...named, ...folder]) {
    if (seen.has(uri.fsPath) || /readme\.md$/i.test(uri.fsPath)) continue;
    seen.add(uri.fsPath);
    let title = path.basename(uri.fsPath, '.md');
    try {
      title = titleOf(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'), title);
    } catch {
      /* keep the file name */
    }
    items.push({
      label: title,
      description: vscode.workspace.asRelativePath(uri),
      detail: 'workspace kata',
      kataPath: uri.fsPath,
    });
  }
  return items.sort((a, b) => a.label.localeCompare(b.label));
}

/** The katas shipped with the extension. */
function bundledKatas(extensionPath: string): KataItem[] {
  try {
    return easiestFirst(listBundledKatas(extensionPath)).map((k) => ({
      label: k.title,
      description: k.slug,
      detail: 'bundled kata',
      kataPath: k.path,
    }));
  } catch {
    return [];
  }
}

/** Shows the picker; resolves to the chosen kata file or to describing a task, or undefined when dismissed. */
export async function pickKata(extensionPath: string): Promise<KataChoice | undefined> {
  const ws = await workspaceKatas();
  const bundled = bundledKatas(extensionPath);
  const items: KataItem[] = [
    {
      label: DESCRIBE_TASK_LABEL,
      description: 'in plain words, in this project',
      detail: 'Say what to build; the language, test command and folders come from the project',
      iconPath: new vscode.ThemeIcon('edit'),
      task: true,
    },
  ];
  if (ws.length > 0) items.push({ label: 'In this workspace', kind: vscode.QuickPickItemKind.Separator }, ...ws);
  if (bundled.length > 0) items.push({ label: 'Bundled', kind: vscode.QuickPickItemKind.Separator }, ...bundled);
  const picked = await vscode.window.showQuickPick(items, {
    title: 'TDD Agent: Run TDD kata',
    placeHolder: 'Describe a task, or pick the kata to run against the open workspace',
    matchOnDescription: true,
  });
  if (picked?.task) return { task: true };
  return picked?.kataPath ? { kata: picked.kataPath } : undefined;
}
