/**
 * A tiny element builder for the panel. Text always goes in through text nodes (never innerHTML), so model
 * output and file contents cannot inject markup, and with its bidirectional controls shown (`\x{202e}`), so they
 * cannot reorder how a diff or a command reads.
 */
import { showBidiControls } from '../src/shared/bidiControls';

/** A child of {@link h}: nodes, text, or nothing (skipped). Arrays are flattened. */
export type Child = Node | string | number | null | undefined | false | Child[];

/** Attributes of {@link h}: `true` sets an empty attribute, `false`/null/undefined leave it out. */
export type Attributes = Record<string, string | number | boolean | null | undefined>;

/** The one way text enters the panel: a text node, its bidirectional controls shown (`\x{202e}`), never markup. */
export function textNode(text: string): Text {
  return document.createTextNode(showBidiControls(text));
}

function appendChildren(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) appendChildren(parent, child);
    else if (child instanceof Node) parent.appendChild(child);
    else parent.appendChild(textNode(String(child)));
  }
}

/** Creates an HTML element with attributes and children: `h('button', { class: 'primary' }, 'Run')`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  appendChildren(element, children);
  return element;
}
