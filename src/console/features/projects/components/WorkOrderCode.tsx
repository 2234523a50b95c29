/**
 * A work order's code: a link to the work order page (`WORK_ORDER_PATH`, built by the work
 * orders feature) when the route tree holds that route, its code as plain text otherwise
 * (no dead link on an instance or build without the page).
 */
import { Anchor, Text } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import { WORK_ORDER_PATH } from '../paths.ts';

export function hasRoute(routesByPath: object, path: string): boolean {
  return Object.hasOwn(routesByPath, path);
}

export function WorkOrderCode({ code, fw = 500 }: { code: string; fw?: number }) {
  const router = useRouter();
  if (!hasRoute(router.routesByPath, WORK_ORDER_PATH))
    return (
      <Text span size="sm" fw={fw} ff="monospace" data-testid="work-order-code">
        {code}
      </Text>
    );
  // The console is served at the root of its origin (no base path).
  const href = WORK_ORDER_PATH.replace('$code', encodeURIComponent(code));
  return (
    <Anchor
      href={href}
      size="sm"
      fw={fw}
      ff="monospace"
      data-testid="work-order-code"
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        router.history.push(href);
      }}
    >
      {code}
    </Anchor>
  );
}
