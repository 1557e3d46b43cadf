import { z } from 'zod';

/** An id as benchmark files write it: a non-empty string or an integer, kept as a string. */
export const RecordIdSchema = z.union([z.string().trim().min(1, 'id must be a non-empty string'), z.number().int()]).transform(String);

/** A non-empty text field (question, problem). */
export const TextSchema = (field: string) => z.string(`${field} must be a string`).trim().min(1, `${field} must not be empty`);

/** An answer field: a string, or a number some exports write instead (`"answer": 204`). */
export const AnswerSchema = z.union([z.string(), z.number()], 'answer must be a string or a number').transform((value) => String(value).trim());
