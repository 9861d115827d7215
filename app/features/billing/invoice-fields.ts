import { z } from 'zod'

/** A tax id as a buyer types it (B12345678, ESB12345678, DE123456789): optional, short, no symbols. */
export const TaxIdField = z
  .string()
  .trim()
  .max(32, 'El NIF no puede superar 32 caracteres')
  .regex(/^[A-Za-z0-9 .\-/]*$/, 'El NIF solo admite letras, números, espacios, puntos y guiones')
  .optional()
  .transform((value) => value || null)
