/**
 * Date and date-time inputs of the console: @mantine/dates with its styles (loaded with
 * the form code only), the calendar in the console's language, named clear buttons, and a
 * typed date checked strictly: 2019-02-30 is not moved to March 2 nor silently dropped,
 * it is kept as typed for the form to refuse ("This date does not exist").
 * Days and times read in the console's language (not the browser's locale), and a date-time
 * or a day of a given time zone names the zone beside its value (issue 27, 11).
 */
import '@mantine/dates/styles.css';
import './dates.css';
import 'dayjs/locale/fr';
import { Text } from '@mantine/core';
import {
  DateInput,
  type DateInputProps,
  DatesProvider,
  DateTimePicker,
  type DateTimePickerProps,
} from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { type FocusEvent, type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidCalendarDate } from '../../../contract/customFields.ts';

dayjs.extend(customParseFormat);

type DatesLanguage = 'en' | 'fr';

/** The console's language as the calendars know it (i18next's, never the browser's locale). */
export function useDatesLanguage(): DatesLanguage {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage === 'fr' ? 'fr' : 'en';
}

/** How a day reads in each language: "Jun 2, 2025", "2 juin 2025". */
export const DAY_FORMAT: Record<DatesLanguage, string> = { en: 'MMM D, YYYY', fr: 'D MMM YYYY' };
const DATE_TIME_FORMAT: Record<DatesLanguage, string> = { en: 'MMM D, YYYY HH:mm', fr: 'D MMM YYYY HH:mm' };

/** The short name of a time zone in the language, at `at` (summer or winter): "UTC", "UTC+2", "GMT+2". */
export function zoneName(timeZone: string, lang: string, at = new Date()): string {
  try {
    const part = new Intl.DateTimeFormat(lang, { timeZone, timeZoneName: 'short' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName');
    return part?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}

/** The zone named at the end of an input. */
function ZoneSection({ name }: { name: string }) {
  return (
    <Text size="xs" c="dimmed" pr={8} style={{ whiteSpace: 'nowrap' }} data-testid="input-zone">
      {name}
    </Text>
  );
}

/** A day typed as `YYYY-MM-DD` or as it reads in the language ("Jun 2, 2025"), else null. */
export function parseDay(text: string, lang: DatesLanguage): string | null {
  const strict = parseStrictDate(text);
  if (strict) return strict;
  const d = dayjs(text.trim(), DAY_FORMAT[lang], lang, true);
  return d.isValid() ? d.format('YYYY-MM-DD') : null;
}

/** The calendars in the UI language (month and day names, first day of the week). */
export function LocalDates({ children }: { children: ReactNode }) {
  const lang = useDatesLanguage();
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

/**
 * A date and time picked in the calendar, read in the console's language ("Jun 2, 2025 14:30"),
 * its zone (UTC unless told) named at the end, with a named clear button.
 */
export function DateTimeInput({ timeZone = 'UTC', ...props }: DateTimePickerProps & { timeZone?: string }) {
  const { t } = useTranslation('common');
  const lang = useDatesLanguage();
  const ariaLabels = useCalendarLabels();
  const zone = zoneName(timeZone, lang);
  return (
    <DateTimePicker
      valueFormat={DATE_TIME_FORMAT[lang]}
      ariaLabels={ariaLabels}
      rightSection={<ZoneSection name={zone} />}
      rightSectionWidth="auto"
      clearSectionMode="both"
      {...props}
      clearButtonProps={{ 'aria-label': t('dates.clear') }}
      popoverProps={{ middlewares: { flip: true, shift: true }, ...props.popoverProps }}
    />
  );
}

type DayInputProps = Omit<
  DateInputProps,
  'value' | 'onChange' | 'dateParser' | 'valueFormat' | 'defaultValue'
> & {
  /** A day `YYYY-MM-DD`. */
  value: string;
  onChange: (day: string) => void;
  /** The zone the day is a day of (IANA), named at the end of the input. */
  timeZone: string;
};

/**
 * A day of a page (a technician's day, the board's, a period's bound): read in the console's
 * language ("Jun 2, 2025"), typed that way or as `YYYY-MM-DD`, picked in the calendar, with
 * the zone it is a day of named at the end ("UTC").
 */
export function DayInput({ value, onChange, timeZone, ...rest }: DayInputProps) {
  const lang = useDatesLanguage();
  const ariaLabels = useCalendarLabels();
  return (
    <LocalDates>
      <DateInput
        {...rest}
        value={value || null}
        valueFormat={DAY_FORMAT[lang]}
        dateParser={(text) => parseDay(text, lang)}
        ariaLabels={ariaLabels}
        rightSection={
          <ZoneSection name={zoneName(timeZone, lang, value ? new Date(`${value}T12:00:00Z`) : undefined)} />
        }
        rightSectionWidth="auto"
        rightSectionPointerEvents="none"
        popoverProps={{ middlewares: { flip: true, shift: true }, ...rest.popoverProps }}
        onChange={(d) => {
          if (d) onChange(d.slice(0, 10));
        }}
      />
    </LocalDates>
  );
}

/** `YYYY-MM-DDTHH:MM` (or with a space, seconds ignored) typed, or as it reads in the language, else null. */
export function parseDateTime(text: string, lang: DatesLanguage): string | null {
  const v = text.trim();
  const iso = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(:\d{2})?$/.exec(v);
  if (iso && isValidCalendarDate(iso[1]) && Number(iso[2]) < 24 && Number(iso[3]) < 60)
    return `${iso[1]} ${iso[2]}:${iso[3]}:00`;
  const d = dayjs(v, DATE_TIME_FORMAT[lang], lang, true);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : null;
}

type ZonedDateTimeProps = Omit<
  DateInputProps,
  'value' | 'onChange' | 'dateParser' | 'valueFormat' | 'defaultValue' | 'withTime'
> & {
  /** `YYYY-MM-DDTHH:MM` in `timeZone`, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** The zone the time is read in (IANA), named at the end of the input. */
  timeZone: string;
};

/**
 * A date and time of a zone, typed (`2030-01-14T08:00`, or as it reads: "Jan 14, 2030 08:00")
 * or its day picked in the calendar; it reads in the console's language, 24-hour, the zone
 * named at the end ("UTC+1"). The browser's datetime-local follows the browser's locale instead.
 */
export function ZonedDateTimeInput({ value, onChange, timeZone, ...rest }: ZonedDateTimeProps) {
  const lang = useDatesLanguage();
  const ariaLabels = useCalendarLabels();
  const picker = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)
    ? `${value.slice(0, 16).replace('T', ' ')}:00`
    : null;
  const at = picker ? new Date(`${picker.slice(0, 10)}T12:00:00Z`) : undefined;
  return (
    <LocalDates>
      <DateInput
        {...rest}
        withTime
        value={picker}
        valueFormat={DATE_TIME_FORMAT[lang]}
        dateParser={(text) => parseDateTime(text, lang)}
        ariaLabels={ariaLabels}
        rightSection={<ZoneSection name={zoneName(timeZone, lang, at)} />}
        rightSectionWidth="auto"
        rightSectionPointerEvents="none"
        popoverProps={{ middlewares: { flip: true, shift: true }, ...rest.popoverProps }}
        onChange={(d) => onChange(d ? d.slice(0, 16).replace(' ', 'T') : '')}
      />
    </LocalDates>
  );
}
