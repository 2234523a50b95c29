/**
 * The Referentials resource table: what differs between customers, sites and assets on
 * the list and detail pages, declared once per entity (code and parent fields, the
 * records attached below, list columns, the rows of the General and Address sections).
 * The pages are generic over this table; the forms' half is forms.tsx.
 */
import { Badge } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { AnchorLink } from '../../components/links.tsx';
import { emptyCell } from '../../components/lists/emptyCell.tsx';
import { NotSet, valueOrNotSet } from '../../components/records/RecordParts.tsx';
import type { Column } from '../../components/VirtualTable.tsx';
import { countryName } from './countries.ts';
import { type ReferentialEntity, referentialPaths } from './paths.ts';
import type { ListQuery, RecordOf } from './transport.ts';

/** A link to a record's page. */
export function RecordLink({
  entity,
  code,
  strong,
}: {
  entity: ReferentialEntity;
  code: string;
  strong?: boolean;
}) {
  return (
    <AnchorLink
      to={referentialPaths[entity].detail}
      params={{ code }}
      size="sm"
      fw={strong ? 500 : undefined}
    >
      {code}
    </AnchorLink>
  );
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export interface Ctx {
  t: TFunction;
  lang: string;
}

interface Address {
  address?: string | null;
  zipCode?: string | null;
  city: string;
  country?: string | null;
}

export interface RefResource<E extends ReferentialEntity> {
  entity: E;
  /** The i18n group of the entity's page strings (`customers.title`, `customers.new`...). */
  group: 'customers' | 'sites' | 'assets';
  codeOf(r: RecordOf<E>): string;
  parentOf(r: RecordOf<E>): string | null;
  /** The text filter's placeholder: what `q` searches in. */
  searchIn: string;
  /** Records of another entity attached below this one (the sites of a customer). */
  attached?: {
    entity: ReferentialEntity;
    /** The list filter naming this record. */
    filter: keyof Pick<ListQuery, 'customerCode' | 'siteCode'>;
    /** The "new" link's preset naming this record. */
    preset: 'customer' | 'site';
  };
  columns(ctx: Ctx): Column<RecordOf<E>>[];
  /** Rows of the General section between the name and the office. */
  general(r: RecordOf<E>, ctx: Ctx): { label: string; value: ReactNode }[];
  address?(r: RecordOf<E>): {
    address: Address;
    geolocation?: { latitude: number; longitude: number } | null;
  };
  /** Whether the record has a contact (customers and sites). */
  contact: boolean;
}

function cols<E extends ReferentialEntity>(
  entity: E,
  res: Pick<RefResource<E>, 'codeOf' | 'parentOf'>,
  { t }: Ctx,
  middle: Column<RecordOf<E>>[],
): Column<RecordOf<E>>[] {
  return [
    {
      key: 'code',
      header: t('columns.code'),
      width: 170,
      fit: (r) => res.codeOf(r),
      fitWeight: 500,
      render: (r) => <RecordLink entity={entity} code={res.codeOf(r)} strong />,
    },
    { key: 'name', header: t('columns.name'), render: (r) => r.name },
    ...middle,
    {
      key: 'office',
      header: t('columns.office'),
      width: 130,
      render: (r) => (
        <Badge variant="default" radius="sm" style={{ textTransform: 'none' }}>
          {r.officeCode}
        </Badge>
      ),
    },
    {
      key: 'parent',
      header: t('columns.parent'),
      width: 150,
      render: (r) => {
        const p = res.parentOf(r);
        return p ? <RecordLink entity={entity} code={p} /> : emptyCell;
      },
    },
  ];
}

const customer: RefResource<'customer'> = {
  entity: 'customer',
  group: 'customers',
  codeOf: (r) => r.customerCode,
  parentOf: (r) => r.parentCustomerCode ?? null,
  searchIn: 'list.searchPlaceholder',
  attached: { entity: 'site', filter: 'customerCode', preset: 'customer' },
  columns(ctx) {
    return cols('customer', this, ctx, [
      { key: 'city', header: ctx.t('columns.city'), width: 160, render: (r) => r.addressDetails.city },
      {
        key: 'country',
        header: ctx.t('columns.country'),
        width: 150,
        render: (r) =>
          r.addressDetails.country ? countryName(r.addressDetails.country, ctx.lang) : emptyCell,
      },
    ]);
  },
  general: () => [],
  address: (r) => ({ address: r.addressDetails }),
  contact: true,
};

const site: RefResource<'site'> = {
  entity: 'site',
  group: 'sites',
  codeOf: (r) => r.siteCode,
  parentOf: (r) => r.parentSiteCode ?? null,
  searchIn: 'list.searchPlaceholder',
  attached: { entity: 'asset', filter: 'siteCode', preset: 'site' },
  columns(ctx) {
    return cols('site', this, ctx, [
      {
        key: 'customer',
        header: ctx.t('columns.customer'),
        width: 150,
        render: (r) => <RecordLink entity="customer" code={r.customerCode} />,
      },
      {
        key: 'city',
        header: ctx.t('columns.city'),
        width: 150,
        render: (r) => r.location.addressDetails.city,
      },
    ]);
  },
  general: (r, { t }) => [
    { label: t('fields.customer'), value: <RecordLink entity="customer" code={r.customerCode} /> },
  ],
  address: (r) => ({ address: r.location.addressDetails, geolocation: r.location.geolocation ?? null }),
  contact: true,
};

const asset: RefResource<'asset'> = {
  entity: 'asset',
  group: 'assets',
  codeOf: (r) => r.assetCode,
  parentOf: (r) => r.parentAssetCode ?? null,
  searchIn: 'list.searchPlaceholderAsset',
  columns(ctx) {
    return cols('asset', this, ctx, [
      {
        key: 'serial',
        header: ctx.t('columns.serialNumber'),
        width: 150,
        render: (r) => str(r.serialNumber),
      },
      {
        key: 'site',
        header: ctx.t('columns.site'),
        width: 150,
        render: (r) => (r.siteCode ? <RecordLink entity="site" code={r.siteCode} /> : emptyCell),
      },
    ]);
  },
  general: (r, { t }) => [
    { label: t('fields.serialNumber'), value: valueOrNotSet(r.serialNumber) },
    {
      label: t('fields.customer'),
      value: r.customerCode ? <RecordLink entity="customer" code={r.customerCode} /> : <NotSet />,
    },
    {
      label: t('fields.site'),
      value: r.siteCode ? <RecordLink entity="site" code={r.siteCode} /> : <NotSet />,
    },
  ],
  contact: false,
};

const TABLE: { [E in ReferentialEntity]: RefResource<E> } = { customer, site, asset };

/** The table entry of an entity. */
export function refResource<E extends ReferentialEntity>(entity: E): RefResource<E> {
  return TABLE[entity];
}
