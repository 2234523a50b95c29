/**
 * CSV export of the items list as filtered: walks every page of the list (200 a page), shows
 * how many rows are read, can be cancelled, then downloads the file (the import's format).
 */
import { Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readAll } from '../../../app/pages.ts';
import { downloadCsv } from '../../../components/downloadCsv.ts';
import { ExportProgressModal } from '../../../components/ExportProgressModal.tsx';
import { errorSentence, readServiceError } from '../../../components/forms/serviceErrors.ts';
import { exportFileName, itemsToCsv } from '../csv.ts';
import type { Item } from '../model.ts';
import { useCatalogApi } from '../queries.ts';
import type { ItemsQuery } from '../transport.ts';

export function ExportItemsButton({ query, disabled }: { query: ItemsQuery; disabled?: boolean }) {
  const { t } = useTranslation('catalog');
  const api = useCatalogApi();
  const [count, setCount] = useState<number | null>(null);
  const [waiting, setWaiting] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);

  const run = async () => {
    const ctrl = new AbortController();
    abort.current = ctrl;
    setCount(0);
    try {
      const items: Item[] = await readAll(
        (token) => api.listItems({ ...query, continuationToken: token }, ctrl.signal),
        {
          signal: ctrl.signal,
          onPage: (n) => {
            setWaiting(null);
            setCount(n);
          },
          onWait: (ms) => setWaiting(Math.round(ms / 1000)),
        },
      );
      if (ctrl.signal.aborted) return;
      const name = exportFileName(new Date(), [query.category, query.q].filter(Boolean).join(' '));
      downloadCsv(name, itemsToCsv(items));
      notifications.show({
        color: 'teal',
        title: t('csv.exportedTitle'),
        message: t('csv.exported', { count: items.length, name }),
        autoClose: 6000,
      });
    } catch (e) {
      if (ctrl.signal.aborted) return;
      notifications.show({
        color: 'red',
        title: t('csv.exportFailed'),
        message: errorSentence(readServiceError(e)),
        autoClose: false,
      });
    } finally {
      abort.current = null;
      setWaiting(null);
      setCount(null);
    }
  };

  return (
    <>
      <Button
        variant="default"
        leftSection={<IconDownload size={16} />}
        onClick={run}
        disabled={disabled}
        loading={count !== null}
        data-testid="export-csv"
      >
        {t('csv.export')}
      </Button>
      <ExportProgressModal
        opened={count !== null}
        onCancel={() => abort.current?.abort()}
        title={t('csv.exportTitle')}
        progress={t('csv.exportProgress', { count: count ?? 0 })}
        cancelLabel={t('csv.cancelExport')}
      >
        {waiting !== null && (
          <Text size="xs" c="dimmed" role="status">
            {t('csv.rateLimited', { seconds: waiting })}
          </Text>
        )}
      </ExportProgressModal>
    </>
  );
}
