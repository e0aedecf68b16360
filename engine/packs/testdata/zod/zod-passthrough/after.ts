import * as z from 'zod';
export const event = z.looseObject({ type: z.string() });
