import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, type FieldError, useFieldArray, type useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MAX_CUSTOM_HEADERS, RESERVED_HEADERS } from '../../../../contract/webhooks.ts';
import { eventKey } from '../errors.ts';
import type { subscriptionFormSchema } from '../form.ts';
import { checkCallbackUrl, EVENT_TYPES, generateSecret, type SubscriptionForm } from '../model.ts';
/** A yellow alert's title in the text color: Mantine's yellow title on its tint is below 4.5:1. */
export const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

/** The message of a field's error: an i18n key of the form's schema, or a translated service message. */
export function useErrorText() {
  const { t } = useTranslation('webhooks');
  return (error: FieldError | undefined) => {
    const m = error?.message;
    return m ? t(m, { defaultValue: m }) : undefined;
  };
}

export type Form = ReturnType<
  typeof useForm<SubscriptionForm, unknown, ReturnType<typeof subscriptionFormSchema.parse>>
>;

/** The event types, one checkbox each with its description. */
export function EventTypesField({ form }: { form: Form }) {
  const { t } = useTranslation('webhooks');
  const errorText = useErrorText();
  return (
    <Controller
      control={form.control}
      name="eventTypes"
      render={({ field, fieldState }) => (
        <Checkbox.Group
          label={t('form.eventTypes')}
          description={t('form.eventTypesHint')}
          withAsterisk
          value={field.value}
          onChange={(v) => field.onChange(v)}
          error={errorText(fieldState.error)}
          inputWrapperOrder={['label', 'description', 'input', 'error']}
        >
          <Stack gap="sm" mt="xs">
            {EVENT_TYPES.map((type) => (
              <Checkbox
                key={type}
                value={type}
                onBlur={field.onBlur}
                label={
                  <Text span ff="monospace" size="sm" fw={500}>
                    {type}
                  </Text>
                }
                description={t(eventKey(type))}
                data-testid={`event-${type}`}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    />
  );
}

/** The callback URL, checked as it is typed, and the note on what the service may refuse of it. */
export function CallbackUrlField({ form }: { form: Form }) {
  const { t } = useTranslation('webhooks');
  const errorText = useErrorText();
  const { control, register, formState } = form;
  const url = useWatch({ control, name: 'callbackUrl' });
  const urlNote = checkCallbackUrl(url).note;
  return (
    <>
      <TextInput
        label={t('form.url.label')}
        placeholder={t('form.url.placeholder')}
        description={t('form.url.hint')}
        withAsterisk
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        spellCheck={false}
        autoComplete="url"
        inputMode="url"
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        {...register('callbackUrl', {
          // Checked as typed once there is more than a scheme to judge.
          onChange: (e) => {
            if (e.target.value.length > 8 || formState.errors.callbackUrl) void form.trigger('callbackUrl');
          },
        })}
        error={errorText(formState.errors.callbackUrl)}
        data-testid="callback-url"
      />
      {urlNote && !formState.errors.callbackUrl && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={16} />} data-testid="url-note">
          <Text size="sm">{t(`form.url.${urlNote}`)}</Text>
        </Alert>
      )}
    </>
  );
}

/** The secret: typed (hidden), or generated and then shown once, with a copy button. */
export function SecretField({ form }: { form: Form }) {
  const { t } = useTranslation('webhooks');
  const errorText = useErrorText();
  const [generated, setGenerated] = useState<string | null>(null);
  const secret = useWatch({ control: form.control, name: 'secret' });
  const shown = generated !== null && generated === secret ? generated : null;
  const generate = () => {
    const value = generateSecret();
    form.setValue('secret', value, { shouldDirty: true, shouldValidate: true, shouldTouch: true });
    setGenerated(value);
  };
  return (
    <Stack gap="sm">
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <PasswordInput
          label={t('form.secret.label')}
          description={t('form.secret.hint')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          autoComplete="off"
          spellCheck={false}
          style={{ flex: 1 }}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...form.register('secret')}
          error={errorText(form.formState.errors.secret)}
          data-testid="secret"
        />
        <Button
          variant="default"
          leftSection={<IconKey size={16} />}
          onClick={generate}
          mt={25}
          aria-label={t('form.secret.generateLabel')}
          data-testid="generate-secret"
        >
          {t('form.secret.generate')}
        </Button>
      </Group>
      {shown && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconKey size={18} />}
          title={t('form.secret.onceTitle')}
          styles={READABLE_TITLE}
          data-testid="secret-once"
        >
          <Stack gap="xs">
            <Text size="sm">{t('form.secret.onceBody')}</Text>
            <Group gap="xs" wrap="nowrap">
              <Code
                style={{ overflowWrap: 'anywhere', fontSize: 'var(--mantine-font-size-sm)' }}
                data-testid="generated-secret"
              >
                {shown}
              </Code>
              <CopyButton value={shown}>
                {({ copied, copy }) => (
                  <Button
                    size="compact-sm"
                    variant="light"
                    onClick={copy}
                    leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                    data-testid="copy-secret"
                  >
                    {copied ? t('form.secret.copied') : t('form.secret.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

/** Name/value rows; every name is checked against the others as it is typed (case-insensitive). */
export function HeadersEditor({ form }: { form: Form }) {
  const { t } = useTranslation('webhooks');
  const errorText = useErrorText();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'headers' });
  const errors = form.formState.errors.headers;
  const recheck = () => {
    if (form.formState.isSubmitted || form.formState.errors.headers) void form.trigger('headers');
  };
  const rootError = errors?.message ?? errors?.root?.message;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('form.headers.hint', { max: MAX_CUSTOM_HEADERS })}
      </Text>
      {fields.length === 0 ? (
        <Text size="sm" c="dimmed" fs="italic">
          {t('form.headers.empty')}
        </Text>
      ) : (
        <Stack gap={6} data-testid="headers-editor">
          <Group gap="sm" wrap="nowrap" aria-hidden>
            <Text size="sm" fw={500} style={{ flex: '0 0 260px' }}>
              {t('form.headers.name')}
            </Text>
            <Text size="sm" fw={500} style={{ flex: 1 }}>
              {t('form.headers.value')}
            </Text>
          </Group>
          {fields.map((row, i) => (
            <Group key={row.id} gap="sm" wrap="nowrap" align="flex-start" data-testid="header-row">
              <TextInput
                aria-label={t('form.headers.nameOf', { n: i + 1 })}
                placeholder="X-Api-Key"
                spellCheck={false}
                autoComplete="off"
                style={{ flex: '0 0 260px' }}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                {...form.register(`headers.${i}.name`, { onChange: () => void form.trigger('headers') })}
                error={errorText(errors?.[i]?.name)}
                data-testid="header-name"
              />
              <TextInput
                aria-label={t('form.headers.valueOf', { n: i + 1 })}
                spellCheck={false}
                autoComplete="off"
                style={{ flex: 1 }}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                {...form.register(`headers.${i}.value`, { onChange: recheck })}
                error={errorText(errors?.[i]?.value)}
                data-testid="header-value"
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                onClick={() => {
                  remove(i);
                  recheck();
                }}
                aria-label={t('form.headers.remove', { n: i + 1 })}
                data-testid="header-remove"
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
      {rootError && (
        <Text size="sm" c="red.8" role="alert">
          {t(rootError, { defaultValue: rootError })}
        </Text>
      )}
      <Button
        variant="default"
        leftSection={<IconPlus size={16} />}
        onClick={() => append({ name: '', value: '' }, { shouldFocus: true })}
        disabled={fields.length >= MAX_CUSTOM_HEADERS}
        style={{ alignSelf: 'flex-start' }}
        data-testid="header-add"
      >
        {t('form.headers.add')}
      </Button>
      <Text size="xs" c="dimmed">
        {t('form.headers.reservedHint', { names: RESERVED_HEADERS.join(', ') })}
      </Text>
    </Stack>
  );
}
