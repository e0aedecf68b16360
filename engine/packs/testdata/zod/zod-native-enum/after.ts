import { z } from 'zod';
enum Color { Red, Blue }
export const c = z.enum(Color);
