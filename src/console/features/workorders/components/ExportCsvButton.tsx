/**
 * CSV export of ALL the pages of a grid as filtered (not only the rows loaded): walks the
 * keyset pages, shows the progress against the total the totals extension gave, can be
 * cancelled, then downloads the file. A 429 waits and tries again.
 */
import { Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../../contract/common.ts';
import { readAll } from '../../../app/pages.ts';
import { downloadCsv } from '../../../components/downloadCsv.ts';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';

export function ExportCsvButton<T>({
  testId,
  total,
  fetchPage,
  toCsv,
  fileName,
  disabled,
}: {
  testId: string;
  /** The number of rows the filters match (totals extension), for the progress bar. */
  total: number | undefined;
  fetchPage: (token: string | undefined, signal: AbortSignal) => Promise<Page<T>>;
  toCsv: (rows: T[]) => string;
  fileName: () => string;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation('workorders');
  const fmt = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en');
  const [count, setCount] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);

  const run = async () => {
    const ctrl = new AbortController();
    abort.current = ctrl;
    setCount(0);
    try {
      const rows = await readAll((token) => fetchPage(token, ctrl.signal), {
        signal: ctrl.signal,
        onPage: setCount,
      });
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
      const err = readServiceError(e);
      notifications.show({
        closeButtonProps: { 'aria-label': t('common:undo.close') },
        color: 'red',
        title: t('csv.failed'),
        message: `${err.errors.map((x) => x.message).join(' ')}${err.errorReference ? ` (${err.errorReference})` : ''}`,
        autoClose: false,
      });
    } finally {
      abort.current = null;
      setCount(null);
    }
  };

  const pct = total ? Math.min(100, Math.round(((count ?? 0) / total) * 100)) : 100;
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
      <Modal
        closeButtonProps={{ 'aria-label': t('common:form.close') }}
        opened={count !== null}
        onClose={() => abort.current?.abort()}
        title={t('csv.title')}
        closeOnClickOutside={false}
        centered
      >
        <Stack gap="sm">
          <Progress
            value={pct}
            animated={!total}
            striped={!total}
            aria-label={t('csv.progress', {
              n: fmt.format(count ?? 0),
              total: total === undefined ? '?' : fmt.format(total),
            })}
          />
          <Text size="sm" data-testid="export-progress">
            {t('csv.progress', {
              n: fmt.format(count ?? 0),
              total: total === undefined ? '?' : fmt.format(total),
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => abort.current?.abort()} data-testid="export-cancel">
              {t('csv.cancel')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
