import { get, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { hasMessage } from '../../../components/forms/fieldErrors.ts';
import type { ItemForm } from '../itemForm.ts';

/** Field errors are i18n keys (`catalog:validation.pattern`) or plain messages. */
export function useItemFieldError() {
  const { t } = useTranslation('catalog');
  const { formState } = useFormContext<ItemForm>();
  return (...paths: string[]) => {
    for (const p of paths) {
      const e: unknown = get(formState.errors, p);
      const one = Array.isArray(e) ? e.find((x) => hasMessage(x) && x.message) : e;
      if (!hasMessage(one) || !one.message) continue;
      const m = one.message;
      // The contract's own refinements (regular expression, cents) speak English: use ours.
      if (one.type === 'custom' && p === 'serialNumberPattern') return t('validation.pattern');
      if (one.type === 'custom' && p === 'unitPrice') return t('validation.cents');
      return t(m, { defaultValue: m });
    }
    return undefined;
  };
}
