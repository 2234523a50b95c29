/**
 * CSV export of the items list as filtered: walks every page of the list (200 a page), shows
 * how many rows are read, can be cancelled, then downloads the file (the import's format).
 */
import { Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readAll } from '../../../app/pages.ts';
import { downloadCsv } from '../../../components/downloadCsv.ts';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
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
      const err = readServiceError(e);
      notifications.show({
        color: 'red',
        title: t('csv.exportFailed'),
        message: `${err.errors.map((x) => x.message).join(' ')}${err.errorReference ? ` (${err.errorReference})` : ''}`,
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
      <Modal
        closeButtonProps={{ 'aria-label': t('common:form.close') }}
        opened={count !== null}
        onClose={() => abort.current?.abort()}
        title={t('csv.exportTitle')}
        closeOnClickOutside={false}
        centered
      >
        <Stack gap="sm">
          <Progress
            value={100}
            animated
            striped
            aria-label={t('csv.exportProgress', { count: count ?? 0 })}
          />
          <Text size="sm" data-testid="export-progress">
            {t('csv.exportProgress', { count: count ?? 0 })}
          </Text>
          {waiting !== null && (
            <Text size="xs" c="dimmed" role="status">
              {t('csv.rateLimited', { seconds: waiting })}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => abort.current?.abort()}>
              {t('csv.cancelExport')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
