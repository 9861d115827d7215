import { eq, inArray, sql } from 'drizzle-orm'
import type { MemberDataPart } from '~/platform/privacy/member-data'
import { commentLikes, communityComments, communityPosts, postAttachments, postLikes } from './schema'

/** A kept post's file leaves the folder named after its author (the key shows in its signed link). */
const keptKey = (key: string) => key.replace(/^attachments\/[^/]+\//, 'attachments/kept/')

export const feedData: MemberDataPart = {
  tables: {
    community_posts: { section: 'publicaciones' },
    community_comments: { section: 'comentarios' },
    post_likes: { section: 'likes_a_publicaciones' },
    comment_likes: { section: 'likes_a_comentarios' },
  },
  sections: {
    publicaciones: (id) => sql`select id, title, content, post_type, link_url, category_id, is_pinned, like_count, comment_count,
      created_at, updated_at, hidden_at, hidden_reason, review_requested_at from community_posts where user_id = ${id} order by created_at`,
    adjuntos: (id) => sql`select a.id, a.post_id, a.file_name, a.file_type, a.file_size, a.created_at
      from post_attachments a join community_posts p on p.id = a.post_id where p.user_id = ${id} order by a.created_at`,
    comentarios: (id) => sql`select id, post_id, parent_comment_id, content, like_count, created_at, updated_at, hidden_at, hidden_reason,
      review_requested_at from community_comments where user_id = ${id} order by created_at`,
    likes_a_publicaciones: (id) => sql`select post_id, created_at from post_likes where user_id = ${id} order by created_at`,
    likes_a_comentarios: (id) => sql`select comment_id, created_at from comment_likes where user_id = ${id} order by created_at`,
  },
  files: (id) =>
    sql`select a.file_path as key, a.id || '-' || a.file_name as name from post_attachments a join community_posts p on p.id = a.post_id where p.user_id = ${id}`,
  async erase(tx, { id, writing }) {
    // Their likes go with the account: the counters they moved come down first.
    await tx.execute(sql`update ${communityPosts} set like_count = greatest(like_count - 1, 0)
      where id in (select post_id from ${postLikes} where user_id = ${id})`)
    await tx.execute(sql`update ${communityComments} set like_count = greatest(like_count - 1, 0)
      where id in (select comment_id from ${commentLikes} where user_id = ${id})`)
    const files = await tx
      .select({ id: postAttachments.id, key: postAttachments.filePath })
      .from(postAttachments)
      .innerJoin(communityPosts, eq(communityPosts.id, postAttachments.postId))
      .where(eq(communityPosts.userId, id))
    if (writing === 'keep') {
      for (const file of files)
        await tx
          .update(postAttachments)
          .set({ filePath: keptKey(file.key) })
          .where(eq(postAttachments.id, file.id))
      return { move: files.map(({ key }) => ({ from: key, to: keptKey(key) })) }
    }
    // Their comments take the replies to them; each thread's counter is counted again.
    const threads = await tx.delete(communityComments).where(eq(communityComments.userId, id)).returning({ id: communityComments.postId })
    if (threads.length) {
      await tx
        .update(communityPosts)
        .set({
          commentCount: sql`(select count(*) from ${communityComments} c where c.post_id = ${communityPosts.id} and c.hidden_at is null)`,
        })
        .where(inArray(communityPosts.id, [...new Set(threads.map((thread) => thread.id))]))
    }
    await tx.delete(communityPosts).where(eq(communityPosts.userId, id))
    return { remove: files.map(({ key }) => key) }
  },
}
