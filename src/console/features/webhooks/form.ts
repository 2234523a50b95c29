/**
 * The creation form's schema: the rules of model.ts on the form's fields (each message an
 * i18n key of the `webhooks` namespace), then the mapping to the request body, checked
 * again by the contract's own schema (SubscriptionBody). Loaded by the form page only.
 */
import { z } from 'zod';
import { MAX_CUSTOM_HEADERS, SubscriptionBody } from '../../../contract/webhooks.ts';
import { checkCallbackUrl, checkSecret, EVENT_TYPES, headerProblems, toSubscriptionBody } from './model.ts';

export const subscriptionFormSchema = z
  .object({
    eventTypes: z.array(z.enum(EVENT_TYPES)).min(1, 'webhooks:form.eventTypesRequired'),
    callbackUrl: z.string().superRefine((value, ctx) => {
      const { problem } = checkCallbackUrl(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `webhooks:form.url.${problem}` });
    }),
    secret: z.string().superRefine((value, ctx) => {
      const problem = checkSecret(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `webhooks:form.secret.${problem}` });
    }),
    headers: z
      .array(z.object({ name: z.string(), value: z.string() }))
      .max(MAX_CUSTOM_HEADERS)
      .superRefine((rows, ctx) => {
        headerProblems(rows).forEach((p, i) => {
          if (p.name)
            ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `webhooks:form.headers.${p.name}` });
          if (p.value)
            ctx.addIssue({ code: 'custom', path: [i, 'value'], message: `webhooks:form.headers.${p.value}` });
        });
      }),
  })
  .transform(toSubscriptionBody)
  .pipe(SubscriptionBody);
