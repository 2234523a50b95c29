import { useEffect, useRef } from 'react';

/** Scrolls the element (an alert) into view when `deps` becomes truthy. */
export function useScrollIntoView(deps: unknown) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (deps) ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [deps]);
  return ref;
}
