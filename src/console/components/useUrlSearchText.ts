import { useEffect, useRef, useState } from 'react';
import { useDebounced } from './useDebounced.ts';

/**
 * The text of a list's search box, kept in step with `q` of the list's URL search: typing
 * writes `q` once it pauses (`ms`; blank -> no `q`), and a URL change (back button, "clear
 * filters") writes the box. Returns the box's value and its setter.
 */
export function useUrlSearchText<S extends { q?: string }>(
  search: S,
  setSearch: (next: S) => void,
  ms = 300,
): [string, (text: string) => void] {
  const [text, setText] = useState(search.q ?? '');
  const debounced = useDebounced(text, ms);
  const sent = useRef(search.q ?? '');
  const latest = useRef({ search, setSearch });
  latest.current = { search, setSearch };
  useEffect(() => {
    const v = debounced.trim();
    if (v === sent.current) return;
    sent.current = v;
    latest.current.setSearch({ ...latest.current.search, q: v || undefined });
  }, [debounced]);
  useEffect(() => {
    if ((search.q ?? '') === sent.current) return;
    sent.current = search.q ?? '';
    setText(search.q ?? '');
  }, [search.q]);
  return [text, setText];
}
