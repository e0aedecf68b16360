import * as React from "reactish";
import { useRef } from "refkit";
import { Box, Panel } from "./panel";
export const b = <Panel target={useRef<Box>(null)} />;
