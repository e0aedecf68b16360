import { z } from 'zod';
export const r = z.record(z.number());
