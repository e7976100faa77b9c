/**
 * Markdown of model answers as DOM nodes: markdown-it with raw HTML off (`html: false`), no images, and
 * its output parsed into an inert document and copied element by element through an allowlist, so
 * model text never becomes live HTML (no script, no event handler attribute, no `javascript:` link), and its
 * bidirectional controls are shown, not applied (`textNode` in dom.ts).
 */
import MarkdownIt from 'markdown-it';
import { textNode } from './dom';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false }).disable(['image']);

/** Elements markdown-it makes that the panel keeps; anything else is replaced by its text. */
const ALLOWED = new Set([
  'p',
  'ul',
  'ol',
  'li',
  'code',
  'pre',
  'em',
  'strong',
  'a',
  'blockquote',
  'hr',
  'br',
  's',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);

function copy(source: Node, target: Node): void {
  for (const child of Array.from(source.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      target.appendChild(textNode(child.textContent ?? ''));
      continue;
    }
    if (!(child instanceof Element)) continue;
    const tag = child.tagName.toLowerCase();
    if (!ALLOWED.has(tag)) {
      target.appendChild(textNode(child.textContent ?? ''));
      continue;
    }
    // Headings inside an answer would compete with the panel's own: shown as strong text.
    const element = document.createElement(/^h[1-6]$/.test(tag) ? 'strong' : tag);
    if (tag === 'a') {
      const href = child.getAttribute('href') ?? '';
      if (/^https?:\/\//i.test(href)) {
        element.setAttribute('href', href);
        element.setAttribute('title', href);
      }
    } else if (tag === 'ol') {
      const start = Number(child.getAttribute('start'));
      if (Number.isInteger(start) && start > 1) element.setAttribute('start', String(start));
    }
    copy(child, element);
    target.appendChild(element);
  }
}

function toFragment(html: string): DocumentFragment {
  // DOMParser's document is inert: nothing in it loads or runs.
  const parsed = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  const fragment = document.createDocumentFragment();
  copy(parsed.body, fragment);
  return fragment;
}

/** `text` rendered as Markdown blocks (paragraphs, lists, code blocks) inside a `div.markdown`. */
export function markdownBlock(text: string, className = ''): HTMLElement {
  const div = document.createElement('div');
  div.className = `markdown ${className}`.trim();
  div.appendChild(toFragment(md.render(text)));
  return div;
}

/** `text` rendered as inline Markdown (code, emphasis, links) inside a `span`. */
export function markdownInline(text: string, className = ''): HTMLElement {
  const span = document.createElement('span');
  if (className) span.className = className;
  span.appendChild(toFragment(md.renderInline(text)));
  return span;
}
