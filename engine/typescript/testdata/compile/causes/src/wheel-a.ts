import { useRef } from "refkit";
import { Box, useWheel } from "./hooks";
export const a = useWheel(useRef<Box>(null));
