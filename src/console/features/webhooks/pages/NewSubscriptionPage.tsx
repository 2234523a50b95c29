/**
 * `/webhooks/new`: a subscription's creation form. Event types as checkboxes; the callback
 * URL checked as it is typed (https:// required; what depends on the operator's setting for
 * private addresses is said, not refused); an optional secret, generated on request and
 * then shown once with a copy button; the custom headers editor (names checked as HTTP tokens
 * and not reserved, as the service does). The service's refusals land on their fields by
 * code (model.ts, fieldForServiceError); the limit of 3 is said before the form.
 */
import { zodResolver } from '@hookform/resolvers/zod';
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
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconCheck,
  IconCopy,
  IconKey,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { Controller, type FieldError, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MAX_CUSTOM_HEADERS, RESERVED_HEADERS, WebhooksCodes } from '../../../../contract/webhooks.ts';
import {
  type ServiceError,
  ServiceErrorAlert,
  StickyFormActions,
  serviceErrorForForm,
  UnsavedChangesDialog,
  useScrollIntoView,
  useUnsavedGuard,
  zodErrorMap,
} from '../../../components/forms/index.ts';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { BackLabel, RecordHeader, Section } from '../../../components/records/RecordParts.tsx';
import { eventKey, serviceErrorText } from '../errors.ts';
import { subscriptionFormSchema } from '../form.ts';
import {
  checkCallbackUrl,
  EVENT_TYPES,
  emptyForm,
  fieldForServiceError,
  generateSecret,
  limitState,
  type SubscriptionForm,
} from '../model.ts';
import { notify } from '../notify.ts';
import { webhooksPaths as paths } from '../paths.ts';
import { useCreateSubscription, useSubscriptions, webhooksKeys } from '../queries.ts';

/** A yellow alert's title in the text color: Mantine's yellow title on its tint is below 4.5:1. */
const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

export function NewSubscriptionPage() {
  const { t } = useTranslation('webhooks');
  const list = useSubscriptions();
  const limit = list.data ? limitState(list.data.length) : undefined;
  return (
    <Stack gap="md" maw={920}>
      <RecordHeader
        back={
          <AnchorLink to={paths.subscription.list} size="sm">
            <BackLabel>{t('detail.back')}</BackLabel>
          </AnchorLink>
        }
        title={t('form.title')}
        subtitle={t('form.subtitle')}
      />
      {limit?.reached ? (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title={t('form.limitTitle', { limit: limit.limit })}
          styles={READABLE_TITLE}
          data-testid="limit-reached"
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('form.limitBody')}</Text>
            <ButtonLink
              to={paths.subscription.list}
              variant="default"
              leftSection={<IconArrowLeft size={16} />}
            >
              {t('form.back')}
            </ButtonLink>
          </Stack>
        </Alert>
      ) : (
        <SubscriptionFormBody />
      )}
    </Stack>
  );
}

/** The message of a field's error: an i18n key of the form's schema, or a translated service message. */
function useErrorText() {
  const { t } = useTranslation('webhooks');
  return (error: FieldError | undefined) => {
    const m = error?.message;
    return m ? t(m, { defaultValue: m }) : undefined;
  };
}

function SubscriptionFormBody() {
  const { t } = useTranslation('webhooks');
  const navigate = useNavigate();
  const create = useCreateSubscription();
  const qc = useQueryClient();
  const resolver = useMemo(() => zodResolver(subscriptionFormSchema, { error: zodErrorMap(t) }), [t]);
  const form = useForm<SubscriptionForm, unknown, ReturnType<typeof subscriptionFormSchema.parse>>({
    defaultValues: emptyForm(),
    resolver,
    mode: 'onTouched',
  });
  const { control, register, formState } = form;
  const errorText = useErrorText();
  const [alert, setAlert] = useState<ServiceError | null>(null);
  const alertRef = useScrollIntoView(alert);
  const guard = useUnsavedGuard(formState.isDirty);
  const explain = (e: { code: string; message: string }) => serviceErrorText(t, e);
  const url = useWatch({ control, name: 'callbackUrl' });
  const urlNote = checkCallbackUrl(url).note;

  const onValid = async (body: ReturnType<typeof subscriptionFormSchema.parse>) => {
    setAlert(null);
    try {
      const created = await create.mutateAsync(body);
      guard.release();
      notify(t, {
        color: 'teal',
        title: t('form.createdTitle'),
        message: t(body.secret ? 'form.createdSecret' : 'form.createdBody', { url: created.callbackUrl }),
      });
      await navigate({ to: paths.subscription.detail, params: { code: created.subscriptionId } });
    } catch (e) {
      const left = serviceErrorForForm(e, {
        fieldFor: (err) => fieldForServiceError(err, form.getValues('headers')),
        message: explain,
        setError: form.setError,
      });
      setAlert(left);
      // Reached meanwhile (another tab): the page then says so in place of the form.
      if (left?.errors.some((x) => x.code === WebhooksCodes.subscriptionLimit))
        void qc.invalidateQueries({ queryKey: webhooksKeys.subscriptions });
    }
  };

  const hasFieldErrors = Object.keys(formState.errors).length > 0;
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(onValid)}
      aria-label={t('form.label')}
      data-testid="subscription-form"
    >
      <UnsavedChangesDialog blocker={guard.blocker} />
      <Stack gap="md">
        {alert && (alert.errors.length > 0 || alert.errorReference) && (
          <div ref={alertRef}>
            <ServiceErrorAlert
              errors={alert.errors}
              errorReference={alert.errorReference}
              explain={explain}
              title={t('common:form.errorTitle')}
              closeLabel={t('common:form.close')}
              emptyHint={t('common:form.seeFields')}
              onClose={() => setAlert(null)}
            />
          </div>
        )}

        <Section title={t('form.sections.events')} testId="section-events">
          <Controller
            control={control}
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
        </Section>

        <Section title={t('form.sections.receiver')} testId="section-receiver">
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
                if (e.target.value.length > 8 || formState.errors.callbackUrl)
                  void form.trigger('callbackUrl');
              },
            })}
            error={errorText(formState.errors.callbackUrl)}
            data-testid="callback-url"
          />
          {urlNote && !formState.errors.callbackUrl && (
            <Alert
              color="yellow"
              variant="light"
              icon={<IconAlertTriangle size={16} />}
              data-testid="url-note"
            >
              <Text size="sm">{t(`form.url.${urlNote}`)}</Text>
            </Alert>
          )}
        </Section>

        <Section title={t('form.sections.secret')} testId="section-secret">
          <SecretField form={form} />
        </Section>

        <Section title={t('form.sections.headers')} testId="section-headers">
          <HeadersEditor form={form} />
        </Section>

        <StickyFormActions
          hasErrors={hasFieldErrors}
          requiredHint={t('common:form.required')}
          errorsHint={t('common:form.fixErrors')}
          cancelLabel={t('common:form.cancel')}
          onCancel={() => void navigate({ to: paths.subscription.list })}
          submitLabel={t('form.create')}
          submitting={formState.isSubmitting}
        />
      </Stack>
    </form>
  );
}

type Form = ReturnType<
  typeof useForm<SubscriptionForm, unknown, ReturnType<typeof subscriptionFormSchema.parse>>
>;

/** The secret: typed (hidden), or generated and then shown once, with a copy button. */
function SecretField({ form }: { form: Form }) {
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
function HeadersEditor({ form }: { form: Form }) {
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
