import { type AnyPgColumn, index, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core'
import { userIdColumn } from '../../../platform/auth/schema'
import type { Subject } from './types'

type ColumnOf<Field extends Subject> = Field extends `${infer Thing}Id` ? `${Thing}_id` : never

/**
 * The likes of one kind of thing: a member likes it once (the primary key), and the like goes with
 * the thing or the member. `field` names the column as Likeable does: 'postId' is post_id.
 */
export function likesTable<Name extends string, Field extends Subject>(name: Name, field: Field, liked: () => AnyPgColumn) {
  const column = uuid(field.replace(/Id$/, '_id') as ColumnOf<Field>)
    .notNull()
    .references(liked, { onDelete: 'cascade' })
  return pgTable(
    name,
    {
      ...({ [field]: column } as Record<Field, typeof column>),
      userId: userIdColumn(),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    },
    // A member's own likes by index: a page's 'liked by me' join is not a scan of every like (issue 38).
    (table) => [primaryKey({ columns: [table[field], table.userId] }), index(`${name}_user_idx`).on(table.userId, table[field])],
  )
}
