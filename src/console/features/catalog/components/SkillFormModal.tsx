import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { RecordTab } from '../../../app/feature.ts';
import { formResolver } from '../../../components/forms/formResolver.ts';
import {
  type ServiceError,
  ServiceErrorAlert,
  serviceErrorForForm,
  useSaveWithUndo,
} from '../../../components/forms/index.ts';
import { codeSchema } from '../../../components/records/codeRule.ts';
import { CodeInput } from '../../../components/records/RecordParts.tsx';
import { RecordTabs } from '../../../components/records/RecordTabs.tsx';
import { serviceErrorText, skillFieldForError } from '../errorFields.ts';
import { catalogErrorMap } from '../formErrors.ts';
import { CATALOG_CODE_MAX, type Skill, SkillBody } from '../model.ts';
import { useCatalogApi } from '../queries.ts';

interface SkillForm {
  code: string;
  name: string;
  description: string;
}

const schema = z.preprocess(
  (v) => {
    const f = v as SkillForm;
    return {
      code: f.code,
      name: f.name.trim(),
      description: f.description.trim() === '' ? null : f.description,
    };
  },
  SkillBody.extend({ code: codeSchema(CATALOG_CODE_MAX) }),
);

export function SkillFormModal({
  skill,
  opened,
  onClose,
  onSaved,
  existingCodes,
  tabs = [],
}: {
  /** The skill to edit; null to create one. */
  skill: Skill | null;
  opened: boolean;
  onClose: () => void;
  onSaved: (code: string) => void;
  existingCodes: ReadonlySet<string>;
  /** Tabs other features add to an existing skill (its History), beside the form. */
  tabs?: readonly RecordTab[];
}) {
  const { t } = useTranslation('catalog');
  const body = (
    <SkillFormBody skill={skill} onClose={onClose} onSaved={onSaved} existingCodes={existingCodes} t={t} />
  );
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('common:form.close') }}
      opened={opened}
      onClose={onClose}
      title={skill ? t('skills.editTitle', { code: skill.skillCode }) : t('skills.newTitle')}
      size="lg"
    >
      {opened &&
        (skill ? (
          <RecordTabs tabs={tabs} code={skill.skillCode}>
            {body}
          </RecordTabs>
        ) : (
          body
        ))}
    </Modal>
  );
}

function SkillFormBody({
  skill,
  onClose,
  onSaved,
  existingCodes,
  t,
}: {
  skill: Skill | null;
  onClose: () => void;
  onSaved: (code: string) => void;
  existingCodes: ReadonlySet<string>;
  t: ReturnType<typeof useTranslation>['t'];
}) {
  const api = useCatalogApi();
  const creating = skill === null;
  const resolver = useMemo(() => formResolver<SkillForm>(schema, catalogErrorMap(t)), [t]);
  const form = useForm<SkillForm>({
    defaultValues: {
      code: skill?.skillCode ?? '',
      name: skill?.name ?? '',
      description: skill?.description ?? '',
    },
    resolver,
    mode: 'onTouched',
  });
  const [alert, setAlert] = useState<ServiceError | null>(null);
  const explain = (e: { code: string; message: string }) => serviceErrorText(t, e);
  const save = useSaveWithUndo<SkillBody>({
    put: (c, b) => api.putSkill(c, b),
    invalidate: async (c) => onSaved(c),
    entity: t('skills.entity'),
    explain,
  });
  const err = (k: keyof SkillForm) => {
    const m = form.formState.errors[k]?.message;
    return m ? t(m, { defaultValue: m }) : undefined;
  };

  const onValid = async (parsed: unknown) => {
    setAlert(null);
    const { code, ...body } = parsed as { code: string } & SkillBody;
    if (creating && existingCodes.has(code)) {
      form.setError('code', { type: 'server', message: t('skills.exists', { code }) }, { shouldFocus: true });
      return;
    }
    try {
      await save({
        code,
        body,
        previous: skill ? { name: skill.name, description: skill.description ?? null } : null,
      });
      onClose();
    } catch (e) {
      setAlert(
        serviceErrorForForm(e, { fieldFor: skillFieldForError, message: explain, setError: form.setError }),
      );
    }
  };

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid, () => setAlert(null))} data-testid="skill-form">
      <Stack gap="md">
        {alert && alert.errors.length > 0 && (
          <ServiceErrorAlert
            errors={alert.errors}
            errorReference={alert.errorReference}
            explain={explain}
            title={t('common:form.errorTitle')}
            closeLabel={t('common:form.close')}
            onClose={() => setAlert(null)}
          />
        )}
        <CodeInput
          creating={creating}
          maxChars={CATALOG_CODE_MAX}
          {...form.register('code')}
          error={err('code')}
          data-testid="skill-code"
        />
        <TextInput
          label={t('skills.fields.name')}
          withAsterisk
          maxLength={200}
          data-autofocus={!creating || undefined}
          {...form.register('name')}
          error={err('name')}
          data-testid="skill-name"
        />
        <Textarea
          label={t('skills.fields.description')}
          autosize
          minRows={2}
          maxRows={6}
          maxLength={10000}
          {...form.register('description')}
          error={err('description')}
          data-testid="skill-description"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common:form.cancel')}
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting} data-testid="skill-save">
            {creating ? t('common:form.create') : t('common:form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
