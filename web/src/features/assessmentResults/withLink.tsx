import { Fragment, type ReactNode } from 'react';

/** A translated text whose <link>…</link> part is rendered by `link` (the rest stays text). */
export function withLink(text: string, link: (inner: string) => ReactNode): ReactNode[] {
  return text
    .split(/<link>(.*?)<\/link>/g)
    .map((part, i) => (i % 2 === 1 ? <Fragment key={i}>{link(part)}</Fragment> : part));
}
