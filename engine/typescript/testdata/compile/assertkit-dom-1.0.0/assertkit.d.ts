// What @testing-library/jest-dom/vitest does: a side-effect import of this
// file gives every assertion the DOM matchers.
import type { Matchers } from './index';
declare module 'assertkit' {
  interface Assertion<T> extends Matchers {}
}
