import { useRef } from "refkit";
import { Box, useWheel } from "./hooks";
export const b = useWheel(useRef<Box>(null));
