import * as React from 'react';
export type F = Iterable<React.ReactNode>;
