/**
 * The characters a code may hold, as the console checks them before sending: the
 * contract's CODE_PATTERN itself (ASCII letters, digits, `-`, `_` and `.`; no space, no
 * other punctuation, no letter outside ASCII), the rule the service's `Code()` enforces.
 * Case-insensitive; stored uppercase.
 */
import { z } from 'zod';
import { CODE_PATTERN, foldCode } from '../../../contract/common.ts';

export const CODE_RULE = CODE_PATTERN;

/** i18n key of the message for a code that breaks the rule (namespace `common`). */
export const CODE_RULE_MESSAGE = 'common:validation.code';

/** A code typed in a form: trimmed, 1..max characters of the rule, uppercased. */
export const codeSchema = (max: number) =>
  z.string().trim().min(1).max(max).regex(CODE_RULE, { message: CODE_RULE_MESSAGE }).transform(foldCode);
