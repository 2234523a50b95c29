/** Providers around the console: theme, notifications, data, session, router. */
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { AuthProvider } from '../auth/AuthProvider.tsx';
import type { Boot } from '../auth/bootstrap.ts';
import { router } from '../routes/index.tsx';
import { SignedOutPage, SignInFailedPage } from '../routes/pages/StandalonePages.tsx';
import { LiveProvider } from '../shared/live/LiveProvider.tsx';
import { queryClient } from './queryClient.ts';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme.ts';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
    >
      <Notifications position="bottom-right" limit={4} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

export function App({ boot }: { boot: Boot }) {
  return (
    <Providers>
      {boot.kind === 'signedOut' ? (
        <SignedOutPage />
      ) : boot.kind === 'failed' ? (
        <SignInFailedPage error={boot.error} />
      ) : (
        <AuthProvider>
          <LiveProvider>
            <RouterProvider router={router} />
          </LiveProvider>
        </AuthProvider>
      )}
    </Providers>
  );
}
