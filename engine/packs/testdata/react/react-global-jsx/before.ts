import React from 'react';
export type E = JSX.Element;
