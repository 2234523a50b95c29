/**
 * The controls' side of permissions.ts. `<Can call={row}>` around a button (or a button
 * link): allowed, the child as it is; refused, the child disabled but still focusable
 * (`aria-disabled`, described by the reason, the reason in a tooltip on hover and focus),
 * so a keyboard or screen-reader user learns why; `hide`: not shown at all. `<CanPage>`
 * around a form page: the reason in place of a form the user could not save.
 */
import { Alert, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { cloneElement, type MouseEvent, type ReactElement, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider.tsx';
import { allows, type Guarded, reasonKey } from './permissions.ts';

export interface Permission {
  allowed: boolean;
  /** Why not, in the console's language (undefined when allowed, or while the rights load). */
  reason: string | undefined;
}

/**
 * The signed-in user's rights: their scopes; `undefined` while `me` loads (nothing is
 * offered yet, so no button is briefly enabled for a user who cannot use it); `null` when
 * the instance does not say them.
 */
export function useScopes(): readonly string[] | null | undefined {
  const { me, meUnavailable } = useAuth();
  if (meUnavailable) return null;
  return me?.scopes;
}

export function useCan(g: Guarded): Permission {
  const { t } = useTranslation('common');
  const scopes = useScopes();
  if (scopes === undefined) return { allowed: false, reason: undefined };
  const allowed = allows(scopes, g);
  return { allowed, reason: allowed ? undefined : t(reasonKey(g)) };
}

/** Props that disable a Mantine Button/ActionIcon (or their links) while keeping it focusable. */
export function disabledProps(describedBy: string | undefined) {
  return {
    'data-disabled': true,
    'aria-disabled': true,
    'aria-describedby': describedBy,
    'data-permission': 'denied',
    onClick: (e: MouseEvent) => {
      e.preventDefault();
      e.stopPropagation();
    },
  };
}

export function Can({ call, hide, children }: { call: Guarded; hide?: boolean; children: ReactElement }) {
  const can = useCan(call);
  const id = useId();
  if (can.allowed) return children;
  if (hide) return null;
  // While the rights load: disabled, without a reason to say yet.
  if (!can.reason) return cloneElement(children, disabledProps(undefined));
  return (
    <>
      <Tooltip label={can.reason} events={{ hover: true, focus: true, touch: true }} withinPortal>
        {cloneElement(children, disabledProps(id))}
      </Tooltip>
      <VisuallyHidden id={id}>{can.reason}</VisuallyHidden>
    </>
  );
}

/** A page or form that only writes (a "new" or "edit" form): the reason instead, when refused. */
export function CanPage({ call, children }: { call: Guarded; children: ReactNode }) {
  const can = useCan(call);
  if (can.allowed) return children;
  return <Refused reason={can.reason} />;
}

/** The reason a page's action is refused, said where the action would be (nothing while the rights load). */
export function Refused({ reason }: { reason: string | undefined }) {
  if (!reason) return null;
  return (
    <Alert color="gray" icon={<IconLock size={18} />} data-testid="permission-denied" role="status">
      {reason}
    </Alert>
  );
}
