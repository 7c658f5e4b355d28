/**
 * The single table's physical schema. Every entity maps onto these attributes;
 * docs/data-model.md lists which entity uses which index for which access pattern.
 */
export const PK = 'pk';
/** The entity type name of a record ('space', 'member', ...). */
export const ENTITY_TYPE = 'entityType';
export const SK = 'sk';
/** TTL attribute (epoch seconds). Only soft-deleted spaces carry it. */
export const TTL_ATTRIBUTE = 'expiresAt';

export const indexes = {
  /** Overloaded lookups by a secondary identity (user's orgs, org's spaces, email, ...). */
  gsi1: { name: 'gsi1', pk: 'gsi1pk', sk: 'gsi1sk' },
  /** Ordered children: spaces and collections under a parent, members by join date. */
  gsi2: { name: 'gsi2', pk: 'gsi2pk', sk: 'gsi2sk' },
  /** Sparse: root collections, members by last seen, spaces waiting for purge. */
  gsi3: { name: 'gsi3', pk: 'gsi3pk', sk: 'gsi3sk' },
} as const;

export type IndexName = keyof typeof indexes;

/**
 * Key and index attributes: storage details that entity items never carry. (The TTL
 * attribute is part of the space item; presenters list their fields, so it never leaks.)
 */
export const storageAttributes = [
  PK, SK, ENTITY_TYPE,
  ...Object.values(indexes).flatMap((i) => [i.pk, i.sk]),
] as const;

export interface Key {
  pk: string;
  sk: string;
}
