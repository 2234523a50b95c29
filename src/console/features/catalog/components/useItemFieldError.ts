import { get, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ItemForm } from '../itemForm.ts';

/** Field errors are i18n keys (`catalog:validation.pattern`) or plain messages. */
export function useItemFieldError() {
  const { t } = useTranslation('catalog');
  const { formState } = useFormContext<ItemForm>();
  return (...paths: string[]) => {
    for (const p of paths) {
      type E = { message?: string; type?: string };
      const e = get(formState.errors, p) as E | E[] | undefined;
      const one = Array.isArray(e) ? e.find((x) => x?.message) : e;
      const m = one?.message;
      if (!m) continue;
      // The contract's own refinements (regular expression, cents) speak English: use ours.
      if (one.type === 'custom' && p === 'serialNumberPattern') return t('validation.pattern');
      if (one.type === 'custom' && p === 'unitPrice') return t('validation.cents');
      return t(m, { defaultValue: m });
    }
    return undefined;
  };
}
