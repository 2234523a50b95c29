import { ActionIcon, Button, Fieldset, Group, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFieldError } from './CommonFields.tsx';

/** Spec: Contact — 0..15 details per contact. */
export const MAX_CONTACT_DETAILS = 15;
export const CONTACT_TYPES = ['Phone', 'Mobile', 'Email', 'Fax'] as const;

/** The contact block of the customer and site forms (`contact.name`, `contact.details[]`). */
export function ContactFields({ prefix = 'contact' }: { prefix?: string }) {
  const { t } = useTranslation('referentials');
  const { control, register } = useFormContext();
  const { fields, append, remove } = useFieldArray({ control, name: `${prefix}.details` });
  const err = useFieldError();
  const full = fields.length >= MAX_CONTACT_DETAILS;
  return (
    <Fieldset legend={t('contact.title')}>
      <Stack gap="sm">
        <TextInput label={t('contact.name')} {...register(`${prefix}.name`)} error={err(`${prefix}.name`)} />
        {fields.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('contact.noDetails')}
          </Text>
        )}
        {fields.map((f, i) => (
          <Group key={f.id} align="flex-start" gap="sm" wrap="nowrap" data-testid="contact-detail">
            <Controller
              control={control}
              name={`${prefix}.details.${i}.type`}
              render={({ field }) => (
                <Select
                  label={t('contact.type')}
                  data={CONTACT_TYPES.map((v) => ({ value: v, label: t(`contact.types.${v}`) }))}
                  value={field.value ?? 'Phone'}
                  onChange={(v) => field.onChange(v ?? 'Phone')}
                  onBlur={field.onBlur}
                  allowDeselect={false}
                  w={140}
                  error={err(`${prefix}.details.${i}.type`)}
                />
              )}
            />
            <TextInput
              label={t('contact.value')}
              withAsterisk
              maxLength={100}
              style={{ flex: 1 }}
              {...register(`${prefix}.details.${i}.value`)}
              error={err(`${prefix}.details.${i}.value`)}
            />
            <TextInput
              label={t('contact.description')}
              maxLength={200}
              style={{ flex: 1 }}
              {...register(`${prefix}.details.${i}.description`)}
              error={err(`${prefix}.details.${i}.description`)}
            />
            <Tooltip label={t('contact.remove')}>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={26}
                size="lg"
                aria-label={t('contact.removeN', { n: i + 1 })}
                onClick={() => remove(i)}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
        <Group gap="sm">
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            disabled={full}
            onClick={() => append({ type: 'Phone', value: '', description: '' })}
          >
            {t('contact.add')}
          </Button>
          <Text size="xs" c={full ? 'orange.8' : 'dimmed'} data-testid="contact-count">
            {full
              ? t('contact.full', { max: MAX_CONTACT_DETAILS })
              : t('contact.count', { n: fields.length, max: MAX_CONTACT_DETAILS })}
          </Text>
        </Group>
        {err(`${prefix}.details`) && (
          <Text size="sm" c="red" role="alert">
            {err(`${prefix}.details`)}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
