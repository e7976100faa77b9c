/**
 * Inline SVG icons (16×16, stroke = currentColor), so the panel needs no icon font and the CSP
 * needs no font source. Decorative: hidden from assistive technology; the text next to them says it.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Each icon: stroked path data, plus optional filled path data. */
const ICONS = {
  play: { fill: 'M5 3.2v9.6l7.5-4.8z' },
  stop: { fill: 'M4 4h8v8H4z' },
  settings: {
    stroke: 'M2 4h12M2 8h12M2 12h12',
    fill: 'M5 2.4a1.6 1.6 0 1 0 0 3.2 1.6 1.6 0 0 0 0-3.2zM10.5 6.4a1.6 1.6 0 1 0 0 3.2 1.6 1.6 0 0 0 0-3.2zM6.5 10.4a1.6 1.6 0 1 0 0 3.2 1.6 1.6 0 0 0 0-3.2z',
  },
  key: { stroke: 'M7.2 8.8 13.5 2.5M11 5l1.8 1.8M12.6 3.4l1.2 1.2M7.5 11a2.5 2.5 0 1 1-5 0 2.5 2.5 0 0 1 5 0z' },
  check: { stroke: 'M3 8.5l3.2 3.2L13 4.8' },
  close: { stroke: 'M4 4l8 8M12 4l-8 8' },
  clock: { stroke: 'M14 8A6 6 0 1 1 2 8a6 6 0 0 1 12 0zM8 4.8V8l2.4 1.6' },
  commit: { stroke: 'M10.5 8a2.5 2.5 0 1 1-5 0 2.5 2.5 0 0 1 5 0zM1 8h4.5M10.5 8H15' },
  warning: { stroke: 'M8 2 14.5 13.5h-13zM8 6.3v3.4', fill: 'M8 10.8a.9.9 0 1 0 0 1.8.9.9 0 0 0 0-1.8z' },
  error: { stroke: 'M14 8A6 6 0 1 1 2 8a6 6 0 0 1 12 0zM5.9 5.9l4.2 4.2M10.1 5.9l-4.2 4.2' },
  terminal: { stroke: 'M2.5 4l4 4-4 4M8 12h5.5' },
  file: { stroke: 'M4 1.5h5l3.5 3.5v9.5h-8.5zM9 1.5V5h3.5' },
  running: { fill: 'M8 4.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z' },
  pending: { stroke: 'M11 8a3 3 0 1 1-6 0 3 3 0 0 1 6 0z' },
  skip: { stroke: 'M4 8h8' },
  revert: { stroke: 'M5.5 3 2.5 6l3 3M2.5 6h7a3.5 3.5 0 0 1 0 7H6' },
  question: {
    stroke: 'M14 8A6 6 0 1 1 2 8a6 6 0 0 1 12 0zM6.2 6.3a1.9 1.9 0 1 1 2.6 1.8c-.5.2-.8.6-.8 1.1v.5',
    fill: 'M8 10.7a.8.8 0 1 0 0 1.6.8.8 0 0 0 0-1.6z',
  },
  steps: {
    stroke: 'M6.5 4h7.5M6.5 8h7.5M6.5 12h7.5',
    fill: 'M3 2.8a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4zM3 6.8a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4zM3 10.8a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4z',
  },
  shield: { stroke: 'M8 1.5l5.5 2v4c0 3.4-2.4 5.7-5.5 7-3.1-1.3-5.5-3.6-5.5-7v-4z' },
  branch: { stroke: 'M5 2.5v11M5 10.5c0-3 6-2 6-5.5M12.5 3.8a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0z' },
  cycle: { stroke: 'M13.2 6A5.5 5.5 0 0 0 3.3 4.6M3 1.8v3h3M2.8 10a5.5 5.5 0 0 0 9.9 1.4M13 14.2v-3h-3' },
  globe: {
    stroke:
      'M14 8A6 6 0 1 1 2 8a6 6 0 0 1 12 0zM2 8h12M8 2c1.7 1.6 2.5 3.6 2.5 6S9.7 12.4 8 14c-1.7-1.6-2.5-3.6-2.5-6S6.3 3.6 8 2z',
  },
  diff: { stroke: 'M4.5 2v6M1.5 5h6M1.5 13h6M11.5 2.5v11M8.8 10.8l2.7 2.7 2.7-2.7' },
  merge: { stroke: 'M4.5 2.5v11M4.5 5.5c0 3 7 2.5 7 6M4.5 13.5a1.5 1.5 0 1 0 0-3M11.5 13.5a1.5 1.5 0 1 1 0-3' },
  trash: { stroke: 'M2.5 4h11M6 4V2.5h4V4M4 4l.8 9.5h6.4L12 4M6.8 6.5v5M9.2 6.5v5' },
  resume: { fill: 'M3 3.2h2v9.6H3zM7 3.2v9.6l6.5-4.8z' },
  beaker: { stroke: 'M6 1.8h4M6.5 1.8v4.4L2.8 12.6A1.2 1.2 0 0 0 3.8 14.4h8.4a1.2 1.2 0 0 0 1-1.8L9.5 6.2V1.8M4.6 9.6h6.8' },
} as const;

/** Names of the available icons. */
export type IconName = keyof typeof ICONS;

/** Creates an inline SVG icon element (aria-hidden). */
export function icon(name: IconName, className = ''): SVGSVGElement {
  const spec: { stroke?: string; fill?: string } = ICONS[name];
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', `icon icon-${name} ${className}`.trim());
  if (spec.stroke) {
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', spec.stroke);
    path.setAttribute('fill', 'none');
    path.setAttribute('stroke', 'currentColor');
    path.setAttribute('stroke-width', '1.4');
    path.setAttribute('stroke-linecap', 'round');
    path.setAttribute('stroke-linejoin', 'round');
    svg.appendChild(path);
  }
  if (spec.fill) {
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', spec.fill);
    path.setAttribute('fill', 'currentColor');
    svg.appendChild(path);
  }
  return svg;
}
