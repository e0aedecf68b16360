import { ComponentRef } from 'react';
import type { Button } from './button';
export type R = ComponentRef<typeof Button>;
