/**
 * THE resolver of the console's forms (each is react-hook-form with this resolver): a form
 * schema (clean-up of the inputs, the contract's body schema, the console's own rules) with
 * the console's localized error map; `Out` is what the schema gives the submit handler.
 * The schemas take the raw form values (`unknown` in, the body out), which
 * @hookform/resolvers' typings cannot tie to the form's value type: the one cast is here.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

export function formResolver<F extends FieldValues, Out = F>(
  schema: z.ZodType,
  error: (issue: z.core.$ZodRawIssue) => string | undefined,
): Resolver<F, unknown, Out> {
  return zodResolver(schema as z.ZodType<F, F>, { error }) as unknown as Resolver<F, unknown, Out>;
}
