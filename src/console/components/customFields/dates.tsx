/**
 * Date and date-time inputs of the console: @mantine/dates with its styles (loaded with
 * the form code only), the calendar in the console's language, named clear buttons, and a
 * typed date checked strictly: 2019-02-30 is not moved to March 2 nor silently dropped,
 * it is kept as typed for the form to refuse ("This date does not exist").
 */
import '@mantine/dates/styles.css';
import './dates.css';
import 'dayjs/locale/fr';
import {
  DateInput,
  type DateInputProps,
  DatesProvider,
  DateTimePicker,
  type DateTimePickerProps,
} from '@mantine/dates';
import { type FocusEvent, type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidCalendarDate } from '../../../contract/customFields.ts';

/** The calendars in the UI language (month and day names, first day of the week). */
export function LocalDates({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage === 'fr' ? 'fr' : 'en';
  return (
    <DatesProvider settings={{ locale: lang, firstDayOfWeek: lang === 'fr' ? 1 : 0 }}>
      {children}
    </DatesProvider>
  );
}

/** Names of the calendar's header buttons (previous/next month, year, decade; level switch). */
function useCalendarLabels() {
  const { t } = useTranslation('common');
  return {
    previousMonth: t('dates.previousMonth'),
    nextMonth: t('dates.nextMonth'),
    previousYear: t('dates.previousYear'),
    nextYear: t('dates.nextYear'),
    previousDecade: t('dates.previousDecade'),
    nextDecade: t('dates.nextDecade'),
    monthLevelControl: t('dates.monthLevel'),
    yearLevelControl: t('dates.yearLevel'),
  };
}

/** `YYYY-MM-DD` that exists, else null (what the input keeps while the text is not a date). */
export function parseStrictDate(text: string): string | null {
  const v = text.trim();
  return isValidCalendarDate(v) ? v : null;
}

type StrictDateProps = Omit<DateInputProps, 'value' | 'onChange' | 'dateParser' | 'valueFormat'> & {
  /** A valid `YYYY-MM-DD`, or the text typed when it is not a date (the form refuses it). */
  value: string | null;
  /** A valid date, null when cleared, or the text typed when it is not a date. */
  onChange: (value: string | null) => void;
};

/**
 * A date typed as `YYYY-MM-DD` or picked in the calendar. What is typed is parsed
 * strictly; when the field is left with text that is not a real date, the text is passed
 * on as the value (the validation says it does not exist) and stays in the input.
 */
export function StrictDateInput({ value, onChange, onBlur, clearable, ...rest }: StrictDateProps) {
  const { t } = useTranslation('common');
  const ariaLabels = useCalendarLabels();
  const valid = value !== null && parseStrictDate(value) !== null ? value : null;
  // The input shows the last valid date while the form holds a typed, invalid text.
  const lastValid = useRef<string | null>(valid);
  if (valid !== null || value === null) lastValid.current = valid;
  return (
    <DateInput
      {...rest}
      value={value === null ? null : (valid ?? lastValid.current)}
      valueFormat="YYYY-MM-DD"
      dateParser={parseStrictDate}
      fixOnBlur={false}
      clearable={clearable}
      clearButtonProps={{ 'aria-label': t('dates.clear') }}
      ariaLabels={ariaLabels}
      onChange={(d) => onChange(d ? d.slice(0, 10) : null)}
      onBlur={(e: FocusEvent<HTMLInputElement>) => {
        const text = e.currentTarget.value.trim();
        if (text === '') {
          if (value !== null) onChange(null);
        } else if (parseStrictDate(text) === null) onChange(text);
        else if (text !== value) onChange(text);
        onBlur?.(e);
      }}
    />
  );
}

/** A date and time picked in the calendar (UTC, `YYYY-MM-DD HH:mm`), with a named clear button. */
export function DateTimeInput(props: DateTimePickerProps) {
  const { t } = useTranslation('common');
  const ariaLabels = useCalendarLabels();
  return (
    <DateTimePicker
      valueFormat="YYYY-MM-DD HH:mm"
      ariaLabels={ariaLabels}
      {...props}
      clearButtonProps={{ 'aria-label': t('dates.clear') }}
      popoverProps={{ middlewares: { flip: true, shift: true }, ...props.popoverProps }}
    />
  );
}
