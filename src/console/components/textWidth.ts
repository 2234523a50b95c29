/**
 * Widths of texts in the console's fonts, measured on a canvas (no layout), so a column or a
 * label can be as wide as its content: an identifier is never cut (issue 27, 5).
 */
let canvas: CanvasRenderingContext2D | null | undefined;

/** The width of `text` at `size` px in the body's font, or the monospace one. */
export function textWidth(text: string, { mono = false, weight = 400, size = 14 } = {}): number {
  canvas ??= typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!canvas) return text.length * size * 0.62;
  const family = mono
    ? getComputedStyle(document.documentElement).getPropertyValue('--mantine-font-family-monospace') ||
      'monospace'
    : getComputedStyle(document.body).fontFamily;
  canvas.font = `${weight} ${size}px ${family}`;
  return canvas.measureText(text).width;
}

/**
 * The width of the widest of `texts`: the few longest by length are measured (in a
 * proportional font the longest is not always the widest, but close), so 20,000 rows cost
 * a sort, not 20,000 measures.
 */
export function widestText(texts: Iterable<string>, options: Parameters<typeof textWidth>[1] = {}): number {
  const unique = [...new Set(texts)].sort((a, b) => b.length - a.length).slice(0, 8);
  return Math.max(0, ...unique.map((t) => textWidth(t, options)));
}
