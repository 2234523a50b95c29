/**
 * Localized messages for the zod issues of the catalog forms: the console's error map,
 * plus the catalog's own rules (a regular expression that compiles, a price in cents),
 * recognised by the field they are about so that the contract's messages need not be keys.
 */
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { zodErrorMap } from '../../components/forms/zodErrorMap.ts';

export function catalogErrorMap(t: TFunction): (issue: z.core.$ZodRawIssue) => string | undefined {
  const base = zodErrorMap(t);
  return (issue) => {
    if (issue.code === 'custom') {
      const field = issue.path?.[issue.path.length - 1];
      if (field === 'serialNumberPattern') return t('catalog:validation.pattern');
      if (field === 'unitPrice') return t('catalog:validation.cents');
    }
    return base(issue);
  };
}
