import { lazyPart } from '~/ui/lazy-part'
import { CommentsLoading } from './comments-loading'

/** A post's or a session's comments, their forms and the form library load when first opened. */
export const CommentsPanel = lazyPart(() => import('./comments-panel-impl').then((module) => module.CommentsPanel), <CommentsLoading />)
