/**
 * WCAG contrast of rendered text, measured in the page: the element's computed colour over the background it is
 * drawn on (every ancestor's background colour composited, the page's own at the bottom). Colours are normalised
 * through a canvas, so `color-mix()` and relative colours (`color(srgb …)`) read like `rgb()`.
 */
import type { Page } from 'playwright-core';

/** One text element's contrast. */
export interface TextContrast {
  selector: string;
  text: string;
  ratio: number;
  /** `r,g,b` of the text as drawn (0–255). */
  color: [number, number, number];
}

// Runs in the page (a string: the root tsconfig has no DOM types, and page.evaluate takes expressions).
const MEASURE = `(selectors) => {
  const canvas = document.createElement('canvas');
  canvas.width = 1; canvas.height = 1;
  const g = canvas.getContext('2d', { willReadFrequently: true });
  const rgba = (css) => {
    g.clearRect(0, 0, 1, 1);
    g.fillStyle = '#000'; g.fillStyle = css; g.fillRect(0, 0, 1, 1);
    const [r, gr, b, a] = g.getImageData(0, 0, 1, 1).data;
    return [r, gr, b, a / 255];
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3]));
  const backgroundOf = (element) => {
    const layers = [];
    for (let e = element; e; e = e.parentElement) layers.push(rgba(getComputedStyle(e).backgroundColor));
    let base = [255, 255, 255];
    for (const layer of layers.reverse()) base = over(layer, base);
    return base;
  };
  const lum = (c) => { const v = c.map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const out = [];
  for (const selector of selectors) {
    for (const element of document.querySelectorAll(selector)) {
      const background = backgroundOf(element);
      const color = over(rgba(getComputedStyle(element).color), background);
      const [hi, lo] = [lum(color), lum(background)].sort((a, b) => b - a);
      out.push({ selector, text: element.textContent.trim().slice(0, 60), ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100, color: color.map(Math.round) });
    }
  }
  return out;
}`;

/** The contrast of every element matching each selector. */
export async function textContrast(page: Page, selectors: readonly string[]): Promise<TextContrast[]> {
  return (await page.evaluate(`(${MEASURE})(${JSON.stringify(selectors)})`)) as TextContrast[];
}
