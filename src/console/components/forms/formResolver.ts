/**
 * The resolver of the console's record forms: a form schema (clean-up of the inputs, the
 * contract's body schema, the console's own rules) with the console's localized error map.
 * The schemas take the raw form values (`unknown` in, the body out), which
 * @hookform/resolvers' typings cannot tie to the form's value type: the one cast is here.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

export function formResolver<F extends FieldValues>(
  schema: z.ZodType,
  error: (issue: z.core.$ZodRawIssue) => string | undefined,
): Resolver<F> {
  return zodResolver(schema as z.ZodType<F, F>, { error }) as unknown as Resolver<F>;
}
