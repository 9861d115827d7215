-- The categories a new community starts with; admins may add more later.
INSERT INTO "post_categories" ("name", "color", "icon", "description") VALUES
  ('General', '#0b4f4a', 'message-circle', 'Conversación abierta entre miembros'),
  ('Liderazgo', '#7c3aed', 'crown', 'Del puesto directivo a la dirección general'),
  ('Acceso al mercado', '#0369a1', 'landmark', 'Precio, reembolso y acceso'),
  ('Médico', '#b91c1c', 'stethoscope', 'Medical affairs y desarrollo clínico'),
  ('Ventas y marketing', '#c2410c', 'trending-up', 'Comercial, marketing y lanzamientos'),
  ('Oportunidades', '#15803d', 'briefcase', 'Ofertas de empleo y movimientos de carrera')
ON CONFLICT ("name") DO NOTHING;
