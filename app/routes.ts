import { type RouteConfig, index, route } from '@react-router/dev/routes'

// The spec's URL map (spec 000 §2, 001 §2), plus the server endpoints. Each feature keeps its
// route modules in its own folder (docs/decisions/0011-feature-folders.md).
export default [
  index('features/site/home.route.tsx'),
  route('pricing', 'features/site/pricing.route.tsx'),
  route('legal', 'features/site/legal.route.tsx'),
  route('privacidad', 'features/site/privacy.route.tsx'),
  route('sitemap.xml', 'features/site/sitemap.route.ts'),
  route('healthz', 'features/site/healthz.route.ts'),

  route('auth', 'features/account/auth.route.tsx'),
  route('forgot-password', 'features/account/forgot-password.route.tsx'),
  route('reset-password', 'features/account/reset-password.route.tsx'),
  route('logout', 'features/account/logout.route.ts'),
  route('perfil', 'features/account/profile.route.tsx'),
  route('perfil/datos/:token', 'features/account/data-export.route.ts'),
  route('perfil/facturas/:invoiceId', 'features/billing/invoice.route.tsx'),
  route('admision', 'features/admission/apply.route.tsx'),
  route('admision/estado/:token', 'features/admission/status.route.tsx'),
  route('admision/invitacion/:token', 'features/admission/invitation.route.tsx'),
  route('api/auth/*', 'features/account/auth-api.route.ts'),

  route('comunidad', 'features/community/layout.route.tsx', [
    index('features/feed/feed.route.tsx'),
    route('sesiones', 'features/ceo-sessions/ceo-sessions.route.tsx'),
    route('calendario', 'features/events/calendar.route.tsx'),
    route('calendario/:eventId', 'features/events/event.route.tsx'),
    route('miembros', 'features/members/directory.route.tsx'),
  ]),
  route('comunidad/publicaciones', 'features/feed/page.route.ts'),
  route('comunidad/posts/:postId/comentarios', 'features/feed/comments.route.ts'),
  route('comunidad/sesiones/pagina', 'features/ceo-sessions/page.route.ts'),
  route('comunidad/sesiones/en-proceso', 'features/ceo-sessions/in-process.route.ts'),
  route('video/:sessionId', 'features/ceo-sessions/video.route.tsx'),
  route('video/:sessionId/comentarios', 'features/ceo-sessions/comments.route.ts'),
  route('comunidad/calendario/pagina', 'features/events/page.route.ts'),
  route('comunidad/calendario/:eventId/ics', 'features/events/ics.route.ts', { id: 'event-ics' }),
  route('calendario/privado/:file', 'features/events/ics.route.ts', { id: 'calendar-feed' }),
  route('buscar', 'features/search/search.route.tsx'),
  route('usuario/:userId', 'features/members/member.route.tsx'),
  route('moderacion/informar', 'features/moderation/report.route.tsx'),

  route('admin', 'features/admin/layout.route.tsx', [
    index('features/admin/dashboard.route.tsx'),
    route('miembros', 'features/admin/members.route.tsx'),
    route('miembros/:userId/cobro', 'features/billing/member-billing.route.tsx'),
    route('admisiones', 'features/admission/queue.route.tsx'),
    route('admisiones/:applicationId', 'features/admission/application.route.tsx'),
    route('moderacion', 'features/moderation/queue.route.tsx'),
    route('busquedas', 'features/search/misses.route.tsx'),
    route('codigos', 'features/billing/codes.route.tsx'),
    route('trabajos', 'features/admin/jobs.route.tsx'),
    route('registro', 'features/admin/audit.route.tsx'),
    route('ajustes', 'features/admin/settings.route.tsx'),
  ]),

  route('mensajes', 'features/messages/messages.route.tsx'),
  route('mensajes/con/:userId', 'features/messages/new-conversation.route.tsx'),
  route('mensajes/:conversationId', 'features/messages/conversation.route.tsx'),

  route('notificaciones', 'features/notifications/notifications.route.tsx'),
  route('notificaciones/campana', 'features/notifications/bell.route.ts'),
  route('correo/baja/:token', 'features/notifications/unsubscribe.route.tsx'),

  route('success', 'features/billing/success.route.tsx'),
  route('canceled', 'features/billing/canceled.route.tsx'),
  route('billing/checkout', 'features/billing/checkout.route.ts'),
  route('billing/portal', 'features/billing/portal.route.ts'),
  route('billing/membresia', 'features/billing/membership.route.ts'),
  route('billing/test-checkout', 'features/billing/test-checkout.route.tsx'),
  route('billing/test-portal', 'features/billing/test-portal.route.tsx'),
  route('api/webhooks/stripe', 'features/billing/stripe-webhook.route.ts'),
  route('api/webhooks/mux', 'features/ceo-sessions/mux-webhook.route.ts'),

  route('uploads/*', 'platform/storage/uploads.route.ts'),
  route('*', 'features/site/not-found.route.tsx'),
] satisfies RouteConfig
