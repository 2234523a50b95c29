/**
 * A callback URL as text that never breaks inside a word (issue 27, 11): either whole on one
 * line, cut with an ellipsis and the full value in its title (lists), or allowed to break only
 * after its separators (`/`, `?`, `&`, `=`, `.` of the host) where a reader expects it.
 */
import { Fragment } from 'react';

/** The URL cut after each separator, the separators kept. */
export function urlParts(url: string): string[] {
  return url.split(/(?<=[/?&=#.])/).filter((p) => p !== '');
}

/** The URL, breakable only after its separators. */
export function BreakableUrl({ url }: { url: string }) {
  return (
    <span style={{ overflowWrap: 'normal', wordBreak: 'normal' }}>
      {urlParts(url).map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one URL, in order, never reordered.
        <Fragment key={i}>
          {/* Whole between separators: a browser would break after a hyphen too. */}
          <span style={{ whiteSpace: 'nowrap' }}>{part}</span>
          <wbr />
        </Fragment>
      ))}
    </span>
  );
}

/** The style of a URL on one line, cut with an ellipsis (the caller gives the full value as its title). */
export const oneLineUrl = {
  display: 'block',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  maxWidth: '100%',
} as const;
