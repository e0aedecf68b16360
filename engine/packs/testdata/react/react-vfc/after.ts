import { FC } from 'react';
export const A: FC = () => null;
