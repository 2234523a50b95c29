import { Fieldset, Text } from '@mantine/core';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CoordinatesInput } from '../../../components/customFields/CoordinatesInput.tsx';
import { gpsErrors } from '../../../components/customFields/customFieldValues.ts';
import { useTranslatedError } from './CommonFields.tsx';

/**
 * `location.geolocation` of a site: latitude and longitude, both or none, in the same control
 * as a GPS custom field (CoordinatesInput).
 */
export function GeolocationFields() {
  const { t } = useTranslation('referentials');
  const tc = useTranslation('customFields').t;
  const { control, setValue, trigger } = useFormContext();
  const err = useTranslatedError();
  const groupError = err('location.geolocation');
  // Each coordinate's range is checked as it is typed (the pair, on save).
  const geo = useWatch({ control, name: 'location.geolocation' }) as
    | { latitude?: number | string | null; longitude?: number | string | null }
    | null
    | undefined;
  const asNum = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));
  const latitude = asNum(geo?.latitude);
  const longitude = asNum(geo?.longitude);
  const live = gpsErrors(latitude, longitude, false);
  const write = (lat: number | undefined, lng: number | undefined) => {
    setValue('location.geolocation.latitude', lat ?? '', { shouldDirty: true, shouldValidate: true });
    setValue('location.geolocation.longitude', lng ?? '', { shouldDirty: true, shouldValidate: true });
  };
  return (
    <Fieldset legend={t('fields.geolocation')}>
      <CoordinatesInput
        latitude={latitude}
        longitude={longitude}
        onChange={write}
        onBlur={() => void trigger('location.geolocation')}
        errors={{
          latitude: (live.latitude ? tc(live.latitude) : undefined) ?? err('location.geolocation.latitude'),
          longitude:
            (live.longitude ? tc(live.longitude) : undefined) ?? err('location.geolocation.longitude'),
        }}
        testId="geo"
      />
      {groupError && (
        <Text size="xs" c="red" mt={4} role="alert" data-testid="geo-error">
          {groupError}
        </Text>
      )}
    </Fieldset>
  );
}
