import * as React from 'react';
export type F = React.ReactFragment;
