export interface Matchers {
  toBeInTheDocument(): void;
}
