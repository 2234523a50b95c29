/**
 * The pieces every record page shares, so that every feature looks the same: the header
 * (back link, name, code badge, status, last update, actions), the sections of a detail
 * page (a titled card of label/value rows), "not set", the record's code on a form
 * (editable with its rule on creation, read-only and shown the same way afterwards), and
 * the not-found state.
 */
import { Badge, Card, Group, Stack, Text, TextInput, type TextInputProps, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTimestamp } from './format.ts';

/** A back link's content: the arrow and the label (the caller's typed `<Link>` wraps it). */
export function BackLabel({ children }: { children: ReactNode }) {
  return (
    <Group gap={4} component="span">
      <IconArrowLeft size={14} aria-hidden />
      {children}
    </Group>
  );
}

/** The top of a record page: one h1 with the code badge, the last update, actions on the right. */
export function RecordHeader({
  back,
  title,
  code,
  status,
  lastUpdate,
  subtitle,
  actions,
}: {
  back: ReactNode;
  title: ReactNode;
  code?: string;
  status?: ReactNode;
  lastUpdate?: unknown;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  const { t, i18n } = useTranslation('common');
  const when = formatTimestamp(lastUpdate, i18n.resolvedLanguage ?? 'en');
  return (
    <Stack gap="xs">
      <div>{back}</div>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="sm" align="center">
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {title}
            </Title>
            {code && <CodeBadge code={code} />}
            {status}
          </Group>
          {(when || subtitle) && (
            <Text c="dimmed" size="sm" data-testid="record-subtitle">
              {subtitle ?? t('record.lastUpdate', { date: when })}
            </Text>
          )}
        </Stack>
        {actions && <Group gap="sm">{actions}</Group>}
      </Group>
    </Stack>
  );
}

export function CodeBadge({ code }: { code: string }) {
  return (
    <Badge
      variant="light"
      size="lg"
      radius="sm"
      ff="monospace"
      style={{ textTransform: 'none' }}
      data-testid="record-code"
    >
      {code}
    </Badge>
  );
}

/** A titled card of a detail page. */
export function Section({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Title order={2} size="h5" mb="sm">
        {title}
      </Title>
      <Stack gap={8}>{children}</Stack>
    </Card>
  );
}

/** One label/value row of a section. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="md" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" w={150} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

export function NotSet() {
  const { t } = useTranslation('common');
  return (
    <Text span size="sm" c="dimmed">
      {t('record.notSet')}
    </Text>
  );
}

/** A value, or "Not set" for null, undefined and ''. */
export function valueOrNotSet(v: unknown): ReactNode {
  return v === null || v === undefined || v === '' ? <NotSet /> : String(v);
}

/**
 * The record's code on a form. Creating: editable, with its rule (the characters a code
 * may hold, stored uppercase, fixed once created). Editing: read-only, shown like the badge.
 */
/** Above this length, the code's hint says nothing of it. */
const CODE_HINT_MAX = 100;

export function CodeInput({
  creating,
  maxChars,
  ...props
}: TextInputProps & { creating: boolean; maxChars: number }) {
  const { t } = useTranslation('common');
  return (
    <TextInput
      label={t('record.code')}
      withAsterisk={creating}
      readOnly={!creating}
      variant={creating ? 'default' : 'filled'}
      description={
        creating
          ? // A length no one types (a referential's 10000) is not worth a word of the hint.
            maxChars <= CODE_HINT_MAX
            ? t('record.codeHint', { max: maxChars })
            : t('record.codeHintNoMax')
          : t('record.codeFixed')
      }
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      maxLength={maxChars}
      spellCheck={false}
      autoCapitalize="characters"
      styles={{ input: { textTransform: 'uppercase', fontFamily: 'var(--mantine-font-family-monospace)' } }}
      data-autofocus={creating || undefined}
      {...props}
    />
  );
}
