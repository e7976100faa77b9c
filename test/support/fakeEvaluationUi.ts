/**
 * A double of "TDD Agent: Evaluate the configured model…"'s VS Code calls (the `EvaluationUi` the command gives its
 * handler), for the unit test of its refusals and the integration test of a real eval through it.
 */
import type { EvalScope, EvaluationUi } from '../../src/vscode/commands/evaluation';

/** A double of the command's VS Code calls that records them; `onProgress` sees each progress report. */
export class FakeEvaluationUi implements EvaluationUi {
  trusted = true;
  scope: EvalScope | undefined = { language: 'javascript', katas: [], runs: 1 };
  readonly calls: string[] = [];
  readonly warnings: string[] = [];
  readonly progress: Array<{ message?: string; increment?: number }> = [];
  readonly previews: string[] = [];
  readonly informed: string[] = [];
  readonly revealed: string[] = [];
  titles: string[] = [];
  private readonly cancelListeners = new Set<() => void>();
  onProgress: (value: { message?: string; increment?: number }) => void = () => undefined;

  isTrusted(): boolean {
    return this.trusted;
  }
  warn(message: string): void {
    this.calls.push('warn');
    this.warnings.push(message);
  }
  async askScope(tags: readonly string[]): Promise<EvalScope | undefined> {
    this.calls.push(`askScope ${tags.join(',')}`);
    return this.scope;
  }
  withProgress<T>(
    title: string,
    task: (
      progress: { report(value: { message?: string; increment?: number }): void },
      cancel: { onCancellationRequested(listener: () => void): { dispose(): void } },
    ) => Promise<T>,
  ): Promise<T> {
    this.calls.push('withProgress');
    this.titles.push(title);
    return task(
      {
        report: (value) => {
          this.progress.push(value);
          this.onProgress(value);
        },
      },
      {
        onCancellationRequested: (listener) => {
          this.cancelListeners.add(listener);
          return { dispose: () => this.cancelListeners.delete(listener) };
        },
      },
    );
  }
  /** The notification's Cancel button. */
  cancel(): void {
    for (const listener of this.cancelListeners) listener();
  }
  async openMarkdownPreview(file: string): Promise<void> {
    this.calls.push('openMarkdownPreview');
    this.previews.push(file);
  }
  inform(message: string): PromiseLike<boolean> {
    this.calls.push('inform');
    this.informed.push(message);
    return Promise.resolve(true);
  }
  revealFile(file: string): void {
    this.revealed.push(file);
  }
}
