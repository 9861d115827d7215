import { data } from 'react-router'
import { z } from 'zod'
import type { FeedActionData } from '~/components/feed/types'
import { addComment, CommentParentError, deleteComment, getComment, toggleCommentLike, updateComment } from '~/models/comment.server'
import { createPost, deletePost, getPost, type NewAttachment, setPinned, togglePostLike, updatePost } from '~/models/post.server'
import { can } from '~/utils/capabilities'
import { ATTACHMENT_ERRORS, ATTACHMENT_LIMITS, CommentSchema, EditPostSchema, NewPostSchema } from '~/utils/community-schemas'
import { displayName } from '~/utils/display-name'
import { sniffAttachment } from '~/utils/file-types.server'
import { encodeImageAttachment } from '~/utils/image.server'
import { logger } from '~/utils/logger.server'
import type { CurrentUser } from '~/utils/permissions.server'
import { checkRateLimits, clientIp } from '~/utils/rate-limit.server'
import { getStorage } from '~/utils/storage.server'
import { readMultipart } from '~/utils/upload.server'

export type FeedActionResult = FeedActionData

function reply(result: FeedActionResult, status = result.ok ? 200 : 400) {
  return data(result, { status })
}

const Id = z.uuid()

function fieldErrorsOf(error: z.ZodError) {
  const errors: Record<string, string[]> = {}
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '')
    ;(errors[key] ??= []).push(issue.message)
  }
  return errors
}

const ACCESS_MESSAGES: Record<string, string> = {
  'create-post': 'Necesitas acceso premium para publicar',
  'like-post': 'Necesitas acceso premium para dar like',
  'like-comment': 'Necesitas acceso premium para dar like',
  'add-comment': 'Necesitas acceso premium para comentar',
}

/**
 * Every change to the feed. The caller has already required a signed-in member with a
 * complete profile; here each intent checks access (premium or admin) and ownership.
 */
export async function handleFeedAction(request: Request, user: CurrentUser) {
  const isMultipart = request.headers.get('content-type')?.startsWith('multipart/form-data')
  let fields: Record<string, string>
  let files: Array<{ buffer: Buffer; filename: string }> = []
  if (isMultipart) {
    const parsed = await readMultipart(request, { fileField: 'attachments', ...ATTACHMENT_LIMITS })
    if (!parsed.ok) {
      const message = parsed.reason === 'too-many' ? ATTACHMENT_ERRORS.count : parsed.reason === 'too-large' ? ATTACHMENT_ERRORS.total : 'No se pudo crear el post'
      return reply({ intent: 'create-post', ok: false, title: 'Error', description: message }, parsed.reason === 'malformed' ? 400 : 413)
    }
    fields = parsed.fields
    files = parsed.files
  } else {
    fields = Object.fromEntries([...(await request.formData())].map(([key, value]) => [key, String(value)]))
  }
  const intent = fields.intent ?? ''
  // Deleting checks ownership or moderation below: a member whose premium lapsed may still
  // remove their own posts, and moderators moderate. Everything else needs access.
  if (!user.hasAccess && intent !== 'delete-post' && intent !== 'delete-comment') {
    return reply({ intent, ok: false, title: 'Acceso Premium Requerido', description: ACCESS_MESSAGES[intent] ?? 'Necesitas acceso premium' }, 403)
  }
  const actorName = displayName(user.profile)

  switch (intent) {
    case 'create-post': {
      const parsed = NewPostSchema.safeParse(fields)
      if (!parsed.success) return reply({ intent, ok: false, title: 'Error', description: 'No se pudo crear el post', fieldErrors: fieldErrorsOf(parsed.error) })
      const limited = await checkRateLimits([{ key: `post:${user.id}:${clientIp(request)}`, max: 20, windowSeconds: 60 * 60 }])
      if (limited) return reply({ intent, ok: false, title: 'Error', description: limited.message }, 429)
      const stored: string[] = []
      try {
        const attachments: NewAttachment[] = []
        for (const file of files) {
          const type = sniffAttachment(file.buffer, file.filename)
          if (!type) return reply({ intent, ok: false, title: 'Error', description: ATTACHMENT_ERRORS.type, fieldErrors: { attachments: [ATTACHMENT_ERRORS.type] } }, 415)
          const body = type.kind === 'image' ? await encodeImageAttachment(file.buffer) : file.buffer
          const key = `attachments/${user.id}/${crypto.randomUUID()}.${type.extension}`
          await getStorage().put(key, body, type.contentType)
          stored.push(key)
          attachments.push({ fileName: safeFileName(file.filename, type.extension), filePath: key, fileType: type.contentType, fileSize: body.length })
        }
        const postId = await createPost({ userId: user.id, ...parsed.data, linkUrl: parsed.data.postType === 'link' ? parsed.data.linkUrl ?? null : null, categoryId: parsed.data.categoryId ?? null, attachments })
        return reply({ intent, ok: true, title: 'Post creado', description: 'Tu post ha sido publicado exitosamente', postId })
      } catch (error) {
        logger.error({ err: error }, 'Post creation failed')
        // Nothing half-done stays behind: files already stored are removed.
        await Promise.all(stored.map((key) => getStorage().delete(key).catch(() => {})))
        return reply({ intent, ok: false, title: 'Error', description: 'No se pudo crear el post' }, 500)
      }
    }

    case 'update-post': {
      const parsed = EditPostSchema.safeParse(fields)
      if (!parsed.success) return reply({ intent, ok: false, title: 'Error', description: 'No se pudieron guardar los cambios', fieldErrors: fieldErrorsOf(parsed.error) })
      const post = await getPost(parsed.data.postId)
      if (!post) return reply({ intent, ok: false, title: 'Error', description: 'No se pudieron guardar los cambios' }, 404)
      // Only the author edits a post (spec 001 §6).
      if (post.userId !== user.id) return reply({ intent, ok: false, title: 'Error', description: 'No se pudo modificar el post' }, 403)
      if (post.postType === 'link' && !parsed.data.linkUrl) {
        return reply({ intent, ok: false, title: 'Error', description: 'No se pudieron guardar los cambios', fieldErrors: { linkUrl: ['La URL es requerida para publicar un enlace'] } })
      }
      await updatePost(post.id, { title: parsed.data.title, content: parsed.data.content, linkUrl: post.postType === 'link' ? parsed.data.linkUrl ?? null : null })
      return reply({ intent, ok: true, title: 'Post actualizado', description: 'Los cambios han sido guardados', postId: post.id })
    }

    case 'delete-post': {
      const post = Id.safeParse(fields.postId).success ? await getPost(fields.postId!) : null
      if (!post) return reply({ intent, ok: false, title: 'Error', description: 'No se pudo eliminar el post' }, 404)
      if (post.userId !== user.id && !can(user, 'moderate-content')) {
        return reply({ intent, ok: false, title: 'Error', description: 'No se pudo eliminar el post' }, 403)
      }
      const files = await deletePost(post.id)
      await Promise.all(files.map((key) => getStorage().delete(key).catch((error) => logger.warn({ err: error }, 'Attachment not removed'))))
      return reply({ intent, ok: true, title: 'Post eliminado', postId: post.id })
    }

    case 'pin-post': {
      if (!can(user, 'pin-posts')) return reply({ intent, ok: false, title: 'Error', description: 'No se pudo modificar el post' }, 403)
      const post = Id.safeParse(fields.postId).success ? await getPost(fields.postId!) : null
      if (!post) return reply({ intent, ok: false, title: 'Error', description: 'No se pudo modificar el post' }, 404)
      await setPinned(post.id, fields.pinned === 'true')
      return reply({ intent, ok: true, title: 'Post actualizado', description: 'Los cambios han sido guardados', postId: post.id })
    }

    case 'like-post': {
      const post = Id.safeParse(fields.postId).success ? await getPost(fields.postId!) : null
      if (!post) return reply({ intent, ok: false, title: 'Error', description: 'No se pudo procesar tu reacción' }, 404)
      const result = await togglePostLike({ postId: post.id, userId: user.id, actorName })
      return reply({ intent, ok: true, title: result.liked ? 'Te gusta' : 'Ya no te gusta', postId: post.id, ...result })
    }

    case 'add-comment': {
      const isReply = Boolean(fields.parentCommentId)
      const failure = isReply ? 'No se pudo añadir la respuesta' : 'No se pudo añadir el comentario'
      const parsed = CommentSchema.safeParse(fields)
      if (!parsed.success) return reply({ intent, ok: false, title: 'Error', description: failure, fieldErrors: fieldErrorsOf(parsed.error) })
      if (!Id.safeParse(fields.postId).success || (isReply && !Id.safeParse(fields.parentCommentId).success)) {
        return reply({ intent, ok: false, title: 'Error', description: failure }, 404)
      }
      const limited = await checkRateLimits([{ key: `comment:${user.id}`, max: 60, windowSeconds: 10 * 60 }])
      if (limited) return reply({ intent, ok: false, title: 'Error', description: limited.message }, 429)
      try {
        const commentId = await addComment({ postId: fields.postId!, userId: user.id, content: parsed.data.content, parentCommentId: fields.parentCommentId || null, actorName })
        if (!commentId) return reply({ intent, ok: false, title: 'Error', description: failure }, 404)
        return reply({ intent, ok: true, title: isReply ? 'Respuesta añadida' : 'Comentario añadido', postId: fields.postId, commentId })
      } catch (error) {
        if (error instanceof CommentParentError) return reply({ intent, ok: false, title: 'Error', description: failure }, 404)
        throw error
      }
    }

    case 'update-comment': {
      const parsed = CommentSchema.safeParse(fields)
      if (!parsed.success) return reply({ intent, ok: false, title: 'Error', description: 'No se pudieron guardar los cambios', fieldErrors: fieldErrorsOf(parsed.error) })
      const comment = Id.safeParse(fields.commentId).success ? await getComment(fields.commentId!) : null
      // Only the author edits a comment.
      if (!comment || comment.userId !== user.id) return reply({ intent, ok: false, title: 'Error', description: 'No se pudieron guardar los cambios' }, comment ? 403 : 404)
      await updateComment(comment.id, parsed.data.content)
      return reply({ intent, ok: true, title: 'Comentario actualizado', postId: comment.postId, commentId: comment.id })
    }

    case 'delete-comment': {
      const comment = Id.safeParse(fields.commentId).success ? await getComment(fields.commentId!) : null
      if (!comment) return reply({ intent, ok: false, title: 'Error', description: 'No se pudo eliminar el comentario' }, 404)
      if (comment.userId !== user.id && !can(user, 'moderate-content')) {
        return reply({ intent, ok: false, title: 'Error', description: 'No se pudo eliminar el comentario' }, 403)
      }
      await deleteComment(comment.id)
      return reply({ intent, ok: true, title: 'Comentario eliminado', postId: comment.postId, commentId: comment.id })
    }

    case 'like-comment': {
      const comment = Id.safeParse(fields.commentId).success ? await getComment(fields.commentId!) : null
      if (!comment) return reply({ intent, ok: false, title: 'Error', description: 'No se pudo procesar tu reacción' }, 404)
      const result = await toggleCommentLike({ commentId: comment.id, userId: user.id, actorName })
      return reply({ intent, ok: true, title: result.liked ? 'Te gusta' : 'Ya no te gusta', postId: comment.postId, commentId: comment.id, ...result })
    }

    default:
      return reply({ intent, ok: false, title: 'Error', description: 'Solicitud no válida' })
  }
}

/** The name shown for a download: the member's file name, reduced to safe characters. */
function safeFileName(original: string, extension: string) {
  const base = original
    .replace(/\.[^.]*$/, '')
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, '')
    .trim()
    .slice(0, 100)
  return `${base || 'archivo'}.${extension}`
}
