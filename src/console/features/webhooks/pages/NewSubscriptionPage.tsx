/**
 * `/webhooks/new`: a subscription's creation form. Event types as checkboxes; the callback
 * URL checked as it is typed (https:// required; what depends on the operator's setting for
 * private addresses is said, not refused); an optional secret, generated on request and
 * then shown once with a copy button; the custom headers editor (names checked as HTTP tokens
 * and not reserved, as the service does). The service's refusals land on their fields by
 * code (model.ts, fieldForServiceError); the limit of 3 is said before the form.
 */
import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { WebhooksCodes } from '../../../../contract/webhooks.ts';
import { CanPage } from '../../../app/Can.tsx';
import { formResolver } from '../../../components/forms/formResolver.ts';
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
import { BreakableUrl } from '../components/CallbackUrl.tsx';
import {
  CallbackUrlField,
  EventTypesField,
  type Form,
  HeadersEditor,
  READABLE_TITLE,
  SecretField,
} from '../components/SubscriptionFormParts.tsx';
import { serviceErrorText } from '../errors.ts';
import { subscriptionFormSchema } from '../form.ts';
import { emptyForm, fieldForServiceError, limitState, type SubscriptionForm } from '../model.ts';
import { notify } from '../notify.ts';
import { webhooksPaths as paths } from '../paths.ts';
import { useCreateSubscription, useSubscriptions, webhooksKeys } from '../queries.ts';
import { writeRows } from '../transport.ts';

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
        <CanPage call={writeRows.create}>
          <SubscriptionFormBody />
        </CanPage>
      )}
    </Stack>
  );
}

function SubscriptionFormBody() {
  const { t } = useTranslation('webhooks');
  const navigate = useNavigate();
  const form = useSubscriptionForm();
  const { formState } = form;
  const guard = useUnsavedGuard(formState.isDirty);
  const { alert, setAlert, explain, onValid } = useCreateSubmission(form, guard.release);
  const alertRef = useScrollIntoView(alert);

  const hasFieldErrors = Object.keys(formState.errors).length > 0;
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(onValid, () => setAlert(null))}
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
          <EventTypesField form={form} />
        </Section>

        <Section title={t('form.sections.receiver')} testId="section-receiver">
          <CallbackUrlField form={form} />
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

/** The form over an empty subscription, resolved by the form's schema with translated messages. */
function useSubscriptionForm(): Form {
  const { t } = useTranslation('webhooks');
  const resolver = useMemo(
    () =>
      formResolver<SubscriptionForm, z.output<typeof subscriptionFormSchema>>(
        subscriptionFormSchema,
        zodErrorMap(t),
      ),
    [t],
  );
  return useForm<SubscriptionForm, unknown, ReturnType<typeof subscriptionFormSchema.parse>>({
    defaultValues: emptyForm(),
    resolver,
    mode: 'onTouched',
  });
}

/**
 * The creation: on success, the notice and the new subscription's page; on refusal, the
 * errors on their fields and the rest in the alert.
 */
function useCreateSubmission(form: Form, releaseGuard: () => void) {
  const { t } = useTranslation('webhooks');
  const navigate = useNavigate();
  const create = useCreateSubscription();
  const qc = useQueryClient();
  const [alert, setAlert] = useState<ServiceError | null>(null);
  const explain = (e: { code: string; message: string }) => serviceErrorText(t, e);

  const onValid = async (body: ReturnType<typeof subscriptionFormSchema.parse>) => {
    setAlert(null);
    try {
      const created = await create.mutateAsync(body);
      releaseGuard();
      notify(t, {
        color: 'teal',
        title: t('form.createdTitle'),
        message: (
          <Trans
            t={t}
            i18nKey={body.secret ? 'form.createdSecret' : 'form.createdBody'}
            components={{ url: <BreakableUrl url={created.callbackUrl} /> }}
          />
        ),
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
  return { alert, setAlert, explain, onValid };
}
