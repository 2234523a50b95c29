/**
 * The one control for a pair of coordinates (issue 27, 11): a site's geolocation and a GPS
 * custom field read and behave alike: latitude, longitude, and a field taking a pasted
 * "lat, lng" that fills both; each coordinate's range is told as it is typed.
 */
import { NumberInput, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseLatLng } from './customFieldValues.ts';

export interface CoordinatesInputProps {
  latitude: number | undefined;
  longitude: number | undefined;
  /** Both coordinates as they stand after a change (undefined: empty). */
  onChange: (latitude: number | undefined, longitude: number | undefined) => void;
  onBlur?: () => void;
  errors?: { latitude?: string; longitude?: string };
  /** data-testid of the three inputs: `<testId>-lat`, `<testId>-lng`, `<testId>-paste`. */
  testId: string;
  disabled?: boolean;
}

const num = (n: number | string) => (n === '' ? undefined : typeof n === 'number' ? n : Number(n));

export function CoordinatesInput({
  latitude,
  longitude,
  onChange,
  onBlur,
  errors,
  testId,
  disabled,
}: CoordinatesInputProps) {
  const { t } = useTranslation('customFields');
  const [paste, setPaste] = useState('');
  const [pasteError, setPasteError] = useState<string | null>(null);
  const applyPaste = (text: string) => {
    const p = parseLatLng(text);
    if (p) {
      onChange(p.latitude, p.longitude);
      setPaste('');
      setPasteError(null);
    } else if (text.trim() !== '') setPasteError(t('pasteInvalid'));
  };
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
      <NumberInput
        label={t('latitude')}
        value={latitude ?? ''}
        min={-90}
        max={90}
        decimalScale={10}
        clampBehavior="none"
        hideControls
        disabled={disabled}
        error={errors?.latitude}
        onChange={(n) => onChange(num(n), longitude)}
        onBlur={onBlur}
        data-testid={`${testId}-lat`}
      />
      <NumberInput
        label={t('longitude')}
        value={longitude ?? ''}
        min={-180}
        max={180}
        decimalScale={10}
        clampBehavior="none"
        hideControls
        disabled={disabled}
        error={errors?.longitude}
        onChange={(n) => onChange(latitude, num(n))}
        onBlur={onBlur}
        data-testid={`${testId}-lng`}
      />
      <TextInput
        label={t('paste')}
        placeholder="48.8566, 2.3522"
        value={paste}
        error={pasteError}
        disabled={disabled}
        onChange={(e) => {
          setPaste(e.currentTarget.value);
          setPasteError(null);
        }}
        onPaste={(e) => {
          const text = e.clipboardData.getData('text');
          if (parseLatLng(text)) {
            e.preventDefault();
            applyPaste(text);
          }
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            applyPaste(paste);
          }
        }}
        onBlur={() => {
          applyPaste(paste);
          onBlur?.();
        }}
        data-testid={`${testId}-paste`}
      />
    </SimpleGrid>
  );
}
