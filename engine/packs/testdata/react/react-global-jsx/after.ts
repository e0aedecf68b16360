import React from 'react';
export type E = React.JSX.Element;
