/**
 * A record page may tell the shell a better name for its record than the code in its path
 * (a subscription's callback host for its uuid, a work order's code for its uuid): the
 * breadcrumbs and the page title show it.
 */
import { createContext, useContext, useEffect } from 'react';

export const RecordNameContext = createContext<(name: string | null) => void>(() => {});

/** Names the record of the current page while it is shown. */
export function useRecordName(name: string | undefined) {
  const set = useContext(RecordNameContext);
  useEffect(() => {
    if (!name) return;
    set(name);
    return () => set(null);
  }, [name, set]);
}
