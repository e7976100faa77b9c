/** A titled panel section (a landmark with a heading and an optional count badge). */
import { h, type Child } from '../dom';
import { icon, type IconName } from '../icons';

/** Renders `<section>` with an `<h2>`; `id` names the section for tests and aria-labelledby. */
export function section(id: string, title: string, iconName: IconName, count: number | null, ...children: Child[]): HTMLElement {
  const headingId = `${id}-heading`;
  return h(
    'section',
    { class: `section section-${id}`, id, 'aria-labelledby': headingId },
    h(
      'h2',
      { id: headingId, class: 'section-title' },
      icon(iconName),
      h('span', {}, title),
      count === null ? null : h('span', { class: 'count-badge', 'aria-label': `${count} items` }, String(count)),
    ),
    ...children,
  );
}
