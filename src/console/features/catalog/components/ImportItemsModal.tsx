/**
 * CSV import of items: read the file (papaparse), check every row against the contract
 * schema (code present, no code twice) and show the preview BEFORE anything is written;
 * then write the valid rows one PUT at a time with a progress bar, cancellable, with each
 * row's server errors and a summary (created / updated / failed).
 */
import {
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  List,
  Modal,
  Progress,
  SegmentedControl,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconFileTypeCsv, IconUpload } from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { type CsvIssue, type CsvRow, ITEM_CSV_COLUMNS, type ItemsCsv, parseItemsCsv } from '../csv.ts';
import { serverErrorKey } from '../errorFields.ts';
import { type ImportSummary, type RowOutcome, runImport } from '../importRunner.ts';
import { useCatalogApi, useInvalidateItem } from '../queries.ts';
import { ImportSummaryBlock, RowStatus } from './ImportRows.tsx';
import { StatusBadge } from './StatusBadge.tsx';

type Phase = 'choose' | 'preview' | 'running' | 'done';

const MAX_FILE_BYTES = 20 * 1024 * 1024;

type Show = 'all' | 'errors';

/** The import's state: the file read, the rows checked, the writing and its outcomes. */
function useItemsImport() {
  const { t } = useTranslation('catalog');
  const api = useCatalogApi();
  const invalidate = useInvalidateItem();
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState<ItemsCsv | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('choose');
  const [show, setShow] = useState<Show>('all');
  const [outcomes, setOutcomes] = useState<Map<number, RowOutcome>>(new Map());
  const [done, setDone] = useState(0);
  const [waiting, setWaiting] = useState<number | null>(null);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  const abort = useRef<AbortController | null>(null);

  const valid = useMemo(() => csv?.rows.filter((r) => r.body !== null) ?? [], [csv]);
  const invalid = (csv?.rows.length ?? 0) - valid.length;
  const rows = useMemo(() => {
    const all = csv?.rows ?? [];
    if (show === 'errors')
      return all.filter((r) => r.errors.length > 0 || outcomes.get(r.line)?.status === 'failed');
    return all;
  }, [csv, show, outcomes]);

  const reset = () => {
    setFile(null);
    setCsv(null);
    setReadError(null);
    setPhase('choose');
    setShow('all');
    setOutcomes(new Map());
    setDone(0);
    setSummary(null);
  };

  const choose = async (f: File | null) => {
    reset();
    setFile(f);
    if (!f) return;
    if (f.size > MAX_FILE_BYTES) {
      setReadError(t('csv.tooLarge', { max: '20 MB' }));
      return;
    }
    try {
      const parsed = parseItemsCsv(await f.text());
      setCsv(parsed);
      setPhase('preview');
      if (parsed.rows.some((r) => r.errors.length > 0)) setShow('errors');
    } catch (e) {
      setReadError(e instanceof Error ? e.message : String(e));
    }
  };

  const start = async () => {
    if (!csv || valid.length === 0) return;
    const ctrl = new AbortController();
    abort.current = ctrl;
    setPhase('running');
    setDone(0);
    setOutcomes(new Map());
    const result = await runImport(
      valid.flatMap((r) => (r.body ? [{ line: r.line, code: r.code, body: r.body }] : [])),
      { get: (c) => api.findItem(c), put: (c, b) => api.putItem(c, b).then((r) => r.outcome) },
      {
        signal: ctrl.signal,
        retry: { onWait: (ms) => setWaiting(Math.round(ms / 1000)) },
        onProgress: (n, outcome) => {
          setWaiting(null);
          setDone(n);
          setOutcomes((m) => new Map(m).set(outcome.line, outcome));
        },
      },
    );
    abort.current = null;
    setWaiting(null);
    setSummary(result);
    setPhase('done');
    setShow(result.failed > 0 ? 'errors' : 'all');
    await invalidate();
  };

  return {
    file,
    csv,
    readError,
    phase,
    show,
    setShow,
    outcomes,
    done,
    waiting,
    summary,
    valid,
    invalid,
    rows,
    reset,
    choose,
    start,
    cancel: () => abort.current?.abort(),
  };
}

/** The preview's columns: the row's line, status, main cells and problems (the file's and the server's). */
function useImportColumns(outcomes: Map<number, RowOutcome>): Column<CsvRow>[] {
  const { t } = useTranslation('catalog');
  const issueText = (e: CsvIssue) => {
    const msg = t(e.key, { ...e.params, defaultValue: e.key });
    return e.field ? `${e.field}: ${msg}` : msg;
  };
  const outcomeText = (o: RowOutcome | undefined) =>
    o?.status === 'failed'
      ? o.errors.map((x) => t(serverErrorKey(x.code), { defaultValue: x.message })).join(' · ')
      : '';
  return [
    { key: 'line', header: t('csv.columns.line'), width: 64, render: (r) => r.line },
    {
      key: 'status',
      header: t('csv.columns.status'),
      width: 118,
      render: (r) => <RowStatus row={r} outcome={outcomes.get(r.line)} />,
    },
    { key: 'code', header: t('item.fields.itemCode'), width: 170, render: (r) => r.cells.itemCode ?? '' },
    { key: 'name', header: t('item.fields.name'), width: 170, render: (r) => r.cells.name ?? '' },
    { key: 'category', header: t('item.fields.category'), width: 120, render: (r) => r.cells.category ?? '' },
    { key: 'price', header: t('item.fields.unitPrice'), width: 110, render: (r) => r.cells.unitPrice ?? '' },
    {
      key: 'problems',
      header: t('csv.columns.problems'),
      render: (r) => {
        const text = [...r.errors.map(issueText), outcomeText(outcomes.get(r.line))]
          .filter(Boolean)
          .join(' · ');
        return text ? (
          <Tooltip label={text} multiline maw={420} openDelay={300}>
            <Text span size="sm" c="red.9" data-testid="row-problem">
              {text}
            </Text>
          </Tooltip>
        ) : (
          ''
        );
      },
    },
  ];
}

type ItemsImport = ReturnType<typeof useItemsImport>;

export function ImportItemsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('catalog');
  const im = useItemsImport();
  const close = () => {
    if (im.phase === 'running') return;
    im.reset();
    onClose();
  };
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('common:form.close') }}
      opened={opened}
      onClose={close}
      title={t('csv.importTitle')}
      size="min(1100px, 96vw)"
      closeOnClickOutside={im.phase !== 'running'}
      closeOnEscape={im.phase !== 'running'}
      withCloseButton={im.phase !== 'running'}
      data-testid="import-modal"
    >
      <Stack gap="md">
        <FileChoice im={im} />
        <FileProblems im={im} />
        {im.csv && im.csv.fileErrors.length === 0 && <ImportRowsPreview im={im} csv={im.csv} />}
        <ImportActions im={im} close={close} />
      </Stack>
    </Modal>
  );
}

/** The file input and the template, until the import starts; then the file's name. */
function FileChoice({ im }: { im: ItemsImport }) {
  const { t } = useTranslation('catalog');
  const template = `data:text/csv;charset=utf-8,${encodeURIComponent(`${ITEM_CSV_COLUMNS.join(',')}\r\n`)}`;
  return (
    <>
      {im.phase === 'choose' || im.phase === 'preview' ? (
        <Group align="flex-end" gap="md" wrap="wrap">
          <FileInput
            label={t('csv.file')}
            description={t('csv.fileHint')}
            placeholder={t('csv.choose')}
            accept=".csv,text/csv"
            value={im.file}
            onChange={im.choose}
            leftSection={<IconFileTypeCsv size={18} />}
            clearable
            clearButtonProps={{ 'aria-label': t('csv.clearFile') }}
            w={420}
            data-testid="import-file"
          />
          <Anchor href={template} download="items-template.csv" size="sm" pb={8}>
            {t('csv.template')}
          </Anchor>
        </Group>
      ) : (
        <Text size="sm">{t('csv.fileName', { name: im.file?.name ?? '' })}</Text>
      )}
      {im.phase === 'choose' && !im.readError && (
        <Text size="sm" c="dimmed">
          {t('csv.columnsHint', { columns: ITEM_CSV_COLUMNS.join(', ') })}
        </Text>
      )}
    </>
  );
}

/** What keeps the file from being read: a read error, the file's own errors, its ignored columns. */
function FileProblems({ im }: { im: ItemsImport }) {
  const { t } = useTranslation('catalog');
  const { csv, readError } = im;
  return (
    <>
      {readError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          {readError}
        </Alert>
      )}
      {csv && csv.fileErrors.length > 0 && (
        <Alert
          color="red"
          variant="light"
          title={t('csv.fileErrorsTitle')}
          role="alert"
          data-testid="file-errors"
        >
          <List size="sm">
            {csv.fileErrors.map((e) => (
              <List.Item key={`${e.key}-${e.field}`}>
                {t(e.key, { ...e.params, defaultValue: e.key })}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {csv && csv.ignored.length > 0 && (
        <Alert color="yellow" variant="light" data-testid="ignored-columns">
          {t('csv.ignored', { columns: csv.ignored.join(', ') })}
        </Alert>
      )}
    </>
  );
}

/** The rows' counts and filter, the progress of the writing, its summary and the rows. */
function ImportRowsPreview({ im, csv }: { im: ItemsImport; csv: ItemsCsv }) {
  const { t } = useTranslation('catalog');
  const columns = useImportColumns(im.outcomes);
  const { phase, valid, invalid, rows } = im;
  return (
    <>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs" data-testid="import-counts">
          <StatusBadge color="gray">{t('csv.rows', { count: csv.rows.length })}</StatusBadge>
          <StatusBadge color="teal">{t('csv.valid', { count: valid.length })}</StatusBadge>
          <StatusBadge color={invalid > 0 ? 'red' : 'gray'}>
            {t('csv.invalid', { count: invalid })}
          </StatusBadge>
        </Group>
        <SegmentedControl
          size="xs"
          value={im.show}
          onChange={(v) => im.setShow(v)}
          data={[
            { value: 'all', label: t('csv.showAll') },
            { value: 'errors', label: t('csv.showErrors') },
          ]}
          aria-label={t('csv.show')}
        />
      </Group>
      {phase === 'preview' && (
        <Text size="sm" c="dimmed">
          {invalid > 0 ? t('csv.previewHintErrors') : t('csv.previewHint')}
        </Text>
      )}
      {(phase === 'running' || phase === 'done') && <ImportProgress im={im} />}
      {im.summary && <ImportSummaryBlock summary={im.summary} invalid={invalid} />}
      {rows.length > 0 ? (
        <div style={{ display: 'flex', flexDirection: 'column', maxHeight: 'min(46vh, 420px)' }}>
          <VirtualTable
            rows={rows}
            columns={columns}
            rowKey={(r) => String(r.line)}
            hasMore={false}
            loadingMore={false}
            loadMore={() => {}}
            label={t('csv.previewLabel')}
          />
        </div>
      ) : (
        <Text size="sm" c="dimmed">
          {t('csv.noRowsToShow')}
        </Text>
      )}
    </>
  );
}

/** Rows written so far, and the wait a rate limit imposes. */
function ImportProgress({ im }: { im: ItemsImport }) {
  const { t } = useTranslation('catalog');
  const { phase, done, valid, waiting } = im;
  return (
    <Stack gap={4}>
      <Progress
        value={valid.length ? (done / valid.length) * 100 : 0}
        animated={phase === 'running'}
        size="lg"
        aria-label={t('csv.progress', { done, total: valid.length })}
        data-testid="import-progress"
      />
      <Text size="xs" c="dimmed">
        {t('csv.progress', { done, total: valid.length })}
      </Text>
      {waiting !== null && phase === 'running' && (
        <Text size="xs" c="dimmed" role="status">
          {t('csv.rateLimited', { seconds: waiting })}
        </Text>
      )}
    </Stack>
  );
}

/** Cancel (while writing) or close, and import the valid rows. */
function ImportActions({ im, close }: { im: ItemsImport; close: () => void }) {
  const { t } = useTranslation('catalog');
  const { phase, valid } = im;
  return (
    <Group justify="flex-end" gap="sm">
      {phase === 'running' ? (
        <Button color="red" variant="light" onClick={im.cancel} data-testid="import-cancel">
          {t('csv.cancelImport')}
        </Button>
      ) : (
        <Button variant="default" onClick={close} data-testid="import-close">
          {phase === 'done' ? t('common:form.close') : t('common:form.cancel')}
        </Button>
      )}
      {phase !== 'done' && (
        <Button
          leftSection={<IconUpload size={16} />}
          disabled={phase !== 'preview' || valid.length === 0}
          loading={phase === 'running'}
          onClick={im.start}
          data-testid="import-start"
        >
          {t('csv.importValid', { count: valid.length })}
        </Button>
      )}
    </Group>
  );
}
