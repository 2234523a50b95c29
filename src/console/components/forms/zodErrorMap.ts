/**
 * Localized messages for the contract schemas' zod issues: the forms resolve with the
 * contract's own schemas, and this error map turns their issues into the UI language.
 */
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { CODE_RULE } from '../records/codeRule.ts';

export function zodErrorMap(t: TFunction): (issue: z.core.$ZodRawIssue) => string | undefined {
  return (issue) => {
    if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null))
      return t('common:validation.required');
    if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) <= 1)
      return t('common:validation.required');
    if (issue.code === 'too_big' && issue.origin === 'string')
      return t('common:validation.maxLength', { max: Number(issue.maximum) });
    if (issue.code === 'too_big' && issue.origin === 'array')
      return t('common:validation.maxItems', { max: Number(issue.maximum) });
    if (issue.code === 'too_small' || issue.code === 'too_big') {
      const key = issue.code === 'too_small' ? 'min' : 'max';
      return t(`common:validation.${key}`, {
        value: Number(issue.code === 'too_small' ? issue.minimum : issue.maximum),
      });
    }
    if (
      issue.code === 'invalid_format' &&
      issue.format === 'regex' &&
      String(issue.pattern) === String(CODE_RULE)
    )
      return t('common:validation.code');
    if (issue.code === 'invalid_format') return t('common:validation.format');
    if (issue.code === 'invalid_value') return t('common:validation.oneOf');
    if (issue.code === 'custom' && issue.message) return issue.message;
    return t('common:validation.invalid');
  };
}
