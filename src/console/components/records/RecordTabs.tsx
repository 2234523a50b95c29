/**
 * A record page without tabs of its own: its content as the first tab ("Details"), then the
 * tabs other features add to it (app/feature.ts `tabs`: the History). Without added tabs the
 * content shows as it is.
 */
import { Button, Modal, Tabs } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecordTab } from '../../app/feature.ts';
import { ContributedTab } from './ContributedTab.tsx';

export function RecordTabs({
  tabs,
  code,
  onChanged,
  children,
}: {
  tabs: readonly RecordTab[];
  code: string;
  onChanged?: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  const [tab, setTab] = useState<string>('details');
  if (tabs.length === 0) return <>{children}</>;
  return (
    <Tabs value={tab} onChange={(v) => setTab(v ?? 'details')} keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="details" data-testid="tab-details">
          {t('record.details')}
        </Tabs.Tab>
        {tabs.map((added) => (
          <Tabs.Tab key={added.key} value={added.key} data-testid={`tab-${added.key}`}>
            {t(added.label)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value="details">{children}</Tabs.Panel>
      {tabs.map((added) => (
        <Tabs.Panel key={added.key} value={added.key}>
          <ContributedTab tab={added} code={code} onChanged={onChanged} />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

/**
 * The added tabs of a page that fills the window with its own layout (a linker, a log): a
 * button per tab in the header, opening the tab's panel in a dialog over the page.
 */
export function RecordTabButtons({ tabs, code }: { tabs: readonly RecordTab[]; code: string }) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState<RecordTab | null>(null);
  return (
    <>
      {tabs.map((added) => (
        <Button
          key={added.key}
          variant="default"
          leftSection={<IconHistory size={16} />}
          onClick={() => setOpen(added)}
          data-testid={`tab-${added.key}`}
        >
          {t(added.label)}
        </Button>
      ))}
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        size="xl"
        title={open ? t(open.label) : ''}
        closeButtonProps={{ 'aria-label': t('form.close') }}
      >
        {open && <ContributedTab tab={open} code={code} />}
      </Modal>
    </>
  );
}
