/** The change stream's state in the shell's header: live, connecting, reconnecting or not live. */
import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLiveState } from './hub.ts';
import type { LiveState } from './stream.ts';

const COLOR: Record<LiveState, string> = {
  live: 'teal',
  connecting: 'gray',
  reconnecting: 'orange',
  unavailable: 'gray',
};

export function LiveStatus() {
  const { t } = useTranslation('common');
  const state = useLiveState();
  if (!state) return null;
  return (
    <Tooltip label={t(`live.${state}Hint`)} multiline w={260} withArrow>
      {/* A status region: a screen reader hears the stream drop and come back. */}
      <Badge
        role="status"
        tabIndex={0}
        variant="dot"
        color={COLOR[state]}
        size="lg"
        tt="none"
        fw={500}
        aria-label={`${t(`live.${state}`)}: ${t(`live.${state}Hint`)}`}
        data-testid="live-state"
        data-state={state}
      >
        {t(`live.${state}`)}
      </Badge>
    </Tooltip>
  );
}
