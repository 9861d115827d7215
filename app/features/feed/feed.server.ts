import { recordAudit } from '~/platform/audit/audit.server'
import { displayName } from '~/features/account/display-name'
import type { CurrentUser } from '~/features/account/guards.server'
import { requireAccess, requireCapability, requireParticipation } from '~/platform/auth/guards.server'
import { can } from '~/platform/auth/capabilities'
import { handleIntent, refuse, success } from '~/platform/http/responses.server'
import { logger } from '~/platform/logger.server'
import { clientIp } from '~/platform/http/client-ip'
import { enforceRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { downloadName, sniffAttachment } from '~/platform/storage/file-types.server'
import { encodeImageAttachment, encodeUploadedImage } from '~/platform/storage/image.server'
import type { UploadedFile } from '~/platform/storage/multipart.server'
import { getStorage } from '~/platform/storage/storage.server'
import { commentHandlers, getComment } from '~/features/community/comments/comments.server'
import { toggleLike } from '~/features/community/comments/likes.server'
import { commentLikeable, postComments, postLikeable } from './comments.server'
import { categoryExists, createPost, deletePost, getPost, type NewAttachment, setPinned, updatePost } from './posts.server'
import { ATTACHMENT_ERRORS, ATTACHMENT_LIMITS } from './limits'
import { FEED_OPEN_WHILE_SUSPENDED, FeedIntent } from './schemas'

/**
 * One handler per intent of the /comunidad action (docs/decisions/0012). The route has already
 * required a signed-in member with a complete profile; each handler checks what its own action
 * needs: access (premium or admin), ownership, or a role's capability.
 */
type Input<K extends FeedIntent['intent']> = Extract<FeedIntent, { intent: K }>

/** The one action of the feed (`/comunidad?index`): every change to posts, comments and likes. */
export function feedAction(request: Request, user: CurrentUser) {
  return handleIntent(
    request,
    FeedIntent,
    {
      'create-post': { invalid: 'No se pudo crear el post', run: (input, files) => createPostIntent(request, user, input, files) },
      'update-post': { invalid: 'No se pudieron guardar los cambios', run: (input) => updatePostIntent(user, input) },
      'delete-post': { invalid: 'No se pudo eliminar el post', run: (input) => deletePostIntent(user, input) },
      'pin-post': { invalid: 'No se pudo modificar el post', run: (input) => pinPostIntent(user, input) },
      'like-post': { invalid: 'No se pudo procesar tu reacción', run: (input) => likePostIntent(user, input) },
      ...commentHandlers(postComments, user),
      'like-comment': { invalid: 'No se pudo procesar tu reacción', run: (input) => likeCommentIntent(user, input) },
    },
    {
      files: ATTACHMENT_LIMITS,
      messages: { 'too-large': ATTACHMENT_ERRORS.total, 'file-too-large': ATTACHMENT_ERRORS.fileSize, 'too-many': ATTACHMENT_ERRORS.count },
      openWhileSuspended: FEED_OPEN_WHILE_SUSPENDED,
    },
  )
}

async function createPostIntent(request: Request, user: CurrentUser, input: Input<'create-post'>, files: UploadedFile[]) {
  requireAccess(user, 'Necesitas acceso premium para publicar')
  await enforceRateLimits([{ key: `post:${user.id}:${clientIp(request)}`, max: 20, windowSeconds: 60 * 60 }])
  if (input.categoryId && !(await categoryExists(input.categoryId))) {
    refuse(422, 'No se pudo crear el post', { detail: { categoryId: input.categoryId } })
  }
  const stored: string[] = []
  try {
    const attachments: NewAttachment[] = []
    for (const file of files) {
      const type = sniffAttachment(file.buffer, file.filename)
      if (!type) refuse(415, ATTACHMENT_ERRORS.type)
      const body =
        type.kind === 'image' ? await encodeUploadedImage(file.buffer, encodeImageAttachment, ATTACHMENT_ERRORS.type) : file.buffer
      const key = `attachments/${user.id}/${crypto.randomUUID()}.${type.extension}`
      await getStorage().put(key, body, type.contentType)
      stored.push(key)
      attachments.push({
        fileName: downloadName(file.filename, type.extension),
        filePath: key,
        fileType: type.contentType,
        fileSize: body.length,
      })
    }
    const postId = await createPost({
      userId: user.id,
      title: input.title,
      content: input.content,
      postType: input.postType,
      linkUrl: input.postType === 'link' ? (input.linkUrl ?? null) : null,
      categoryId: input.categoryId ?? null,
      attachments,
    })
    return success({ postId }, { title: 'Post creado', description: 'Tu post ha sido publicado exitosamente' })
  } catch (error) {
    // Nothing half-done stays behind: files already stored are removed.
    await Promise.all(
      stored.map((key) =>
        getStorage()
          .delete(key)
          .catch(() => {}),
      ),
    )
    throw error
  }
}

async function updatePostIntent(user: CurrentUser, input: Input<'update-post'>) {
  requireAccess(user)
  const post = await getPost(input.postId)
  if (!post) refuse(404, 'No se pudieron guardar los cambios')
  // Only the author edits a post (spec 001 §6).
  if (post.userId !== user.id) refuse(403, 'No se pudo modificar el post', { detail: { postId: post.id } })
  // In read-only mode, only a hidden post is edited: the author's way to ask for a review.
  if (!post.hiddenAt) requireParticipation(user)
  if (post.postType === 'link' && !input.linkUrl) refuse(400, 'La URL es requerida para publicar un enlace')
  await updatePost(post.id, {
    title: input.title,
    content: input.content,
    linkUrl: post.postType === 'link' ? (input.linkUrl ?? null) : null,
  })
  return success({ postId: post.id }, { title: 'Post actualizado', description: 'Los cambios han sido guardados' })
}

/** A member whose premium lapsed may still remove their own posts; moderators moderate. */
async function deletePostIntent(user: CurrentUser, input: Input<'delete-post'>) {
  const post = await getPost(input.postId)
  if (!post) refuse(404, 'No se pudo eliminar el post')
  if (post.userId !== user.id && !can(user, 'moderate-content')) refuse(403, 'No se pudo eliminar el post', { detail: { postId: post.id } })
  const files = await deletePost(post.id)
  if (post.userId !== user.id) {
    await recordAudit({
      action: 'post_deleted',
      actorUserId: user.id,
      targetUserId: post.userId,
      details: { postId: post.id, title: post.title },
    })
  }
  await Promise.all(
    files.map((key) =>
      getStorage()
        .delete(key)
        .catch((error) => logger.warn({ err: error }, 'Attachment not removed')),
    ),
  )
  return success({ postId: post.id }, { title: 'Post eliminado' })
}

async function pinPostIntent(user: CurrentUser, input: Input<'pin-post'>) {
  requireCapability(user, 'pin-posts', 'No se pudo modificar el post')
  const post = await getPost(input.postId)
  if (!post) refuse(404, 'No se pudo modificar el post')
  await setPinned(post.id, input.pinned)
  return success({ postId: post.id }, { title: 'Post actualizado', description: 'Los cambios han sido guardados' })
}

async function likePostIntent(user: CurrentUser, input: Input<'like-post'>) {
  requireAccess(user, 'Necesitas acceso premium para dar like')
  const post = await getPost(input.postId)
  if (!post) refuse(404, 'No se pudo procesar tu reacción')
  const result = await toggleLike(postLikeable, { id: post.id, userId: user.id, actorName: displayName(user.profile) })
  return success({ postId: post.id, ...result })
}

async function likeCommentIntent(user: CurrentUser, input: Input<'like-comment'>) {
  requireAccess(user, 'Necesitas acceso premium para dar like')
  const comment = await getComment(postComments, input.commentId)
  if (!comment) refuse(404, 'No se pudo procesar tu reacción')
  const result = await toggleLike(commentLikeable, { id: comment.id, userId: user.id, actorName: displayName(user.profile) })
  return success({ postId: comment.targetId, commentId: comment.id, ...result })
}
