import { Fieldset, Grid, NumberInput, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { gpsErrors, parseLatLng } from '../../../components/customFields/customFieldValues.ts';
import { useTranslatedError } from './CommonFields.tsx';

/** `location.geolocation` of a site: latitude and longitude, both or none. */
export function GeolocationFields() {
  const { t } = useTranslation('referentials');
  const tc = useTranslation('customFields').t;
  const { control, setValue } = useFormContext();
  const err = useTranslatedError();
  const [paste, setPaste] = useState('');
  const [pasteError, setPasteError] = useState<string | null>(null);
  const apply = (text: string) => {
    const p = parseLatLng(text);
    if (p) {
      setValue('location.geolocation.latitude', p.latitude, { shouldDirty: true, shouldValidate: true });
      setValue('location.geolocation.longitude', p.longitude, { shouldDirty: true, shouldValidate: true });
      setPaste('');
      setPasteError(null);
    } else if (text.trim()) setPasteError(tc('pasteInvalid'));
  };
  const groupError = err('location.geolocation');
  // Each coordinate's range is checked as it is typed (the pair, on save).
  const geo = useWatch({ control, name: 'location.geolocation' }) as
    | { latitude?: number | string; longitude?: number | string }
    | undefined;
  const asNum = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));
  const live = gpsErrors(asNum(geo?.latitude), asNum(geo?.longitude), false);
  return (
    <Fieldset legend={t('fields.geolocation')}>
      <Grid gap="sm">
        {(['latitude', 'longitude'] as const).map((k) => (
          <Grid.Col key={k} span={{ base: 12, sm: 4 }}>
            <Controller
              control={control}
              name={`location.geolocation.${k}`}
              render={({ field }) => (
                <NumberInput
                  label={t(`fields.${k}`)}
                  value={field.value ?? ''}
                  onChange={(v) => field.onChange(v)}
                  onBlur={field.onBlur}
                  min={k === 'latitude' ? -90 : -180}
                  max={k === 'latitude' ? 90 : 180}
                  clampBehavior="none"
                  decimalScale={16}
                  hideControls
                  error={
                    (live[k] ? tc(live[k]) : undefined) ??
                    err(`location.geolocation.${k}`) ??
                    (k === 'latitude' ? groupError : undefined)
                  }
                  data-testid={`geo-${k}`}
                />
              )}
            />
          </Grid.Col>
        ))}
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <TextInput
            label={tc('paste')}
            placeholder="48.8566, 2.3522"
            value={paste}
            error={pasteError}
            onChange={(e) => {
              setPaste(e.currentTarget.value);
              setPasteError(null);
            }}
            onPaste={(e) => {
              const text = e.clipboardData.getData('text');
              if (parseLatLng(text)) {
                e.preventDefault();
                apply(text);
              }
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                apply(paste);
              }
            }}
            onBlur={() => apply(paste)}
            data-testid="geo-paste"
          />
        </Grid.Col>
      </Grid>
    </Fieldset>
  );
}
