import * as React from 'react';
export function label(text: React.ReactChild): React.ReactElement {
  return React.createElement('span', null, text);
}
export type Items = React.ReactChild[];
