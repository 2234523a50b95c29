/**
 * CSV export of ALL the pages of a grid as filtered (not only the rows loaded). The rows the
 * grid holds are not read again: with every row loaded the file is written at once, without
 * a request; else the keyset pages after them are read, with the progress against the total
 * the totals extension gave, at the pace the list's rate range allows (a 429 waits as long as
 * its Retry-After says, the wait counted down), cancellable, then the file downloads.
 */
import { Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../../contract/common.ts';
import { readAll } from '../../../app/pages.ts';
import { downloadCsv } from '../../../components/downloadCsv.ts';
import { ExportProgressModal } from '../../../components/ExportProgressModal.tsx';
import { errorSentence, readServiceError } from '../../../components/forms/serviceErrors.ts';

/** What a grid's keyset pages (TanStack's infinite query) hold, for the export. */
export function loadedOf<T>(
  pages: readonly Page<T>[] | undefined,
  rows: readonly T[],
  hasMore: boolean,
): { rows: readonly T[]; next: string | null } {
  return { rows, next: hasMore ? (pages?.at(-1)?.continuationToken ?? null) : null };
}

export function ExportCsvButton<T>({
  testId,
  total,
  loaded,
  fetchPage,
  toCsv,
  fileName,
  disabled,
}: {
  testId: string;
  /** The number of rows the filters match (totals extension), for the progress bar. */
  total: number | undefined;
  /** The rows the grid has loaded, and the continuation token after them (null: none, all loaded). */
  loaded: { rows: readonly T[]; next: string | null };
  fetchPage: (token: string | undefined, signal: AbortSignal) => Promise<Page<T>>;
  toCsv: (rows: readonly T[]) => string;
  fileName: () => string;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation('workorders');
  const fmt = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en');
  const [count, setCount] = useState<number | null>(null);
  /** When the reading resumes after a 429 (epoch ms), null while reading. */
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const seconds = useCountdown(waitUntil);
  const abort = useRef<AbortController | null>(null);

  const read = async (ctrl: AbortController): Promise<readonly T[]> => {
    if (loaded.next === null) return loaded.rows;
    setCount(loaded.rows.length);
    return readAll((token) => fetchPage(token, ctrl.signal), {
      signal: ctrl.signal,
      from: { rows: loaded.rows, token: loaded.next },
      onPage: (n) => {
        setWaitUntil(null);
        setCount(n);
      },
      onWait: (ms) => setWaitUntil(Date.now() + ms),
    });
  };

  const run = async () => {
    const ctrl = new AbortController();
    abort.current = ctrl;
    try {
      const rows = await read(ctrl);
      const name = fileName();
      downloadCsv(name, toCsv(rows));
      notifications.show({
        closeButtonProps: { 'aria-label': t('common:undo.close') },
        color: 'teal',
        title: t('csv.doneTitle'),
        message: t('csv.done', { count: rows.length, n: fmt.format(rows.length), name }),
        autoClose: 6000,
        'data-testid': 'export-done',
      });
    } catch (e) {
      if (ctrl.signal.aborted) return;
      notifications.show({
        closeButtonProps: { 'aria-label': t('common:undo.close') },
        color: 'red',
        title: t('csv.failed'),
        message: errorSentence(readServiceError(e)),
        autoClose: false,
      });
    } finally {
      abort.current = null;
      setCount(null);
      setWaitUntil(null);
    }
  };

  const pct = total ? Math.min(100, Math.round(((count ?? 0) / total) * 100)) : undefined;
  return (
    <>
      <Button
        size="compact-sm"
        variant="default"
        leftSection={<IconDownload size={14} />}
        onClick={() => void run()}
        disabled={disabled}
        loading={count !== null}
        data-testid={testId}
      >
        {t('csv.export')}
      </Button>
      <ExportProgressModal
        opened={count !== null}
        onCancel={() => abort.current?.abort()}
        title={t('csv.title')}
        progress={t('csv.progress', {
          n: fmt.format(count ?? 0),
          total: total === undefined ? '?' : fmt.format(total),
        })}
        value={pct}
        cancelLabel={t('csv.cancel')}
        cancelTestId="export-cancel"
      >
        {seconds !== null && (
          <Text size="sm" c="dimmed" role="status" data-testid="export-wait">
            {t('csv.waiting', { count: seconds })}
          </Text>
        )}
      </ExportProgressModal>
    </>
  );
}

/** Whole seconds left until `until` (epoch ms), ticking each second; null without a wait. */
function useCountdown(until: number | null): number | null {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (until === null) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [until]);
  return until === null ? null : Math.max(0, Math.ceil((until - now) / 1000));
}
