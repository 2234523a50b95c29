/**
 * Mantine's Anchor and Button as router links, typed by the route tree (`to`, `params`,
 * `search` checked against the routes), through TanStack Router's `createLink`:
 *
 *   <AnchorLink to={paths.customer.detail} params={{ code }}>{code}</AnchorLink>
 *   <ButtonLink to={paths.site.new} search={{ customer: code }}>Add a site</ButtonLink>
 */
import {
  ActionIcon,
  type ActionIconProps,
  Anchor,
  type AnchorProps,
  Button,
  type ButtonProps,
} from '@mantine/core';
import { createLink, type LinkComponent } from '@tanstack/react-router';
import { type AnchorHTMLAttributes, forwardRef } from 'react';

type AnchorLinkProps = AnchorProps & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'color' | 'style'>;
const MantineAnchor = forwardRef<HTMLAnchorElement, AnchorLinkProps>((props, ref) => (
  <Anchor component="a" ref={ref} {...props} />
));
const CreatedAnchorLink = createLink(MantineAnchor);
export const AnchorLink: LinkComponent<typeof MantineAnchor> = (props) => <CreatedAnchorLink {...props} />;

type ButtonLinkProps = ButtonProps & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'color' | 'style'>;
const MantineButtonAnchor = forwardRef<HTMLAnchorElement, ButtonLinkProps>((props, ref) => (
  <Button component="a" ref={ref} {...props} />
));
const CreatedButtonLink = createLink(MantineButtonAnchor);
export const ButtonLink: LinkComponent<typeof MantineButtonAnchor> = (props) => (
  <CreatedButtonLink {...props} />
);

type ActionIconLinkProps = ActionIconProps & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'color' | 'style'>;
const MantineActionIconAnchor = forwardRef<HTMLAnchorElement, ActionIconLinkProps>((props, ref) => (
  <ActionIcon component="a" ref={ref} {...props} />
));
const CreatedActionIconLink = createLink(MantineActionIconAnchor);
/** An icon button that is a link (give it an aria-label). */
export const ActionIconLink: LinkComponent<typeof MantineActionIconAnchor> = (props) => (
  <CreatedActionIconLink {...props} />
);
