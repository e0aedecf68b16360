import { format } from 'typokit';

export const price = format(3);
