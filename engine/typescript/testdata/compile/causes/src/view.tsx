import * as React from "reactish";
export const view = <div className="a" />;
