import { ElementRef } from 'react';
import type { Button } from './button';
export type R = ElementRef<typeof Button>;
