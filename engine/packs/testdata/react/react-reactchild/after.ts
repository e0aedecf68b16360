import * as React from 'react';
export function label(text: React.ReactElement | number | string): React.ReactElement {
  return React.createElement('span', null, text);
}
export type Items = (React.ReactElement | number | string)[];
